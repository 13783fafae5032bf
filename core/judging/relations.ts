/**
 * Checks over sequences of snapshots of one execution (state machine,
 * visibility of files and partial content) and over plans (semantics the
 * schema cannot state). Each check names its requirement, and what it needs:
 * a field the specification makes optional (a node's title or status, a file's
 * nodeId, the times), or a correspondence it leaves open (how node ids relate
 * to task ids), that is absent keeps the clause from being judged — it is "not
 * run" with that reason, never warned or failed. A value that is present but
 * unreadable is its own clause's finding (NODE-STATUS-ENUM, DATETIME-FORMAT):
 * what needed it is blocked by the failure recorded on that very answer.
 */
import type { Snapshot } from './payloads.ts';
import { EXEC_STATUSES, NODE_STATUSES, type WorkflowPlan } from './payloads.ts';
import type { Cause } from '../evidence/verdict.ts';
import { judge, type Judging } from './judge.ts';
import { cannotJudge, statusRef, TERMINAL } from './relation-basics.ts';
import { checkNodesMatchPlan } from './plans.ts';
import { checkTimesOrdered, checkVisibility, observeOutputNodes } from './visibility.ts';

function transitions(seq: string[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < seq.length; i++) if (seq[i] !== seq[i - 1]) out.push(`${seq[i - 1]}→${seq[i]}`);
  return out;
}

/** A sequence of statuses as read across polls, repeats collapsed: "init → executing → finish". */
function sequenceText(seq: string[]): string {
  return seq.filter((x, i) => i === 0 || x !== seq[i - 1]).join(' → ');
}

/** The clause an execution that stays put after its nodes settled breaks (judged here on a whole history, by the poll on one that never ends). */
export const ENDS_WHEN_NODES_SETTLE = 'STATE-ENDS-WHEN-NODES-SETTLE';

/** The judge of an execution's statuses across polls: identity, terminal statuses, the end (§2.2, §3). */
export const executionHistory = judge('the statuses of an execution across polls', [
  'STATUS-ECHOES-EXECUTION',
  'STATE-STABLE-IDENTITY',
  'STATE-TERMINAL',
  'STATE-EXEC-FINISH-NODES-FINISHED',
  ENDS_WHEN_NODES_SETTLE,
  'STATE-EXEC-FORWARD-ONLY',
  'STATE-NODE-FORWARD-ONLY',
  'STATE-TRANSITIONS',
]);

type History = Judging<typeof executionHistory>;

export interface ExecutionFacts {
  executionId: string;
  finalStatus?: string;
  sawFiles: boolean;
  sawIntermediate: boolean;
  /** Why which nodes the output lists was not recorded (no output read once finish, one node), when it was not. */
  outputNodesUnread?: string;
}

/**
 * Runs the state-machine checks over the snapshots of one execution.
 * `executionId` is the one the run returned; `plan` the workflow's detail. The clauses about the
 * output are judged only when the output was read along (`withOutput`).
 *
 * Each check judges the data it reads, wherever that data is in hand: a history cut short (`cutShort`:
 * the poll stopped before the execution ended, for the reason it gives) is still judged for what its
 * snapshots show (a file listed for a node still executing is a breach whatever came after). Only the
 * clauses that need the end of the execution (its terminal status and what follows it) are blocked by
 * the reason the end was not seen.
 */
export const checkExecutionHistory = executionHistory.judges(
  (v, executionId: string, plan: WorkflowPlan | undefined, snaps: Snapshot[], cutShort?: Cause): ExecutionFacts => {
    const last = snaps[snaps.length - 1];
    const { sawIntermediate, premature } = checkExecutionStatus(v, executionId, snaps, cutShort);
    checkIdentity(v, executionId, snaps);
    checkNodeStatuses(v, executionId, snaps, cutShort);
    checkEndsWhenSettled(v, executionId, snaps, cutShort);
    // Recorded once the finish it names has been judged (by checkNodeStatuses), so that it blocks on that failure.
    if (premature) v.blocked('STATE-TERMINAL', premature);
    if (plan && last) checkNodesMatchPlan(v, plan, last.status.nodeExecutions, statusRef(last));
    const withOutput = snaps.some((s) => s.output);
    const sawFiles = withOutput ? checkVisibility(v, executionId, snaps) : false;
    if (withOutput) checkTimesOrdered(v, executionId, snaps);
    const outputNodesUnread = withOutput
      ? observeOutputNodes(v, executionId, snaps)
      : `the output of ${executionId} was not read`;
    return {
      executionId,
      finalStatus: last?.status.status,
      sawFiles,
      sawIntermediate,
      ...(outputNodesUnread ? { outputNodesUnread } : {}),
    };
  },
);

