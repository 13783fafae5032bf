/**
 * The judges of an execution's state as the suites follow it (§2.2, §3): the state machine across polls
 * of one execution followed past its end (relations.ts and visibility.ts judge the history; this says
 * what a history cut short stops), and abort: a running execution's abort accepted, its nodes stopping,
 * the status that follows recorded.
 */
import type { ClauseId } from '../../contracts/requirements.ts';
import type { AnyRecorder } from '../evidence/verdict.ts';
import type { Exchange } from '../transport/exchange.ts';
import { judge } from './judge.ts';
import { accepted } from './expect.ts';
import { dataOf, describe } from './answers.ts';
import { dependsOn, stopAll, type Stop } from './stops.ts';
import type { Snapshot, StatusData, WorkflowPlan } from './payloads.ts';
import type { Followed } from './lifecycle.ts';
import { checkExecutionHistory, observeFailingEnd, type ExecutionFacts } from './relations.ts';
import { noFileProduced } from './visibility.ts';

// ---- the state machine ----------------------------------------------------------------------------------

/** What the state-machine tests judge on one execution followed past its end. */
export const STATE_MACHINE: ClauseId[] = [
  'STATUS-ECHOES-EXECUTION',
  'TIMES-ORDERED',
  'STATE-EXEC-FORWARD-ONLY',
  'STATE-NODE-FORWARD-ONLY',
  'STATE-STABLE-IDENTITY',
  'STATE-TERMINAL',
  'STATE-EXEC-FINISH-NODES-FINISHED',
  'STATE-ENDS-WHEN-NODES-SETTLE',
  'STATE-NODES-MATCH-PLAN',
  'STATE-TRANSITIONS',
  'OUTPUT-FILES-ONLY-AFTER-FINISH',
  'OUTPUT-PARTIAL-CONTENT',
  'OUTPUT-NODES-LISTED',
];

/**
 * One execution followed past its end: whatever was read is judged; what needed the end the poll never
 * saw is blocked by why it stopped. A run never sent (its upload failed) leaves the wrapper clause
 * blocked: the history needed that run. Returns the facts of a history read to its end, else undefined.
 */
export function judgeStateMachine(
  v: AnyRecorder,
  followed: Followed,
  wf: { canvasId: string; plan?: WorkflowPlan },
  runSent: boolean,
): ExecutionFacts | undefined {
  const { executionId, snaps, stop } = followed;
  if (executionId && snaps.length > 0) {
    const facts = checkExecutionHistory(v, executionId, wf.plan, snaps, stop);
    if (!stop) return facts;
    stopAll(
      v,
      STATE_MACHINE.filter((id) => !v.recorded.has(id)),
      stop,
    );
  } else if (stop) {
    const step = `the run of ${wf.canvasId} (never sent)`;
    stopAll(v, STATE_MACHINE, runSent ? stop : dependsOn('RUN-VARIABLES-WRAPPER', stop, step));
  }
  return undefined;
}

/** A multi-node execution seen to its end: without a file, what needs one is not run; without an intermediate state, noted. */
export function judgeMultiNodeEnd(v: AnyRecorder, facts: ExecutionFacts, canvasId: string): void {
  if (!facts.sawFiles) noFileProduced(v, `the execution of ${canvasId}`);
  if (facts.outputNodesUnread) v.notRun('OUTPUT-NODES-LISTED', facts.outputNodesUnread);
  if (!facts.sawIntermediate)
    v.note(
      'state-machine',
      `execution of ${canvasId} was already terminal at the first poll: intermediate states not seen (lower WFCHECK_POLL_INTERVAL_MS)`,
    );
}

/** A workflow with a failing task seen to its end: its final status is recorded. */
export function judgeFailingEnd(v: AnyRecorder, facts: ExecutionFacts): void {
  observeFailingEnd(v, facts);
  if (facts.outputNodesUnread) v.notRun('OUTPUT-NODES-LISTED', facts.outputNodesUnread);
}

/** An execution run to a terminal status: its history judged, or STATE-TERMINAL stopped by why it was not read. */
export function judgeRunToEnd(v: AnyRecorder, followed: Followed, plan: WorkflowPlan | undefined): void {
  const { executionId, snaps, stop } = followed;
  if (executionId && snaps.length > 0) checkExecutionHistory(v, executionId, plan, snaps, stop);
  else if (stop) stopAll(v, ['STATE-TERMINAL'], stop);
}

// ---- abort ----------------------------------------------------------------------------------------------

