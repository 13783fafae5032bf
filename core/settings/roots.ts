/**
 * The harness's two roots. It may run from its clone or from an installed package (`npx wfcheck`), which
 * is shared and may not be writable: it only reads its own files there, and writes every output under
 * the directory the command was started in.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the harness's own files are: playwright.config.ts, contracts/, load/, fixtures/reference/, scripts/. Read only. */
export const PACKAGE_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/**
 * Where outputs go (reports/, the run history, the discovery memory): the directory the command was
 * started in. The processes of a run (the Playwright runner, its workers) run there too, so they agree.
 */
export const WORK_DIR = process.cwd();
/** Installed as a dependency (under node_modules), as opposed to a clone run from its own folder. */
export const PACKAGE_INSTALLED = PACKAGE_ROOT.split(sep).includes('node_modules');

/** A path as the user names it in a command line: from the directory the command runs in when it lies there, else in full. */
export function pathFromWorkDir(path: string): string {
  const r = relative(WORK_DIR, path);
  return r.startsWith('..') || isAbsolute(r) ? path : r || '.';
}
