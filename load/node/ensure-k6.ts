/**
 * Finds a k6 binary: K6_BIN, the project-local build in <repo>/.tools/bin (an installed package:
 * $XDG_CACHE_HOME/wfcheck/bin, else ~/.cache/wfcheck/bin), a k6 on PATH, and else, when Go is there, a
 * build of the pinned k6 release into that folder. Any k6 from v1 on runs the suite: it needs no
 * extension (the offloaded checks are handed over in the VUs' JavaScript).
 *
 *   npx tsx scripts/ensure-k6.ts      (its command) prints the path of the k6 binary
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { inheritedEnvironment } from '../../core/settings/child-environment.ts';
import { readK6Lookup, readToolsBin } from '../settings.ts';
import type { EnvLike } from '../../core/settings/rules.ts';

export const K6_VERSION = 'v1.8.1';
export const K6_MODULE = 'go.k6.io/k6';
/** Where the build goes: <repo>/.tools/bin in a clone, the user's cache for an installed package. */
export const TOOLS_BIN = readToolsBin();

function onPath(name: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
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

export interface EnsureK6Options {
  /** Environment to resolve K6_BIN and PATH from, and for a build of k6 to inherit (default the process's). */
  env?: EnvLike;
  /** Where the project-local build lives (default TOOLS_BIN). */
  toolsBin?: string;
}

export async function ensureK6(
  log: (line: string) => void = (l) => console.error(l),
  options: EnsureK6Options = {},
): Promise<string> {
  const toolsBin = options.toolsBin ?? TOOLS_BIN;
  const { k6Bin, path } = readK6Lookup(options.env);
  if (k6Bin) {
    if (!versionOf(k6Bin)) throw new Error(`K6_BIN=${k6Bin} is not a working k6 binary`);
    return k6Bin;
  }
  const local = join(toolsBin, 'k6');
  if (existsSync(local) && versionOf(local) !== undefined) return local;
  const fromPath = onPath('k6', path);
  if (fromPath && versionOf(fromPath)) return fromPath;
  const go = onPath('go', path);
  if (!go)
    throw new Error(
      `k6 is not installed and Go is not available to build it.\n` +
        `Install k6 (https://grafana.com/docs/k6/latest/set-up/install-k6/) and put it on PATH or in K6_BIN,\n` +
        `or install Go (https://go.dev/dl/) and rerun: the harness then builds ${K6_MODULE}@${K6_VERSION} into ${toolsBin}.`,
    );
  await buildK6(go, toolsBin, inheritedEnvironment({}, options.env), log);
  return local;
}

/** `go install` of the pinned k6 release into `toolsBin`. */
async function buildK6(
  go: string,
  toolsBin: string,
  env: Record<string, string>,
  log: (line: string) => void,
): Promise<void> {
  mkdirSync(resolve(toolsBin), { recursive: true });
  log(`building ${K6_MODULE}@${K6_VERSION} with ${go} into ${toolsBin} (the first build takes a few minutes)…`);
  await new Promise<void>((ok, fail) => {
    const child = spawn(go, ['install', `${K6_MODULE}@${K6_VERSION}`], {
      env: { ...env, GOBIN: resolve(toolsBin) },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', fail);
    child.on('exit', (code) =>
      code === 0 ? ok() : fail(new Error(`go install of ${K6_MODULE}@${K6_VERSION} failed with exit code ${code}`)),
    );
  });
  const version = versionOf(join(toolsBin, 'k6'));
  if (!version) throw new Error(`go install finished but ${join(toolsBin, 'k6')} does not run`);
  log(`built ${version.split('\n')[0]}`);
}
