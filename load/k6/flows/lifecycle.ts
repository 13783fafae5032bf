/**
 * Workflow lifecycle, as the product is used: [upload a file →] run (the file key as a file variable) →
 * poll status until terminal → read the output; a share of iterations aborts its execution mid-run
 * instead. Which iterations do what is fixed by the iteration number (the profile's mix), so a smoke run
 * of a few iterations still walks every path.
 */
import { sleep } from 'k6';
import exec from 'k6/execution';
import type { LoadConfig } from '../lib/config.ts';
import { api, jsonField } from '../lib/api.ts';
import type { RunnableWorkflow, SetupData } from '../lib/discovery.ts';
import { uploadSamples } from '../lib/data.ts';
import { pick, vuRandom } from '../lib/seeded.ts';
import { executionsAborted, workflowCompleted, workflowDuration } from '../lib/metrics.ts';

const TERMINAL = new Set(['finish', 'failed']);
/** How long an aborted execution is followed: its end state is not shown (§3), so it is not waited for. */
const POLLS_AFTER_ABORT = 4;

/** Every n-th iteration takes a path whose share is 1/n (0 → never). */
const everyNth = (share: number) => (share > 0 ? Math.max(1, Math.round(1 / share)) : 0);
const isNth = (iteration: number, n: number, offset: number) => n > 0 && iteration % n === offset % n;

type Flow = 'abort' | 'file' | 'plain';

/** Iteration 0 aborts and iteration 1 uploads (when the mix has them), so even a short run walks both. */
function flowOf(cfg: LoadConfig, data: SetupData, iteration: number): Flow {
  if (isNth(iteration, everyNth(cfg.profile.mix.abortShare), 0) && data.abortable.length > 0) return 'abort';
  if (isNth(iteration, everyNth(cfg.profile.mix.fileShare), 1) && data.withFiles.length > 0) return 'file';
  return 'plain';
}

/** A fresh upload's key for each file variable of the workflow; undefined when the upload failed. */
function withUploadedFiles(
  cfg: LoadConfig,
  wf: RunnableWorkflow,
  rnd: () => number,
): Record<string, unknown> | undefined {
  const res = api.uploadFiles(cfg, [pick(uploadSamples, rnd)]);
  const key = res.status === 200 ? jsonField(res, 'data.files.0.fileKey') : undefined;
  if (!key) return undefined;
  const variables: Record<string, unknown> = { ...wf.variables };
  for (const name of wf.fileVariables) variables[name] = key;
  return variables;
}

function startRun(cfg: LoadConfig, wf: RunnableWorkflow, variables: Record<string, unknown>): string | undefined {
  const run = api.runWorkflow(cfg, wf.canvasId, variables);
  return run.status === 200 ? jsonField(run, 'data.executionId') : undefined;
}

/** Polls until the execution ends, the deadline passes or `maxPolls` were made; the last status seen. */
function pollUntilTerminal(
  cfg: LoadConfig,
  executionId: string,
  deadline: number,
  maxPolls = Infinity,
): string | undefined {
  let status: string | undefined;
  for (let polls = 0; polls < maxPolls && Date.now() < deadline; polls++) {
    sleep(cfg.pollIntervalMs / 1000);
    const res = api.getExecutionStatus(cfg, executionId);
    status = res.status === 200 ? jsonField(res, 'data.status') : undefined;
    if (status && TERMINAL.has(status)) break;
  }
  return status;
}

/**
 * Run → one poll → abort → poll a little and read the output. What follows an accepted abort is not
 * shown (§3), so its end state is only polled for a bounded time, never judged or waited for.
 */
function abortMidRun(cfg: LoadConfig, data: SetupData, rnd: () => number): string | undefined {
  const wf = pick(data.abortable, rnd);
  const executionId = startRun(cfg, wf, wf.variables);
  if (!executionId) return undefined;
  api.getExecutionStatus(cfg, executionId);
  const res = api.abortExecution(cfg, executionId);
  if (res.status >= 200 && res.status < 300) executionsAborted.add(1);
  pollUntilTerminal(cfg, executionId, Date.now() + cfg.workflowTimeoutMs, POLLS_AFTER_ABORT);
  api.getExecutionOutput(cfg, executionId);
  return executionId;
}

/**
 * `iteration` picks the path: the VU's own count by default (a VU of a constant or ramping scenario walks
 * every path in turn); an arrival-rate search passes its count of lifecycles across VUs (load/capacity/k6/main.ts),
 * as each of its many VUs runs few iterations and would otherwise start with an abort every time.
 * Returns the execution started, if any (the capacity search's reads follow recent executions).
 */
export function workflowLifecycle(
  cfg: LoadConfig,
  data: SetupData,
  iteration: number = exec.vu.iterationInScenario,
): string | undefined {
  const rnd = vuRandom(cfg.seed);
  const flow = flowOf(cfg, data, iteration);
  if (flow === 'abort') return abortMidRun(cfg, data, rnd);
  const wf = pick(flow === 'file' ? data.withFiles : data.runnable, rnd);
  const started = Date.now();
  const variables = flow === 'file' ? withUploadedFiles(cfg, wf, rnd) : wf.variables;
  const executionId = variables ? startRun(cfg, wf, variables) : undefined;
  if (!executionId) {
    workflowCompleted.add(false, { flow });
    sleep(cfg.pollIntervalMs / 1000); // a failing target must not turn the scenario into a tight loop
    return undefined;
  }
  const status = pollUntilTerminal(cfg, executionId, started + cfg.workflowTimeoutMs);
  api.getExecutionOutput(cfg, executionId);
  const finished = status === 'finish';
  workflowCompleted.add(finished, { flow });
  // Duration is recorded for finished executions only: a timeout would otherwise show up as a fast or a capped value.
  if (finished) workflowDuration.add(Date.now() - started, { flow });
  return executionId;
}
