/**
 * Starting executions in the suites: pick workflows, prepare their variables,
 * run, poll — shared by the lifecycle, state-machine, abort, auth and isolation suites.
 *
 * A run is judged once, where it is made: the clauses about its acceptance (a 2xx
 * carrying an executionId, whichever 2xx) and RUN-RETURNS-EXECUTION-ID (the status
 * endpoint knows the id). What cannot go on afterwards carries a `Stop`, so the
 * clauses that depend on the execution are "blocked by" the clause that failed
 * first, never failed a second time.
 */
import type { Faker } from '@faker-js/faker';
import type { ApiClient, Exchange } from './client.ts';
import type { RunConfig } from '../../fixtures/environment/config.ts';
import { PollStopped, pollExecution, type Snapshot } from './poll.ts';
import { accepted, dataOf, describe, served, statusDeviation, stopAll, type Judged, type Stop } from './shapes.ts';
import type { Verdict } from '../verdict/verdict.ts';
import { prepareRun, runBody, unlistedVariableTypes, type Workflow } from './workflows.ts';

export type RunForm = 'wrapper' | 'legacy';

/** The clause each body form exercises (§4.1, §9.2). */
const FORM_CLAUSE: Record<RunForm, string> = { wrapper: 'RUN-VARIABLES-WRAPPER', legacy: 'RUN-LEGACY-TOP-LEVEL' };

export interface Started {
  workflow: Workflow;
  /** Absent when the run was never sent (its file variable could not be prepared). */
  run?: Exchange;
  executionId?: string;
  /** Set when there is no execution to follow: why. */
  stop?: Stop;
}

export interface RunOptions {
  form?: RunForm;
  /** The clauses about acceptance this run exercises; default the form's clause. */
  clauses?: readonly string[];
}

const executionIdOf = (data: unknown): string | undefined => {
  const id = (data as { executionId?: unknown } | null | undefined)?.executionId;
  return typeof id === 'string' && id !== '' ? id : undefined;
};

/** The executionId of a run answer that started an execution (a 2xx carrying one), else undefined. */
export function executionIdIn(run: Exchange): string | undefined {
  return executionIdOf(dataOf(run));
}

/** Runs a workflow with seeded values for all its variables, and judges the run (see judgeRun). */
export async function startRun(api: ApiClient, verdict: Verdict, faker: Faker, wf: Workflow, opts: RunOptions = {}): Promise<Started> {
  const form = opts.form ?? 'wrapper';
  const clauses = opts.clauses ?? [FORM_CLAUSE[form]];
  const prepared = await prepareRun(api, verdict, faker, wf.plan!);
  if (prepared.stop) {
    stopAll(verdict, clauses, prepared.stop);
    return { workflow: wf, stop: prepared.stop };
  }
  const run = await api.run(wf.canvasId, runBody(prepared.values, form), { label: `run (${form} form)` });
  return { workflow: wf, run, ...(await judgeRun(api, verdict, clauses, run, `run of ${wf.canvasId} (${form} form)`, wf)) };
}

/** Why a refused run of `wf` says nothing of the clauses: the harness picked a workflow it cannot run as intended. */
function unjudgeableRefusal(run: Exchange, wf: Workflow | undefined, message: string): Stop | undefined {
  if (run.status === 403) return { reason: `${message}: the workflow's API is disabled (403)` };
  const unlisted = wf ? unlistedVariableTypes(wf) : [];
  if (served(run) || statusDeviation(run) || unlisted.length === 0) return undefined;
  // The plan typed a variable outside the enum, so its seeded value may be what was refused.
  return { blockedBy: 'VARIABLE-TYPE-ENUM', reason: `${message}: refused (${describe(run)}); the plan types variables as ${unlisted.join(', ')}` };
}

/**
 * Judges the answer to a run: each clause of `clauses` is accepted when the answer is a 2xx carrying an
 * executionId; RUN-RETURNS-EXECUTION-ID when the status endpoint then knows that id. A 403 means the
 * workflow's API is disabled (a listed meaning): the harness picked a workflow it cannot run, so the
 * clauses are not run; a refusal of a workflow whose plan types variables outside the enum is blocked
 * by VARIABLE-TYPE-ENUM. Returns the execution to follow, or why there is none.
 */
