/**
 * An output folder as every mode writes it (conformance, report merge, explore, load, capacity, matrix): a
 * run owns its outputs and nothing else.
 *
 * - One run at a time: the folder is locked (folder-lock.ts); a second run is refused with who holds it.
 * - Only what the harness wrote is cleared: the previous run's manifest (output-manifest.ts) names its
 *   outputs, and they alone are removed. Where the folder holds files the harness did not write at a place
 *   this run writes (the user's `html/`, `report.md`, or any file for a mode that fills its whole folder),
 *   the run writes into a subfolder (`wfcheck-<mode>/`) and says so; a user's file is never replaced,
 *   removed or scrubbed.
 * - Nothing false is left by a run cut short: files are written beside their name and renamed into
 *   place, and the manifest names what is claimed before it is written, so the next run clears it.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { describeHolder, FolderLock, lockHolder, type LockHolder } from './folder-lock.ts';
import { readHistoryPath } from '../settings/history-settings.ts';
import {
  clearNamed,
  filesUnder,
  foreignEntries,
  isBookkeeping,
  MANIFEST_FILE,
  type Manifest,
  readManifest,
  TEMP_SUFFIX,
  writeManifest,
} from './output-manifest.ts';
import { containsSecret, redactSecrets } from '../settings/redact.ts';
import { pathFromWorkDir } from '../settings/roots.ts';
import { Refusal } from '../settings/rules.ts';

/** The families of outputs: a folder holding one family's outputs is not reused by another. */
export type OutputMode = 'conformance' | 'explore' | 'load' | 'capacity' | 'matrix';

export interface FolderOptions {
  mode: OutputMode;
  /** The command, as a refused run names the holder: `conformance`, `report merge`, `explore`, … */
  command: string;
  /** The names the run writes at the folder's top (files or folders); `all`: the whole folder is the run's. */
  names: readonly string[] | 'all';
  /** The target, without a key (a base URL, "the reference target"). */
  target?: string;
  /** Progress lines (a run moved into a subfolder says why). */
  log?: (line: string) => void;
  /** Absolute paths never cleared nor claimed; default the run history (with its -wal and -shm files). */
  spare?: readonly string[];
}

/** A run that cannot write where it was told: the folder is in use, or no folder there can be the run's alone. */
export class OutputRefused extends Refusal {}

/** Texts the key scrub reads and rewrites; other files (archives, images) are left as they were written. */
const TEXT_ARTIFACT = /\.(json|jsonl|ndjson|md|html|xml|txt|log|yaml|csv)$/;
const SCRUB_MAX_BYTES = 50 * 1024 * 1024;

/** A run's id: when it started and its process, sortable, and the name of its place in a folder. */
export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return `${stamp}-${process.pid}`;
}

const slash = (rel: string) => rel.split(sep).join('/');

/** Writes a file whole or not at all: beside its name, then renamed into place. */
export function writeWhole(path: string, text: string | Buffer): void {
  writeFileSync(`${path}${TEMP_SUFFIX}`, text);
  renameSync(`${path}${TEMP_SUFFIX}`, path);
}

export class OutputFolder {
  readonly dir: string;
  readonly runId: string;
  readonly startedAt: string;
  private manifest: Manifest;
  private readonly lock: FolderLock;
  private readonly spare: string[];

  constructor(dir: string, lock: FolderLock, run: { runId: string; startedAt: string }, o: FolderOptions) {
    this.dir = dir;
    this.lock = lock;
    this.runId = run.runId;
    this.startedAt = run.startedAt;
    this.spare = spareWithin(dir, o.spare);
    const previous = readManifest(dir);
    if (previous) clearNamed(dir, previous, this.spare);
    this.manifest = {
      kind: 'wfcheck-outputs',
      version: 1,
      mode: o.mode,
      command: o.command,
      runId: run.runId,
      startedAt: run.startedAt,
      complete: false,
      ...(o.names === 'all' ? { whole: true } : {}),
      paths: [],
    };
    writeManifest(dir, this.manifest);
  }

  /** The absolute path of `rel` in the folder. */
  path(rel: string): string {
    return join(this.dir, rel);
  }

  /** Names `rel` (a file, or a folder this run creates: all of it) in the manifest before it is written. */
  claim(rel: string): string {
    const r = slash(isAbsolute(rel) ? relative(this.dir, rel) : rel);
    if (!this.manifest.whole && !this.manifest.paths.includes(r)) {
      this.manifest.paths.push(r);
      writeManifest(this.dir, this.manifest);
    }
    return join(this.dir, r);
  }

  /** Writes a file whole or not at all (beside its name, then renamed); returns its path. */
  write(rel: string, text: string | Buffer): string {
    const path = this.claim(rel);
    mkdirSync(dirname(path), { recursive: true });
    writeWhole(path, text);
    return path;
  }

  /** Moves a file or folder this run wrote elsewhere in the folder to `rel`, in one rename. */
  moveIn(from: string, rel: string): string {
    const path = this.claim(rel);
    rmSync(path, { recursive: true, force: true });
    mkdirSync(dirname(path), { recursive: true });
    renameSync(from, path);
    return path;
  }

