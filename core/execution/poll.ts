/**
 * Bounded polling of one execution: status (and optionally output) snapshots
 * until the execution is terminal. A poll that cannot go on says why: the clause
 * an answer deviated from (the dependent clauses are then "blocked by" it), or
 * our own deadline (they are "not run").
 *
 * Polls come at the configured interval while the execution changes, and further
 * apart while it does not (up to a cap): a workflow whose steps take seconds is not
 * read hundreds of times, and a change is still seen soon after it happens. No check
 * counts polls: each judges whatever snapshots there are.
 *
 * An execution is followed until it has ended — its status terminal and none of its
 * nodes still executing — so that what is read after a premature terminal status
 * does not depend on how fast the target runs. (Nodes that never started may stay
 * init or waiting in an execution that failed.) A terminal status whose nodes never
 * stop executing is read on until the deadline, and then judged as read.
 *
 * An execution that can never end is not waited for: one whose status is outside the enum
 * can never read as terminal (blocked by the clause the contract checks failed on it,
 * EXEC-STATUS-ENUM), and one whose status stays the same, not terminal, while its nodes have
 * settled (every one ended, or one failed and none executes) for STUCK_POLLS reads in a row
 * (read at the interval, without backing off) "cannot finish": a warning of STATE-ENDS-WHEN-NODES-SETTLE with the polls that show it,
 * which blocks what needed its end. Once one execution cannot finish, the run knows it
 * (faults-seen.ts): a later execution showing the same status with every node settled is
 * stopped at first sight, blocked by the same warning. A read that
 * faulted stops the poll with the fault's own stop (client.ts, faultStop).
 */
import type { ApiClient } from '../client/client.ts';
import { faultStop, type Exchange } from '../transport/exchange.ts';
import { describeFault, type FaultLog, type FaultSeen } from '../transport/faults-seen.ts';
import { bodyDeviation, dataOf, describe, served, statusDeviation } from '../judging/answers.ts';
import { EXEC_STATUSES, TERMINAL, type OutputData, type StatusData } from '../judging/payloads.ts';
import type { Stop } from '../judging/stops.ts';
import type { AnyRecorder } from '../evidence/verdict.ts';
import { judgeUnreadExecution } from '../judging/lifecycle.ts';

import type { Snapshot } from '../judging/payloads.ts';
import { ENDS_WHEN_NODES_SETTLE, judgeCannotFinish } from '../judging/relations.ts';
export { ENDS_WHEN_NODES_SETTLE };
export type { Snapshot };

/** The poll ended before the execution was terminal; `stop` says why, `snapshots` holds what was read. */
export class PollStopped extends Error {
  constructor(
    message: string,
    readonly snapshots: Snapshot[],
    readonly stop: Stop,
  ) {
    super(message);
    this.name = 'PollStopped';
  }
}

