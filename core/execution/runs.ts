/**
 * Starting executions in the suites: pick workflows, prepare their variables,
 * run, poll — shared by the lifecycle, state-machine, abort, auth and isolation suites.
 * A test that needs several executions starts them all and follows them together
 * (followTogether), so it waits as long as its slowest execution, not their sum.
 *
 * A run is judged once, where it is made, by the judge of runs (judging/lifecycle.ts): the
 * clauses about its acceptance (a 2xx carrying an executionId, whichever 2xx) and
 * RUN-RETURNS-EXECUTION-ID (the status endpoint knows the id). This module sends the run,
 * its control and the status read, and hands each answer over. What cannot go on afterwards carries a `Stop`, so the
 * clauses that depend on the execution are "blocked by" the clause that failed
 * first, never failed a second time. A status or output call whose operation
 * faulted (now, or earlier in the run: then it is not sent) stops them with that
 * fault's own stop: blocked by the clause it failed, or "not run" at the harness's
 * deadline — the same words in every test it stops.
 */
import type { Faker } from '@faker-js/faker';
import type { ApiClient } from '../client/client.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { RunConfig } from '../settings/run-config.ts';
import { faultsSeen } from '../transport/faults-seen.ts';
import { PollStopped, pollExecution, type Snapshot } from './poll.ts';
import type { Stop } from '../judging/stops.ts';
import type { WorkflowPlan } from '../judging/payloads.ts';
import {
  executionIdIn,
  judgeKnownToStatus,
  judgeRunAnswer,
  runNotMade,
  unjudgeableRefusal,
  type RunAbout,
} from '../judging/lifecycle.ts';
import type { AnyRecorder } from '../evidence/verdict.ts';
import { prepareRun, runBody, type Workflow } from '../discovery/workflows.ts';

export { executionIdIn };

export type RunForm = 'wrapper' | 'legacy';

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
  /** What the run is about besides its form (a file variable…): judged on its acceptance too. */
  about?: readonly RunAbout[];
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
  verdict: AnyRecorder,
  faker: Faker,
  wf: Workflow,
  opts: RunOptions = {},
): Promise<Started> {
  const form = opts.form ?? 'wrapper';
  const about: RunAbout[] = [form, ...(opts.about ?? [])];
  const prepared = await prepareRun(api, verdict, faker, wf.plan!);
  if (prepared.stop) {
    runNotMade(verdict, about, prepared.stop);
    return { workflow: wf, stop: prepared.stop };
  }
  const run = await api.run(wf.canvasId, runBody(prepared.values, form), { label: `run (${form} form)` });
  // The control of a refusal: the same values in the other form the specification allows.
  const other: RunForm = form === 'wrapper' ? 'legacy' : 'wrapper';
  const control = () => api.run(wf.canvasId, runBody(prepared.values, other), { label: `control run (${other} form)` });
  return {
    workflow: wf,
    run,
    ...(await judgeRun(api, verdict, about, run, `run of ${wf.canvasId} (${form} form)`, wf, {
      differs: `in the ${other} form`,
      send: control,
    })),
  };
}

/** A control of a refused run: the same request but for one thing, whose answer tells what was refused. */
export interface RunControl {
  /** What differs, as the report says it: "in the legacy form" (the same values in the legacy form). */
  differs: string;
  send(): Promise<Exchange>;
}

/**
 * Sends the control of a run refused for what could be the harness's guess (a value of a vaguely described
 * variable): when the same values are accepted but for the one thing the run is about (the other allowed
 * form, a string where the run gave another kind), the refusal was of that thing, not of a guess, and the
 * run is judged. Returns what the control showed, for the run's message, or
 * undefined when the control was refused too (the refusal stays unjudgeable). The control's execution is
 * aborted: it was only sent to tell.
 */
async function controlAccepts(api: ApiClient, control: RunControl | undefined): Promise<string | undefined> {
  if (!control) return undefined;
  const answer = await control.send();
  const executionId = executionIdIn(answer);
  await abortQuietly(api, executionId);
  return executionId ? `the same values ${control.differs} were accepted (exchange ${answer.record.id})` : undefined;
}

/**
 * Judges the answer to a run (judgeRunAnswer: each clause `about` names is accepted when the answer is a
 * 2xx carrying an executionId), sending the control first when the refusal could be of a value the harness
 * guessed, then RUN-RETURNS-EXECUTION-ID on the status read of the id. Returns the execution to follow, or
 * why there is none.
 */
export async function judgeRun(
  api: ApiClient,
  verdict: AnyRecorder,
  about: readonly RunAbout[],
  run: Exchange,
  message: string,
  wf?: Workflow,
  control?: RunControl,
): Promise<{ executionId?: string; stop?: Stop }> {
  const unjudgeable = unjudgeableRefusal(run, wf, message);
  // A refusal a guessed value could explain is judged after all when its control is accepted.
  const shown = unjudgeable?.guess ? await controlAccepts(api, control) : undefined;
  const judged = judgeRunAnswer(verdict, about, run, message, unjudgeable, shown);
  if (!judged.ok) return { stop: judged.stop };
  const executionId = judged.value;
  const status = await api.status(executionId, {
    label: 'status of the execution the run returned',
    allowFault: true,
  });
  const known = judgeKnownToStatus(verdict, executionId, status, shown ? `${message}; ${shown}` : message);
  // No one can follow it: the execution is aborted.
  if (known.abandon) await abortQuietly(api, executionId);
  return known.stop ? { stop: known.stop } : { executionId: known.executionId };
}

/** Snapshots of a followed execution, and why the poll ended early when it did. */
export interface Followed {
  snaps: Snapshot[];
  stop?: Stop;
}

/** Polls an execution to its end; a poll that cannot finish is aborted (cleanup) and says why. */
export async function poll(
  api: ApiClient,
  verdict: AnyRecorder,
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
  verdict: AnyRecorder,
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
  verdict: AnyRecorder;
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
