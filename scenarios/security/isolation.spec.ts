/**
 * Isolation between keys (§1.3, §5.4), when a second tenant's key is given
 * (API_KEY_B, another account). The ISOLATION-* clauses judge exposure: tenant
 * B's canvases, executions and file keys are neither revealed to tenant A nor
 * acted on by it. How the refusal is answered (404) is judged apart, by the
 * matching *-404-* clause, and only when nothing was exposed — one deviation,
 * one failure. Where both keys list one workspace, what B holds is not known
 * to be B's alone: an exposure there is SEARCH-TENANT-SCOPED's one finding
 * and blocks the probe's clauses. Without API_KEY_B these clauses are "not run".
 */
import { test } from '../fixtures.ts';
import { buildFile } from '../../foundation/data/files.ts';
import { abortQuietly, executionIdIn, startRun } from '../../engine/live/execution/runs.ts';
import {
  dataOf,
  describe,
  expectStatus,
  served,
  stopAll,
  type Stop,
  type WorkflowPlan,
} from '../../engine/live/judging/judging.ts';
import {
  acceptedUpload,
  hasVariableType,
  prepareRun,
  runBody,
  runnable,
  unfilledReason,
  type Discovery,
  type Workflow,
} from '../../engine/live/discovery/workflows.ts';
import { searchAll } from '../../engine/live/discovery/listing.ts';
import { mayBe } from '../../engine/live/discovery/roles.ts';
import { discoverWorkflows } from '../../engine/live/discovery/discovery.ts';
import type { ApiClient } from '../../engine/live/client/client.ts';
import type { Exchange } from '../../engine/live/transport/exchange.ts';
import type { Verdict } from '../../engine/evidence/verdict.ts';

const NEEDS_B = 'isolation needs a second tenant: set API_KEY_B to a key of another account';

type Ctx = Pick<Parameters<Parameters<typeof test>[2]>[0], 'api' | 'apiB' | 'config' | 'verdict' | 'faker'>;

async function discoverB(apiB: ApiClient, config: Parameters<typeof discoverWorkflows>[1]): Promise<Discovery> {
  // Tenant A's configured canvases are not B's; B's memory is its own (named by B's key fingerprint). Its
  // workflows are not run to see their behaviour: the probes need only one that runs.
  return discoverWorkflows(
    apiB,
    { ...config, canvasIds: [], abortCanvasId: undefined, disabledCanvasId: undefined },
    { apiKey: config.apiKeyB, trial: false },
  );
}

const isPlan = (data: unknown): data is WorkflowPlan =>
  !!data && typeof data === 'object' && Array.isArray((data as WorkflowPlan).tasks);
const carriesData = (ex: Exchange) => served(ex) && dataOf<unknown>(ex) !== undefined && dataOf<unknown>(ex) !== null;
/**
 * An operation without data in its answer (abort) or whose effect is elsewhere (generate) was carried
 * out when served — unless the envelope itself says it did not succeed (§2.1 `success`): a "not found"
 * answered 200 with success: false acted on nothing (its status is the 404 clause's finding).
 */
const carriedOut = (ex: Exchange) => served(ex) && (ex.json as { success?: unknown } | undefined)?.success !== false;

/**
 * Whether the two keys list one workspace: every workflow either key lists, the other lists too. Then
 * nothing tenant B holds is known to be B's alone — the keys may act as one tenant — and A reaching it is
 * the finding of SEARCH-TENANT-SCOPED (judged by the canvas test), not an exposure of its own. A target
 * whose search alone ignores the tenant lists one workspace too, but refuses A on B's resources: its
 * probes are judged as usual, since only a probe that exposed something asks.
 */
