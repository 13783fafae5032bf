/**
 * The trial: a bounded run of candidate workflows that shows what their titles may not say — the run
 * answered 403 (the workflow API is disabled, §4.1), the execution or one of its nodes ended `failed`,
 * or the execution ran long enough to be aborted after a status poll at the run's pace.
 *
 * Written as a protocol without I/O, so that the conformance run's async client and k6's synchronous
 * http drive the same logic: a generator that yields what it wants sent (and after how long a wait),
 * and is resumed with the replies and the time they were in. Its drivers are
 * core/discovery/trial-driver.ts (Node, the contract-checked client) and load/k6/lib/discovery.ts (k6,
 * through load/k6/lib/api.ts): both send every request through the contract checks, as every request is.
 * The protocol judges nothing: a 403, a failed execution or an abort's answer are what it looks for,
 * never a verdict (the clauses about them are the suites' to judge).
 *
 * Its cost follows the need. Candidates come in the caller's order and run a few at a time (a window);
 * a run answered 403 costs one request; while only the 403 is sought, a run that starts is aborted at
 * once; an execution is watched until it ends, or until it has run long enough to be the slow one (while
 * that is sought), or until it clearly outlasts the others — by time, never by a count of polls, so a
 * busy machine whose reads come late sees what a quiet one sees. It stops once every behaviour sought
 * was shown, or its budget (executions, requests, time) is spent; whatever still runs is then aborted.
 * The load run follows every execution to its end instead (`followMs`) and seeks every candidate.
 *
 * With `readOutput`, the output of each execution seen to end is read once: whether it wrote files is
 * what the file clauses need, and the runs the trial makes are where a workflow that writes them is found
 * on an account where only some do. Until one is seen, a writer is sought like a behaviour: executions are
 * watched to their end, and candidates tried, within the same budget, and for a short while at most once
 * every behaviour sought was shown (FILES_AFTER_BEHAVIOURS, in slow bars): an account whose executions
 * never end, or write no file, costs seconds for it, not the trial's budget.
 *
 * Pure (no Node built-in, no npm package): k6 loads it.
 */
import type { Behaviour, SpecialBehaviour } from './roles.ts';

export type TrialRequest =
  | { op: 'run'; canvasId: string }
  | { op: 'status'; canvasId: string; executionId: string }
  | { op: 'abort'; canvasId: string; executionId: string }
  | { op: 'output'; canvasId: string; executionId: string };

/** One answer: its HTTP status and parsed JSON body; without a status when none came (`error` says why). */
export interface TrialReply {
  status?: number;
  body?: unknown;
  error?: string;
  /** Requests the driver made to prepare this one (a detail read, an upload): counted in the footprint. */
  extraRequests?: number;
}

/** What the protocol wants: wait `afterMs`, then send `requests` (one after another, or together). */
export interface TrialAsk {
  afterMs: number;
  requests: TrialRequest[];
}

/** What it is resumed with: one reply per request, in their order, and the time (ms) they were all in. */
export interface TrialInput {
  at: number;
  replies: TrialReply[];
}

/** What a trial may cost the target at most: executions started, requests sent, and time. */
export interface TrialBudget {
  executions: number;
  requests: number;
  ms: number;
}

/**
 * The default budget: enough to try every workflow of an ordinary account (a few dozen), and to stop in
 * under a minute on one of hundreds. WFCHECK_TRIAL_BUDGET sets it.
 */
export const DEFAULT_TRIAL_BUDGET: TrialBudget = { executions: 60, requests: 600, ms: 60_000 };

export interface TrialOptions {
  /** The pace of status reads. */
  intervalMs: number;
  /** Executions watched at once. */
  window: number;
  /**
   * How long an execution must run to be the slow one: long enough to be seen running at one status poll
   * at the run's poll interval and then aborted. A behaviour of time, measured as time.
   */
  slowEnoughMs: number;
  /** The behaviours sought: the trial stops once each was shown. `every` runs every candidate (the load run). */
  seek: readonly SpecialBehaviour[] | 'every';
  /** Follow each execution to its end, for at most this long after it started (0: only as long as needed). */
  followMs: number;
  budget: TrialBudget;
  /** Read the output of each execution seen to end once, to tell whether it wrote files, and seek one that does (default false). */
  readOutput?: boolean;
  /**
   * A rank per candidate, in their order (default all 0): a candidate starts only once no execution of
   * an earlier rank is still watched, so that those whose titles name a behaviour show it, or not,
   * before any other is run.
   */
  ranks?: readonly number[];
}

