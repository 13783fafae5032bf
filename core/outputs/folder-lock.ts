/**
 * The lock of an output folder: one run at a time writes into a folder, so two runs started together
 * in one checkout (a matrix of implementations on one CI runner, a retry beside a long job) never mix
 * their evidence. The second run is refused at once with who holds the folder; it does not wait, since a
 * CI job that waits silently behind another looks hung, and one that is told "in use by pid N" can be
 * given a folder of its own.
 *
 * The lock file is created whole or not at all (written beside, then hard-linked into place, which fails
 * when a lock exists). A lock whose run is gone is stale and taken over: on this host when its process
 * (checked with its start time, so a reused pid is not mistaken for it) and the test runner it started
 * have ended; from another host (a folder shared with a container) when its heartbeat stopped.
 */
import { linkSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const LOCK_FILE = 'wfcheck.lock';

/** Who holds a folder, as the lock file says and a refused run prints it. */
export interface LockHolder {
  runId: string;
  /** The command that holds it (`conformance`, `report merge`, `explore`, `load`, …). */
  command: string;
  pid: number;
  /** The pid's start time (Linux), so that a pid reused after the run ended is not taken for it. */
  pidStart?: string;
  /** Process groups the run started (its test runner), which may outlive it by a moment when it is killed. */
  groups?: number[];
  host: string;
  startedAt: string;
  /** The target, without a key: a base URL or "the reference target". */
  target: string;
}

/** How often a holder touches its lock, and how old a lock of another host must be to count as abandoned. */
const HEARTBEAT_MS = 15_000;
const OTHER_HOST_STALE_MS = 90_000;
/** How long a run waits for the test runner of a killed run to stop (it stops itself within a second). */
const ORPHAN_WAIT_MS = 10_000;

/** A process's state and start time in clock ticks since boot (fields 3 and 22 of /proc/<pid>/stat); undefined off Linux. */
function processStat(pid: number): { state: string; start: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, start: fields[19]! };
  } catch {
    return undefined;
  }
}

/** The start time of a process, which tells it from a later one given the same pid. */
export function processStart(pid: number): string | undefined {
  return processStat(pid)?.start;
}

function signalled(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

type Found =
  | { state: 'free' }
  | { state: 'held'; holder: LockHolder; raw: string }
  | { state: 'orphans'; holder: LockHolder; raw: string }
  | { state: 'stale'; raw: string };

function readLock(file: string): Found {
  let raw: string;
  let mtimeMs: number;
  try {
    raw = readFileSync(file, 'utf8');
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    return { state: 'free' };
  }
  let holder: LockHolder;
  try {
    holder = JSON.parse(raw) as LockHolder;
    if (!Number.isInteger(holder.pid)) return { state: 'stale', raw };
  } catch {
    return { state: 'stale', raw };
  }
  if (holder.host !== hostname())
    return Date.now() - mtimeMs < OTHER_HOST_STALE_MS ? { state: 'held', holder, raw } : { state: 'stale', raw };
  // A killed run whose parent died too may linger as a zombie until it is reaped: it runs no more.
  const stat = processStat(holder.pid);
  const ownerAlive =
    signalled(holder.pid) &&
    stat?.state !== 'Z' &&
    stat?.state !== 'X' &&
    (!holder.pidStart || !stat || stat.start === holder.pidStart);
  if (ownerAlive) return { state: 'held', holder, raw };
  if ((holder.groups ?? []).some((g) => signalled(-g))) return { state: 'orphans', holder, raw };
  return { state: 'stale', raw };
}

/** Who holds the folder now, if a live run does (a killed run's test runner, stopping, is waited for instead). */
export function lockHolder(dir: string): LockHolder | undefined {
  const found = readLock(join(dir, LOCK_FILE));
  return found.state === 'held' ? found.holder : undefined;
}

/**
 * Removes a stale lock, unless another run replaced it meanwhile: it is moved aside first (only one run
 * can), and put back when what was moved is not the stale lock that was read.
 */
function breakStale(file: string, raw: string): void {
  const aside = `${file}.${process.pid}.stale`;
  try {
    renameSync(file, aside);
  } catch {
    return;
  }
  try {
    if (readFileSync(aside, 'utf8') !== raw) linkSync(aside, file);
  } catch {
    // A new lock was created in between: it stands, and this run will find it.
  } finally {
    rmSync(aside, { force: true });
  }
}

/** A lock this process holds. */
export class FolderLock {
  private readonly file: string;
  private holder: LockHolder;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly onExit = () => this.release();
  private released = false;

  private constructor(file: string, holder: LockHolder) {
    this.file = file;
    this.holder = holder;
    this.heartbeat = setInterval(() => {
      try {
        const now = new Date();
        utimesSync(this.file, now, now);
      } catch {
        // The folder went away; the run's own writes will say so.
      }
    }, HEARTBEAT_MS).unref();
    process.on('exit', this.onExit);
  }

  /** Takes the folder's lock, or answers who holds it. */
  static acquire(dir: string, holder: Omit<LockHolder, 'pid' | 'pidStart' | 'host'>): FolderLock | LockHolder {
    const file = join(dir, LOCK_FILE);
    const full: LockHolder = { ...holder, pid: process.pid, pidStart: processStart(process.pid), host: hostname() };
    const waitUntil = Date.now() + ORPHAN_WAIT_MS;
    for (;;) {
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, `${JSON.stringify(full, null, 2)}\n`);
      try {
        linkSync(tmp, file);
        return new FolderLock(file, full);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      } finally {
        rmSync(tmp, { force: true });
      }
      const found = readLock(file);
      if (found.state === 'held') return found.holder;
      if (found.state === 'orphans') {
        if (Date.now() > waitUntil) return found.holder;
        sleepSync(200);
      } else if (found.state === 'stale') breakStale(file, found.raw);
    }
  }

  /** Adds to what the lock says (the target once booted, the test runner's process group). */
  update(change: Partial<Pick<LockHolder, 'target' | 'groups'>>): void {
    if (this.released) return;
    this.holder = { ...this.holder, ...change };
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(this.holder, null, 2)}\n`);
    renameSync(tmp, this.file);
  }

  /** Removes the lock, if it is still this run's. */
  release(): void {
    if (this.released) return;
    this.released = true;
    clearInterval(this.heartbeat);
    process.off('exit', this.onExit);
    try {
      const held = JSON.parse(readFileSync(this.file, 'utf8')) as LockHolder;
      if (held.runId === this.holder.runId && held.pid === process.pid) rmSync(this.file, { force: true });
    } catch {
      // Already gone.
    }
  }
}

/** The holder as a refused run names it: command, pid and host, start, target. */
export function describeHolder(h: LockHolder): string {
  const where = h.host === hostname() ? `pid ${h.pid}` : `pid ${h.pid} on ${h.host}`;
  return `wfcheck ${h.command} (run ${h.runId}, ${where}, started ${h.startedAt}, target ${h.target})`;
}
