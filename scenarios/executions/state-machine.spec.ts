/**
 * State machine across polls (§2.2, §3): the status sequences are recorded
 * (transitions are not shown), terminal statuses stay, node statuses are
 * consistent with the plan, the status echoes its execution, identity is stable,
 * times are ordered, files only for finished nodes, partial content only while
 * executing or after failure.
 * Status and output are read at every poll, so intermediate states are seen; no
 * check depends on how many polls there were (the terminal snapshot and two more
 * after it are always read). In executions/ to start early: its tests wait for
 * whole executions (see lifecycle.spec.ts). The suite runs and polls; its judges decide
 * (core/judging/state.ts, relations.ts, visibility.ts).
 */
import { test } from '../suite.ts';
import type { ExecutionFacts } from '../../core/judging/relations.ts';
import { judgeFailingEnd, judgeMultiNodeEnd, judgeStateMachine, STATE_MACHINE } from '../../core/judging/state.ts';
import { followTogether, startRun } from '../../core/execution/runs.ts';
import { runnable, unfilledReason, withRole, type Workflow } from '../../core/discovery/workflows.ts';
import { workflowMissing } from '../../core/discovery/roles.ts';

/** The titles cite what the state-machine judge judges on one execution. */
const CITED = STATE_MACHINE.map((id) => `[${id}]`).join(' ');

type Ctx = Pick<Parameters<Parameters<typeof test>[2]>[0], 'api' | 'config' | 'verdict' | 'faker'>;

/**
 * Runs the workflow, follows it past its end and has its history judged; `judged` then gets its facts.
 * When it could not be followed to its end, what was read is judged, the clauses that needed more say
 * why, and `judged` is not called.
 */
async function followExecution(
  { api, config, verdict, faker }: Ctx,
  wf: Workflow,
  judged: (facts: ExecutionFacts) => void,
): Promise<void> {
  await followTogether({ api, verdict, config }, async (follow) => {
    const started = await startRun(api, verdict, faker, wf);
    follow(started, {
      withOutput: true,
      afterTerminal: 2,
      judge: (outcome) => {
        const facts = judgeStateMachine(verdict, outcome, wf, started.run !== undefined);
        if (facts) judged(facts);
      },
    });
  });
}

test(`a multi-node workflow that produces files: statuses, identity, times and visibility across polls ${CITED}`, async ({
  api,
  config,
  verdict,
  faker,
  discovery,
}) => {
  const ctx = { api, config, verdict, faker };
  const list = runnable(discovery, 'long-running', 'failing');
  // Most tasks first: more nodes, more intermediate states to see.
  const wf = [...list].sort((a, b) => (b.plan?.tasks.length ?? 0) - (a.plan?.tasks.length ?? 0))[0];
  test.skip(!wf, workflowMissing('is runnable (neither disabled, slow nor failing)'));
  await followExecution(ctx, wf, (facts) => judgeMultiNodeEnd(verdict, facts, wf.canvasId));
});

test(`a workflow with a failing task keeps partial content and ends failed consistently ${CITED}`, async ({
  api,
  config,
  verdict,
  faker,
  discovery,
}) => {
  const ctx = { api, config, verdict, faker };
  const wf = withRole(discovery, 'failing task')[0];
  test.skip(!wf, unfilledReason(discovery, 'failing task'));
  await followExecution(ctx, wf, (facts) => judgeFailingEnd(verdict, facts));
});