export async function judgeRun(api: ApiClient, verdict: Verdict, clauses: readonly string[], run: Exchange, message: string, wf?: Workflow): Promise<{ executionId?: string; stop?: Stop }> {
  const unjudgeable = unjudgeableRefusal(run, wf, message);
  if (unjudgeable) {
    stopAll(verdict, clauses, unjudgeable);
    return { stop: unjudgeable };
  }
  let judged: Judged<string> | undefined;
  for (const id of clauses) judged = accepted(verdict, id, run, { carries: 'an executionId', read: executionIdOf, judgedBy: 'RUN-RETURNS-EXECUTION-ID' }, message);
  judged ??= accepted(verdict, 'RUN-RETURNS-EXECUTION-ID', run, { carries: 'an executionId', read: executionIdOf }, message);
  if (!judged.ok) {
    if (judged.stop.blockedBy === 'RUN-RETURNS-EXECUTION-ID') {
      verdict.must('RUN-RETURNS-EXECUTION-ID', false, { message, expected: 'data.executionId', actual: JSON.stringify(dataOf(run) ?? null), exchangeId: run.record.id });
    } else if (served(run) && judged.stop.blockedBy) {
      verdict.blocked('RUN-RETURNS-EXECUTION-ID', judged.stop.blockedBy, judged.stop.reason);
    }
    return { stop: judged.stop };
  }
  return knownToStatus(api, verdict, judged.value, message);
}

/** RUN-RETURNS-EXECUTION-ID: "returns an execution ID for tracking" — the status endpoint knows it. */
async function knownToStatus(api: ApiClient, verdict: Verdict, executionId: string, message: string): Promise<{ executionId?: string; stop?: Stop }> {
  const status = await api.status(executionId, { label: 'status of the execution the run returned' });
  const deviation = statusDeviation(status);
  const reason = `status of ${executionId}, returned by the ${message}: ${describe(status)}`;
  if (deviation) {
    verdict.blocked('RUN-RETURNS-EXECUTION-ID', deviation, reason);
    return { stop: { blockedBy: deviation, reason } };
  }
  if (status.status === 429) {
    // Rate limited (legal, §8): the id is neither confirmed nor refuted, and the execution is left to run.
    verdict.notRun('RUN-RETURNS-EXECUTION-ID', `${reason}: still rate limited after waiting out Retry-After`);
    return { executionId };
  }
  const known = served(status);
  verdict.must('RUN-RETURNS-EXECUTION-ID', known, { message: `${message}: the status endpoint knows the executionId ${executionId}`, expected: 'a 2xx status answer', actual: describe(status), exchangeId: status.record.id });
  return known ? { executionId } : { stop: { blockedBy: 'RUN-RETURNS-EXECUTION-ID', reason } };
}

/** Snapshots of a followed execution, and why the poll ended early when it did. */
export interface Followed {
  snaps: Snapshot[];
  stop?: Stop;
}

/** Polls an execution to its end; a poll that cannot finish is aborted (cleanup) and says why. */
export async function poll(api: ApiClient, verdict: Verdict, config: RunConfig, executionId: string, withOutput = false): Promise<Followed> {
  try {
    return { snaps: await pollExecution(api, verdict, executionId, { intervalMs: config.pollIntervalMs, timeoutMs: config.pollTimeoutMs, withOutput }) };
  } catch (err) {
    if (!(err instanceof PollStopped)) throw err;
    await abortQuietly(api, executionId);
    return { snaps: err.snapshots, stop: err.stop };
  }
}

/** Reads a few more snapshots after the terminal one: terminal statuses must hold. */
export async function pollAfterTerminal(api: ApiClient, verdict: Verdict, config: RunConfig, executionId: string, count: number, withOutput = false): Promise<Followed> {
  const snaps: Snapshot[] = [];
  for (let i = 0; i < count; i++) {
    await new Promise((r) => setTimeout(r, config.pollIntervalMs));
    try {
      snaps.push(...(await pollExecution(api, verdict, executionId, { intervalMs: config.pollIntervalMs, timeoutMs: 0, withOutput, until: () => true })));
    } catch (err) {
      if (!(err instanceof PollStopped)) throw err;
      return { snaps, stop: err.stop };
    }
  }
  return { snaps };
}

/** Best-effort cleanup of an execution the test does not need to finish (costs nothing to the verdict). */
export async function abortQuietly(api: ApiClient, executionId: string | undefined): Promise<void> {
  if (!executionId) return;
  await api.abort(executionId, { label: 'cleanup abort', allowFault: true }).catch(() => undefined);
}
