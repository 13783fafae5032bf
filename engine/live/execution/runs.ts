/**
 * Starting executions in the suites: pick workflows, prepare their variables,
 * run, poll — shared by the lifecycle, state-machine, abort, auth and isolation suites.
 * A test that needs several executions starts them all and follows them together
 * (followTogether), so it waits as long as its slowest execution, not their sum.
 *
 * A run is judged once, where it is made: the clauses about its acceptance (a 2xx
 * carrying an executionId, whichever 2xx) and RUN-RETURNS-EXECUTION-ID (the status
 * endpoint knows the id). What cannot go on afterwards carries a `Stop`, so the
 * clauses that depend on the execution are "blocked by" the clause that failed
 * first, never failed a second time. A status or output call whose operation
 * faulted (now, or earlier in the run: then it is not sent) stops them with that
 * fault's own stop: blocked by the clause it failed, or "not run" at the harness's
 * deadline — the same words in every test it stops.
 */
import type { Faker } from '@faker-js/faker';
import type { ApiClient } from '../client/client.ts';
import { faultStop, type Exchange } from '../transport/exchange.ts';
import type { RunConfig } from '../../../foundation/environment/config.ts';
import { faultsSeen } from '../transport/faults-seen.ts';
import { PollStopped, pollExecution, type Snapshot } from './poll.ts';
import {
  accepted,
  dataOf,
  describe,
  served,
  statusDeviation,
  stopAll,
  type Judged,
  type Stop,
  type WorkflowPlan,
} from '../judging/judging.ts';
import type { Verdict } from '../../evidence/verdict.ts';
import {
  prepareRun,
  runBody,
  unlistedVariableTypes,
  vaguelyDescribedVariables,
  type Workflow,
} from '../discovery/workflows.ts';

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

/**
 * How many tasks of a plan run one after another at the least (its longest chain of dependencies; a
 * task in a cycle counts once): on any target, the plainest hint of how long an execution takes.
 */
export function sequentialSteps(plan: WorkflowPlan | undefined): number {
  const deps = new Map((plan?.tasks ?? []).map((t) => [t.id, t.dependentTasks ?? []]));
  const depth = new Map<string, number>();
  const visit = (id: string, path: Set<string>): number => {
    if (depth.has(id)) return depth.get(id)!;
    if (path.has(id) || !deps.has(id)) return 0;
    path.add(id);
    const d = 1 + Math.max(0, ...deps.get(id)!.map((dep) => visit(dep, path)));
    path.delete(id);
    depth.set(id, d);
    return d;
  };
  return Math.max(0, ...[...deps.keys()].map((id) => visit(id, new Set())));
}

/** The workflows whose executions should end soonest first (the order is otherwise kept). */
export function quickestFirst(list: readonly Workflow[]): Workflow[] {
  return [...list].sort((a, b) => sequentialSteps(a.plan) - sequentialSteps(b.plan));
}

/** Runs a workflow with seeded values for all its variables, and judges the run (see judgeRun). */
export async function startRun(
  api: ApiClient,
  verdict: Verdict,
  faker: Faker,
  wf: Workflow,
  opts: RunOptions = {},
): Promise<Started> {
  const form = opts.form ?? 'wrapper';
  const clauses = opts.clauses ?? [FORM_CLAUSE[form]];
  const prepared = await prepareRun(api, verdict, faker, wf.plan!);
  if (prepared.stop) {
    stopAll(verdict, clauses, prepared.stop);
    return { workflow: wf, stop: prepared.stop };
  }
  const run = await api.run(wf.canvasId, runBody(prepared.values, form), { label: `run (${form} form)` });
  // The control of a refusal: the same values in the other form the specification allows.
  const other: RunForm = form === 'wrapper' ? 'legacy' : 'wrapper';
  const control = () => api.run(wf.canvasId, runBody(prepared.values, other), { label: `control run (${other} form)` });
  return {
    workflow: wf,
    run,
    ...(await judgeRun(api, verdict, clauses, run, `run of ${wf.canvasId} (${form} form)`, wf, {
      form: other,
      send: control,
    })),
  };
}

/** A control of a refused run: the same request but for one thing, whose answer tells what was refused. */
export interface RunControl {
  /** What differs, as the report says it: "legacy" (the same values in the legacy form). */
  form: RunForm;
  send(): Promise<Exchange>;
}

/**
 * Sends the control of a run refused for what could be the harness's guess (a value of a vaguely described
 * variable): when the same values are accepted in the other allowed form, the refusal was of the form,
 * not of a guess, and the run is judged. Returns what the control showed, for the run's message, or
 * undefined when the control was refused too (the refusal stays unjudgeable). The control's execution is
 * aborted: it was only sent to tell.
 */
async function controlAccepts(api: ApiClient, control: RunControl | undefined): Promise<string | undefined> {
  if (!control) return undefined;
  const answer = await control.send();
  const executionId = executionIdIn(answer);
  await abortQuietly(api, executionId);
  return executionId
    ? `the same values in the ${control.form} form were accepted (exchange ${answer.record.id})`
    : undefined;
}

