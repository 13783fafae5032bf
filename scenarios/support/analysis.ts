/**
 * Checks over sequences of snapshots of one execution (state machine,
 * visibility of files and partial content) and over plans (semantics the
 * schema cannot state). Each check names its requirement.
 */
import { SCHEMA_BUNDLE } from '../../contracts/generated/schemas.ts';
import type { Snapshot } from './poll.ts';
import type { NodeExecution, OutputNode, WorkflowPlan } from './shapes.ts';
import type { Verdict } from '../verdict/verdict.ts';

/** The 20 locales §4.8 lists, read from the contract (never written twice). */
export const LOCALES: readonly string[] = (SCHEMA_BUNDLE as unknown as { $defs: { Locale: { enum: string[] } } }).$defs.Locale.enum;

const EXEC_RANK: Record<string, number> = { init: 0, executing: 1, finish: 2, failed: 2 };
const NODE_RANK: Record<string, number> = { init: 0, waiting: 1, executing: 2, finish: 3, failed: 3 };
const TERMINAL = new Set(['finish', 'failed']);

function transitions(seq: string[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < seq.length; i++) if (seq[i] !== seq[i - 1]) out.push(`${seq[i - 1]}→${seq[i]}`);
  return out;
}

/** Whether a node of an execution corresponds to a task of the plan (same id, id-derived, or same title). */
function nodeMatchesTask(node: { nodeId: string; title?: string }, task: { id: string; title: string }): boolean {
  return node.nodeId === task.id || node.nodeId.endsWith(task.id) || (node.title !== undefined && node.title === task.title);
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
export function checkExecutionHistory(v: Verdict, executionId: string, plan: WorkflowPlan | undefined, snaps: Snapshot[]): ExecutionFacts {
  const last = snaps[snaps.length - 1];
  const sawIntermediate = checkExecutionStatus(v, executionId, snaps);
  checkStableIdentity(v, executionId, snaps);
  checkNodeStatuses(v, executionId, snaps);
  if (plan && last) checkNodesMatchPlan(v, plan, last.status.nodeExecutions ?? [], statusRef(last));
  const sawFiles = checkVisibility(v, executionId, snaps);
  return { executionId, finalStatus: last?.status.status, sawFiles, sawIntermediate };
}

/** Execution status: forward only, terminal stays. Returns whether a non-terminal status was seen. */
function checkExecutionStatus(v: Verdict, executionId: string, snaps: Snapshot[]): boolean {
  const last = snaps[snaps.length - 1];
  const execSeq = snaps.map((s) => s.status.status ?? '(absent)');
  let backward: string | undefined;
  let leftTerminal: string | undefined;
  for (let i = 1; i < execSeq.length; i++) {
    const [a, b] = [execSeq[i - 1], execSeq[i]];
    if ((EXEC_RANK[b] ?? 0) < (EXEC_RANK[a] ?? 0)) backward ??= `${a}→${b} at poll ${i + 1}`;
    if (TERMINAL.has(a) && a !== b) leftTerminal ??= `${a}→${b} at poll ${i + 1}`;
  }
  v.should('STATE-EXEC-FORWARD-ONLY', !backward, { message: `execution ${executionId} status across ${snaps.length} polls: ${transitions(execSeq).join(', ') || execSeq[0]}`, expected: 'init → executing → finish/failed, never backwards', actual: backward ?? execSeq.join(' '), exchangeId: statusRef(last) });
  v.should('STATE-TERMINAL', !leftTerminal, { message: `execution ${executionId} stays in its terminal status`, expected: 'finish/failed never change', actual: leftTerminal ?? execSeq.join(' '), exchangeId: statusRef(last) });
  for (const t of transitions(execSeq)) v.observe('STATE-TRANSITIONS', 'execution transition', t, statusRef(last));
  return execSeq.some((s) => !TERMINAL.has(s));
}

function checkStableIdentity(v: Verdict, executionId: string, snaps: Snapshot[]): void {
  const ids = new Set(snaps.map((s) => s.status.executionId));
  const created = new Set(snaps.map((s) => s.status.createdAt));
  v.should('STATE-STABLE-IDENTITY', ids.size === 1 && ids.has(executionId) && created.size === 1, {
    message: `executionId and createdAt across ${snaps.length} polls of ${executionId}`,
    expected: `executionId ${executionId} and one createdAt`,
    actual: `executionId ${[...ids].join(', ')}; createdAt ${[...created].join(', ')}`,
    exchangeId: statusRef(snaps[snaps.length - 1]),
  });
}

/** Node statuses: forward only, terminal stays; a finished execution has no unfinished node. */
function checkNodeStatuses(v: Verdict, executionId: string, snaps: Snapshot[]): void {
  const lastRef = statusRef(snaps[snaps.length - 1]);
  const nodeSeq = new Map<string, string[]>();
  for (const s of snaps) for (const n of s.status.nodeExecutions ?? []) nodeSeq.set(n.nodeId, [...(nodeSeq.get(n.nodeId) ?? []), n.status ?? '(absent)']);
  let nodeBackward: string | undefined;
  let nodeLeftTerminal: string | undefined;
  for (const [id, seq] of nodeSeq) {
    for (let i = 1; i < seq.length; i++) {
      if ((NODE_RANK[seq[i]] ?? 0) < (NODE_RANK[seq[i - 1]] ?? 0)) nodeBackward ??= `${id}: ${seq[i - 1]}→${seq[i]}`;
      if (TERMINAL.has(seq[i - 1]) && seq[i] !== seq[i - 1]) nodeLeftTerminal ??= `${id}: ${seq[i - 1]}→${seq[i]}`;
    }
    for (const t of transitions(seq)) v.observe('STATE-TRANSITIONS', 'node transition', t, lastRef);
  }
  if (nodeSeq.size > 0) {
    v.should('STATE-NODE-FORWARD-ONLY', !nodeBackward, { message: `node statuses of ${executionId} only move forward`, expected: 'init → waiting → executing → finish/failed', actual: nodeBackward ?? 'forward only', exchangeId: lastRef });
    v.should('STATE-TERMINAL', !nodeLeftTerminal, { message: `nodes of ${executionId} stay in their terminal status`, expected: 'finish/failed never change', actual: nodeLeftTerminal ?? 'stayed', exchangeId: lastRef });
  }
  for (const s of snaps.filter((x) => x.status.status === 'finish')) {
    const open = (s.status.nodeExecutions ?? []).filter((n) => !TERMINAL.has(n.status ?? ''));
    v.should('STATE-EXEC-FINISH-NODES-FINISHED', open.length === 0, { message: `execution ${executionId} is finish`, expected: 'every node finish or failed', actual: open.map((n) => `${n.nodeId}=${n.status}`).join(', ') || 'all ended', exchangeId: statusRef(s) });
  }
}

/** Visibility: files only for finished nodes; content partial only while executing or after failure. Returns whether any file was seen. */
function checkVisibility(v: Verdict, executionId: string, snaps: Snapshot[]): boolean {
  let sawFiles = false;
  const finishedContent = new Map<string, string>();
  snaps.forEach((s, i) => {
    if (!s.output) return;
    const outRef = s.outputExchange!.record.id;
    const nodeStatus = new Map<string, string | undefined>((s.output.output ?? []).map((n) => [n.nodeId, n.status]));
    // A node the output does not list is judged by the status read *after* this output (the next poll),
    // so a node that finished between the two reads is never blamed.
    const later = snaps[i + 1]?.status ?? s.status;
    for (const n of later.nodeExecutions ?? []) if (!nodeStatus.get(n.nodeId)) nodeStatus.set(n.nodeId, n.status);
    for (const f of s.output.files ?? []) {
      sawFiles = true;
      if (f.nodeId === undefined) continue;
      const st = nodeStatus.get(f.nodeId);
      // A file naming no node of the execution is OUTPUT-FILE-NODE-EXISTS's finding (should); the
      // must clause about finished nodes can only be judged for a node whose status is known.
      if (nodeStatus.has(f.nodeId)) v.must('OUTPUT-FILES-ONLY-AFTER-FINISH', st === 'finish', { message: `file ${f.name} of node ${f.nodeId} in the output of ${executionId}`, expected: 'its node is finish', actual: `node status ${st ?? '(node not listed)'}`, exchangeId: outRef });
      v.should('OUTPUT-FILE-NODE-EXISTS', nodeStatus.has(f.nodeId), { message: `file ${f.name} names node ${f.nodeId}`, expected: 'a node of the execution', actual: nodeStatus.has(f.nodeId) ? 'listed' : 'no such node', exchangeId: outRef });
    }
    for (const n of s.output.output ?? []) checkNodeContent(v, n, finishedContent, executionId, outRef);
  });
  return sawFiles;
}

function contentOf(n: OutputNode): string {
  return (n.messages ?? []).map((m) => `${m.messageId}:${m.content ?? ''}|${m.reasoningContent ?? ''}`).join('\n');
}

function checkNodeContent(v: Verdict, n: OutputNode, finished: Map<string, string>, executionId: string, ref: string): void {
  const hasContent = (n.messages ?? []).some((m) => (m.content ?? '') !== '' || (m.reasoningContent ?? '') !== '');
  if (n.status === 'init' || n.status === 'waiting') {
    v.should('OUTPUT-PARTIAL-CONTENT', !hasContent, { message: `node ${n.nodeId} of ${executionId} is ${n.status}`, expected: 'no message content before the node executes', actual: hasContent ? 'content present' : 'none', exchangeId: ref });
  }
  if (n.status === 'finish') {
    const now = contentOf(n);
    const before = finished.get(n.nodeId);
    if (before === undefined) finished.set(n.nodeId, now);
    else v.should('OUTPUT-PARTIAL-CONTENT', before === now, { message: `node ${n.nodeId} of ${executionId} was already finish`, expected: 'complete (unchanging) content once finish', actual: before === now ? 'unchanged' : 'content changed after finish', exchangeId: ref });
  }
}

export function checkNodesMatchPlan(v: Verdict, plan: WorkflowPlan, nodes: NodeExecution[], exchangeId: string): void {
  const unmatchedTasks = plan.tasks.filter((t) => !nodes.some((n) => nodeMatchesTask(n, t)));
  const unmatchedNodes = nodes.filter((n) => !plan.tasks.some((t) => nodeMatchesTask(n, t)));
  v.should('STATE-NODES-MATCH-PLAN', nodes.length === plan.tasks.length && unmatchedTasks.length === 0 && unmatchedNodes.length === 0, {
    message: `nodes of the execution against the ${plan.tasks.length} tasks of "${plan.title}"`,
    expected: `one node per task (${plan.tasks.map((t) => t.id).join(', ')})`,
    actual: `${nodes.length} nodes (${nodes.map((n) => n.nodeId).join(', ')}); unmatched tasks: ${unmatchedTasks.map((t) => t.id).join(', ') || 'none'}; unmatched nodes: ${unmatchedNodes.map((n) => n.nodeId).join(', ') || 'none'}`,
    exchangeId,
  });
}

/** Plan semantics the schema cannot state: dependencies exist and have no cycle; options only on option variables. */
export function checkPlanSemantics(v: Verdict, plan: WorkflowPlan, where: string, exchangeId?: string): void {
  if (!plan || !Array.isArray(plan.tasks)) return;
  const ids = new Set(plan.tasks.map((t) => t.id));
  const dangling = plan.tasks.flatMap((t) => (t.dependentTasks ?? []).filter((d) => !ids.has(d)).map((d) => `${t.id}→${d}`));
  const cycle = findCycle(plan);
  v.should('PLAN-DEPENDENCIES-EXIST', dangling.length === 0 && !cycle, { message: `dependencies of ${where}`, expected: 'every dependentTasks entry names a task of the plan; no cycle', actual: dangling.length ? `unknown: ${dangling.join(', ')}` : cycle ? `cycle: ${cycle}` : 'ok', exchangeId });
  const misplaced = (plan.variables ?? []).filter((x) => x.options !== undefined && x.variableType !== 'option').map((x) => `${x.name} (${x.variableType ?? 'no type'})`);
  if ((plan.variables ?? []).length > 0) {
    v.should('PLAN-OPTIONS-ONLY-FOR-OPTION', misplaced.length === 0, { message: `variables of ${where}`, expected: 'options only on option variables', actual: misplaced.join(', ') || 'ok', exchangeId });
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
