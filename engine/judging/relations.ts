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
import type { Snapshot } from './judging.ts';
import { EXEC_STATUSES, NODE_STATUSES, type NodeExecution, type OutputNode, type WorkflowPlan } from './judging.ts';
import type { Cause, Verdict } from '../evidence/verdict.ts';

const TERMINAL = new Set(['finish', 'failed']);

function transitions(seq: string[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < seq.length; i++) if (seq[i] !== seq[i - 1]) out.push(`${seq[i - 1]}→${seq[i]}`);
  return out;
}

/** A sequence of statuses as read across polls, repeats collapsed: "init → executing → finish". */
function sequenceText(seq: string[]): string {
  return seq.filter((x, i) => i === 0 || x !== seq[i - 1]).join(' → ');
}

/** The node's id is the task's id, or derived from it (`node_<taskId>`). */
function idNamesTask(node: { nodeId: string }, task: { id: string }): boolean {
  return node.nodeId === task.id || node.nodeId.endsWith(task.id);
}

/** Whether a node of an execution corresponds to a task of the plan (same id, id-derived, or same title). */
function nodeMatchesTask(node: { nodeId: string; title?: string }, task: { id: string; title: string }): boolean {
  return idNamesTask(node, task) || (node.title !== undefined && node.title === task.title);
}

/** The reason a clause is not run: data it needs is absent, as the specification allows. */
function cannotJudge(what: string): string {
  return `cannot judge: ${what}`;
}

export interface ExecutionFacts {
  executionId: string;
  finalStatus?: string;
  sawFiles: boolean;
  sawIntermediate: boolean;
}

const statusRef = (s: Snapshot) => s.statusExchange.record.id;

/**
 * Runs the state-machine checks over the snapshots of one execution.
 * `executionId` is the one the run returned; `plan` the workflow's detail. The clauses about the
 * output are judged only when the output was read along (`withOutput`).
 */
export function checkExecutionHistory(
  v: Verdict,
  executionId: string,
  plan: WorkflowPlan | undefined,
  snaps: Snapshot[],
): ExecutionFacts {
  const last = snaps[snaps.length - 1];
  const { sawIntermediate, premature } = checkExecutionStatus(v, executionId, snaps);
  checkIdentity(v, executionId, snaps);
  checkNodeStatuses(v, executionId, snaps);
  // Recorded once the finish it names has been judged (by checkNodeStatuses), so that it blocks on that failure.
  if (premature) v.blocked('STATE-TERMINAL', premature);
  if (plan && last) checkNodesMatchPlan(v, plan, last.status.nodeExecutions, statusRef(last));
  const withOutput = snaps.some((s) => s.output);
  const sawFiles = withOutput ? checkVisibility(v, executionId, snaps) : false;
  if (withOutput) checkTimesOrdered(v, executionId, snaps);
  return { executionId, finalStatus: last?.status.status, sawFiles, sawIntermediate };
}

/**
 * Execution status (data.status, optional): the sequence is recorded (transitions are not shown), a
 * terminal status must stay. Returns whether a non-terminal status was seen, and the block of
 * STATE-TERMINAL when the finish it left was premature (for the caller to record once that is judged).
 */
