/**
 * Finds a k6 binary, building the pinned release from its Go module into
 * <repo>/.tools/bin when none is available.
 *
 *   npx tsx scripts/ensure-k6.ts      (its command) prints the path of the k6 binary
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const K6_VERSION = 'v1.8.1';
export const K6_MODULE = 'go.k6.io/k6';
export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const TOOLS_BIN = join(REPO_ROOT, '.tools', 'bin');

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

function versionOf(binary: string): string | undefined {
  try {
    return execFileSync(binary, ['version'], { encoding: 'utf8', timeout: 20_000 }).trim();
  } catch {
    return undefined;
  }
}

/**
 * Resolution order: K6_BIN, the project-local build, k6 on PATH, then a build
 * with `go install`. The project-local build comes before PATH so every run of
 * the harness uses the pinned release when it has been built.
 */
export interface EnsureK6Options {
  /** Environment to resolve K6_BIN and PATH from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Where the project-local build lives (default <repo>/.tools/bin). */
  toolsBin?: string;
}

export async function ensureK6(log: (line: string) => void = (l) => console.error(l), options: EnsureK6Options = {}): Promise<string> {
  const env = options.env ?? process.env;
  const toolsBin = options.toolsBin ?? TOOLS_BIN;
  const explicit = env.K6_BIN;
  if (explicit) {
    if (!versionOf(explicit)) throw new Error(`K6_BIN=${explicit} is not a working k6 binary`);
    return explicit;
  }
  const local = join(toolsBin, 'k6');
  if (existsSync(local) && versionOf(local)) return local;
  const fromPath = onPath('k6', env);
  if (fromPath && versionOf(fromPath)) return fromPath;

  const go = onPath('go', env);
  if (!go) {
    throw new Error(
      `k6 is not installed and Go is not available to build it.\n` +
      `Install k6 (https://grafana.com/docs/k6/latest/set-up/install-k6/) and put it on PATH or in K6_BIN,\n` +
      `or install Go (https://go.dev/dl/) and rerun: the harness then builds ${K6_MODULE}@${K6_VERSION} into ${toolsBin}.`,
    );
  }
  mkdirSync(toolsBin, { recursive: true });
  log(`k6 not found: building ${K6_MODULE}@${K6_VERSION} with ${go} into ${toolsBin} (first build takes a few minutes)…`);
  await new Promise<void>((ok, fail) => {
    const child = spawn(go, ['install', `${K6_MODULE}@${K6_VERSION}`], {
      env: { ...env, GOBIN: toolsBin },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? ok() : fail(new Error(`go install ${K6_MODULE}@${K6_VERSION} failed with exit code ${code}`))));
  });
  const version = versionOf(local);
  if (!version) throw new Error(`go install finished but ${local} does not run`);
  log(`built ${version}`);
  return local;
}
