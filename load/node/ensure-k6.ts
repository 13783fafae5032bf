/**
 * Finds a k6 binary, building the suite's own k6 when none is available: k6 with the extension
 * `k6/x/wfcheck` (load/xk6), every Go module pinned to what the k6 release requires, into
 * <repo>/.tools/bin (an installed package: $XDG_CACHE_HOME/wfcheck/bin, else ~/.cache/wfcheck/bin),
 * when Go is there; a k6 on PATH otherwise. Any k6 runs the suite; the suite's build
 * also hands offload mode's responses over in Go (load/k6/main-native.ts), which a saturated generator needs
 * to keep up (`npm run bench:load`).
 *
 *   npx tsx scripts/ensure-k6.ts      (its command) prints the path of the k6 binary
 */
import { createHash } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join, relative, resolve } from 'node:path';
import { inheritedEnvironment } from '../../core/settings/child-environment.ts';
import { readK6Lookup, readToolsBin } from '../settings.ts';
import { PACKAGE_ROOT } from '../../core/settings/roots.ts';
import type { EnvLike } from '../../core/settings/rules.ts';

export const K6_VERSION = 'v1.8.1';
export const K6_MODULE = 'go.k6.io/k6';
/** Where the build goes: <repo>/.tools/bin in a clone, the user's cache for an installed package. */
export const TOOLS_BIN = readToolsBin();
/** The Go module of the suite's k6 build (read only: `go build` writes to TOOLS_BIN and Go's own caches). */
export const XK6_DIR = join(PACKAGE_ROOT, 'load', 'xk6');
/** The module k6 loads for the extension; `k6 version` lists it. */
export const EXTENSION_MODULE = 'k6/x/wfcheck';

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

const withExtension = new Map<string, boolean>();

/** Whether a k6 binary has the suite's extension (it then runs load/k6/main-native.ts). */
export function hasWfcheckExtension(binary: string): boolean {
  let known = withExtension.get(binary);
  if (known === undefined) {
    known = versionOf(binary)?.includes(EXTENSION_MODULE) ?? false;
    withExtension.set(binary, known);
  }
  return known;
}

/** A digest of the extension's sources: a project-local build made from other sources is rebuilt. */
export function xk6SourceDigest(dir = XK6_DIR): string {
  const hash = createHash('sha256');
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.go$|^go\.(mod|sum)$/.test(entry.name))
        hash.update(relative(dir, path)).update('\0').update(readFileSync(path)).update('\0');
    }
  };
  walk(dir);
  return hash.digest('hex');
}

const stampOf = (binary: string) => `${binary}.sources`;

/** The project-local build is current: it has the extension and was built from the present sources. */
function isCurrentBuild(binary: string): boolean {
  return (
    existsSync(stampOf(binary)) &&
    readFileSync(stampOf(binary), 'utf8').trim() === xk6SourceDigest() &&
    hasWfcheckExtension(binary)
  );
}

/**
 * Resolution order: K6_BIN, the project-local build, a build with Go, then k6 on PATH. The suite's build
 * comes before a k6 on PATH: only it hands offload mode's responses over natively, which keeps a saturated
 * generator near a bare k6 loop's rate where the VUs' JavaScript does not (`npm run bench:load` prints
 * both). It is rebuilt when its sources changed (or it predates the extension) and Go is available.
 */
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
  const go = onPath('go', path);
  const localRuns = existsSync(local) && versionOf(local) !== undefined;
  if (localRuns && (isCurrentBuild(local) || !go)) return local;
  if (!go) {
    const fromPath = onPath('k6', path);
    if (fromPath && versionOf(fromPath)) {
      if (!hasWfcheckExtension(fromPath))
        log(
          `using ${fromPath}, which has no ${EXTENSION_MODULE}: offload mode hands responses over in the VUs' JavaScript, slower on a saturated generator (npm run bench:load); with Go the harness builds its own k6`,
        );
      return fromPath;
    }
    throw new Error(
      `k6 is not installed and Go is not available to build it.\n` +
        `Install k6 (https://grafana.com/docs/k6/latest/set-up/install-k6/) and put it on PATH or in K6_BIN,\n` +
        `or install Go (https://go.dev/dl/) and rerun: the harness then builds ${K6_MODULE}@${K6_VERSION} with its extension into ${toolsBin}.`,
    );
  }
  await buildK6(go, local, inheritedEnvironment({}, options.env), log);
  return local;
}

/** `go build` of load/xk6/cmd/k6 (k6 with the extension) into `out`, with the digest of its sources beside it. */
async function buildK6(
  go: string,
  out: string,
  env: Record<string, string>,
  log: (line: string) => void,
): Promise<void> {
  mkdirSync(resolve(out, '..'), { recursive: true });
  log(
    `building ${K6_MODULE}@${K6_VERSION} with ${EXTENSION_MODULE} (load/xk6) with ${go} into ${out} (the first build takes a few minutes)…`,
  );
  await new Promise<void>((ok, fail) => {
    const child = spawn(go, ['build', '-o', out, './cmd/k6'], {
      cwd: XK6_DIR,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', fail);
    child.on('exit', (code) =>
      code === 0
        ? ok()
        : fail(
            new Error(`go build of ${K6_MODULE}@${K6_VERSION} with ${EXTENSION_MODULE} failed with exit code ${code}`),
          ),
    );
  });
  withExtension.delete(out);
  const version = versionOf(out);
  if (!version) throw new Error(`go build finished but ${out} does not run`);
  writeFileSync(stampOf(out), `${xk6SourceDigest()}\n`);
  log(`built ${version.split('\n')[0]}`);
}
