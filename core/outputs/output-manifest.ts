/**
 * The manifest of an output folder (`wfcheck-manifest.json`): what the last run in it wrote, so that the
 * next run clears exactly that and nothing else, and can tell the harness's files from the user's.
 *
 * While a run goes its manifest names what it claimed before writing it (a folder it created names all
 * of it); when it ends, each file it wrote. A run killed at any point therefore leaves a manifest that
 * names everything it left, and the next run clears it.
 */
import { readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { LOCK_FILE } from './folder-lock.ts';

export const MANIFEST_FILE = 'wfcheck-manifest.json';

/** A file being written beside its final name (renamed into place when whole). */
export const TEMP_SUFFIX = '.wfcheck-tmp';

export interface Manifest {
  kind: 'wfcheck-outputs';
  version: 1;
  /** The family of outputs (a conformance verdict, an exploration, a load run, …); another family's folder is not reused. */
  mode: string;
  command: string;
  runId: string;
  startedAt: string;
  finishedAt?: string;
  /** False while the run goes, and for a run that was killed or failed. */
  complete: boolean;
  /** The whole folder is the run's (load runs: k6 and its helpers write many files into it). */
  whole?: boolean;
  /** Paths relative to the folder, `/`-separated: files, and while the run goes, folders it created (all of each). */
  paths: string[];
}

/** The harness's own bookkeeping in a folder: never a user's file, never an output. */
export function isBookkeeping(name: string): boolean {
  return name === MANIFEST_FILE || name === `${MANIFEST_FILE}${TEMP_SUFFIX}` || name.startsWith(LOCK_FILE);
}

/** The folder's manifest; undefined when it has none, or one that is not a wfcheck manifest. */
export function readManifest(dir: string): Manifest | undefined {
  try {
    const m = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as Manifest;
    return m?.kind === 'wfcheck-outputs' && Array.isArray(m.paths) ? m : undefined;
  } catch {
    return undefined;
  }
}

/** Written beside and renamed: a manifest is whole or the previous one. */
export function writeManifest(dir: string, m: Manifest): void {
  const file = join(dir, MANIFEST_FILE);
  writeFileSync(`${file}${TEMP_SUFFIX}`, `${JSON.stringify(m, null, 1)}\n`);
  renameSync(`${file}${TEMP_SUFFIX}`, file);
}

const slash = (rel: string) => rel.split(sep).join('/');

/** Every file under `rel` (itself when it is a file), relative to `dir`. */
export function filesUnder(dir: string, rel: string): string[] {
  const st = statSync(join(dir, rel), { throwIfNoEntry: false });
  if (!st) return [];
  if (!st.isDirectory()) return [slash(rel)];
  return readdirSync(join(dir, rel)).flatMap((name) => filesUnder(dir, join(rel, name)));
}

/** Whether `rel` is named by the manifest: itself, or inside a folder it names whole. */
export function named(m: Manifest | undefined, rel: string): boolean {
  if (!m) return false;
  if (m.whole && !m.complete) return true;
  const r = slash(rel);
  return m.paths.some((p) => r === p || r.startsWith(`${p}/`) || r === `${p}${TEMP_SUFFIX}`);
}

/**
 * What the folder holds at the places a run writes that no manifest names: the user's files there, which
 * the run must neither replace nor clear. `names` are the run's top-level names; `all`, every entry.
 */
export function foreignEntries(dir: string, m: Manifest | undefined, names: readonly string[] | 'all'): string[] {
  let top: string[];
  try {
    top = readdirSync(dir).filter((n) => !isBookkeeping(n));
  } catch {
    return [];
  }
  const found: string[] = [];
  const visit = (rel: string) => {
    if (found.length >= 5 || named(m, rel)) return;
    const st = statSync(join(dir, rel), { throwIfNoEntry: false });
    if (!st) return;
    // A folder is the user's only through what it holds: an empty one takes nothing from anybody.
    if (st.isDirectory()) for (const name of readdirSync(join(dir, rel))) visit(join(rel, name));
    else found.push(slash(rel));
  };
  for (const name of top) if (names === 'all' || names.includes(name)) visit(name);
  return found;
}

/** Removes `rel`'s parent folders that are left empty, up to the folder itself. */
function pruneEmptyParents(dir: string, rel: string): void {
  for (let parent = dirname(rel); parent !== '.' && parent !== ''; parent = dirname(parent)) {
    try {
      rmdirSync(join(dir, parent));
    } catch {
      return;
    }
  }
}

/**
 * Clears what the manifest names (the previous run's outputs): each path it names, nothing else. `spare`
 * (relative paths) are never removed, even inside a folder the manifest names whole: the run history or
 * the discovery memory a user pointed into the folder.
 */
export function clearNamed(dir: string, m: Manifest, spare: readonly string[] = []): void {
  const clear = (rel: string) => {
    const r = slash(rel);
    if (spare.includes(r)) return;
    if (spare.some((s) => s.startsWith(`${r}/`))) {
      for (const name of readdirSync(join(dir, rel))) clear(join(rel, name));
      return;
    }
    rmSync(join(dir, rel), { recursive: true, force: true });
    rmSync(join(dir, `${rel}${TEMP_SUFFIX}`), { force: true });
    pruneEmptyParents(dir, rel);
  };
  const paths = m.whole && !m.complete ? readdirSync(dir).filter((n) => !isBookkeeping(n)) : m.paths;
  for (const p of paths) clear(p);
}
