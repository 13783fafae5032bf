/**
 * Abort (§4.2, §3): a mid-run abort is accepted (a 2xx: which one is the status
 * clause's business); the status that follows is
 * observed and reported (the spec leaves it open); no node keeps executing;
 * abort of an unknown or finished execution. The test that waits longest comes
 * first: the runner starts tests in path order, and executions/ comes first.
 *
 * A slow workflow (WFCHECK_ABORT_CANVAS_ID, or one discovery saw still running
 * long enough to abort after a poll, the longest first) is aborted once it is seen running. Without one, any workflow of several tasks will do:
 * it is aborted right after the run answers, while its later tasks still wait.
 * An execution found ended with every node finish right after the abort may
 * have ended before the abort reached it: that attempt judges nothing, and the
 * next candidate is tried. The suite runs, aborts and polls; its judges decide
 * (core/judging/state.ts, limits.ts).
 */
import { test } from '../suite.ts';
import type { ApiClient } from '../../core/client/client.ts';
import { pollExecution, PollStopped, type Snapshot } from '../../core/execution/poll.ts';
import { followTogether, quickestFirst, sequentialSteps, startRun, type Followed } from '../../core/execution/runs.ts';
import { dataOf } from '../../core/judging/answers.ts';
import type { StatusData } from '../../core/judging/payloads.ts';
import type { Stop } from '../../core/judging/stops.ts';
import {
  abortNotExercised,
  endedAbortNotReached,
  judgeAbortAccepted,
  judgeAfterAbort,
  observeAbortOfEnded,
  SETTLE_MS,
} from '../../core/judging/state.ts';
import { judgeNotFound } from '../../core/judging/limits.ts';
import { workflowMissing } from '../../core/discovery/roles.ts';
import { runnable, unfilledReason, withRole, type Discovery, type Workflow } from '../../core/discovery/workflows.ts';

/** Executions tried: slow ones, then quick ones of several tasks. */
const MAX_SLOW = 2;
const MAX_QUICK = 3;
/** How long a slow execution is given to leave init before it is aborted all the same. */
const RUNNING_WITHIN_MS = 3_000;

type Ctx = Pick<Parameters<Parameters<typeof test>[2]>[0], 'api' | 'config' | 'verdict'>;

/**
 * Polls until nothing executes, or the settle time ends (then the snapshots read are judged). A read
 * that deviated stops it: the abort's effect cannot be judged.
 */
async function settle({ api, config, verdict }: Ctx, executionId: string): Promise<Followed> {
  const settled = (s: Snapshot) =>
    ['finish', 'failed'].includes(s.status.status ?? '') ||
    (s.status.nodeExecutions ?? []).every((n) => n.status !== 'executing');
  try {
    return {
      snaps: await pollExecution(api, verdict, executionId, {
        intervalMs: config.pollIntervalMs,
        timeoutMs: SETTLE_MS,
        until: settled,
      }),
    };
  } catch (err) {
    if (!(err instanceof PollStopped)) throw err;
    return { snaps: err.snapshots, stop: err.stop.blockedBy ? err.stop : undefined };
  }
}

test('abort of a finished execution is answered, and its outcome observed [ABORT-OUTCOME]', async ({
  api,
  config,
  verdict,
  faker,
  discovery,
}) => {
  // Any execution that ends will do: the one expected to end soonest.
  const wf = quickestFirst(runnable(discovery, 'long-running'))[0];
  test.skip(!wf, workflowMissing('is runnable (neither disabled nor slow)'));
  await followTogether({ api, verdict, config }, async (follow) => {
    follow(await startRun(api, verdict, faker, wf), {
      judge: async ({ executionId, snaps, stop }) => {
        if (stop) return endedAbortNotReached(verdict, stop);
        const finalStatus = snaps[snaps.length - 1].status.status;
        const ab = await api.abort(executionId!);
        observeAbortOfEnded(verdict, finalStatus, ab, await api.status(executionId!));
      },
    });
  });
});

/**
 * The workflows to abort: the configured one (WFCHECK_ABORT_CANVAS_ID) and those discovery saw still
 * running long enough to abort after a poll (the longest first), aborted once seen running; then quick ones of several tasks, aborted right
 * after the run answers.
 */