/** The judge of abort: a running execution's abort accepted, its nodes stopping, what follows recorded. */
export const abort = judge('abort', ['ABORT-ACCEPTED', 'ABORT-STOPS-NODES', 'ABORT-OUTCOME']);

/** How long after an accepted abort nodes may take to stop. */
export const SETTLE_MS = 5_000;

/** An execution that ended before its abort could be seen: what the abort of an ended one needed is stopped. */
export const endedAbortNotReached = abort.judges((v, stop: Stop): void => stopAll(v, ['ABORT-OUTCOME'], stop));

/** The abort of an execution already ended, and the status read after it: recorded (the outcome is not shown). */
export const observeAbortOfEnded = abort.judges(
  (v, finalStatus: string | undefined, ab: Exchange, after: Exchange): void => {
    v.observe('ABORT-OUTCOME', `abort of an execution already ${finalStatus}`, describe(ab), ab.record.id);
    v.observe(
      'ABORT-OUTCOME',
      `status after aborting an execution already ${finalStatus}`,
      dataOf<StatusData>(after)?.status ?? '(unreadable)',
    );
  },
);

/** The clauses the abort of a running execution judges. */
const ON_ABORT: ClauseId[] = ['ABORT-ACCEPTED', 'ABORT-200-NO-DATA', 'ABORT-OUTCOME', 'ABORT-STOPS-NODES'];

/**
 * The abort of a running execution is accepted (a 2xx: which one is the status clause's business). Refused,
 * the 200 body, the outcome and the nodes' stop all needed it: they are stopped. Returns whether it was.
 */
export const judgeAbortAccepted = abort.judges((v, ab: Exchange, message: string): boolean => {
  const accepting = accepted(v, 'ABORT-ACCEPTED', ab, { carries: 'an envelope', read: () => true }, message);
  if (!accepting.ok) stopAll(v, ON_ABORT.slice(1), accepting.stop);
  return accepting.ok;
});

/** No execution could be run and aborted while running: every abort clause is stopped by why. */
export const abortNotExercised = abort.judges((v, stop: Stop): void => stopAll(v, ON_ABORT, stop));

/**
 * After an accepted abort: the outcome is observed, and no node may keep executing or start — judged on
 * the reads of the settle time (`waitingAtAbort`: the nodes that had not started when it was answered).
 * A read that deviated stops what needed it.
 */
export const judgeAfterAbort = abort.judges(
  (v, executionId: string, waitingAtAbort: ReadonlySet<string>, settled: Followed) => {
    if (settled.stop) return stopAll(v, ['ABORT-OUTCOME', 'ABORT-STOPS-NODES'], settled.stop);
    const snaps: Snapshot[] = settled.snaps;
    const last = snaps[snaps.length - 1];
    v.observe(
      'ABORT-OUTCOME',
      'execution status after an accepted abort',
      last?.status.status ?? '(unknown)',
      last?.statusExchange.record.id,
    );
    v.observe(
      'ABORT-OUTCOME',
      'node statuses after an accepted abort',
      [...new Set((last?.status.nodeExecutions ?? []).map((n) => n.status))].sort().join(', '),
    );
    if (!last) return v.notRun('ABORT-STOPS-NODES', `no status of ${executionId} could be read after the abort`);
    // Node statuses are optional (§2.2): without them no node can be seen executing, nor seen to stop.
    if (!snaps.some((s) => (s.status.nodeExecutions ?? []).some((n) => n.status !== undefined)))
      return v.notRun(
        'ABORT-STOPS-NODES',
        `cannot judge: nodeExecutions[].status absent from the status of ${executionId} after the abort`,
      );
    const executing = (last.status.nodeExecutions ?? []).filter((n) => n.status === 'executing');
    const startedLater = snaps.flatMap((s) =>
      (s.status.nodeExecutions ?? [])
        .filter((n) => waitingAtAbort.has(n.nodeId) && n.status === 'executing')
        .map((n) => n.nodeId),
    );
    v.check('ABORT-STOPS-NODES', executing.length === 0 && startedLater.length === 0, {
      message: `nodes of ${executionId} within ${SETTLE_MS} ms of the abort`,
      expected: 'no node executing, none newly started',
      actual: `still executing: ${executing.map((n) => n.nodeId).join(', ') || 'none'}; started after abort: ${[...new Set(startedLater)].join(', ') || 'none'}`,
      exchangeId: last.statusExchange.record.id,
    });
  },
);