async function oneWorkspace(api: ApiClient, apiB: ApiClient): Promise<Stop | undefined> {
  const a = await searchAll(api, {}, { label: 'one workspace? tenant A' });
  const b = await searchAll(apiB, {}, { label: 'one workspace? tenant B' });
  if (a.stop || b.stop || b.items.length === 0) return undefined;
  const aIds = new Set(a.items.map((i) => i.canvasId));
  const bIds = new Set(b.items.map((i) => i.canvasId));
  if (aIds.size !== bIds.size || [...bIds].some((id) => !aIds.has(id))) return undefined;
  return {
    blockedBy: 'SEARCH-TENANT-SCOPED',
    reason: `both keys list the same ${bIds.size} workflows: what tenant B holds is not known to be B's alone`,
  };
}

/** Asks oneWorkspace once per test, and only when a probe exposed something. */
function workspaceCheck(api: ApiClient, apiB: ApiClient): () => Promise<Stop | undefined> {
  let asked: Promise<Stop | undefined> | undefined;
  return () => {
    asked ??= oneWorkspace(api, apiB);
    return asked;
  };
}

/**
 * One probe of tenant B's resource by tenant A: `exposed` says whether B's data was revealed or acted
 * on (the security clause fails); otherwise the refusal's status is judged by `statusClause` (404).
 * An exposure where both keys list one workspace blocks both clauses instead (see oneWorkspace).
 */
async function judgeProbe(
  verdict: Verdict,
  clause: string,
  statusClause: string,
  ex: Exchange,
  exposed: boolean,
  message: string,
  sameWorkspace?: () => Promise<Stop | undefined>,
): Promise<void> {
  const shared = exposed ? await sameWorkspace?.() : undefined;
  if (shared) {
    stopAll(verdict, [clause, statusClause], { ...shared, exchangeIds: [ex.record.id] });
    return;
  }
  verdict.must(clause, !exposed, {
    message,
    expected: 'neither revealed nor acted on',
    actual: exposed ? `exposed: ${describe(ex)}` : describe(ex),
    exchangeId: ex.record.id,
  });
  if (exposed) {
    stopAll(verdict, [statusClause], {
      blockedBy: clause,
      exchangeIds: [ex.record.id],
      reason: `${message}: ${describe(ex)}`,
    });
    return;
  }
  expectStatus(verdict, statusClause, ex, 404, message);
}

/** Generate over B's canvas (only with opt-in: a target that fails it overwrites B's workflow). */
async function generateOver({ api, apiB, verdict }: Ctx, wf: Workflow): Promise<void> {
  const gen = await api.generate({ query: 'Summarise a document', canvasId: wf.canvasId });
  const after = dataOf<WorkflowPlan>(await apiB!.detail(wf.canvasId, { label: "B's detail after A's generate" }));
  const shape = (p: WorkflowPlan) => JSON.stringify([p.title, p.tasks.map((t) => t.id)]);
  const replaced = isPlan(after) && isPlan(wf.plan) && shape(after) !== shape(wf.plan);
  await judgeProbe(
    verdict,
    'ISOLATION-CANVAS',
    'GENERATE-404-UNKNOWN-CANVAS',
    gen,
    carriedOut(gen) || replaced,
    `tenant A generates over B's canvas ${wf.canvasId}${replaced ? " (B's detail now shows A's plan)" : ''}`,
  );
}

/** Detail, run (and with opt-in generate) of one of B's canvases by tenant A. */
async function probeCanvas(ctx: Ctx, wf: Workflow): Promise<void> {
  const { api, verdict, faker, config } = ctx;
  const detail = await api.detail(wf.canvasId);
  await judgeProbe(
    verdict,
    'ISOLATION-CANVAS',
    'DETAIL-404-UNKNOWN-CANVAS',
    detail,
    served(detail) && isPlan(dataOf(detail)),
    `tenant A reads the detail of B's canvas ${wf.canvasId}`,
  );
  const prepared = wf.plan ? await prepareRun(api, verdict, faker, wf.plan) : { values: {} };
  const run = await api.run(wf.canvasId, runBody(prepared.values));
  const executionId = executionIdIn(run);
  await judgeProbe(
    verdict,
    'ISOLATION-CANVAS',
    'RUN-404-UNKNOWN-CANVAS',
    run,
    executionId !== undefined,
    `tenant A runs B's canvas ${wf.canvasId}`,
  );
  await abortQuietly(api, executionId);
  if (config.allowOverwrite) await generateOver(ctx, wf);
}