export interface PollOptions {
  /** Gap between polls while the execution changes (and after the first read). */
  intervalMs: number;
  /** Largest gap between polls while nothing changes; default MAX_BACKOFF × intervalMs. */
  maxIntervalMs?: number;
  timeoutMs: number;
  /** Also read the output at every poll (state-machine checks need both views). */
  withOutput?: boolean;
  /** Stop when this returns true (default: the execution ended, see `ended`). */
  until?: (s: Snapshot) => boolean;
  /** The faults seen in this run (shared by the workers); without it, a poll learns only from its own reads. */
  faults?: FaultLog;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** While an execution shows no change, each gap between polls is this many times the previous one… */
const BACKOFF_FACTOR = 2;
/** …up to this many times the configured interval. */
export const MAX_BACKOFF = 8;

/**
 * Reads in a row of one unchanged, non-terminal state with every node settled, after which an execution
 * cannot finish: with the back-off, some 15 poll intervals, long enough for a status that lags its nodes.
 */
export const STUCK_POLLS = 5;

const terminal = (s: Snapshot) => TERMINAL.includes(s.status.status ?? '');

/**
 * The execution's nodes have settled: every one has a terminal status, or one failed and none executes
 * (those left init or waiting wait on what failed, as an engine that stops scheduling after a failure
 * leaves them). It has nodes: without them nothing shows it is done.
 */
function nodesSettled(s: Snapshot): boolean {
  const nodes = s.status.nodeExecutions ?? [];
  if (nodes.length === 0) return false;
  if (nodes.every((n) => TERMINAL.includes(n.status ?? ''))) return true;
  return nodes.some((n) => n.status === 'failed') && !nodes.some((n) => n.status === 'executing');
}

/** The execution's state as its status view shows it: its status and its nodes' statuses. */
function stateOf(s: Snapshot | undefined): string {
  if (!s) return '';
  return `${s.status.status}|${(s.status.nodeExecutions ?? []).map((n) => `${n.nodeId}=${n.status}`).join(',')}`;
}

/** The execution's status is terminal and none of its nodes is still executing. */
function ended(s: Snapshot): boolean {
  return terminal(s) && !(s.status.nodeExecutions ?? []).some((n) => n.status === 'executing');
}

/** What a poll can see change: the statuses of the execution and its nodes, in both views, and the files listed. */
function progressOf(s: Snapshot): string {
  const statuses = (nodes: readonly { nodeId: string; status?: string }[] | undefined) =>
    (nodes ?? []).map((n) => `${n.nodeId}=${n.status}`).join(',');
  const output = s.output ? `|${statuses(s.output.output)}|${(s.output.files ?? []).length}` : '';
  return `${s.status.status}|${statuses(s.status.nodeExecutions)}${output}`;
}

/** The gap before the next poll: back to the interval after a change, else longer, up to the cap. */
export function nextGap(
  gapMs: number,
  changed: boolean,
  opts: Pick<PollOptions, 'intervalMs' | 'maxIntervalMs'>,
): number {
  const cap = Math.max(opts.intervalMs, opts.maxIntervalMs ?? opts.intervalMs * MAX_BACKOFF);
  return changed ? opts.intervalMs : Math.min(cap, gapMs * BACKOFF_FACTOR);
}

/**
 * Why a read of an execution gave no data to go on with. A status line or body the contract checks
 * already failed is that clause's deviation; a 429 still there after the client's retries is legal (rate
 * limits are not shown), so the poll is merely cut short; what is left is the judge's (judgeUnreadExecution:
 * a listed refusal of an execution the run returned, or a served answer without data).
 */
function stopFor(verdict: AnyRecorder, ex: Exchange, what: string): Stop {
  // A fault says itself whose it is: the target's (its status clause failed) or the harness's deadline.
  const faulted = faultStop(ex);
  if (faulted) return faulted;
  const reason = `${what}: ${describe(ex)}`;
  const deviation = statusDeviation(ex) ?? (served(ex) ? bodyDeviation(ex) : undefined);
  if (deviation) return { blockedBy: deviation, exchangeIds: [ex.record.id], reason };
  if (ex.status === 429) return { reason: `${reason}: still rate limited after waiting out Retry-After` };
  return judgeUnreadExecution(verdict, ex, what);
}

function readOrStop<T>(verdict: AnyRecorder, ex: Exchange, what: string, snapshots: Snapshot[]): T {
  const data = dataOf<T>(ex);
  if (data && typeof data === 'object') return data;
  throw new PollStopped(`${what}: ${describe(ex)}`, snapshots, stopFor(verdict, ex, what));
}

/**
 * A status outside the enum can never read as terminal: the execution is not followed on. The clause the
 * contract checks failed on it stops what needed its end; the reason names the value, not the execution,
 * so every execution stopped by it reads as the same finding.
 */
function unlistedStatus(ex: Exchange, status: StatusData): Stop | undefined {
  const value = status.status;
  if (value === undefined || EXEC_STATUSES.includes(value)) return undefined;
  const enumFailed = ex.violations.some((v) => v.requirementId === 'EXEC-STATUS-ENUM');
  const deviation = enumFailed ? 'EXEC-STATUS-ENUM' : bodyDeviation(ex);
  return {
    blockedBy: deviation ?? 'EXEC-STATUS-ENUM',
    // The exchange that shows it, when the contract checks failed there (a status word they let pass has none).
    ...(deviation ? { exchangeIds: [ex.record.id] } : {}),
    reason:
      `executions report status ${JSON.stringify(value)}, outside the enum: ` +
      'an execution showing it can never read as terminal',
  };
}

/**
 * The execution cannot finish: remembered for the run, and judged once, by the first execution that
 * showed it, as a warning with the polls that show it. What needed its end (and the end of any later
 * execution showing the same) is blocked by that warning: one deviation, one finding.
 */
function cannotFinish(
  verdict: AnyRecorder,
  executionId: string,
  stuck: readonly Snapshot[],
  opts: PollOptions,
  snapshots: Snapshot[],
): PollStopped {
  const snap = stuck[stuck.length - 1]!;
  const nodes = (snap.status.nodeExecutions ?? []).map((n) => `${n.nodeId}=${n.status}`).join(', ');
  const ms = snap.at - stuck[0]!.at;
  const fault: FaultSeen = {
    operation: 'getExecutionStatus',
    scope: 'end',
    kind: 'cannot-finish',
    status: snap.status.status,
    clause: ENDS_WHEN_NODES_SETTLE,
    message:
      `status "${snap.status.status}" stays unchanged while every node has settled ` +
      `(execution ${executionId}, ${stuck.length} reads in a row over ${ms} ms; nodes: ${nodes})`,
    exchangeId: snap.statusExchange.record.id,
    at: new Date().toISOString(),
  };
  const inForce = opts.faults?.record(fault) ?? fault;
  if (inForce.exchangeId === fault.exchangeId) judgeCannotFinish(verdict, executionId, stuck);
  const reason = describeFault(inForce);
  return new PollStopped(`execution ${executionId}: ${reason}`, snapshots, {
    blockedBy: ENDS_WHEN_NODES_SETTLE,
    step: `the end of execution ${executionId}`,
    reason,
  });
}

/** The poll's deadline passed: ours (not run), unless the status never read as one the specification lists. */
function timedOut(executionId: string, status: StatusData, opts: PollOptions, snapshots: Snapshot[]): PollStopped {
  const nodes = (status.nodeExecutions ?? []).map((n) => `${n.nodeId}=${n.status}`).join(', ');
  const message =
    `execution ${executionId} still "${status.status}" after ${opts.timeoutMs} ms (${snapshots.length} polls, ${opts.intervalMs} ms apart while it changed, further apart while not; nodes: ${nodes || 'none'}). ` +
    'Raise WFCHECK_POLL_TIMEOUT_MS if the target is slow.';
  const unlisted = !EXEC_STATUSES.includes(status.status ?? '');
  return new PollStopped(
    message,
    snapshots,
    unlisted
      ? { blockedBy: 'EXEC-STATUS-ENUM', reason: `execution ${executionId} reports status "${status.status}"` }
      : { reason: message },
  );
}

/**
 * The output lists a file whose producing node it does not show ended (executing, or not listed): the
 * status is read again at once. An output whose node statuses and files come from separate queries can
 * show a node executing beside the file it wrote on finishing; the read right after tells that skew
 * (the node already ended) from a file listed while its node runs (still running).
 */
function producerUnended(output: OutputData): boolean {
  // Shapes the contract checks fail (not arrays, not objects) are theirs to judge; here they confirm nothing.
  const nodes = Array.isArray(output.output) ? output.output : [];
  const ended = new Set(nodes.filter((n) => TERMINAL.includes(n?.status ?? '')).map((n) => n.nodeId));
  const files = Array.isArray(output.files) ? output.files : [];
  return files.some((f) => typeof f?.nodeId === 'string' && !ended.has(f.nodeId));
}

/** The confirming status read; one that gives no data leaves the file judged on the next poll, as without it. */
async function confirmingRead(api: ApiClient, executionId: string): Promise<Snapshot['confirm']> {
  const exchange = await api.status(executionId, {
    label: 'poll status (producer of a listed file)',
    allowFault: true,
  });
  const status = dataOf<StatusData>(exchange);
  return status && typeof status === 'object' ? { status, exchange } : undefined;
}

export async function pollExecution(
  api: ApiClient,
  verdict: AnyRecorder,
  executionId: string,
  opts: PollOptions,
): Promise<Snapshot[]> {
  const snapshots: Snapshot[] = [];
  const deadline = Date.now() + opts.timeoutMs;
  const done = opts.until ?? ended;
  let gap = opts.intervalMs;
  /** Reads in a row of the same non-terminal state with every node settled. */
  let stuck: Snapshot[] = [];
  for (;;) {
    // Faults come back as answers: the poll stops with the fault's own stop instead of throwing.
    const statusExchange = await api.status(executionId, { label: 'poll status', allowFault: true });
    const status = readOrStop<StatusData>(verdict, statusExchange, `status of ${executionId}`, snapshots);
    const snap: Snapshot = { at: Date.now(), status, statusExchange };
    if (opts.withOutput) {
      snap.outputExchange = await api.output(executionId, { label: 'poll output', allowFault: true });
      snap.output = readOrStop<OutputData>(verdict, snap.outputExchange, `output of ${executionId}`, snapshots);
      if (producerUnended(snap.output)) snap.confirm = await confirmingRead(api, executionId);
    }
    const previous = snapshots[snapshots.length - 1];
    snapshots.push(snap);
    if (done(snap)) return snapshots;
    const unlisted = unlistedStatus(statusExchange, status);
    if (unlisted) throw new PollStopped(`execution ${executionId}: ${unlisted.reason}`, snapshots, unlisted);
    const settledAndStill = !terminal(snap) && nodesSettled(snap);
    if (settledAndStill) {
      stuck = stateOf(previous) === stateOf(snap) ? [...stuck, snap] : [snap];
      // Seen before in this run: this execution is where an earlier one stayed for good.
      const known = opts.faults?.find('getExecutionStatus', 'end');
      if (stuck.length >= STUCK_POLLS || (known && known.status === status.status))
        throw cannotFinish(verdict, executionId, stuck, opts, snapshots);
    } else stuck = [];
    if (Date.now() >= deadline) {
      // Terminal, only its nodes never caught up: what was read is judged (STATE-EXEC-FINISH-NODES-FINISHED).
      if (!opts.until && terminal(snap)) return snapshots;
      throw timedOut(executionId, status, opts, snapshots);
    }
    // Every node settled and the status still not terminal: read again at the interval, not further apart,
    // so a status that never follows its nodes is told within a few polls.
    gap = settledAndStill
      ? opts.intervalMs
      : nextGap(gap, !previous || progressOf(previous) !== progressOf(snap), opts);
    // The last read falls on the deadline, not a whole gap after it.
    await sleep(Math.min(gap, deadline - Date.now()));
  }
}
