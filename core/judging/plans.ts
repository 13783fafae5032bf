/**
 * Relations of a workflow plan that its schema cannot state (§2.5): its dependencies name tasks of the same
 * plan without a cycle, options only on option variables, and an execution's nodes correspond to its tasks.
 */
import type { WorkflowPlan, NodeExecution } from './payloads.ts';
import { judge, type Judging } from './judge.ts';
import { cannotJudge, idNamesTask, nodeMatchesTask } from './relation-basics.ts';

/** The judge of what a plan's schema cannot state: its dependencies, and options only where they belong. */
export const planSemantics = judge('the coherence of a plan', [
  'PLAN-DEPENDENCIES-EXIST',
  'PLAN-OPTIONS-ONLY-FOR-OPTION',
]);

/** The judge of an execution's nodes against the tasks of its workflow's plan. */
export const nodesMatchPlan = judge("an execution's nodes against its plan", ['STATE-NODES-MATCH-PLAN']);

/**
 * STATE-NODES-MATCH-PLAN: one node per task. A node corresponds to a task by its id (the task's, or
 * derived from it) or by its title; how node ids relate to task ids is not shown and the title is
 * optional, so nodes that carry neither cannot be matched: when they could be the unmatched tasks, the
 * clause is not run. Node and task counts that differ are judged whatever the ids.
 */
export const checkNodesMatchPlan = nodesMatchPlan.judges(
  (v, plan: WorkflowPlan, nodes: NodeExecution[] | undefined, exchangeId: string): void => {
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
    v.check(
      'STATE-NODES-MATCH-PLAN',
      nodes.length === plan.tasks.length && unmatchedTasks.length === 0 && unmatchedNodes.length === 0,
      {
        message: `nodes of the execution against the ${plan.tasks.length} tasks of "${plan.title}"`,
        expected: `one node per task (${plan.tasks.map((t) => t.id).join(', ')})`,
        actual: `${nodes.length} nodes (${nodes.map((n) => n.nodeId).join(', ')}); unmatched tasks: ${unmatchedTasks.map((t) => t.id).join(', ') || 'none'}; unmatched nodes: ${unmatchedNodes.map((n) => n.nodeId).join(', ') || 'none'}`,
        exchangeId,
      },
    );
  },
);

/**
 * Plan semantics the schema cannot state: dependencies exist and have no cycle; options only on option
 * variables. dependentTasks and variables are optional: a plan without them says nothing of either.
 */
export const checkPlanSemantics = planSemantics.judges(
  (v, plan: WorkflowPlan, where: string, exchangeId?: string): void => {
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
    v.check('PLAN-OPTIONS-ONLY-FOR-OPTION', misplaced.length === 0, {
      message: `variables of ${where}`,
      expected: 'options only on option variables',
      actual: misplaced.join(', ') || 'ok',
      exchangeId,
    });
  },
);

function checkDependencies(
  v: Judging<typeof planSemantics>,
  plan: WorkflowPlan,
  where: string,
  exchangeId?: string,
): void {
  const ids = new Set(plan.tasks.map((t) => t.id));
  const dangling = plan.tasks.flatMap((t) =>
    (t.dependentTasks ?? []).filter((d) => !ids.has(d)).map((d) => `${t.id}→${d}`),
  );
  const cycle = findCycle(plan);
  v.check('PLAN-DEPENDENCIES-EXIST', dangling.length === 0 && !cycle, {
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
