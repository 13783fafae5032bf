/**
 * Abort (§4.2, §3): a mid-run abort is accepted (a 2xx: which one is the status
 * clause's business); the status that follows is
 * observed and reported (the spec leaves it open); no node keeps executing;
 * abort of an unknown or finished execution. The test that waits longest comes
 * first: the runner starts tests in path order, and executions/ comes first.
 */
import { test } from '../fixtures.ts';
import { pollExecution, PollStopped, type Snapshot } from '../support/poll.ts';
import { followTogether, quickestFirst, startRun, type Followed } from '../support/runs.ts';
import { accepted, dataOf, describe, expectStatus, stopAll, type StatusData, type Stop } from '../support/judging.ts';
import { candidates } from '../support/workflows.ts';

const SLOW_HINT = /slow|long|batch/i;
/** How long after an accepted abort nodes may take to stop. */
const SETTLE_MS = 5_000;

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

/** After an accepted abort: the outcome is observed, and no node may keep executing or start. */
function checkStopped(
  verdict: Ctx['verdict'],
  executionId: string,
  waitingAtAbort: Set<string>,
  snaps: Snapshot[],
): void {
  const last = snaps[snaps.length - 1];
  verdict.observe(
    'ABORT-OUTCOME',
    'execution status after an accepted abort',
    last?.status.status ?? '(unknown)',
    last?.statusExchange.record.id,
  );
  verdict.observe(
    'ABORT-OUTCOME',
    'node statuses after an accepted abort',
    [...new Set((last?.status.nodeExecutions ?? []).map((n) => n.status))].sort().join(', '),
  );
  if (!last) {
    verdict.notRun('ABORT-STOPS-NODES', `no status of ${executionId} could be read after the abort`);
    return;
  }
  const executing = (last.status.nodeExecutions ?? []).filter((n) => n.status === 'executing');
  const startedLater = snaps.flatMap((s) =>
    (s.status.nodeExecutions ?? [])
      .filter((n) => waitingAtAbort.has(n.nodeId) && n.status === 'executing')
      .map((n) => n.nodeId),
  );
  verdict.should('ABORT-STOPS-NODES', executing.length === 0 && startedLater.length === 0, {
    message: `nodes of ${executionId} within ${SETTLE_MS} ms of the abort`,
    expected: 'no node executing, none newly started',
    actual: `still executing: ${executing.map((n) => n.nodeId).join(', ') || 'none'}; started after abort: ${[...new Set(startedLater)].join(', ') || 'none'}`,
    exchangeId: last.statusExchange.record.id,
  });
}

test('abort of a finished execution is answered, and its outcome observed [ABORT-OUTCOME]', async ({
  api,
  config,
  verdict,
  faker,
  discovery,
}) => {
  // Any execution that ends will do: the one expected to end soonest.
  const wf = quickestFirst(candidates(discovery).filter((w) => !/disabled|slow|long-running/i.test(w.title)))[0];
  test.skip(!wf, 'no runnable workflow was discovered');
  await followTogether({ api, verdict, config }, async (follow) => {
    follow(await startRun(api, verdict, faker, wf), {
      judge: async ({ executionId, snaps, stop }) => {
        if (stop) return stopAll(verdict, ['ABORT-OUTCOME'], stop);
        const finalStatus = snaps[snaps.length - 1].status.status;
        const ab = await api.abort(executionId!);
        verdict.observe('ABORT-OUTCOME', `abort of an execution already ${finalStatus}`, describe(ab), ab.record.id);
        const after = dataOf<StatusData>(await api.status(executionId!));
        verdict.observe(
          'ABORT-OUTCOME',
          `status after aborting an execution already ${finalStatus}`,
          after?.status ?? '(unreadable)',
        );
      },
    });
  });
});

test('a running execution is aborted: accepted, nodes stop, the following status is observed [ABORT-ACCEPTED] [ABORT-200-NO-DATA] [ABORT-OUTCOME] [ABORT-STOPS-NODES]', async ({
  api,
  config,
  verdict,
  faker,
  discovery,
}) => {
  const pool = config.abortCanvasId
    ? discovery.workflows.filter((w) => w.canvasId === config.abortCanvasId)
    : candidates(discovery, SLOW_HINT).filter((w) => !/disabled/i.test(w.title));
  // A run that did not start blocks the abort only when no other candidate could be run and aborted.
  let firstStop: Stop | undefined;
  for (const wf of pool.slice(0, 3)) {
    if (!wf.plan) continue;
    const started = await startRun(api, verdict, faker, wf);
    if (!started.executionId) {
      firstStop ??= started.stop;
      continue;
    }
    const before = dataOf<StatusData>(await api.status(started.executionId));
    if (before?.status === 'finish' || before?.status === 'failed') continue; // too fast to abort: try another
    const waitingAtAbort = new Set(
      (before?.nodeExecutions ?? []).filter((n) => n.status === 'init' || n.status === 'waiting').map((n) => n.nodeId),
    );
    const ab = await api.abort(started.executionId);
    const abort = accepted(
      verdict,
      'ABORT-ACCEPTED',
      ab,
      { carries: 'an envelope', read: () => true },
      `abort of running execution ${started.executionId} (status ${before?.status})`,
    );
    if (!abort.ok) return stopAll(verdict, ['ABORT-STOPS-NODES'], abort.stop);
    const after = await settle({ api, config, verdict }, started.executionId);
    if (after.stop) return stopAll(verdict, ['ABORT-STOPS-NODES'], after.stop);
    return checkStopped(verdict, started.executionId, waitingAtAbort, after.snaps);
  }
  stopAll(
    verdict,
    ['ABORT-ACCEPTED', 'ABORT-STOPS-NODES'],
    firstStop ?? {
      reason: 'no execution stayed running long enough to abort (set WFCHECK_ABORT_CANVAS_ID to a slow workflow)',
    },
  );
});

test('abort of an unknown execution gets 404 [ABORT-404-UNKNOWN-EXECUTION]', async ({ api, verdict, faker }) => {
  const id = `wfcheck-missing-${faker.string.alphanumeric(20)}`;
  const ab = await api.abort(id);
  expectStatus(verdict, 'ABORT-404-UNKNOWN-EXECUTION', ab, 404, `abort of ${id}`);
});