/**
 * Execution status (data.status, optional): the sequence is recorded (transitions are not shown), a
 * terminal status must stay. Returns whether a non-terminal status was seen, and the block of
 * STATE-TERMINAL when the finish it left was premature (for the caller to record once that is judged).
 */
function checkExecutionStatus(
  v: History,
  executionId: string,
  snaps: Snapshot[],
  cutShort: Cause | undefined,
): { sawIntermediate: boolean; premature?: Cause } {
  const last = snaps[snaps.length - 1];
  const read = snaps.filter((s) => s.status.status !== undefined);
  if (read.length === 0) {
    v.notRun(
      'STATE-TERMINAL',
      cannotJudge(`data.status absent from the ${snaps.length} status answer(s) of ${executionId}`),
    );
    return { sawIntermediate: false };
  }
  const execSeq = read.map((s) => s.status.status!);
  let leftTerminal: { text: string; refs: string[]; from: Snapshot } | undefined;
  for (let i = 1; i < execSeq.length; i++) {
    const [a, b] = [execSeq[i - 1], execSeq[i]];
    // A move to a status outside the enum is EXEC-STATUS-ENUM's finding, not this one's.
    if (TERMINAL.has(a) && a !== b && EXEC_STATUSES.includes(b))
      leftTerminal ??= {
        text: `${a}→${b} at poll ${i + 1}`,
        refs: [statusRef(read[i - 1]), statusRef(read[i])],
        from: read[i - 1],
      };
  }
  v.observe(
    'STATE-EXEC-FORWARD-ONLY',
    'execution status sequence across polls',
    sequenceText(execSeq),
    statusRef(last),
  );
  const open = leftTerminal ? unsettledNodes(leftTerminal.from) : [];
  // A finish read while nodes still ran was premature: that it did not last is the same deviation.
  const premature: Cause | undefined =
    leftTerminal && leftTerminal.from.status.status === 'finish' && open.length > 0
      ? {
          blockedBy: 'STATE-EXEC-FINISH-NODES-FINISHED',
          exchangeIds: leftTerminal.refs,
          reason: `execution ${executionId} left finish (${leftTerminal.text}) that it reported while ${open.join(', ')}`,
        }
      : undefined;
  // Nothing was seen to leave a terminal status, but the end of the history was never read.
  if (!premature && !leftTerminal && cutShort) v.blocked('STATE-TERMINAL', cutShort);
  else if (!premature)
    v.check('STATE-TERMINAL', !leftTerminal, {
      message: `execution ${executionId} stays in its terminal status`,
      expected: 'finish/failed never change',
      actual: leftTerminal?.text ?? execSeq.join(' '),
      exchangeId: leftTerminal?.refs[1] ?? statusRef(last),
      exchangeIds: leftTerminal?.refs,
    });
  for (const t of new Set(transitions(execSeq)))
    v.observe('STATE-TRANSITIONS', 'execution transition', t, statusRef(last));
  return { sawIntermediate: execSeq.some((s) => !TERMINAL.has(s)), ...(premature ? { premature } : {}) };
}

/**
 * STATUS-ECHOES-EXECUTION: the status of X answers with executionId X (must); STATE-STABLE-IDENTITY:
 * executionId and createdAt do not change across polls (should). Both fields are optional (§2.2): each
 * is judged on the answers that carry it. An id that is wrong but constant is the first clause's finding
 * only; one that is no string is STATUS-200-DATA's, on the answers that carry it.
 */
