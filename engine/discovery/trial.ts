/**
 * The trial: a short, bounded run of candidate workflows that shows what their titles may not say —
 * the run answered 403 (the workflow API is disabled, §4.1), the execution or one of its nodes ended
 * `failed`, or the execution still ran after a few status polls (long enough to be aborted mid-run).
 *
 * Written as a protocol without I/O, so that the conformance run's async client and k6's synchronous
 * http drive the same logic: a generator that yields what it wants sent (and after how long a wait),
 * and is resumed with the replies and the time they were in. Its drivers are
 * engine/discovery/trial-driver.ts (Node, the contract-checked client) and load/lib/discovery.ts (k6,
 * through load/lib/api.ts): both send every request through the contract checks, as every request is.
 * The protocol judges nothing: a 403, a failed execution or an abort's answer are what it looks for,
 * never a verdict (the clauses about them are the suites' to judge).
 *
 * Bounded: the candidates start together, are polled a few times (TRIAL_POLLS) and whatever still runs
 * is aborted — unless the caller follows executions to their end (the load run drives only workflows
 * whose trial finished), for at most `followMs` after they started; what still runs then is aborted.
 *
 * Pure (no Node built-in, no npm package): k6 loads it.
 */
import type { Behaviour } from './roles.ts';

export type TrialRequest =
  | { op: 'run'; canvasId: string }
  | { op: 'status'; canvasId: string; executionId: string }
  | { op: 'abort'; canvasId: string; executionId: string };

