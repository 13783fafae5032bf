/**
 * State machine across polls (§2.2, §3): the status sequences are recorded
 * (transitions are not shown), terminal statuses stay, node statuses are
 * consistent with the plan, the status echoes its execution, identity is stable,
 * times are ordered, files only for finished nodes, partial content only while
 * executing or after failure.
 * Status and output are read at every poll, so intermediate states are seen; no
 * check depends on how many polls there were (the terminal snapshot and two more
 * after it are always read). In executions/ to start early: its tests wait for
 * whole executions (see lifecycle.spec.ts).
 */
import { test } from '../fixtures.ts';
import { checkExecutionHistory, type ExecutionFacts } from '../../engine/live/judging/relations.ts';
import { followTogether, startRun } from '../../engine/live/execution/runs.ts';
import { dependsOn, stopAll } from '../../engine/live/judging/judging.ts';
import { runnable, unfilledReason, withRole, type Workflow } from '../../engine/live/discovery/workflows.ts';
import { workflowMissing } from '../../engine/live/discovery/roles.ts';

const CLAUSES = [
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
];
const CITED = CLAUSES.map((id) => `[${id}]`).join(' ');

type Ctx = Pick<Parameters<Parameters<typeof test>[2]>[0], 'api' | 'config' | 'verdict' | 'faker'>;

/**
 * Runs the workflow, follows it past its end and judges its history; `judged` then gets its facts. When
 * it could not be followed to its end, what was read is judged, the clauses that needed more say why,
 * and `judged` is not called.
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
      judge: ({ executionId, snaps, stop }) => {
        // Whatever was read is judged; what needed the end the poll never saw is blocked by why it stopped.
        if (executionId && snaps.length > 0) {
          const facts = checkExecutionHistory(verdict, executionId, wf.plan, snaps, stop);
          if (stop)
            stopAll(
              verdict,
              CLAUSES.filter((id) => !verdict.recorded.has(id)),
              stop,
            );
          else judged(facts);
        }
        // A run never sent (its upload failed) leaves the wrapper clause blocked: the history needed that run.
        else if (stop)
          stopAll(
            verdict,
            CLAUSES,
            started.run ? stop : dependsOn('RUN-VARIABLES-WRAPPER', stop, `the run of ${wf.canvasId} (never sent)`),
          );
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
  await followExecution(ctx, wf, (facts) => {
    if (!facts.sawFiles)
      verdict.notRun('OUTPUT-FILES-ONLY-AFTER-FINISH', `the execution of ${wf.canvasId} produced no file`);
    if (!facts.sawIntermediate)
      verdict.note(
        'state-machine',
        `execution of ${wf.canvasId} was already terminal at the first poll: intermediate states not seen (lower WFCHECK_POLL_INTERVAL_MS)`,
      );
  });
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
  await followExecution(ctx, wf, (facts) =>
    verdict.observe(
      'STATE-TRANSITIONS',
      'final status of a workflow with a failing task',
      facts.finalStatus ?? '(absent)',
    ),
  );
});