function checkExecutionStatus(
  v: Verdict,
  executionId: string,
  snaps: Snapshot[],
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
  if (!premature)
    v.should('STATE-TERMINAL', !leftTerminal, {
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
function checkIdentity(v: Verdict, executionId: string, snaps: Snapshot[]): void {
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
    v.must('STATUS-ECHOES-EXECUTION', other.length === 0, {
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
  v.should('STATE-STABLE-IDENTITY', distinctIds.size <= 1 && distinctCreated.size <= 1, {
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
function checkNodeStatuses(v: Verdict, executionId: string, snaps: Snapshot[]): void {
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
  // Without any node status the execution's own status is what STATE-TERMINAL judges.
  if (nodeSeq.size > 0) {
    v.should('STATE-TERMINAL', !nodeLeftTerminal, {
      message: `nodes of ${executionId} stay in their terminal status`,
      expected: 'finish/failed never change',
      actual: nodeLeftTerminal?.text ?? 'stayed',
      exchangeId: nodeLeftTerminal?.refs[1] ?? lastRef,
      exchangeIds: nodeLeftTerminal?.refs,
    });
  }
  checkFinishedNodes(v, executionId, snaps);
}

/** Nodes of one status answer in a listed status that is not terminal ("node_2=executing"). */
function unsettledNodes(s: Snapshot): string[] {
  return (s.status.nodeExecutions ?? [])
    .filter((n) => n.status !== undefined && NODE_STATUSES.includes(n.status) && !TERMINAL.has(n.status))
    .map((n) => `${n.nodeId}=${n.status}`);
}

/** STATE-EXEC-FINISH-NODES-FINISHED, on every answer that reads the execution finish. */
function checkFinishedNodes(v: Verdict, executionId: string, snaps: Snapshot[]): void {
  const finished = snaps.filter((x) => x.status.status === 'finish');
  if (finished.length === 0) {
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
    v.should('STATE-EXEC-FINISH-NODES-FINISHED', open.length === 0, {
      message: `execution ${executionId} is finish${given.length < nodes.length ? ` (${nodes.length - given.length} node(s) without a status not judged)` : ''}`,
      expected: 'every node finish or failed',
      actual: open.join(', ') || 'all ended',
      exchangeId: statusRef(s),
    });
  }
  for (const reason of reasons) v.notRun('STATE-EXEC-FINISH-NODES-FINISHED', reason);
}

/** Node statuses by nodeId, as one status or output answer lists them (a node listed without one maps to undefined). */
function statusesOf(
  nodes: readonly { nodeId: string; status?: string }[] | undefined,
): Map<string, string | undefined> {
  return new Map((nodes ?? []).map((n) => [n.nodeId, n.status]));
}

/** A node's status as one answer gave it. */
interface StatusRead {
  status: string;
  ref: string;
}

/**
 * What a file's producing node was when the output showing the file was served: its status in that
 * output (when it lists the node) and in the status read after it — the next poll, or this poll's own
 * when the execution had already ended (then nothing changes any more). A node that finished between
 * two reads is never blamed: the later read already shows it finish.
 */
function producerStatuses(snaps: Snapshot[], i: number, nodeId: string): StatusRead[] {
  const s = snaps[i];
  const laterSnap = snaps[i + 1] ?? (TERMINAL.has(s.status.status ?? '') ? s : undefined);
  const reads: (StatusRead | undefined)[] = [
    withRef(statusesOf(s.output?.output).get(nodeId), s.outputExchange?.record.id),
    withRef(statusesOf(laterSnap?.status.nodeExecutions).get(nodeId), laterSnap && statusRef(laterSnap)),
  ];
  return reads.filter((r): r is StatusRead => r !== undefined);
}

function withRef(status: string | undefined, ref: string | undefined): StatusRead | undefined {
  return status !== undefined && ref !== undefined ? { status, ref } : undefined;
}

/** Every node of the execution as one output and the status read after it list them, with its statuses there. */
function allNodeStatuses(snaps: Snapshot[], i: number): Map<string, StatusRead[]> {
  const s = snaps[i];
  const laterSnap = snaps[i + 1] ?? (TERMINAL.has(s.status.status ?? '') ? s : undefined);
  const ids = new Set([
    ...(s.output?.output ?? []).map((n) => n.nodeId),
    ...(laterSnap?.status.nodeExecutions ?? []).map((n) => n.nodeId),
  ]);
  return new Map([...ids].map((id) => [id, producerStatuses(snaps, i, id)]));
}

/**
 * OUTPUT-FILE-NODE-EXISTS and OUTPUT-FILES-ONLY-AFTER-FINISH, for each file of each output read, from
 * both views (the output and the status), whether or not the output lists the node. Returns whether any
 * file was seen.
 */
function checkVisibility(v: Verdict, executionId: string, snaps: Snapshot[]): boolean {
  let sawFiles = false;
  let namedNode = false;
  const notJudged = { exists: new Set<string>(), finished: new Set<string>() };
  const finishedContent = new Map<string, string>();
  let contentJudged = false;
  const nodesOfExecution = new Set(
    snaps.flatMap((s) => [...(s.status.nodeExecutions ?? []), ...(s.output?.output ?? [])].map((n) => n.nodeId)),
  );
  snaps.forEach((s, i) => {
    if (!s.output) return;
    const outRef = s.outputExchange!.record.id;
    for (const f of s.output.files ?? []) {
      sawFiles = true;
      if (f.nodeId === undefined) {
        checkUnnamedProducer(v, f.name, allNodeStatuses(snaps, i), executionId, outRef, notJudged.finished);
        continue;
      }
      namedNode = true;
      if (nodesOfExecution.size === 0) {
        notJudged.exists.add(cannotJudge(`neither the status nor the output of ${executionId} lists its nodes`));
        notJudged.finished.add(cannotJudge(`neither the status nor the output of ${executionId} lists its nodes`));
        continue;
      }
      const exists = nodesOfExecution.has(f.nodeId);
      v.should('OUTPUT-FILE-NODE-EXISTS', exists, {
        message: `file ${f.name} names node ${f.nodeId}`,
        expected: 'a node of the execution',
        actual: exists ? 'listed' : 'no such node',
        exchangeId: outRef,
      });
      if (!exists) {
        // Which node's status to wait for is unknown: the must clause has nothing to judge that file on.
        v.blocked('OUTPUT-FILES-ONLY-AFTER-FINISH', {
          blockedBy: 'OUTPUT-FILE-NODE-EXISTS',
          exchangeIds: [outRef],
          reason: `file ${f.name} names node ${f.nodeId}, which the execution does not list`,
        });
        continue;
      }
      const reads = producerStatuses(snaps, i, f.nodeId);
      if (reads.length === 0) {
        notJudged.finished.add(cannotJudge(`the status of node ${f.nodeId} is absent from the output and the status`));
        continue;
      }
      checkProducerFinished(v, f.name, f.nodeId, reads, executionId, outRef);
    }
    for (const n of s.output.output ?? [])
      contentJudged = checkNodeContent(v, n, finishedContent, executionId, outRef) || contentJudged;
  });
  if (sawFiles && !namedNode)
    notJudged.exists.add(cannotJudge(`files[].nodeId absent from the output of ${executionId}`));
  for (const reason of notJudged.exists) v.notRun('OUTPUT-FILE-NODE-EXISTS', reason);
  for (const reason of notJudged.finished) v.notRun('OUTPUT-FILES-ONLY-AFTER-FINISH', reason);
  if (!contentJudged) v.notRun('OUTPUT-PARTIAL-CONTENT', partialContentNotJudged(executionId, snaps));
  return sawFiles;
}

/** Why no output node of an execution could be judged for partial content. */
function partialContentNotJudged(executionId: string, snaps: Snapshot[]): string {
  const nodes = snaps.flatMap((s) => s.output?.output ?? []);
  if (nodes.length === 0) return cannotJudge(`no output of ${executionId} lists a node`);
  if (nodes.every((n) => n.status === undefined)) return cannotJudge(`output[].status absent from ${executionId}`);
  return `no output node of ${executionId} was read before it executed, nor twice once finish`;
}

/** The node statuses `reads` hold, or the blocked verdict of `id` when one is outside the enum. */
function listedOrBlocked(v: Verdict, id: string, reads: StatusRead[], what: string): boolean {
  const unlisted = reads.filter((r) => !NODE_STATUSES.includes(r.status));
  if (unlisted.length === 0) return true;
  v.blocked(id, {
    blockedBy: 'NODE-STATUS-ENUM',
    exchangeIds: [...new Set(unlisted.map((r) => r.ref))],
    reason: `${what}: node status ${[...new Set(unlisted.map((r) => r.status))].join(', ')}`,
  });
  return false;
}

/**
 * A file's producer must have finished: one still init, waiting or executing fails the clause. A producer
 * that failed is recorded: "finished" may be read as "ended" as well as "status finish".
 */
function checkProducerFinished(
  v: Verdict,
  file: string,
  nodeId: string,
  reads: StatusRead[],
  executionId: string,
  ref: string,
): void {
  if (!listedOrBlocked(v, 'OUTPUT-FILES-ONLY-AFTER-FINISH', reads, `file ${file} of node ${nodeId}`)) return;
  const statuses = reads.map((r) => r.status);
  const running = statuses.some((st) => !TERMINAL.has(st));
  if (!running && statuses.includes('failed')) {
    v.observe('OUTPUT-FILES-ONLY-AFTER-FINISH', 'file of a node that failed', `file ${file} of node ${nodeId}`, ref);
    return;
  }
  v.must('OUTPUT-FILES-ONLY-AFTER-FINISH', !running, {
    message: `file ${file} of node ${nodeId} in the output of ${executionId}`,
    expected: 'its node has finished (in the output and in the status read after it)',
    actual: `node status ${[...new Set(statuses)].join(' / ')}`,
    exchangeId: ref,
  });
}

/**
 * A file that names no producing node (files[].nodeId is optional): whichever node produced it has
 * finished when every node of the execution has; otherwise its producer cannot be told.
 */
function checkUnnamedProducer(
  v: Verdict,
  file: string,
  nodes: Map<string, StatusRead[]>,
  executionId: string,
  ref: string,
  notJudged: Set<string>,
): void {
  const reads = [...nodes.values()];
  const allFinished = reads.length > 0 && reads.every((r) => r.length > 0 && r.every((x) => x.status === 'finish'));
  if (!allFinished) {
    notJudged.add(
      cannotJudge(`file ${file} names no producing node (files[].nodeId absent) and not every node reads finish`),
    );
    return;
  }
  v.must('OUTPUT-FILES-ONLY-AFTER-FINISH', true, {
    message: `file ${file} (no nodeId) in the output of ${executionId}`,
    expected: 'its node is finish',
    actual: 'every node of the execution is finish',
    exchangeId: ref,
  });
}

/** Parsed date-time and whether it carries fractions of a second (precision decides the tolerance). */
function instant(value: string | undefined): { ms: number; fine: boolean } | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : { ms, fine: /\d{2}:\d{2}:\d{2}\.\d/.test(value) };
}

/**
 * TIMES-ORDERED: per output node startTime ≤ endTime, and no node starts before the execution's
 * createdAt. Times of different precision (whole seconds against milliseconds) are compared with a
 * second of tolerance. The times are optional: without a pair to compare the clause is not run. An
 * unreadable time is DATETIME-FORMAT's finding, on the answer that carries it.
 */
function checkTimesOrdered(v: Verdict, executionId: string, snaps: Snapshot[]): void {
  const problems = new Set<string>();
  const problemRefs = new Set<string>();
  let judged = false;
  let unreadable: { text: string; refs: Set<string> } | undefined;
  const unreadableAt = (text: string, ref: string) => {
    unreadable ??= { text, refs: new Set() };
    unreadable.refs.add(ref);
  };
  for (const s of snaps) {
    const created = instant(s.status.createdAt);
    if (s.status.createdAt !== undefined && !created) unreadableAt(`createdAt ${s.status.createdAt}`, statusRef(s));
    const outRef = s.outputExchange?.record.id;
    for (const n of s.output?.output ?? []) {
      const [start, end] = [instant(n.startTime), instant(n.endTime)];
      if (outRef && ((n.startTime !== undefined && !start) || (n.endTime !== undefined && !end)))
        unreadableAt(`node ${n.nodeId}: ${n.startTime} / ${n.endTime}`, outRef);
      const slack = (a: { fine: boolean }, b: { fine: boolean }) => (a.fine && b.fine ? 0 : 1000);
      if (start && end) {
        judged = true;
        if (end.ms + slack(start, end) < start.ms) {
          problems.add(`node ${n.nodeId} ends (${n.endTime}) before it starts (${n.startTime})`);
          if (outRef) problemRefs.add(outRef);
        }
      }
      if (start && created) {
        judged = true;
        if (start.ms + slack(start, created) < created.ms) {
          problems.add(
            `node ${n.nodeId} starts (${n.startTime}) before the execution was created (${s.status.createdAt})`,
          );
          if (outRef) problemRefs.add(outRef);
          problemRefs.add(statusRef(s));
        }
      }
    }
  }
  const ref = snaps[snaps.length - 1]?.outputExchange?.record.id;
  if (!judged) {
    if (unreadable)
      v.blocked('TIMES-ORDERED', {
        blockedBy: 'DATETIME-FORMAT',
        exchangeIds: [...unreadable.refs],
        reason: `execution ${executionId}: ${unreadable.text}`,
      });
    else
      v.notRun(
        'TIMES-ORDERED',
        cannotJudge(`output[].startTime and endTime, or createdAt, absent from the answers about ${executionId}`),
      );
    return;
  }
  v.should('TIMES-ORDERED', problems.size === 0, {
    message: `start, end and creation times of ${executionId}`,
    expected: 'createdAt ≤ startTime ≤ endTime',
    actual: [...problems].slice(0, 3).join('; ') || 'ordered',
    exchangeId: problemRefs.size ? [...problemRefs][0] : ref,
    exchangeIds: problemRefs.size ? [...problemRefs] : undefined,
  });
}

function contentOf(n: OutputNode): string {
  return (n.messages ?? []).map((m) => `${m.messageId}:${m.content ?? ''}|${m.reasoningContent ?? ''}`).join('\n');
}

/** OUTPUT-PARTIAL-CONTENT for one output node as read once; returns whether it judged anything. */
function checkNodeContent(
  v: Verdict,
  n: OutputNode,
  finished: Map<string, string>,
  executionId: string,
  ref: string,
): boolean {
  const hasContent = (n.messages ?? []).some((m) => (m.content ?? '') !== '' || (m.reasoningContent ?? '') !== '');
  if (n.status === 'init' || n.status === 'waiting') {
    v.should('OUTPUT-PARTIAL-CONTENT', !hasContent, {
      message: `node ${n.nodeId} of ${executionId} is ${n.status}`,
      expected: 'no message content before the node executes',
      actual: hasContent ? 'content present' : 'none',
      exchangeId: ref,
    });
    return true;
  }
  if (n.status !== 'finish') return false;
  const now = contentOf(n);
  const before = finished.get(n.nodeId);
  if (before === undefined) {
    finished.set(n.nodeId, now);
    return false;
  }
  v.should('OUTPUT-PARTIAL-CONTENT', before === now, {
    message: `node ${n.nodeId} of ${executionId} was already finish`,
    expected: 'complete (unchanging) content once finish',
    actual: before === now ? 'unchanged' : 'content changed after finish',
    exchangeId: ref,
  });
  return true;
}

/**
 * STATE-NODES-MATCH-PLAN: one node per task. A node corresponds to a task by its id (the task's, or
 * derived from it) or by its title; how node ids relate to task ids is not shown and the title is
 * optional, so nodes that carry neither cannot be matched: when they could be the unmatched tasks, the
 * clause is not run. Node and task counts that differ are judged whatever the ids.
 */
export function checkNodesMatchPlan(
  v: Verdict,
  plan: WorkflowPlan,
  nodes: NodeExecution[] | undefined,
  exchangeId: string,
): void {
  if (nodes === undefined) {
    v.notRun('STATE-NODES-MATCH-PLAN', cannotJudge('data.nodeExecutions absent from the status'));
    return;
  }
  const unmatchedTasks = plan.tasks.filter((t) => !nodes.some((n) => nodeMatchesTask(n, t)));
  const unmatchedNodes = nodes.filter((n) => !plan.tasks.some((t) => nodeMatchesTask(n, t)));
  const idsNameTasks = nodes.some((n) => plan.tasks.some((t) => idNamesTask(n, t)));
  const opaque = idsNameTasks ? [] : unmatchedNodes.filter((n) => n.title === undefined);
  if (nodes.length === plan.tasks.length && unmatchedTasks.length > 0 && opaque.length >= unmatchedTasks.length) {
    const titles =
      opaque.length === nodes.length ? 'nodeExecutions[].title absent' : `${opaque.length} node(s) without a title`;
    v.notRun('STATE-NODES-MATCH-PLAN', cannotJudge(`${titles} and node ids are not task ids`));
    return;
  }
  v.should(
    'STATE-NODES-MATCH-PLAN',
    nodes.length === plan.tasks.length && unmatchedTasks.length === 0 && unmatchedNodes.length === 0,
    {
      message: `nodes of the execution against the ${plan.tasks.length} tasks of "${plan.title}"`,
      expected: `one node per task (${plan.tasks.map((t) => t.id).join(', ')})`,
      actual: `${nodes.length} nodes (${nodes.map((n) => n.nodeId).join(', ')}); unmatched tasks: ${unmatchedTasks.map((t) => t.id).join(', ') || 'none'}; unmatched nodes: ${unmatchedNodes.map((n) => n.nodeId).join(', ') || 'none'}`,
      exchangeId,
    },
  );
}

/**
 * Plan semantics the schema cannot state: dependencies exist and have no cycle; options only on option
 * variables. dependentTasks and variables are optional: a plan without them says nothing of either.
 */
export function checkPlanSemantics(v: Verdict, plan: WorkflowPlan, where: string, exchangeId?: string): void {
  if (!plan || !Array.isArray(plan.tasks)) return;
  if (!plan.tasks.some((t) => Array.isArray(t.dependentTasks) && t.dependentTasks.length > 0))
    v.notRun('PLAN-DEPENDENCIES-EXIST', cannotJudge(`no task of ${where} lists dependentTasks`));
  else checkDependencies(v, plan, where, exchangeId);
  const variables = plan.variables ?? [];
  if (variables.length === 0) {
    v.notRun('PLAN-OPTIONS-ONLY-FOR-OPTION', cannotJudge(`${where} has no variables`));
    return;
  }
  const misplaced = variables
    .filter((x) => x.options !== undefined && x.variableType !== 'option')
    .map((x) => `${x.name} (${x.variableType ?? 'no type'})`);
  v.should('PLAN-OPTIONS-ONLY-FOR-OPTION', misplaced.length === 0, {
    message: `variables of ${where}`,
    expected: 'options only on option variables',
    actual: misplaced.join(', ') || 'ok',
    exchangeId,
  });
}

function checkDependencies(v: Verdict, plan: WorkflowPlan, where: string, exchangeId?: string): void {
  const ids = new Set(plan.tasks.map((t) => t.id));
  const dangling = plan.tasks.flatMap((t) =>
    (t.dependentTasks ?? []).filter((d) => !ids.has(d)).map((d) => `${t.id}→${d}`),
  );
  const cycle = findCycle(plan);
  v.should('PLAN-DEPENDENCIES-EXIST', dangling.length === 0 && !cycle, {
    message: `dependencies of ${where}`,
    expected: 'every dependentTasks entry names a task of the plan; no cycle',
    actual: dangling.length ? `unknown: ${dangling.join(', ')}` : cycle ? `cycle: ${cycle}` : 'ok',
    exchangeId,
  });
}

function findCycle(plan: WorkflowPlan): string | undefined {
  const deps = new Map(plan.tasks.map((t) => [t.id, t.dependentTasks ?? []]));
  const state = new Map<string, 1 | 2>();
  const visit = (id: string, path: string[]): string | undefined => {
    if (state.get(id) === 2) return undefined;
    if (state.get(id) === 1) return [...path, id].join('→');
    state.set(id, 1);
    for (const d of deps.get(id) ?? []) {
      if (!deps.has(d)) continue;
      const found = visit(d, [...path, id]);
      if (found) return found;
    }
    state.set(id, 2);
    return undefined;
  };
  for (const t of plan.tasks) {
    const found = visit(t.id, []);
    if (found) return found;
  }
  return undefined;
}
