/**
 * Starting executions in the suites: pick workflows, prepare their variables,
 * run, poll — shared by the lifecycle, state-machine, abort and isolation suites.
 */
import type { Faker } from '@faker-js/faker';
import type { ApiClient, Exchange } from './client.ts';
import type { RunConfig } from '../../fixtures/environment/config.ts';
import { pollExecution, type Snapshot } from './poll.ts';
import { dataOf, type RunData } from './shapes.ts';
import type { Verdict } from '../verdict/verdict.ts';
import { prepareRun, runBody, type Workflow } from './workflows.ts';

export interface Started {
  workflow: Workflow;
  run: Exchange;
  executionId?: string;
}

/** Runs a workflow with seeded values for all its variables; records RUN-RETURNS-EXECUTION-ID when it starts. */
export async function startRun(api: ApiClient, verdict: Verdict, faker: Faker, wf: Workflow, form: 'wrapper' | 'legacy' = 'wrapper'): Promise<Started> {
  const prepared = await prepareRun(api, faker, wf.plan!);
  const run = await api.run(wf.canvasId, runBody(prepared.values, form), { label: `run (${form} form)` });
  const data = dataOf<RunData>(run);
  const executionId = typeof data?.executionId === 'string' && data.executionId !== '' ? data.executionId : undefined;
  if (run.status === 200) {
    verdict.must('RUN-RETURNS-EXECUTION-ID', executionId !== undefined, { message: `run of ${wf.canvasId}`, expected: 'data.executionId', actual: JSON.stringify(data ?? null), exchangeId: run.record.id });
  }
  return { workflow: wf, run, executionId };
}

export function poll(api: ApiClient, config: RunConfig, executionId: string, withOutput = false): Promise<Snapshot[]> {
  return pollExecution(api, executionId, { intervalMs: config.pollIntervalMs, timeoutMs: config.pollTimeoutMs, withOutput });
}

/** Reads a few more snapshots after the terminal one: terminal statuses must hold. */
export async function pollAfterTerminal(api: ApiClient, config: RunConfig, executionId: string, count: number, withOutput = false): Promise<Snapshot[]> {
  const out: Snapshot[] = [];
  for (let i = 0; i < count; i++) {
    await new Promise((r) => setTimeout(r, config.pollIntervalMs));
    out.push(...(await pollExecution(api, executionId, { intervalMs: config.pollIntervalMs, timeoutMs: 0, withOutput, until: () => true })));
  }
  return out;
}

/** Best-effort cleanup of an execution the test does not need to finish (costs nothing to the verdict). */
export async function abortQuietly(api: ApiClient, executionId: string | undefined): Promise<void> {
  if (!executionId) return;
  await api.abort(executionId, { label: 'cleanup abort', allowFault: true }).catch(() => undefined);
}