test("the other tenant's canvases are neither revealed nor acted on, and absent from search [ISOLATION-CANVAS] [SEARCH-TENANT-SCOPED] [DETAIL-404-UNKNOWN-CANVAS] [RUN-404-UNKNOWN-CANVAS] [GENERATE-404-UNKNOWN-CANVAS]", async ({
  api,
  apiB,
  config,
  verdict,
  faker,
}) => {
  test.skip(!apiB, NEEDS_B);
  const b = await discoverB(apiB!, config);
  const listingA = await searchAll(api);
  const aIds = new Set(listingA.items.map((i) => i.canvasId));
  // With nothing listed for B there is nothing that could leak: no evidence either way.
  test.skip(b.workflows.length === 0, "tenant B's search lists no workflow");
  const probed = [
    'ISOLATION-CANVAS',
    'DETAIL-404-UNKNOWN-CANVAS',
    'RUN-404-UNKNOWN-CANVAS',
    ...(config.allowOverwrite ? ['GENERATE-404-UNKNOWN-CANVAS'] : []),
  ];
  // A's listing cut short by an answer that deviated can tell neither what leaks nor which canvases are B's alone.
  if (listingA.stop) return stopAll(verdict, ['SEARCH-TENANT-SCOPED', ...probed], listingA.stop);
  const shared = b.workflows.filter((w) => aIds.has(w.canvasId));
  verdict.must('SEARCH-TENANT-SCOPED', shared.length === 0, {
    message: `tenant A's search against the ${b.workflows.length} workflows tenant B lists`,
    expected: "none of B's canvasIds",
    actual: shared.map((w) => w.canvasId).join(', ') || 'none',
  });
  // A canvas both keys list cannot be told apart as B's: only those A does not list are probed.
  const theirs = b.workflows.filter((w) => !aIds.has(w.canvasId));
  if (theirs.length === 0)
    return stopAll(verdict, probed, {
      blockedBy: 'SEARCH-TENANT-SCOPED',
      reason: "every canvas tenant B lists is also listed for tenant A: none is known to be B's alone",
    });
  if (!config.allowOverwrite)
    verdict.notRun(
      'GENERATE-404-UNKNOWN-CANVAS',
      "generate over B's canvas needs WFCHECK_ALLOW_OVERWRITE=1 (a failing target would overwrite it)",
    );
  for (const wf of theirs.slice(0, 5)) {
    const title = (wf.title.split(/[^\p{L}\p{N}]+/u).find((w) => w.length >= 4) ?? '').trim();
    // A listing cut short by an answer that deviated is the status clause's finding, and no evidence here.
    const found = title ? await searchAll(api, { keyword: title }) : undefined;
    if (found && !found.stop) {
      const leaked = found.items.some((i) => i.canvasId === wf.canvasId);
      verdict.must('SEARCH-TENANT-SCOPED', !leaked, {
        message: `tenant A searches "${title}" from B's workflow ${wf.canvasId}`,
        expected: `${wf.canvasId} absent`,
        actual: leaked ? 'listed' : 'absent',
      });
    }
    await probeCanvas({ api, apiB, config, verdict, faker }, wf);
  }
});

