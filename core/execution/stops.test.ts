/**
 * Why a poll or a run stops, as the clauses it stops read it: the clause an answer deviated from, or none
 * when the deadline was the harness's; a refusal a guessed value could explain, judged once its control
 * is accepted.
 */
import { test, expect } from '@playwright/test';
import type { ApiClient } from '../client/client.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { WorkflowPlan } from '../judging/payloads.ts';
import { answer, recorder } from '../judging/answers.testkit.ts';
import { pollExecution, PollStopped } from './poll.ts';
import { judgeRun } from './runs.ts';

function statusClient(answers: Exchange[]): ApiClient {
  let i = 0;
  return { status: async () => answers[Math.min(i++, answers.length - 1)] } as unknown as ApiClient;
}

async function stopOf(answers: Exchange[], timeoutMs = 0) {
  const { verdict, outcomes } = recorder();
  const err = await pollExecution(statusClient(answers), verdict, 'e1', { intervalMs: 1, timeoutMs }).catch(
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PollStopped);
  return { stop: (err as PollStopped).stop, outcomes };
}

test('a poll that cannot go on names the clause that stopped it, or none when the deadline was ours', async () => {
  const executing = answer('getExecutionStatus', 200, {
    success: true,
    data: { executionId: 'e1', status: 'executing', nodeExecutions: [] },
  });
  const gone = await stopOf([executing, answer('getExecutionStatus', 404, { success: false })], 50);
  expect(gone.stop.blockedBy).toBe('RUN-RETURNS-EXECUTION-ID');
  expect(gone.outcomes('RUN-RETURNS-EXECUTION-ID')).toEqual(['fail']);
  expect(
    (await stopOf([answer('getExecutionStatus', 502, undefined, ['STATUS-HTTP-STATUS-LISTED'])])).stop.blockedBy,
  ).toBe('STATUS-HTTP-STATUS-LISTED');
  expect(
    (
      await stopOf([
        answer('getExecutionStatus', 200, { success: true, data: { executionId: 'e1', status: 'queued' } }, [
          'EXEC-STATUS-ENUM',
        ]),
      ])
    ).stop.blockedBy,
  ).toBe('EXEC-STATUS-ENUM');
  const slow = await stopOf([executing]);
  expect(slow.stop.blockedBy).toBeUndefined();
  expect(slow.stop.reason).toMatch(/WFCHECK_POLL_TIMEOUT_MS/);
});

test('a refusal a guessed value could explain is judged once its control, the other form, is accepted', async () => {
  const { verdict, outcomes, messages } = recorder();
  // An untyped variable: what it takes is left open, so a 400 could be the refusal of the harness's guess.
  const wf = {
    canvasId: 'c1',
    title: 'Digest',
    plan: { title: 'Digest', tasks: [], variables: [{ name: 'topic' }] } as WorkflowPlan,
  };
  const refused = () => answer('runWorkflow', 400, { success: false, errCode: 'INVALID_REQUEST_BODY' });
  const started = answer('runWorkflow', 200, { success: true, data: { executionId: 'e9', status: 'init' } });
  const api = {
    status: async () =>
      answer('getExecutionStatus', 200, { success: true, data: { executionId: 'e9', status: 'init' } }),
    abort: async () => answer('abortExecution', 200, { success: true }),
  } as unknown as ApiClient;
  // The same values in the wrapper form are accepted: the legacy form itself was refused.
  await judgeRun(api, verdict, ['legacy'], refused(), 'run of c1 (legacy form)', wf, {
    differs: 'in the wrapper form',
    send: async () => started,
  });
  // Refused in both forms: the refusal may be of the guess, and says nothing of the form.
  await judgeRun(api, verdict, ['legacy'], refused(), 'run of c1 (legacy form)', wf, {
    differs: 'in the wrapper form',
    send: async () => refused(),
  });
  expect(outcomes('RUN-LEGACY-TOP-LEVEL')).toEqual(['fail', 'not-run']);
  expect(messages('RUN-LEGACY-TOP-LEVEL')[0]).toMatch(/the same values in the wrapper form were accepted/);
  expect(messages('RUN-LEGACY-TOP-LEVEL')[1]).toMatch(/cannot judge: refused .* a value the harness guessed/);
});

const statusOf = (status: string, nodes: [string, string][]) =>
  answer('getExecutionStatus', 200, {
    success: true,
    data: { executionId: 'e1', status, nodeExecutions: nodes.map(([nodeId, s]) => ({ nodeId, status: s })) },
  });

test('an execution that stays executing after a node failed and nothing else runs cannot finish: a warning in a few polls', async () => {
  // Left waiting behind the failure, as an engine that stops scheduling leaves them.
  const stalled = statusOf('executing', [
    ['fetch', 'finish'],
    ['validate', 'failed'],
    ['load', 'waiting'],
  ]);
  const { stop, outcomes } = await stopOf([stalled], 60_000);
  expect(stop.blockedBy).toBe('STATE-ENDS-WHEN-NODES-SETTLE');
  expect(outcomes('STATE-ENDS-WHEN-NODES-SETTLE')).toEqual(['fail']);
});

test('after a failure an independent branch that still executes is waited for: not stuck while a node runs', async () => {
  const running = statusOf('executing', [
    ['validate', 'failed'],
    ['notify', 'executing'],
  ]);
  const ended = statusOf('failed', [
    ['validate', 'failed'],
    ['notify', 'finish'],
  ]);
  const { verdict, outcomes } = recorder();
  const answers = [running, running, running, running, running, running, running, ended];
  const snaps = await pollExecution(statusClient(answers), verdict, 'e1', { intervalMs: 1, timeoutMs: 60_000 });
  expect(snaps.at(-1)?.status.status).toBe('failed');
  expect(outcomes('STATE-ENDS-WHEN-NODES-SETTLE')).toEqual([]);
});
