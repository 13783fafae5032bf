/**
 * Isolation between keys (§1.3, §5.4), when a second tenant's key is given
 * (API_KEY_B, another account). The ISOLATION-* clauses judge exposure: tenant
 * B's canvases, executions and file keys are neither revealed to tenant A nor
 * acted on by it. How the refusal is answered (404) is judged apart, by the
 * matching *-404-* clause, and only when nothing was exposed — one deviation,
 * one failure. Where both keys list one workspace, what B holds is not known
 * to be B's alone: an exposure there is SEARCH-TENANT-SCOPED's one finding
 * and blocks the probe's clauses. Without API_KEY_B these clauses are "not run".
 * The suite sends as both tenants; its judges decide (core/judging/security.ts).
 */
import { test } from '../suite.ts';
import { buildFile } from '../../core/data/files.ts';
import { abortQuietly, executionIdIn, startRun } from '../../core/execution/runs.ts';
import { dataOf } from '../../core/judging/answers.ts';
import type { Stop } from '../../core/judging/stops.ts';
import type { WorkflowPlan } from '../../core/judging/payloads.ts';
import {
  executionProbesNotMade,
  exposes,
  fileKeyProbeNotMade,
  judgeFileKeyProbe,
  judgeKeywordLeak,
  judgeListingsApart,
  judgeProbe,
  oneWorkspace,
} from '../../core/judging/security.ts';
import type { OperationOnId } from '../../contracts/operation-facts.ts';
import {
  acceptedUpload,
  hasVariableType,
  prepareRun,
  runBody,
  runnable,
  unfilledReason,
  type Discovery,
  type Workflow,
} from '../../core/discovery/workflows.ts';
import { searchAll } from '../../core/discovery/listing.ts';
import { mayBe } from '../../core/discovery/roles.ts';
import { discoverWorkflows } from '../../core/discovery/discovery.ts';
import type { ApiClient } from '../../core/client/client.ts';

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

/** Whether both keys list one workspace (security.ts, oneWorkspace): read from both listings. */
async function sameWorkspace(api: ApiClient, apiB: ApiClient): Promise<Stop | undefined> {
  const a = await searchAll(api, {}, { label: 'one workspace? tenant A' });
  const b = await searchAll(apiB, {}, { label: 'one workspace? tenant B' });
  return oneWorkspace(a, b);
}

/** Asks sameWorkspace once per test, and only when a probe exposed something. */
function workspaceCheck(api: ApiClient, apiB: ApiClient): () => Promise<Stop | undefined> {
  let asked: Promise<Stop | undefined> | undefined;
  return () => {
    asked ??= sameWorkspace(api, apiB);
    return asked;
  };
}

/** Generate over B's canvas (only with opt-in: a target that fails it overwrites B's workflow). */
async function generateOver({ api, apiB, verdict }: Ctx, wf: Workflow): Promise<void> {
  const gen = await api.generate({ query: 'Summarise a document', canvasId: wf.canvasId });
  const after = dataOf<WorkflowPlan>(await apiB!.detail(wf.canvasId, { label: "B's detail after A's generate" }));
  const shape = (p: WorkflowPlan | undefined) =>
    p && Array.isArray(p.tasks) ? JSON.stringify([p.title, p.tasks.map((t) => t.id)]) : undefined;
  const replaced = shape(after) !== undefined && shape(wf.plan) !== undefined && shape(after) !== shape(wf.plan);
  const message = `tenant A generates over B's canvas ${wf.canvasId}${replaced ? " (B's detail now shows A's plan)" : ''}`;
  judgeProbe(verdict, 'generateWorkflow', gen, message, { replaced, canvasId: wf.canvasId });
}

/** Detail, run (and with opt-in generate) of one of B's canvases by tenant A. */
async function probeCanvas(ctx: Ctx, wf: Workflow): Promise<void> {
  const { api, verdict, faker, config } = ctx;
  judgeProbe(
    verdict,
    'getWorkflowDetail',
    await api.detail(wf.canvasId),
    `tenant A reads the detail of B's canvas ${wf.canvasId}`,
  );
  const prepared = wf.plan ? await prepareRun(api, verdict, faker, wf.plan) : { values: {} };
  const run = await api.run(wf.canvasId, runBody(prepared.values));
  judgeProbe(verdict, 'runWorkflow', run, `tenant A runs B's canvas ${wf.canvasId}`);
  await abortQuietly(api, executionIdIn(run));
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
  // With nothing listed for B there is nothing that could leak: no evidence either way.
  test.skip(b.workflows.length === 0, "tenant B's search lists no workflow");
  const alone = judgeListingsApart(verdict, listingA, b.workflows, config.allowOverwrite);
  if (!alone) return;
  for (const wf of b.workflows.filter((w) => alone.includes(w.canvasId)).slice(0, 5)) {
    const keyword = (wf.title.split(/[^\p{L}\p{N}]+/u).find((w) => w.length >= 4) ?? '').trim();
    if (keyword) judgeKeywordLeak(verdict, keyword, wf.canvasId, await searchAll(api, { keyword }));
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
  if (!started.executionId) return executionProbesNotMade(verdict, started.stop!);
  const id = started.executionId;
  const shared = workspaceCheck(api, apiB!);
  // Abort last: a target that accepts it stops B's execution.
  const probes: [OperationOnId, () => Promise<Awaited<ReturnType<ApiClient['status']>>>, string][] = [
    ['getExecutionStatus', () => api.status(id), `tenant A reads the status of B's execution ${id}`],
    ['getExecutionOutput', () => api.output(id), `tenant A reads the output of B's execution ${id}`],
    ['abortExecution', () => api.abort(id), `tenant A aborts B's execution ${id}`],
  ];
  for (const [operation, send, message] of probes) {
    const ex = await send();
    judgeProbe(verdict, operation, ex, message, { shared: exposes(operation, ex) ? await shared() : undefined });
  }
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
  if (!upload.ok) return fileKeyProbeNotMade(verdict, upload.stop);
  const prepared = await prepareRun(api, verdict, faker, wf!.plan!);
  if (prepared.stop) return fileKeyProbeNotMade(verdict, prepared.stop);
  const fileVar = (wf!.plan!.variables ?? []).find((v) => v.variableType === 'resource')!;
  const run = await api.run(wf!.canvasId, runBody({ ...prepared.values, [fileVar.name]: upload.value[0] }));
  const executionId = executionIdIn(run);
  const shared = executionId ? await sameWorkspace(api, apiB!) : undefined;
  judgeFileKeyProbe(verdict, run, `tenant A runs ${wf!.canvasId} with B's fileKey for ${fileVar.name}`, shared);
  await abortQuietly(api, executionId);
});