function abortPool(discovery: Discovery, abortCanvasId: string | undefined): { wf: Workflow; slow: boolean }[] {
  const configured = discovery.workflows.filter((w) => w.canvasId === abortCanvasId && w.plan);
  const slow = withRole(discovery, 'slow (to abort)')
    .filter((w) => w.canvasId !== abortCanvasId)
    .slice(0, MAX_SLOW);
  // Longest chain of tasks first: its later tasks wait longest for their turn.
  const quick = runnable(discovery, 'long-running', 'failing')
    .filter((w) => w.canvasId !== abortCanvasId && sequentialSteps(w.plan) >= 2)
    .sort((a, b) => sequentialSteps(b.plan) - sequentialSteps(a.plan))
    .slice(0, MAX_QUICK);
  return [...[...configured, ...slow].map((wf) => ({ wf, slow: true })), ...quick.map((wf) => ({ wf, slow: false }))];
}

/** The status read right after the abort: ended with every node finish says the execution may have ended first. */
async function readAfterAbort(api: ApiClient, executionId: string): Promise<{ data?: StatusData; ranToEnd: boolean }> {
  const data = dataOf<StatusData>(await api.status(executionId, { label: 'status right after the abort' }));
  const nodes = data?.nodeExecutions ?? [];
  return { data, ranToEnd: data?.status === 'finish' && nodes.every((n) => n.status === 'finish') };
}

/**
 * The status of a slow execution once it is seen executing (or ended), read at the poll interval for at most
 * RUNNING_WITHIN_MS: aborted while still init, it would have no node executing for the abort to stop.
 */
async function seenRunning(api: ApiClient, intervalMs: number, executionId: string): Promise<StatusData | undefined> {
  const until = Date.now() + RUNNING_WITHIN_MS;
  for (;;) {
    const data = dataOf<StatusData>(await api.status(executionId, { label: 'status before the abort' }));
    if (data?.status !== 'init' || Date.now() + intervalMs > until) return data;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

test('a running execution is aborted: accepted, nodes stop, the following status is observed [ABORT-ACCEPTED] [ABORT-200-NO-DATA] [ABORT-OUTCOME] [ABORT-STOPS-NODES]', async ({
  api,
  config,
  verdict,
  faker,
  discovery,
}) => {
  const pool = abortPool(discovery, config.abortCanvasId);
  const unreadable =
    config.abortCanvasId && !discovery.workflows.some((w) => w.canvasId === config.abortCanvasId && w.plan)
      ? `; the plan of ${config.abortCanvasId} (WFCHECK_ABORT_CANVAS_ID) could not be read`
      : '';
  // A run that did not start blocks the abort only when no other candidate could be run and aborted.
  let firstStop: Stop | undefined;
  let tooQuick = 0;
  for (const { wf, slow } of pool) {
    const started = await startRun(api, verdict, faker, wf);
    if (!started.executionId) {
      firstStop ??= started.stop;
      continue;
    }
    const id = started.executionId;
    // A slow execution is seen running first; a quick one is aborted at once, while its later tasks wait.
    const before = slow ? await seenRunning(api, config.pollIntervalMs, id) : undefined;
    if (before?.status === 'finish' || before?.status === 'failed') {
      tooQuick++;
      continue;
    }
    const ab = await api.abort(id);
    const right = await readAfterAbort(api, id);
    if (right.ranToEnd) {
      tooQuick++;
      continue;
    }
    // Nodes that had not started when the abort was answered must not start afterwards.
    const waiting = (before ?? right.data)?.nodeExecutions ?? [];
    const waitingAtAbort = new Set(
      waiting.filter((n) => n.status === 'init' || n.status === 'waiting').map((n) => n.nodeId),
    );
    const how = slow ? `status ${before?.status}` : `aborted right after the run, ${wf.plan?.tasks.length} tasks`;
    if (!judgeAbortAccepted(verdict, ab, `abort of running execution ${id} of ${wf.canvasId} (${how})`)) return;
    return judgeAfterAbort(verdict, id, waitingAtAbort, await settle({ api, config, verdict }, id));
  }
  const unfilled = unfilledReason(discovery, 'slow (to abort)');
  const reason =
    pool.length === 0
      ? `${unfilled}, and no runnable workflow has two or more tasks in a row${unreadable}`
      : `no execution stayed running long enough to abort (${tooQuick} of ${pool.length} had ended first${unreadable}): ${unfilled}`;
  abortNotExercised(verdict, firstStop ?? { reason });
});

test('abort of an unknown execution gets 404 [ABORT-404-UNKNOWN-EXECUTION]', async ({ api, verdict, faker }) => {
  const id = `wfcheck-missing-${faker.string.alphanumeric(20)}`;
  judgeNotFound(verdict, 'abortExecution', await api.abort(id), `abort of ${id}`);
});
