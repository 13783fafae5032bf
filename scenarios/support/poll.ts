/**
 * Bounded polling of one execution: status (and optionally output) snapshots
 * until the execution is terminal. A poll that cannot go on says why: the clause
 * an answer deviated from (the dependent clauses are then "blocked by" it), or
 * our own deadline (they are "not run").
 */
import type { ApiClient, Exchange } from './client.ts';
import { bodyDeviation, dataOf, describe, EXEC_STATUSES, served, statusDeviation, TERMINAL, type OutputData, type StatusData, type Stop } from './shapes.ts';
import type { Verdict } from '../verdict/verdict.ts';

export interface Snapshot {
  at: number;
  status: StatusData;
  statusExchange: Exchange;
  output?: OutputData;
  outputExchange?: Exchange;
}

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
  intervalMs: number;
  timeoutMs: number;
  /** Also read the output at every poll (state-machine checks need both views). */
  withOutput?: boolean;
  /** Stop when this returns true (default: execution status terminal). */
  until?: (s: Snapshot) => boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Why a read of an execution gave no data to go on with. A status line or body the contract checks
 * already failed is that clause's deviation; a 429 still there after the client's retries is legal (rate
 * limits are not shown), so the poll is merely cut short; a listed refusal (404) of an execution the run returned
 * breaks RUN-RETURNS-EXECUTION-ID ("an execution ID that the status endpoint knows"); a served answer
 * without data breaks the operation's data clause.
 */
function stopFor(verdict: Verdict, ex: Exchange, dataClause: string, what: string): Stop {
  const reason = `${what}: ${describe(ex)}`;
  const deviation = statusDeviation(ex) ?? (served(ex) ? bodyDeviation(ex) : undefined);
  if (deviation) return { blockedBy: deviation, reason };
  if (ex.status === 429) return { reason: `${reason}: still rate limited after waiting out Retry-After` };
  const clause = served(ex) ? dataClause : 'RUN-RETURNS-EXECUTION-ID';
  verdict.must(clause, false, {
    message: what,
    expected: served(ex) ? 'an envelope with data' : 'the execution the run returned is known',
    actual: ex.parsed || !served(ex) ? describe(ex) : `${describe(ex)} with a body that is not JSON`,
    exchangeId: ex.record.id,
  });
  return { blockedBy: clause, reason };
}

function readOrStop<T>(verdict: Verdict, ex: Exchange, dataClause: string, what: string, snapshots: Snapshot[]): T {
  const data = dataOf<T>(ex);
  if (data && typeof data === 'object') return data;
  throw new PollStopped(`${what}: ${describe(ex)}`, snapshots, stopFor(verdict, ex, dataClause, what));
}

/** The poll's deadline passed: ours (not run), unless the status never read as one the specification lists. */
function timedOut(executionId: string, status: StatusData, opts: PollOptions, snapshots: Snapshot[]): PollStopped {
  const nodes = (status.nodeExecutions ?? []).map((n) => `${n.nodeId}=${n.status}`).join(', ');
  const message =
    `execution ${executionId} still "${status.status}" after ${opts.timeoutMs} ms (${snapshots.length} polls every ${opts.intervalMs} ms; nodes: ${nodes || 'none'}). ` +
    'Raise WFCHECK_POLL_TIMEOUT_MS if the target is slow.';
  const unlisted = !EXEC_STATUSES.includes(status.status ?? '');
  return new PollStopped(message, snapshots, unlisted ? { blockedBy: 'EXEC-STATUS-ENUM', reason: `execution ${executionId} reports status "${status.status}"` } : { reason: message });
}

export async function pollExecution(api: ApiClient, verdict: Verdict, executionId: string, opts: PollOptions): Promise<Snapshot[]> {
  const snapshots: Snapshot[] = [];
  const deadline = Date.now() + opts.timeoutMs;
  const done = opts.until ?? ((s: Snapshot) => TERMINAL.includes(s.status.status ?? ''));
  for (;;) {
    const statusExchange = await api.status(executionId, { label: 'poll status' });
    const status = readOrStop<StatusData>(verdict, statusExchange, 'STATUS-200-DATA', `status of ${executionId}`, snapshots);
    const snap: Snapshot = { at: Date.now(), status, statusExchange };
    if (opts.withOutput) {
      snap.outputExchange = await api.output(executionId, { label: 'poll output' });
      snap.output = readOrStop<OutputData>(verdict, snap.outputExchange, 'OUTPUT-200-DATA', `output of ${executionId}`, snapshots);
    }
    snapshots.push(snap);
    if (done(snap)) return snapshots;
    if (Date.now() >= deadline) throw timedOut(executionId, status, opts, snapshots);
    await sleep(opts.intervalMs);
  }
}