function checkIdentity(v: History, executionId: string, snaps: Snapshot[]): void {
  const lastRef = statusRef(snaps[snaps.length - 1]);
  const carrying = snaps.filter((s) => s.status.executionId !== undefined);
  const strings = carrying.filter((s) => typeof s.status.executionId === 'string');
  if (carrying.length === 0) {
    v.notRun(
      'STATUS-ECHOES-EXECUTION',
      cannotJudge(`data.executionId absent from the ${snaps.length} status answer(s) of ${executionId}`),
    );
  } else if (strings.length === 0) {
    v.blocked('STATUS-ECHOES-EXECUTION', {
      blockedBy: 'STATUS-200-DATA',
      exchangeIds: carrying.map(statusRef),
      reason: `the status of ${executionId} carries an executionId that is no string`,
    });
  } else {
    const other = strings.filter((s) => s.status.executionId !== executionId);
    v.check('STATUS-ECHOES-EXECUTION', other.length === 0, {
      message: `executionId in ${strings.length} status answers of ${executionId}`,
      expected: executionId,
      actual: other.length ? [...new Set(other.map((s) => s.status.executionId))].join(', ') : executionId,
      exchangeId: other.length ? statusRef(other[0]) : lastRef,
    });
  }
  const ids = strings.map((s) => s.status.executionId);
  const created = snaps.filter((s) => s.status.createdAt !== undefined);
  if (ids.length < 2 && created.length < 2) {
    const absent = [ids.length === 0 && 'data.executionId', created.length === 0 && 'data.createdAt'].filter(Boolean);
    v.notRun(
      'STATE-STABLE-IDENTITY',
      absent.length
        ? cannotJudge(`${absent.join(' and ')} absent from the status answers of ${executionId}`)
        : `fewer than two status answers of ${executionId} were read`,
    );
    return;
  }
  const distinctIds = new Set(ids);
  const distinctCreated = new Set(created.map((s) => s.status.createdAt));
  v.check('STATE-STABLE-IDENTITY', distinctIds.size <= 1 && distinctCreated.size <= 1, {
    message: `executionId and createdAt across ${snaps.length} polls of ${executionId}`,
    expected: 'one executionId and one createdAt',
    actual: `executionId ${[...distinctIds].join(', ') || '(absent)'}; createdAt ${[...distinctCreated].join(', ') || '(absent)'}`,
    exchangeId: lastRef,
  });
}

/**
 * Node statuses (optional, §2.2): the sequences are recorded, a terminal status must stay, and a
 * finished execution has no unfinished node — judged on the nodes whose status is given. A status
 * outside the enum is NODE-STATUS-ENUM's finding: what depends on reading it is blocked by that
 * clause's failure on the answer that carries it.
 */
function checkNodeStatuses(v: History, executionId: string, snaps: Snapshot[], cutShort: Cause | undefined): void {
  const lastRef = statusRef(snaps[snaps.length - 1]);
  const nodeSeq = new Map<string, { status: string; ref: string }[]>();
  for (const s of snaps)
    for (const n of s.status.nodeExecutions ?? [])
      if (n.status !== undefined)
        nodeSeq.set(n.nodeId, [...(nodeSeq.get(n.nodeId) ?? []), { status: n.status, ref: statusRef(s) }]);
  let nodeLeftTerminal: { text: string; refs: string[] } | undefined;
  const sequences = new Set<string>();
  const moves = new Set<string>();
  for (const [id, reads] of nodeSeq) {
    const seq = reads.map((r) => r.status);
    for (let i = 1; i < seq.length; i++) {
      if (TERMINAL.has(seq[i - 1]) && seq[i] !== seq[i - 1] && NODE_STATUSES.includes(seq[i]))
        nodeLeftTerminal ??= { text: `${id}: ${seq[i - 1]}→${seq[i]}`, refs: [reads[i - 1].ref, reads[i].ref] };
    }
    sequences.add(sequenceText(seq));
    for (const t of transitions(seq)) moves.add(t);
  }
  for (const seq of sequences) v.observe('STATE-NODE-FORWARD-ONLY', 'node status sequence across polls', seq, lastRef);
  for (const t of moves) v.observe('STATE-TRANSITIONS', 'node transition', t, lastRef);
  // Without any node status the execution's own status is what STATE-TERMINAL judges; a history cut short
  // shows a breach, but never that none came.
  if (nodeSeq.size > 0 && (nodeLeftTerminal || !cutShort)) {
    v.check('STATE-TERMINAL', !nodeLeftTerminal, {
      message: `nodes of ${executionId} stay in their terminal status`,
      expected: 'finish/failed never change',
      actual: nodeLeftTerminal?.text ?? 'stayed',
      exchangeId: nodeLeftTerminal?.refs[1] ?? lastRef,
      exchangeIds: nodeLeftTerminal?.refs,
    });
  }
  checkFinishedNodes(v, executionId, snaps, cutShort);
}

/**
 * STATE-ENDS-WHEN-NODES-SETTLE, on a history that reached its end: once every node had settled, the
 * execution read terminal. (One that stays put while they have settled is told by the poll itself, which
 * stops following it: a history cut short says nothing here.)
 */
