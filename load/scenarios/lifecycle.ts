/** Workflow lifecycle: run → poll status until terminal → read output. */
import { sleep } from 'k6';
import type { LoadConfig } from '../lib/config.ts';
import { api, json } from '../lib/api.ts';
import type { RunBody, StatusBody } from '../lib/bodies.ts';
import type { SetupData } from '../lib/discovery.ts';
import { pick } from '../lib/data.ts';
import { vuRandom } from '../lib/vu-random.ts';
import { workflowCompleted, workflowDuration } from '../lib/metrics.ts';

const TERMINAL = new Set(['finish', 'failed']);

export function workflowLifecycle(cfg: LoadConfig, data: SetupData): void {
  const wf = pick(data.runnable, vuRandom(cfg.seed));
  const started = Date.now();
  const run = api.runWorkflow(cfg, wf.canvasId, wf.variables);
  const executionId = run.status === 200 ? json<RunBody>(run)?.data?.executionId : undefined;
  if (!executionId) {
    workflowCompleted.add(false);
    return;
  }
  let status: string | undefined;
  const deadline = started + cfg.workflowTimeoutMs;
  while (Date.now() < deadline) {
    sleep(cfg.pollIntervalMs / 1000);
    const res = api.getExecutionStatus(cfg, executionId);
    status = res.status === 200 ? json<StatusBody>(res)?.data?.status : undefined;
    if (status && TERMINAL.has(status)) break;
  }
  api.getExecutionOutput(cfg, executionId);
  const finished = status === 'finish';
  workflowCompleted.add(finished);
  // Duration is recorded for finished executions only: a timeout would otherwise show up as a fast or a capped value.
  if (finished) workflowDuration.add(Date.now() - started);
}
