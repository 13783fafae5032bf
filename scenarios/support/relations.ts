/**
 * Checks over sequences of snapshots of one execution (state machine,
 * visibility of files and partial content) and over plans (semantics the
 * schema cannot state). Each check names its requirement.
 */
import type { Snapshot } from './poll.ts';
import { EXEC_STATUSES, NODE_STATUSES, type NodeExecution, type OutputNode, type WorkflowPlan } from './judging.ts';
import type { Verdict } from '../verdict/verdict.ts';

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

/** Whether a node of an execution corresponds to a task of the plan (same id, id-derived, or same title). */
function nodeMatchesTask(node: { nodeId: string; title?: string }, task: { id: string; title: string }): boolean {
  return (
    node.nodeId === task.id || node.nodeId.endsWith(task.id) || (node.title !== undefined && node.title === task.title)
  );
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
 * `executionId` is the one the run returned; `plan` the workflow's detail.
 */
export function checkExecutionHistory(
  v: Verdict,
  executionId: string,
  plan: WorkflowPlan | undefined,
  snaps: Snapshot[],
): ExecutionFacts {
  const last = snaps[snaps.length - 1];
  const sawIntermediate = checkExecutionStatus(v, executionId, snaps);
  checkIdentity(v, executionId, snaps);
  checkNodeStatuses(v, executionId, snaps);
  if (plan && last) checkNodesMatchPlan(v, plan, last.status.nodeExecutions ?? [], statusRef(last));
  const sawFiles = checkVisibility(v, executionId, snaps);
  checkTimesOrdered(v, executionId, snaps);
  return { executionId, finalStatus: last?.status.status, sawFiles, sawIntermediate };
}

/**
 * Execution status: the sequence is recorded (transitions are not shown), a terminal status must
 * stay. Returns whether a non-terminal status was seen.
 */
function checkExecutionStatus(v: Verdict, executionId: string, snaps: Snapshot[]): boolean {
  const last = snaps[snaps.length - 1];
  const execSeq = snaps.map((s) => s.status.status ?? '(absent)');
  let leftTerminal: string | undefined;
  for (let i = 1; i < execSeq.length; i++) {
    const [a, b] = [execSeq[i - 1], execSeq[i]];
    // A move to a status outside the enum is EXEC-STATUS-ENUM's finding, not this one's.
    if (TERMINAL.has(a) && a !== b && EXEC_STATUSES.includes(b)) leftTerminal ??= `${a}→${b} at poll ${i + 1}`;
  }
  v.observe(
    'STATE-EXEC-FORWARD-ONLY',
    'execution status sequence across polls',
    sequenceText(execSeq),
    statusRef(last),
  );
  v.should('STATE-TERMINAL', !leftTerminal, {
    message: `execution ${executionId} stays in its terminal status`,
    expected: 'finish/failed never change',
    actual: leftTerminal ?? execSeq.join(' '),
    exchangeId: statusRef(last),
  });
  for (const t of new Set(transitions(execSeq)))
    v.observe('STATE-TRANSITIONS', 'execution transition', t, statusRef(last));
  return execSeq.some((s) => !TERMINAL.has(s));
}

/**
 * STATUS-ECHOES-EXECUTION: the status of X answers with executionId X (must); STATE-STABLE-IDENTITY:
 * executionId and createdAt do not change across polls (should). An id that is wrong but constant is
 * the first clause's finding only.
 */
function checkIdentity(v: Verdict, executionId: string, snaps: Snapshot[]): void {
  const lastRef = statusRef(snaps[snaps.length - 1]);
  const echoed = snaps.map((s) => s.status.executionId);
  if (echoed.some((id) => typeof id !== 'string')) {
    v.blocked('STATUS-ECHOES-EXECUTION', 'STATUS-200-DATA', `the status of ${executionId} carries no executionId`);
  } else {
    const other = [...new Set(echoed.filter((id) => id !== executionId))];
    v.must('STATUS-ECHOES-EXECUTION', other.length === 0, {
      message: `executionId in ${snaps.length} status answers of ${executionId}`,
      expected: executionId,
      actual: other.length ? other.join(', ') : executionId,
      exchangeId: lastRef,
    });
  }
  const ids = new Set(echoed);
  const created = new Set(snaps.map((s) => s.status.createdAt));
  v.should('STATE-STABLE-IDENTITY', ids.size === 1 && created.size === 1, {
    message: `executionId and createdAt across ${snaps.length} polls of ${executionId}`,
    expected: 'one executionId and one createdAt',
    actual: `executionId ${[...ids].join(', ')}; createdAt ${[...created].join(', ')}`,
    exchangeId: lastRef,
  });
}

/**
 * Node statuses: the sequences are recorded, a terminal status must stay, and a finished execution
 * has no unfinished node. A status outside the enum is NODE-STATUS-ENUM's finding: what depends on
 * reading it is blocked by that clause.
 */
function checkNodeStatuses(v: Verdict, executionId: string, snaps: Snapshot[]): void {
  const lastRef = statusRef(snaps[snaps.length - 1]);
  const nodeSeq = new Map<string, string[]>();
  for (const s of snaps)
    for (const n of s.status.nodeExecutions ?? [])
      nodeSeq.set(n.nodeId, [...(nodeSeq.get(n.nodeId) ?? []), n.status ?? '(absent)']);
  let nodeLeftTerminal: string | undefined;
  const sequences = new Set<string>();
  const moves = new Set<string>();
  for (const [id, seq] of nodeSeq) {
    for (let i = 1; i < seq.length; i++) {
      if (TERMINAL.has(seq[i - 1]) && seq[i] !== seq[i - 1] && NODE_STATUSES.includes(seq[i]))
        nodeLeftTerminal ??= `${id}: ${seq[i - 1]}→${seq[i]}`;
    }
    sequences.add(sequenceText(seq));
    for (const t of transitions(seq)) moves.add(t);
  }
  for (const seq of sequences) v.observe('STATE-NODE-FORWARD-ONLY', 'node status sequence across polls', seq, lastRef);
  for (const t of moves) v.observe('STATE-TRANSITIONS', 'node transition', t, lastRef);
  if (nodeSeq.size > 0) {
    v.should('STATE-TERMINAL', !nodeLeftTerminal, {
      message: `nodes of ${executionId} stay in their terminal status`,
      expected: 'finish/failed never change',
      actual: nodeLeftTerminal ?? 'stayed',
      exchangeId: lastRef,
    });
  }
  for (const s of snaps.filter((x) => x.status.status === 'finish')) {
    const nodes = s.status.nodeExecutions ?? [];
    const unlisted = nodes.filter((n) => !NODE_STATUSES.includes(n.status ?? ''));
    if (unlisted.length > 0) {
      v.blocked(
        'STATE-EXEC-FINISH-NODES-FINISHED',
        'NODE-STATUS-ENUM',
        `nodes of ${executionId} report ${unlisted.map((n) => `${n.nodeId}=${n.status}`).join(', ')}`,
      );
      continue;
    }
    const open = nodes.filter((n) => !TERMINAL.has(n.status ?? ''));
    v.should('STATE-EXEC-FINISH-NODES-FINISHED', open.length === 0, {
      message: `execution ${executionId} is finish`,
      expected: 'every node finish or failed',
      actual: open.map((n) => `${n.nodeId}=${n.status}`).join(', ') || 'all ended',
      exchangeId: statusRef(s),
    });
  }
}

/** Node statuses by nodeId, as one status or output answer lists them. */
function statusesOf(
  nodes: readonly { nodeId: string; status?: string }[] | undefined,
): Map<string, string | undefined> {
  return new Map((nodes ?? []).map((n) => [n.nodeId, n.status]));
}

/**
 * What a file's producing node was when the output showing the file was served: its status in that
 * output (when it lists the node) and in the status read after it — the next poll, or this poll's own
 * when the execution had already ended (then nothing changes any more). A node that finished between
 * two reads is never blamed: the later read already shows it finish.
 */
function producerStatuses(snaps: Snapshot[], i: number, nodeId: string): string[] {
  const s = snaps[i];
  const later = snaps[i + 1]?.status ?? (TERMINAL.has(s.status.status ?? '') ? s.status : undefined);
  return [statusesOf(s.output?.output).get(nodeId), statusesOf(later?.nodeExecutions).get(nodeId)].filter(
    (st): st is string => st !== undefined,
  );
}

/**
 * OUTPUT-FILES-ONLY-AFTER-FINISH, judged for each file's producing node from both views (the output
 * and the status), whether or not the output lists the node. Returns whether any file was seen.
 */
function checkVisibility(v: Verdict, executionId: string, snaps: Snapshot[]): boolean {
  let sawFiles = false;
  const finishedContent = new Map<string, string>();
  const nodesOfExecution = new Set(
    snaps.flatMap((s) => [...(s.status.nodeExecutions ?? []), ...(s.output?.output ?? [])].map((n) => n.nodeId)),
  );
  snaps.forEach((s, i) => {
    if (!s.output) return;
    const outRef = s.outputExchange!.record.id;
    for (const f of s.output.files ?? []) {
      sawFiles = true;
      if (f.nodeId === undefined) continue;
      const exists = nodesOfExecution.has(f.nodeId);
      v.should('OUTPUT-FILE-NODE-EXISTS', exists, {
        message: `file ${f.name} names node ${f.nodeId}`,
        expected: 'a node of the execution',
        actual: exists ? 'listed' : 'no such node',
        exchangeId: outRef,
      });
      checkProducerFinished(v, f.name, f.nodeId, producerStatuses(snaps, i, f.nodeId), executionId, outRef);
    }
    for (const n of s.output.output ?? []) checkNodeContent(v, n, finishedContent, executionId, outRef);
  });
  return sawFiles;
}

function checkProducerFinished(
  v: Verdict,
  file: string,
  nodeId: string,
  statuses: string[],
  executionId: string,
  ref: string,
): void {
  // A file naming no node of the execution is OUTPUT-FILE-NODE-EXISTS's finding (should); the must
  // clause can only be judged for a node whose status is known, and read as one the enum lists.
  if (statuses.length === 0) return;
  const unlisted = statuses.filter((st) => !NODE_STATUSES.includes(st));
  if (unlisted.length > 0) {
    v.blocked(
      'OUTPUT-FILES-ONLY-AFTER-FINISH',
      'NODE-STATUS-ENUM',
      `file ${file} of node ${nodeId}: node status ${unlisted.join(', ')}`,
    );
    return;
  }
  v.must(
    'OUTPUT-FILES-ONLY-AFTER-FINISH',
    statuses.every((st) => st === 'finish'),
    {
      message: `file ${file} of node ${nodeId} in the output of ${executionId}`,
      expected: 'its node is finish (in the output and in the status read after it)',
      actual: `node status ${[...new Set(statuses)].join(' / ')}`,
      exchangeId: ref,
    },
  );
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
 * second of tolerance. An unreadable time is DATETIME-FORMAT's finding.
 */
function checkTimesOrdered(v: Verdict, executionId: string, snaps: Snapshot[]): void {
  const problems = new Set<string>();
  let judged = false;
  let unreadable: string | undefined;
  for (const s of snaps) {
    const created = instant(s.status.createdAt);
    if (s.status.createdAt !== undefined && !created) unreadable ??= `createdAt ${s.status.createdAt}`;
    for (const n of s.output?.output ?? []) {
      const [start, end] = [instant(n.startTime), instant(n.endTime)];
      if ((n.startTime !== undefined && !start) || (n.endTime !== undefined && !end))
        unreadable ??= `node ${n.nodeId}: ${n.startTime} / ${n.endTime}`;
      const slack = (a: { fine: boolean }, b: { fine: boolean }) => (a.fine && b.fine ? 0 : 1000);
      if (start && end) {
        judged = true;
        if (end.ms + slack(start, end) < start.ms)
          problems.add(`node ${n.nodeId} ends (${n.endTime}) before it starts (${n.startTime})`);
      }
      if (start && created) {
        judged = true;
        if (start.ms + slack(start, created) < created.ms)
          problems.add(
            `node ${n.nodeId} starts (${n.startTime}) before the execution was created (${s.status.createdAt})`,
          );
      }
    }
  }
  const ref = snaps[snaps.length - 1]?.outputExchange?.record.id;
  if (unreadable && !judged) v.blocked('TIMES-ORDERED', 'DATETIME-FORMAT', `execution ${executionId}: ${unreadable}`);
  if (!judged) return;
  v.should('TIMES-ORDERED', problems.size === 0, {
    message: `start, end and creation times of ${executionId}`,
    expected: 'createdAt ≤ startTime ≤ endTime',
    actual: [...problems].slice(0, 3).join('; ') || 'ordered',
    exchangeId: ref,
  });
}

function contentOf(n: OutputNode): string {
  return (n.messages ?? []).map((m) => `${m.messageId}:${m.content ?? ''}|${m.reasoningContent ?? ''}`).join('\n');
}

function checkNodeContent(
  v: Verdict,
  n: OutputNode,
  finished: Map<string, string>,
  executionId: string,
  ref: string,
): void {
  const hasContent = (n.messages ?? []).some((m) => (m.content ?? '') !== '' || (m.reasoningContent ?? '') !== '');
  if (n.status === 'init' || n.status === 'waiting') {
    v.should('OUTPUT-PARTIAL-CONTENT', !hasContent, {
      message: `node ${n.nodeId} of ${executionId} is ${n.status}`,
      expected: 'no message content before the node executes',
      actual: hasContent ? 'content present' : 'none',
      exchangeId: ref,
    });
  }
  if (n.status === 'finish') {
    const now = contentOf(n);
    const before = finished.get(n.nodeId);
    if (before === undefined) finished.set(n.nodeId, now);
    else
      v.should('OUTPUT-PARTIAL-CONTENT', before === now, {
        message: `node ${n.nodeId} of ${executionId} was already finish`,
        expected: 'complete (unchanging) content once finish',
        actual: before === now ? 'unchanged' : 'content changed after finish',
        exchangeId: ref,
      });
  }
}

export function checkNodesMatchPlan(v: Verdict, plan: WorkflowPlan, nodes: NodeExecution[], exchangeId: string): void {
  const unmatchedTasks = plan.tasks.filter((t) => !nodes.some((n) => nodeMatchesTask(n, t)));
  const unmatchedNodes = nodes.filter((n) => !plan.tasks.some((t) => nodeMatchesTask(n, t)));
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

/** Plan semantics the schema cannot state: dependencies exist and have no cycle; options only on option variables. */
export function checkPlanSemantics(v: Verdict, plan: WorkflowPlan, where: string, exchangeId?: string): void {
  if (!plan || !Array.isArray(plan.tasks)) return;
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
  const misplaced = (plan.variables ?? [])
    .filter((x) => x.options !== undefined && x.variableType !== 'option')
    .map((x) => `${x.name} (${x.variableType ?? 'no type'})`);
  if ((plan.variables ?? []).length > 0) {
    v.should('PLAN-OPTIONS-ONLY-FOR-OPTION', misplaced.length === 0, {
      message: `variables of ${where}`,
      expected: 'options only on option variables',
      actual: misplaced.join(', ') || 'ok',
      exchangeId,
    });
  }
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