/** How long, in slow bars (slowEnoughMs), a writer of files is still sought once every behaviour was shown. */
const FILES_AFTER_BEHAVIOURS = 5;

/** The least time a slow one runs, whatever the poll interval. */
const SLOW_FLOOR_MS = 500;

/** Executions watched at once by the conformance run's trial. */
export const TRIAL_WINDOW = 6;

/**
 * The trial's pace from the run's poll interval: reads every interval, between 100 ms and 1 s; the slow
 * one runs at least two intervals of the run (a poll that sees it running, then the abort), and at least
 * half a second, so that a quick workflow is not mistaken for it.
 */
export function trialOptions(
  pollIntervalMs: number,
  overrides: Partial<Omit<TrialOptions, 'intervalMs' | 'slowEnoughMs'>> = {},
): TrialOptions {
  return {
    intervalMs: Math.min(1000, Math.max(100, pollIntervalMs)),
    slowEnoughMs: Math.max(SLOW_FLOOR_MS, 2 * pollIntervalMs),
    window: TRIAL_WINDOW,
    seek: ['disabled', 'failing', 'long-running'],
    followMs: 0,
    budget: DEFAULT_TRIAL_BUDGET,
    ...overrides,
  };
}

export type TrialOutcome =
  /** The run started nothing: its status (403: the workflow API is disabled), or why no answer came. */
  | { kind: 'refused'; status?: number; error?: string }
  /** The run was answered 2xx without an executionId to follow. */
  | { kind: 'no execution'; status: number }
  | { kind: 'ended'; status: 'finish' | 'failed'; failedNode?: string; afterMs: number; longRunning: boolean }
  /** Still running when the trial stopped watching it (`why`); aborted unless the abort was refused. */
  | { kind: 'running'; failedNode?: string; afterMs: number; aborted: boolean; longRunning: boolean; why: Cut }
  /** Its status could not be read (an error, no answer, or no status of the enum): nothing can be told. */
  | { kind: 'unreadable'; status?: number; error?: string; seen?: string; afterMs: number };

/** Why the trial stopped watching an execution still running. */
export type Cut = 'only a 403 sought' | 'nothing more sought' | 'outlasted the others' | 'followed' | 'budget';

export interface Trial {
  canvasId: string;
  executionId?: string;
  outcome: TrialOutcome;
  /** The behaviour the trial showed; undefined when it showed none (a refusal other than 403, no answer). */
  behaviour?: Behaviour;
  /** How long its execution was seen running, at least (ms): the slow role goes to the longest. */
  ranMs?: number;
  /** Whether the output read once it ended listed files (with `readOutput`; undefined when not read). */
  wroteFiles?: boolean;
}

/** What the trial left on the target and cost it. */
export interface TrialFootprint {
  executionsStarted: number;
  executionsAborted: number;
  requests: number;
}

export interface TrialReport {
  trials: Trial[];
  footprint: TrialFootprint;
  /** The candidates never run, and why the trial stopped before them (every behaviour shown, or a budget spent). */
  untried: number;
  stoppedBy?: 'every behaviour shown' | 'execution budget' | 'request budget' | 'time budget';
}