/** One answer: its HTTP status and parsed JSON body; without a status when none came (`error` says why). */
export interface TrialReply {
  status?: number;
  body?: unknown;
  error?: string;
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

export interface TrialOptions {
  intervalMs: number;
  /** Status polls after which an execution still running is long-running. */
  polls: number;
  /** How long after its run an execution still running after the polls is followed (0: aborted then). */
  followMs: number;
}

/**
 * "A few status polls": an execution still running after six (or six intervals after its run, when
 * reads come late) is long-running. A suite aborts a running execution after far less.
 */
export const TRIAL_POLLS = 6;

/**
 * The trial's pace from the run's poll interval, kept between 100 ms and 1 s a poll: six polls are then
 * between 0.6 and 6 seconds, long enough that an ordinary workflow ends, short enough to cost seconds.
 */
export function trialOptions(pollIntervalMs: number, followMs = 0): TrialOptions {
  return { intervalMs: Math.min(1000, Math.max(100, pollIntervalMs)), polls: TRIAL_POLLS, followMs };
}

export type TrialOutcome =
  /** The run started nothing: its status (403: the workflow API is disabled), or why no answer came. */
  | { kind: 'refused'; status?: number; error?: string }
  /** The run was answered 2xx without an executionId to follow. */
  | { kind: 'no execution'; status: number }
  | { kind: 'ended'; status: 'finish' | 'failed'; failedNode?: string; afterMs: number; longRunning: boolean }
  /** Still running when the trial ended; aborted unless the abort was refused. */
  | { kind: 'running'; failedNode?: string; afterMs: number; polls: number; aborted: boolean }
  /** Its status could not be read (an error, no answer, or no status of the enum): nothing can be told. */
  | { kind: 'unreadable'; status?: number; error?: string; seen?: string; afterMs: number };

export interface Trial {
  canvasId: string;
  executionId?: string;
  outcome: TrialOutcome;
  /** The behaviour the trial showed; undefined when it showed none (a refusal other than 403, no answer). */
  behaviour?: Behaviour;
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
      return o.failedNode ? 'failing' : 'long-running';
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
      return `${o.failedNode ? `node ${o.failedNode} failed, ` : ''}still executing after ${o.polls} polls (${seconds(o.afterMs)}), ${o.aborted ? 'aborted' : 'abort not accepted'}`;
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

interface Open {
  index: number;
  canvasId: string;
  executionId: string;
  polls: number;
  longRunning: boolean;
  failedNode?: string;
  /** The execution status the last read gave, as given, and its HTTP status. */
  last?: string;
  lastCode?: number;
}

/** The statuses of an execution not yet ended (§2.2): only these say it still runs. */
const RUNNING = ['init', 'executing'];

const request = (op: 'status' | 'abort', e: Open): TrialRequest => ({
  op,
  canvasId: e.canvasId,
  executionId: e.executionId,
});

/** The outcome of a run that started nothing. */
function notStarted(reply: TrialReply): TrialOutcome {
  if (ok(reply)) return { kind: 'no execution', status: reply.status! };
  return { kind: 'refused', status: reply.status, error: reply.error };
}

/** The executions the runs started; a run that started none has its outcome at once. */
function startedBy(canvasIds: readonly string[], replies: readonly TrialReply[], trials: Trial[]): Open[] {
  const open: Open[] = [];
  canvasIds.forEach((canvasId, index) => {
    const reply = replies[index] ?? {};
    const executionId = ok(reply) ? executionIdIn(reply) : undefined;
    if (executionId) open.push({ index, canvasId, executionId, polls: 0, longRunning: false });
    else trials[index] = { canvasId, outcome: notStarted(reply) };
  });
  return open;
}

/**
 * One round of status reads: an execution ended, or whose status could not be read, has its outcome
 * (the unreadable are kept to be aborted); one still running is long-running once `o.polls` reads saw
 * it, or a read came `o.polls` intervals after the runs (reads slowed by a busy machine or target must
 * not let a long execution end unseen). Returns those still running.
 */
function readRound(
  open: readonly Open[],
  replies: readonly TrialReply[],
  afterMs: number,
  o: TrialOptions,
  trials: Trial[],
  unreadable: Open[],
): Open[] {
  const still: Open[] = [];
  open.forEach((e, j) => {
    const reply = replies[j] ?? {};
    const done = (outcome: TrialOutcome) => {
      trials[e.index] = { canvasId: e.canvasId, executionId: e.executionId, outcome };
    };
    e.polls++;
    if (!ok(reply)) {
      done({ kind: 'unreadable', status: reply.status, error: reply.error, afterMs });
      unreadable.push(e);
      return;
    }
    const seen = statusIn(reply);
    e.failedNode ??= seen.failedNode;
    e.last = seen.status ?? '(none)';
    e.lastCode = reply.status;
    if (seen.status === 'finish' || seen.status === 'failed') {
      const failedNode = e.failedNode ? { failedNode: e.failedNode } : {};
      done({ kind: 'ended', status: seen.status, ...failedNode, afterMs, longRunning: e.longRunning });
      return;
    }
    if (e.polls >= o.polls || afterMs >= o.polls * o.intervalMs) e.longRunning = true;
    still.push(e);
  });
  return still;
}

/**
 * The outcome of each execution the trial aborted: still running when its status said so (init or
 * executing); a status outside the enum says nothing of how long it runs. Returns how many aborts were accepted.
 */
function afterAbort(
  toAbort: readonly Open[],
  replies: readonly TrialReply[],
  afterMs: number,
  trials: Trial[],
): number {
  let accepted = 0;
  toAbort.forEach((e, j) => {
    const aborted = ok(replies[j] ?? {});
    if (aborted) accepted++;
    if (trials[e.index]) return; // unreadable: its outcome stays
    const failedNode = e.failedNode ? { failedNode: e.failedNode } : {};
    const outcome: TrialOutcome = RUNNING.includes(e.last ?? '')
      ? { kind: 'running', ...failedNode, afterMs, polls: e.polls, aborted }
      : { kind: 'unreadable', status: e.lastCode, seen: e.last, afterMs };
    trials[e.index] = { canvasId: e.canvasId, executionId: e.executionId, outcome };
  });
  return accepted;
}

/**
 * The trial of `canvasIds`, as a protocol: yields what to send, returns what each run showed and what
 * the trial cost. Every execution it started has ended, or was aborted, when it returns.
 */
export function* trialRuns(
  canvasIds: readonly string[],
  o: TrialOptions,
): Generator<TrialAsk, TrialReport, TrialInput> {
  const trials: Trial[] = [];
  const footprint: TrialFootprint = { executionsStarted: 0, executionsAborted: 0, requests: canvasIds.length };
  const started = yield { afterMs: 0, requests: canvasIds.map((canvasId) => ({ op: 'run' as const, canvasId })) };
  const t0 = started.at;
  let open = startedBy(canvasIds, started.replies, trials);
  footprint.executionsStarted = open.length;
  const unreadable: Open[] = [];
  let at = t0;
  // Watched until each is seen long-running; then followed only while `followMs` allows.
  while (open.length > 0 && (open.some((e) => !e.longRunning) || at - t0 + o.intervalMs <= o.followMs)) {
    const input = yield { afterMs: o.intervalMs, requests: open.map((e) => request('status', e)) };
    at = input.at;
    footprint.requests += open.length;
    open = readRound(open, input.replies, at - t0, o, trials, unreadable);
  }
  // Whatever may still run is aborted: a trial leaves nothing running. The answer to the abort is judged
  // by the contract checks alone (what follows an abort is not shown, §3).
  const toAbort = [...open, ...unreadable];
  if (toAbort.length > 0) {
    const input = yield { afterMs: 0, requests: toAbort.map((e) => request('abort', e)) };
    footprint.requests += toAbort.length;
    footprint.executionsAborted = afterAbort(toAbort, input.replies, at - t0, trials);
  }
  const withBehaviour = (t: Trial): Trial => {
    const behaviour = behaviourShown(t.outcome);
    return behaviour ? { ...t, behaviour } : t;
  };
  return { trials: trials.map(withBehaviour), footprint };
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