/** Why a refused run of `wf` says nothing of the clauses: the harness picked a workflow it cannot run as intended. */
function unjudgeableRefusal(
  run: Exchange,
  wf: Workflow | undefined,
  message: string,
): (Stop & { guess?: true }) | undefined {
  if (run.status === 403) return { reason: `${message}: the workflow's API is disabled (403)` };
  if (served(run) || statusDeviation(run)) return undefined;
  // A plan without a variables list says nothing of what the workflow takes (the list is optional).
  const vague = !wf?.plan ? [] : wf.plan.variables === undefined ? ['its variables'] : vaguelyDescribedVariables(wf);
  if (run.status === 400 && vague.length > 0) {
    return {
      guess: true,
      reason:
        `${message}: cannot judge: refused (${describe(run)}), and the plan leaves open what ` +
        `${vague.join(', ')} take(s), so a value the harness guessed may be what was refused`,
    };
  }
  const unlisted = wf ? unlistedVariableTypes(wf) : [];
  if (unlisted.length === 0) return undefined;
  // The plan typed a variable outside the enum, so its seeded value may be what was refused.
  return {
    blockedBy: 'VARIABLE-TYPE-ENUM',
    reason: `${message}: refused (${describe(run)}); the plan types variables as ${unlisted.join(', ')}`,
  };
}

/**
 * Judges the answer to a run: each clause of `clauses` is accepted when the answer is a 2xx carrying an
 * executionId; RUN-RETURNS-EXECUTION-ID when the status endpoint then knows that id. A 403 means the
 * workflow's API is disabled (a listed meaning): the harness picked a workflow it cannot run, so the
 * clauses are not run; a refusal of a workflow whose plan types variables outside the enum is blocked
 * by VARIABLE-TYPE-ENUM. Returns the execution to follow, or why there is none.
 */
export async function judgeRun(
  api: ApiClient,
  verdict: Verdict,
  clauses: readonly string[],
  run: Exchange,
  runMessage: string,
  wf?: Workflow,
  control?: RunControl,
): Promise<{ executionId?: string; stop?: Stop }> {
  let message = runMessage;
  const unjudgeable = unjudgeableRefusal(run, wf, message);
  // A refusal a guessed value could explain is judged after all when its control is accepted.
  const shown = unjudgeable?.guess ? await controlAccepts(api, control) : undefined;
  if (unjudgeable && !shown) {
    stopAll(verdict, clauses, unjudgeable);
    return { stop: unjudgeable };
  }
  if (shown) message = `${message}; ${shown}`;
  let judged: Judged<string> | undefined;
  for (const id of clauses)
    judged = accepted(
      verdict,
      id,
      run,
      { carries: 'an executionId', read: executionIdOf, judgedBy: 'RUN-RETURNS-EXECUTION-ID' },
      message,
    );
  judged ??= accepted(
    verdict,
    'RUN-RETURNS-EXECUTION-ID',
    run,
    { carries: 'an executionId', read: executionIdOf },
    message,
  );
  if (!judged.ok) {
    if (judged.stop.blockedBy === 'RUN-RETURNS-EXECUTION-ID') {
      verdict.must('RUN-RETURNS-EXECUTION-ID', false, {
        message,
        expected: 'data.executionId',
        actual: JSON.stringify(dataOf(run) ?? null),
        exchangeId: run.record.id,
      });
    } else if (served(run) && judged.stop.blockedBy) {
      verdict.blocked('RUN-RETURNS-EXECUTION-ID', judged.stop.blockedBy, judged.stop.reason);
    }
    return { stop: judged.stop };
  }
  return knownToStatus(api, verdict, judged.value, message);
}

/** RUN-RETURNS-EXECUTION-ID: "returns an execution ID for tracking" — the status endpoint knows it. */
async function knownToStatus(
  api: ApiClient,
  verdict: Verdict,
  executionId: string,
  message: string,
): Promise<{ executionId?: string; stop?: Stop }> {
  const status = await api.status(executionId, {
    label: 'status of the execution the run returned',
    allowFault: true,
  });
  // No answer to judge the id by: the fault stops the clause, and the execution nobody can follow is aborted.
  const faulted = faultStop(status);
  if (faulted) {
    if (faulted.blockedBy) verdict.blocked('RUN-RETURNS-EXECUTION-ID', faulted.blockedBy, faulted.reason);
    else verdict.notRun('RUN-RETURNS-EXECUTION-ID', faulted.reason);
    await abortQuietly(api, executionId);
    return { stop: faulted };
  }
  const deviation = statusDeviation(status);
  const reason = `status of ${executionId}, returned by the ${message}: ${describe(status)}`;
  if (deviation) {
    const stop = { blockedBy: deviation, exchangeIds: [status.record.id], reason };
    verdict.blocked('RUN-RETURNS-EXECUTION-ID', stop);
    return { stop };
  }
  if (status.status === 429) {
    // Rate limited (legal, §8): the id is neither confirmed nor refuted, and the execution is left to run.
    verdict.notRun('RUN-RETURNS-EXECUTION-ID', `${reason}: still rate limited after waiting out Retry-After`);
    return { executionId };
  }
  const known = served(status);
  verdict.must('RUN-RETURNS-EXECUTION-ID', known, {
    message: `${message}: the status endpoint knows the executionId ${executionId}`,
    expected: 'a 2xx status answer',
    actual: describe(status),
    exchangeId: status.record.id,
  });
  return known ? { executionId } : { stop: { blockedBy: 'RUN-RETURNS-EXECUTION-ID', reason } };
}