/** What a trial's outcome shows: a behaviour, or nothing. */
export function behaviourShown(o: TrialOutcome): Behaviour | undefined {
  switch (o.kind) {
    case 'refused':
      return o.status === 403 ? 'disabled' : undefined;
    case 'ended':
      if (o.status === 'failed' || o.failedNode) return 'failing';
      return o.longRunning ? 'long-running' : 'finishes';
    case 'running':
      if (o.failedNode) return 'failing';
      return o.longRunning ? 'long-running' : undefined;
    default:
      return undefined;
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** An outcome in a few words, for the report and the load run's log. */
export function describeOutcome(o: TrialOutcome): string {
  switch (o.kind) {
    case 'refused':
      if (o.status === undefined) return `run got no answer (${o.error ?? 'no response'})`;
      return o.status === 403 ? 'run answered 403 (API disabled)' : `run answered ${o.status}`;
    case 'no execution':
      return `run answered ${o.status} without an executionId`;
    case 'ended':
      return `ended ${o.status}${o.failedNode ? ` (node ${o.failedNode} failed)` : ''} after ${seconds(o.afterMs)}`;
    case 'running':
      return `${o.failedNode ? `node ${o.failedNode} failed, ` : ''}still executing after ${seconds(o.afterMs)} (${o.why}), ${o.aborted ? 'aborted' : 'abort not accepted'}`;
    case 'unreadable':
      if (o.status === undefined) return `its status got no answer (${o.error ?? 'no response'})`;
      return o.seen !== undefined
        ? `its status answered ${o.status} with no status of the enum (${o.seen}), aborted`
        : `its status answered ${o.status}`;
  }
}

const ok = (r: TrialReply) => r.status !== undefined && r.status >= 200 && r.status < 300;

function dataIn(r: TrialReply): Record<string, unknown> | undefined {
  const data = r.body && typeof r.body === 'object' ? (r.body as { data?: unknown }).data : undefined;
  return data && typeof data === 'object' ? (data as Record<string, unknown>) : undefined;
}

function executionIdIn(r: TrialReply): string | undefined {
  const id = dataIn(r)?.executionId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** The execution's status, and the first node seen failed (by its id, else its title). */
function statusIn(r: TrialReply): { status?: string; failedNode?: string } {
  const data = dataIn(r);
  const listed = data?.nodeExecutions;
  const nodes = Array.isArray(listed) ? (listed as Record<string, unknown>[]) : [];
  const failed = nodes.find((n) => n && typeof n === 'object' && n.status === 'failed');
  const name = failed && (typeof failed.nodeId === 'string' ? failed.nodeId : failed.title);
  return {
    status: typeof data?.status === 'string' ? data.status : undefined,
    failedNode: typeof name === 'string' ? name : failed ? '(unnamed)' : undefined,
  };
}

/** An execution the trial watches. */
interface Open {
  index: number;
  canvasId: string;
  executionId: string;
  /** When its run was answered. */
  startedAt: number;
  /** How long it was seen running, at least. */
  ranMs: number;
  failedNode?: string;
  /** The execution status the last read gave, as given, and its HTTP status. */
  last?: string;
  lastCode?: number;
  /** Set once the trial decided to stop watching it: it is aborted in the next round. */
  cut?: Cut;
}

/** The statuses of an execution not yet ended (§2.2): only these say it still runs. */
const RUNNING = ['init', 'executing'];

const request = (op: 'status' | 'abort' | 'output', e: Open): TrialRequest => ({
  op,
  canvasId: e.canvasId,
  executionId: e.executionId,
});

/** The outcome of a run that started nothing. */
function notStarted(reply: TrialReply): TrialOutcome {
  if (ok(reply)) return { kind: 'no execution', status: reply.status! };
  return { kind: 'refused', status: reply.status, error: reply.error };
}

/** The trial's state between rounds: what is sought, what runs, what it cost. */
class Watch {
  readonly trials: Trial[] = [];
  readonly footprint: TrialFootprint = { executionsStarted: 0, executionsAborted: 0, requests: 0 };
  open: Open[] = [];
  readonly unreadable: Open[] = [];
  /** Ended executions whose output is still to be read (with `readOutput`). */
  readonly outputs: Open[] = [];
  next = 0;
  t0?: number;
  /** The longest an ended execution ran: one still running well past it outlasts the others. */
  longestEndedMs = 0;
  stoppedBy?: TrialReport['stoppedBy'];
  private readonly sought: Set<SpecialBehaviour> | 'every';
  /** An execution that writes files is still sought (with `readOutput`, until one was seen). */
  seekingFiles: boolean;
  /** When every behaviour sought had been shown, while a writer of files was still sought. */
  private behavioursShownAt?: number;

  constructor(
    readonly candidates: readonly string[],
    readonly o: TrialOptions,
  ) {
    this.sought = o.seek === 'every' ? 'every' : new Set(o.seek);
    this.seekingFiles = o.readOutput === true && o.seek !== 'every';
  }

  seeks(b: SpecialBehaviour): boolean {
    return this.sought === 'every' || this.sought.has(b);
  }

  /** Only the 403 is still sought: a run that starts shows nothing more worth waiting for. */
  onlyDisabled(): boolean {
    return (
      this.sought !== 'every' &&
      !this.seekingFiles &&
      this.seeks('disabled') &&
      !this.seeks('failing') &&
      !this.seeks('long-running')
    );
  }

  /** Every behaviour sought was shown (and, when one is sought, an execution that writes files). */
  done(): boolean {
    return this.sought !== 'every' && this.sought.size === 0 && !this.seekingFiles;
  }

  shown(b: Behaviour | undefined): void {
    if (this.sought !== 'every' && b && b !== 'finishes') this.sought.delete(b);
  }

  /** The writer of files is sought only a short while once the behaviours were all shown. */
  lookForFilesAt(at: number): void {
    if (!this.seekingFiles || this.sought === 'every' || this.sought.size > 0) return;
    this.behavioursShownAt ??= at;
    if (at - this.behavioursShownAt >= FILES_AFTER_BEHAVIOURS * this.o.slowEnoughMs) this.seekingFiles = false;
  }

  /** Why no further candidate may start, or undefined. */
  stop(at: number): TrialReport['stoppedBy'] {
    const b = this.o.budget;
    if (this.done()) return 'every behaviour shown';
    if (this.footprint.executionsStarted >= b.executions) return 'execution budget';
    // Room kept for what each execution watched still costs (a read and an abort), and for what the
    // driver may make to prepare a run (a detail read, an upload).
    if (this.footprint.requests + 2 * (this.open.length + 1) + 2 > b.requests) return 'request budget';
    if (this.t0 !== undefined && at - this.t0 >= b.ms) return 'time budget';
    return undefined;
  }

  record(index: number, t: Trial): void {
    const behaviour = behaviourShown(t.outcome);
    this.trials[index] = behaviour ? { ...t, behaviour } : t;
    this.shown(behaviour);
  }
}

/** Starts the next candidates while the window has room and nothing stops the trial. */
function toStart(w: Watch, at: number): number[] {
  const picked: number[] = [];
  const rank = (i: number) => w.o.ranks?.[i] ?? 0;
  while (w.next < w.candidates.length && w.open.length + picked.length < w.o.window) {
    if (w.open.some((e) => rank(e.index) < rank(w.next)) || picked.some((i) => rank(i) < rank(w.next))) break;
    const stop = w.stop(at);
    if (stop) {
      w.stoppedBy ??= stop;
      break;
    }
    picked.push(w.next++);
    w.footprint.executionsStarted++; // counted as it may start: the budget holds whatever the answers
  }
  return picked;
}

/** The runs' answers: a 403 or another refusal has its outcome; a started execution is watched. */
function started(w: Watch, indexes: readonly number[], replies: readonly TrialReply[], at: number): void {
  indexes.forEach((index, j) => {
    const reply = replies[j] ?? {};
    const canvasId = w.candidates[index]!;
    const executionId = ok(reply) ? executionIdIn(reply) : undefined;
    if (!executionId) {
      w.footprint.executionsStarted--;
      w.record(index, { canvasId, outcome: notStarted(reply) });
      return;
    }
    const e: Open = { index, canvasId, executionId, startedAt: at, ranMs: 0 };
    if (w.onlyDisabled() && w.o.followMs === 0) e.cut = 'only a 403 sought';
    w.open.push(e);
  });
}

/** Whether an execution still running is watched no longer, and why. */
function cutOf(w: Watch, e: Open, at: number): Cut | undefined {
  const age = at - e.startedAt;
  if (w.o.followMs > 0) return age + w.o.intervalMs > w.o.followMs ? 'followed' : undefined;
  if (w.t0 !== undefined && at - w.t0 >= w.o.budget.ms) return 'budget';
  // Three times the longest that ended, or, while none has ended to compare with, five times the bar.
  const outlasted = w.longestEndedMs > 0 ? Math.max(2 * w.o.slowEnoughMs, 3 * w.longestEndedMs) : 5 * w.o.slowEnoughMs;
  if (e.ranMs >= outlasted) return 'outlasted the others';
  // One past the bar is watched on, whatever else is sought, until it ends or clearly outlasts the others:
  // the slow role goes to the longest seen, and that needs to know how long each one runs.
  if (e.ranMs >= w.o.slowEnoughMs) return undefined;
  if (w.done()) return 'nothing more sought';
  if (w.onlyDisabled()) return 'only a 403 sought';
  return undefined;
}

/** One round of status reads: an ended execution has its outcome, an unreadable one is kept to abort. */
function readRound(w: Watch, replies: readonly TrialReply[], at: number): void {
  const still: Open[] = [];
  w.open.forEach((e, j) => {
    const reply = replies[j] ?? {};
    const afterMs = at - e.startedAt;
    if (!ok(reply)) {
      w.record(e.index, {
        canvasId: e.canvasId,
        executionId: e.executionId,
        outcome: { kind: 'unreadable', status: reply.status, error: reply.error, afterMs },
      });
      w.unreadable.push(e);
      return;
    }
    const seen = statusIn(reply);
    e.failedNode ??= seen.failedNode;
    e.last = seen.status ?? '(none)';
    e.lastCode = reply.status;
    if (seen.status === 'finish' || seen.status === 'failed') {
      if (w.o.readOutput) w.outputs.push(e);
      const longRunning = e.ranMs >= w.o.slowEnoughMs;
      w.longestEndedMs = Math.max(w.longestEndedMs, afterMs);
      const failedNode = e.failedNode ? { failedNode: e.failedNode } : {};
      w.record(e.index, {
        canvasId: e.canvasId,
        executionId: e.executionId,
        outcome: { kind: 'ended', status: seen.status, ...failedNode, afterMs, longRunning },
        ranMs: e.ranMs,
      });
      return;
    }
    if (!RUNNING.includes(seen.status ?? '')) {
      // A status outside the enum says nothing of how long it runs: it is aborted, and nothing is told.
      w.record(e.index, {
        canvasId: e.canvasId,
        executionId: e.executionId,
        outcome: { kind: 'unreadable', status: reply.status, seen: e.last, afterMs },
      });
      w.unreadable.push(e);
      return;
    }
    e.ranMs = afterMs;
    // Seen running long enough to be aborted after a poll: the slow one is found (it may still fail).
    if (e.ranMs >= w.o.slowEnoughMs) w.shown('long-running');
    still.push(e);
  });
  w.open = still;
}

/** Whether an output answer lists files (§2.3 data.files); undefined when it could not be read. */
function filesIn(r: TrialReply): boolean | undefined {
  if (!ok(r)) return undefined;
  const files = dataIn(r)?.files;
  return Array.isArray(files) ? files.length > 0 : false;
}

/** What the output reads of ended executions showed: whether each wrote files. */
function afterOutputs(w: Watch, read: readonly Open[], replies: readonly TrialReply[]): void {
  read.forEach((e, j) => {
    const wrote = filesIn(replies[j] ?? {});
    const t = w.trials[e.index];
    if (t && wrote !== undefined) w.trials[e.index] = { ...t, wroteFiles: wrote };
    if (wrote) w.seekingFiles = false;
  });
}

/** The outcome of each execution the trial stopped watching, once its abort was answered; returns those left. */
function afterAbort(w: Watch, toAbort: readonly Open[], replies: readonly TrialReply[], at: number): void {
  toAbort.forEach((e, j) => {
    const aborted = ok(replies[j] ?? {});
    if (aborted) w.footprint.executionsAborted++;
    if (w.trials[e.index]) return; // unreadable: its outcome stays
    const failedNode = e.failedNode ? { failedNode: e.failedNode } : {};
    const longRunning = e.ranMs >= w.o.slowEnoughMs;
    w.record(e.index, {
      canvasId: e.canvasId,
      executionId: e.executionId,
      outcome: { kind: 'running', ...failedNode, afterMs: at - e.startedAt, aborted, longRunning, why: e.cut! },
      ranMs: e.ranMs,
    });
  });
}

/**
 * Of the executions that ended after running long enough to be the slow one, only the one that ran
 * longest stays long-running (and none when one still running when the trial stopped ran longer): the
 * others finished, and a workflow that finishes in seconds is an ordinary one, fit for every role that
 * follows a run to its end. Those cut off still running stay long-running: nobody saw them end.
 */
function oneSlowestAmongThoseThatEnded(trials: Trial[]): Trial[] {
  const slow = trials.filter((t) => t.behaviour === 'long-running');
  const slowest = slow.reduce<Trial | undefined>((a, t) => ((t.ranMs ?? 0) > (a?.ranMs ?? -1) ? t : a), undefined);
  return trials.map((t) =>
    t.behaviour === 'long-running' && t.outcome.kind === 'ended' && t !== slowest ? { ...t, behaviour: 'finishes' } : t,
  );
}

/**
 * The trial of `candidates` (canvas ids, in the order to try them), as a protocol: yields what to send,
 * returns what each run showed and what the trial cost. Every execution it started has ended, or was
 * aborted, when it returns.
 */
export function* trialRuns(
  candidates: readonly string[],
  o: TrialOptions,
): Generator<TrialAsk, TrialReport, TrialInput> {
  const w = new Watch(candidates, o);
  let at = 0;
  for (;;) {
    // Runs to start and aborts go at once; otherwise every execution watched is read after one interval.
    w.lookForFilesAt(at);
    for (const e of w.open) e.cut ??= cutOf(w, e, at);
    const runs = toStart(w, at);
    // No round of reads the request budget could not also pay the aborts of.
    if (runs.length === 0 && w.footprint.requests + 2 * w.open.length > o.budget.requests)
      for (const e of w.open) e.cut ??= 'budget';
    const abort = [...w.open.filter((e) => e.cut), ...w.unreadable.splice(0)];
    // An output read is one request an ended execution costs: only while the request budget pays for it.
    const outputs = w.outputs.splice(0).filter((_, i) => w.footprint.requests + i + 1 <= o.budget.requests);
    const reads = runs.length + abort.length + outputs.length > 0 ? [] : w.open;
    if (runs.length + abort.length + outputs.length + reads.length === 0) break;
    const requests: TrialRequest[] = [
      ...runs.map((index) => ({ op: 'run' as const, canvasId: w.candidates[index]! })),
      ...abort.map((e) => request('abort', e)),
      ...outputs.map((e) => request('output', e)),
      ...reads.map((e) => request('status', e)),
    ];
    const input = yield { afterMs: reads.length > 0 ? o.intervalMs : 0, requests };
    at = input.at;
    w.t0 ??= at;
    w.footprint.requests += requests.length + input.replies.reduce((n, r) => n + (r.extraRequests ?? 0), 0);
    if (reads.length > 0) readRound(w, input.replies, at);
    else {
      w.open = w.open.filter((e) => !abort.includes(e));
      started(w, runs, input.replies.slice(0, runs.length), at);
      afterAbort(w, abort, input.replies.slice(runs.length, runs.length + abort.length), at);
      afterOutputs(w, outputs, input.replies.slice(runs.length + abort.length));
    }
    for (const e of w.open) e.cut ??= cutOf(w, e, at);
  }
  return {
    trials: oneSlowestAmongThoseThatEnded(w.trials.filter((t) => t !== undefined)),
    footprint: w.footprint,
    untried: candidates.length - w.next,
    ...(w.stoppedBy ? { stoppedBy: w.stoppedBy } : {}),
  };
}

/** Drives a protocol with a synchronous sender (k6): waits, sends each request in turn, resumes it. */
export function driveSync<T>(
  protocol: Generator<TrialAsk, T, TrialInput>,
  io: { send(request: TrialRequest): TrialReply; sleep(ms: number): void; now(): number },
): T {
  let step = protocol.next();
  while (!step.done) {
    const ask = step.value;
    if (ask.afterMs > 0) io.sleep(ask.afterMs);
    const replies = ask.requests.map((r) => io.send(r));
    step = protocol.next({ at: io.now(), replies });
  }
  return step.value;
}

/** Drives a protocol with an asynchronous sender, which chooses to send a round's requests in turn or together. */
export async function driveAsync<T>(
  protocol: Generator<TrialAsk, T, TrialInput>,
  io: { send(requests: TrialRequest[]): Promise<TrialReply[]>; sleep(ms: number): Promise<void>; now(): number },
): Promise<T> {
  let step = protocol.next();
  while (!step.done) {
    const ask = step.value;
    if (ask.afterMs > 0) await io.sleep(ask.afterMs);
    const replies = await io.send(ask.requests);
    step = protocol.next({ at: io.now(), replies });
  }
  return step.value;
}