test("the other tenant's executions are neither revealed nor aborted [ISOLATION-EXECUTION] [STATUS-404-UNKNOWN-EXECUTION] [OUTPUT-404-UNKNOWN-EXECUTION] [ABORT-404-UNKNOWN-EXECUTION]", async ({
  api,
  apiB,
  config,
  verdict,
  faker,
}) => {
  test.skip(!apiB, NEEDS_B);
  const b = await discoverB(apiB!, config);
  // One that may run long first: it is still running when A's probes reach it.
  const pool = runnable(b);
  const wf = pool.find((w) => mayBe(w, 'long-running')) ?? pool[0];
  test.skip(!wf, 'tenant B has no runnable workflow');
  const started = await startRun(apiB!, verdict, faker, wf!);
  const probed = [
    'ISOLATION-EXECUTION',
    'STATUS-404-UNKNOWN-EXECUTION',
    'OUTPUT-404-UNKNOWN-EXECUTION',
    'ABORT-404-UNKNOWN-EXECUTION',
  ];
  if (!started.executionId) return stopAll(verdict, probed, started.stop!);
  const id = started.executionId;
  const shared = workspaceCheck(api, apiB!);
  // Abort last: a target that accepts it stops B's execution.
  const status = await api.status(id);
  await judgeProbe(
    verdict,
    'ISOLATION-EXECUTION',
    'STATUS-404-UNKNOWN-EXECUTION',
    status,
    carriesData(status),
    `tenant A reads the status of B's execution ${id}`,
    shared,
  );
  const output = await api.output(id);
  await judgeProbe(
    verdict,
    'ISOLATION-EXECUTION',
    'OUTPUT-404-UNKNOWN-EXECUTION',
    output,
    carriesData(output),
    `tenant A reads the output of B's execution ${id}`,
    shared,
  );
  const abort = await api.abort(id);
  await judgeProbe(
    verdict,
    'ISOLATION-EXECUTION',
    'ABORT-404-UNKNOWN-EXECUTION',
    abort,
    carriedOut(abort),
    `tenant A aborts B's execution ${id}`,
    shared,
  );
  await abortQuietly(apiB!, id);
});

test("the other tenant's file keys are not accepted as file variable values [ISOLATION-FILE-KEY] [RUN-400-UNKNOWN-FILE-KEY]", async ({
  api,
  apiB,
  verdict,
  faker,
  discovery,
}) => {
  test.skip(!apiB, NEEDS_B);
  const wf = runnable(discovery).find((w) => hasVariableType(w, 'resource'));
  test.skip(!wf, unfilledReason(discovery, 'file variable'));
  const files = [buildFile(faker, 'txt', 'small')];
  const upload = acceptedUpload(verdict, await apiB!.upload(files), files, "tenant B's upload");
  if (!upload.ok) return stopAll(verdict, ['ISOLATION-FILE-KEY', 'RUN-400-UNKNOWN-FILE-KEY'], upload.stop);
  const prepared = await prepareRun(api, verdict, faker, wf!.plan!);
  if (prepared.stop) return stopAll(verdict, ['ISOLATION-FILE-KEY', 'RUN-400-UNKNOWN-FILE-KEY'], prepared.stop);
  const fileVar = (wf!.plan!.variables ?? []).find((v) => v.variableType === 'resource')!;
  const run = await api.run(wf!.canvasId, runBody({ ...prepared.values, [fileVar.name]: upload.value[0] }));
  const message = `tenant A runs ${wf!.canvasId} with B's fileKey for ${fileVar.name}`;
  const executionId = executionIdIn(run);
  const shared = executionId ? await oneWorkspace(api, apiB!) : undefined;
  if (shared) {
    stopAll(verdict, ['ISOLATION-FILE-KEY', 'RUN-400-UNKNOWN-FILE-KEY'], { ...shared, exchangeIds: [run.record.id] });
    return abortQuietly(api, executionId);
  }
  verdict.must('ISOLATION-FILE-KEY', !executionId, {
    message,
    expected: 'not accepted',
    actual: executionId ? `accepted: execution ${executionId}` : describe(run),
    exchangeId: run.record.id,
  });
  if (executionId)
    stopAll(verdict, ['RUN-400-UNKNOWN-FILE-KEY'], {
      blockedBy: 'ISOLATION-FILE-KEY',
      exchangeIds: [run.record.id],
      reason: `${message}: accepted`,
    });
  else expectStatus(verdict, 'RUN-400-UNKNOWN-FILE-KEY', run, 400, message, 'should');
  await abortQuietly(api, executionId);
});