  /** Adds to what the lock tells a refused run: the target once known, the process groups the run started. */
  describe(change: Partial<Pick<LockHolder, 'target' | 'groups'>>): void {
    this.lock.update(change);
  }

  /** Each file the run wrote so far, relative to the folder. */
  written(): string[] {
    const tops = this.manifest.whole
      ? filesUnder(this.dir, '.').filter((p) => !isBookkeeping(p))
      : this.manifest.paths.flatMap((p) => filesUnder(this.dir, p));
    return [...new Set(tops.map((p) => p.replace(/^\.\//, '')))].filter(
      (p) => !p.endsWith(TEMP_SUFFIX) && !this.spare.some((s) => p === s || p.startsWith(`${s}/`)),
    );
  }

  /**
   * The last safety net: no output may hold a key. Scrubs the text files this run wrote, and only those;
   * returns the ones it changed.
   */
  scrub(): string[] {
    const changed: string[] = [];
    for (const rel of this.written()) {
      const path = this.path(rel);
      if (!TEXT_ARTIFACT.test(rel) || statSync(path).size >= SCRUB_MAX_BYTES) continue;
      const text = readFileSync(path, 'utf8');
      if (!containsSecret(text)) continue;
      this.write(rel, redactSecrets(text));
      changed.push(path);
    }
    return changed;
  }

  /** The run is over: the manifest names each file it wrote, and the folder is free for the next run. */
  finish(): void {
    this.manifest = {
      ...this.manifest,
      whole: undefined,
      complete: true,
      finishedAt: new Date().toISOString(),
      paths: this.written().sort(),
    };
    writeManifest(this.dir, this.manifest);
    this.lock.release();
  }

  /** The run ended without finishing: the folder is freed; its manifest, incomplete, names what to clear next time. */
  release(): void {
    this.lock.release();
  }
}

/** The spared paths that lie in `dir`, relative to it. */
function spareWithin(dir: string, spare: readonly string[] | undefined): string[] {
  const history = readHistoryPath();
  const paths = spare ?? [history, `${history}-wal`, `${history}-shm`, `${history}-journal`];
  return paths
    .map((p) => relative(dir, p))
    .filter((r) => r && !r.startsWith('..') && !isAbsolute(r))
    .map(slash);
}

const shown = (dir: string) => pathFromWorkDir(dir);

/** Why `dir` cannot take this run's outputs; undefined when it can. */
function unusable(dir: string, o: FolderOptions): string | undefined {
  const st = statSync(dir, { throwIfNoEntry: false });
  if (!st) return undefined;
  if (!st.isDirectory()) return 'is a file, not a folder';
  const m = readManifest(dir);
  if (!m && existsSync(join(dir, MANIFEST_FILE)))
    return `holds a ${MANIFEST_FILE} that is not a wfcheck manifest (or cannot be read)`;
  if (m && m.mode !== o.mode) return `holds the outputs of a wfcheck ${m.command} run`;
  const spare = spareWithin(dir, o.spare);
  const foreign = foreignEntries(dir, m, o.names).filter((f) => !spare.includes(f));
  if (foreign.length === 0) return undefined;
  return `holds files wfcheck did not write where this run writes (${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''})`;
}

function inUse(dir: string, holder: LockHolder): OutputRefused {
  return new OutputRefused(
    `${shown(dir)} is in use by ${describeHolder(holder)}: two runs in one folder would mix their outputs. ` +
      'Wait for it to end, or give this run a folder of its own with --out <dir>.',
  );
}

/**
 * Opens the folder a run was told to write into: locked for the run, the previous run's outputs cleared.
 * Where it holds files the harness did not write at a place this run writes, the run goes into its
 * subfolder `wfcheck-<mode>/`; where that cannot be used either, or the folder is in use, it is refused.
 */
export function openOutputFolder(asked: string, o: FolderOptions): OutputFolder {
  const sub = join(asked, `wfcheck-${o.mode}`);
  const reasons: string[] = [];
  const run = { runId: newRunId(), startedAt: new Date().toISOString() };
  for (const dir of [asked, sub]) {
    const holder = lockHolder(dir);
    if (holder) throw inUse(dir, holder);
    const why = unusable(dir, o);
    if (why) {
      reasons.push(`${shown(dir)} ${why}`);
      continue;
    }
    mkdirSync(dir, { recursive: true });
    const lock = FolderLock.acquire(dir, {
      runId: run.runId,
      command: o.command,
      startedAt: run.startedAt,
      target: o.target ?? 'not known yet',
    });
    if (!(lock instanceof FolderLock)) throw inUse(dir, lock);
    // Looked at again under the lock: a run that held it a moment ago may have left what this one must not take.
    const still = unusable(dir, o);
    if (still) {
      lock.release();
      reasons.push(`${shown(dir)} ${still}`);
      continue;
    }
    if (dir === sub)
      o.log?.(`${reasons[0]}: this run writes into ${shown(sub)} instead, and leaves those files as they are`);
    return new OutputFolder(dir, lock, run, o);
  }
  throw new OutputRefused(`${reasons.join('; ')}: name an empty or new folder with --out <dir>`);
}