/** Snapshots of a followed execution, and why the poll ended early when it did. */
export interface Followed {
  snaps: Snapshot[];
  stop?: Stop;
}

/** Polls an execution to its end; a poll that cannot finish is aborted (cleanup) and says why. */
export async function poll(
  api: ApiClient,
  verdict: Verdict,
  config: RunConfig,
  executionId: string,
  withOutput = false,
): Promise<Followed> {
  try {
    return {
      snaps: await pollExecution(api, verdict, executionId, {
        intervalMs: config.pollIntervalMs,
        timeoutMs: config.pollTimeoutMs,
        withOutput,
        faults: faultsSeen(config.evidenceDir),
      }),
    };
  } catch (err) {
    if (!(err instanceof PollStopped)) throw err;
    await abortQuietly(api, executionId);
    return { snaps: err.snapshots, stop: err.stop };
  }
}

/** Reads a few more snapshots after the terminal one: terminal statuses must hold. */
export async function pollAfterTerminal(
  api: ApiClient,
  verdict: Verdict,
  config: RunConfig,
  executionId: string,
  count: number,
  withOutput = false,
): Promise<Followed> {
  const snaps: Snapshot[] = [];
  for (let i = 0; i < count; i++) {
    await new Promise((r) => setTimeout(r, config.pollIntervalMs));
    try {
      snaps.push(
        ...(await pollExecution(api, verdict, executionId, {
          intervalMs: config.pollIntervalMs,
          timeoutMs: 0,
          withOutput,
          until: () => true,
          faults: faultsSeen(config.evidenceDir),
        })),
      );
    } catch (err) {
      if (!(err instanceof PollStopped)) throw err;
      return { snaps, stop: err.stop };
    }
  }
  return { snaps };
}

/** What following one execution gave: its snapshots, or why it could not be started or followed to its end. */
export interface Outcome extends Followed {
  executionId?: string;
}

export interface FollowOptions {
  /** Read the output at every poll too. */
  withOutput?: boolean;
  /** Snapshots to read after the terminal one (terminal statuses must hold). */
  afterTerminal?: number;
  /**
   * Judges the execution as soon as its own evidence is in, while the others may still run. It runs
   * whenever its execution happens to end, so it draws no seeded value.
   */
  judge?: (outcome: Outcome) => void | Promise<void>;
}

/** Hands a started execution (or the run that failed to start one) over to be followed and judged. */
export type Follow = (started: Pick<Started, 'executionId' | 'stop'>, how?: FollowOptions) => void;

export interface RunContext {
  api: ApiClient;
  verdict: Verdict;
  config: RunConfig;
}

/**
 * Starts executions and follows them together. `start` starts them one after another — seeded values
 * are drawn in the same order on every replay — and hands each to `follow`, which polls it from then
 * on alongside the others and judges it once it ends. Resolves when every execution handed over was
 * judged; nothing is left polling even when a start throws.
 */
export async function followTogether(ctx: RunContext, start: (follow: Follow) => Promise<void>): Promise<void> {
  const pending: Promise<void>[] = [];
  const follow: Follow = (started, how = {}) => {
    const judged = followAndJudge(ctx, started, how);
    // Awaited below; marked handled so an early failure is not reported while later runs start.
    judged.catch(() => undefined);
    pending.push(judged);
  };
  try {
    await start(follow);
  } finally {
    await Promise.allSettled(pending);
  }
  await Promise.all(pending);
}

async function followAndJudge(
  ctx: RunContext,
  started: Pick<Started, 'executionId' | 'stop'>,
  how: FollowOptions,
): Promise<void> {
  const { executionId } = started;
  const outcome: Outcome = executionId
    ? { executionId, ...(await followToEnd(ctx, executionId, how)) }
    : { snaps: [], stop: started.stop ?? { reason: 'no execution was started' } };
  await how.judge?.(outcome);
}

async function followToEnd(
  { api, verdict, config }: RunContext,
  executionId: string,
  how: FollowOptions,
): Promise<Followed> {
  const followed = await poll(api, verdict, config, executionId, how.withOutput);
  if (followed.stop || !how.afterTerminal) return followed;
  const after = await pollAfterTerminal(api, verdict, config, executionId, how.afterTerminal, how.withOutput);
  return { snaps: [...followed.snaps, ...after.snaps], stop: after.stop };
}

/** Best-effort cleanup of an execution the test does not need to finish (costs nothing to the verdict). */
export async function abortQuietly(api: ApiClient, executionId: string | undefined): Promise<void> {
  if (!executionId) return;
  await api.abort(executionId, { label: 'cleanup abort', allowFault: true }).catch(() => undefined);
}