function checkEndsWhenSettled(v: History, executionId: string, snaps: Snapshot[], cutShort: Cause | undefined): void {
  if (cutShort) return;
  const settled = snaps.findIndex(
    (s) =>
      (s.status.nodeExecutions ?? []).length > 0 &&
      (s.status.nodeExecutions ?? []).every((n) => TERMINAL.has(n.status ?? '')),
  );
  if (settled < 0) {
    v.notRun(ENDS_WHEN_NODES_SETTLE, cannotJudge(`no status answer of ${executionId} listed every node settled`));
    return;
  }
  const ended = snaps.slice(settled).find((s) => TERMINAL.has(s.status.status ?? ''));
  v.check(ENDS_WHEN_NODES_SETTLE, ended !== undefined, {
    message: `execution ${executionId} ends once its nodes have settled`,
    expected: 'finish or failed',
    actual: ended?.status.status ?? snaps[snaps.length - 1].status.status ?? '(no status)',
    exchangeId: statusRef(ended ?? snaps[snaps.length - 1]),
  });
}

/** Nodes of one status answer in a listed status that is not terminal ("node_2=executing"). */
function unsettledNodes(s: Snapshot): string[] {
  return (s.status.nodeExecutions ?? [])
    .filter((n) => n.status !== undefined && NODE_STATUSES.includes(n.status) && !TERMINAL.has(n.status))
    .map((n) => `${n.nodeId}=${n.status}`);
}

/** STATE-EXEC-FINISH-NODES-FINISHED, on every answer that reads the execution finish. */
function checkFinishedNodes(v: History, executionId: string, snaps: Snapshot[], cutShort: Cause | undefined): void {
  const finished = snaps.filter((x) => x.status.status === 'finish');
  if (finished.length === 0 && cutShort) v.blocked('STATE-EXEC-FINISH-NODES-FINISHED', cutShort);
  else if (finished.length === 0) {
    const last = snaps[snaps.length - 1].status.status;
    v.notRun(
      'STATE-EXEC-FINISH-NODES-FINISHED',
      `execution ${executionId} was never read as finish (last read: ${last ?? 'no status'})`,
    );
    return;
  }
  const reasons = new Set<string>();
  for (const s of finished) {
    const nodes = s.status.nodeExecutions;
    if (nodes === undefined) {
      reasons.add(cannotJudge(`data.nodeExecutions absent from the status of ${executionId}`));
      continue;
    }
    const given = nodes.filter((n) => n.status !== undefined);
    const unlisted = given.filter((n) => !NODE_STATUSES.includes(n.status!));
    if (unlisted.length > 0) {
      v.blocked('STATE-EXEC-FINISH-NODES-FINISHED', {
        blockedBy: 'NODE-STATUS-ENUM',
        exchangeIds: [statusRef(s)],
        reason: `nodes of ${executionId} report ${unlisted.map((n) => `${n.nodeId}=${n.status}`).join(', ')}`,
      });
      continue;
    }
    if (nodes.length > 0 && given.length === 0) {
      reasons.add(cannotJudge(`nodeExecutions[].status absent from the status of ${executionId}`));
      continue;
    }
    const open = unsettledNodes(s);
    v.check('STATE-EXEC-FINISH-NODES-FINISHED', open.length === 0, {
      message: `execution ${executionId} is finish${given.length < nodes.length ? ` (${nodes.length - given.length} node(s) without a status not judged)` : ''}`,
      expected: 'every node finish or failed',
      actual: open.join(', ') || 'all ended',
      exchangeId: statusRef(s),
    });
  }
  for (const reason of reasons) v.notRun('STATE-EXEC-FINISH-NODES-FINISHED', reason);
}

/**
 * An execution that stays in one status, not terminal, while every node has settled, as the poll saw it
 * (`stuck`: the reads in a row that show it): STATE-ENDS-WHEN-NODES-SETTLE warns, with those reads.
 */
export const judgeCannotFinish = executionHistory.judges((v, executionId: string, stuck: readonly Snapshot[]): void => {
  const snap = stuck[stuck.length - 1]!;
  const nodes = (snap.status.nodeExecutions ?? []).map((n) => `${n.nodeId}=${n.status}`).join(', ');
  v.check(ENDS_WHEN_NODES_SETTLE, false, {
    message: `execution ${executionId} stays "${snap.status.status}" after every node settled`,
    expected: 'finish or failed once no node has work left',
    actual: `"${snap.status.status}" for ${stuck.length} reads in a row over ${snap.at - stuck[0]!.at} ms; nodes: ${nodes}`,
    exchangeId: statusRef(snap),
    exchangeIds: stuck.map(statusRef),
  });
});

/** The status a workflow with a failing task ended in (what its end is, is not shown). */
export const observeFailingEnd = executionHistory.judges((v, facts: ExecutionFacts): void =>
  v.observe('STATE-TRANSITIONS', 'final status of a workflow with a failing task', facts.finalStatus ?? '(absent)'),
);
