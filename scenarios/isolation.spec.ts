/**
 * Isolation between keys (§1.3, §5.4), when a second tenant's key is given
 * (API_KEY_B, another account): tenant B's canvases, executions and file keys
 * are invisible to tenant A on every operation that takes an id, and absent
 * from A's search. Without API_KEY_B these clauses are "not run".
 */
import { test } from './fixtures.ts';
import { buildFile } from '../fixtures/data/files.ts';
import { abortQuietly, startRun } from './support/runs.ts';
import { clientError, dataOf, describe, expectStatus, type RunData, type UploadData, type WorkflowPlan } from './support/shapes.ts';
import { candidates, discoverWorkflows, hasVariableType, prepareRun, runBody, searchAll, type Discovery } from './support/workflows.ts';
import type { ApiClient } from './support/client.ts';

const NEEDS_B = 'isolation needs a second tenant: set API_KEY_B to a key of another account';

async function discoverB(apiB: ApiClient, config: Parameters<typeof discoverWorkflows>[1]): Promise<Discovery> {
  return discoverWorkflows(apiB, { ...config, canvasIds: [] });
}

test("the other tenant's canvases are unknown to detail, run and generate, and absent from search [ISOLATION-CANVAS] [SEARCH-TENANT-SCOPED]", async ({ api, apiB, config, verdict, faker }) => {
  test.skip(!apiB, NEEDS_B);
  const b = await discoverB(apiB!, config);
  const aIds = new Set((await searchAll(api)).items.map((i) => i.canvasId));
  // With nothing listed for B there is nothing that could leak: no evidence either way.
  test.skip(b.workflows.length === 0, "tenant B's search lists no workflow");
  const shared = b.workflows.filter((w) => aIds.has(w.canvasId));
  verdict.must('SEARCH-TENANT-SCOPED', shared.length === 0, { message: `tenant A's search against the ${b.workflows.length} workflows tenant B lists`, expected: "none of B's canvasIds", actual: shared.map((w) => w.canvasId).join(', ') || 'none' });
  for (const wf of b.workflows.slice(0, 5)) {
    const title = (wf.title.split(/[^\p{L}\p{N}]+/u).find((w) => w.length >= 4) ?? '').trim();
    if (title) {
      const found = await searchAll(api, { keyword: title });
      const leaked = found.items.some((i) => i.canvasId === wf.canvasId);
      verdict.must('SEARCH-TENANT-SCOPED', !leaked, { message: `tenant A searches "${title}" from B's workflow ${wf.canvasId}`, expected: `${wf.canvasId} absent`, actual: leaked ? 'listed' : 'absent' });
    }
    const detail = await api.detail(wf.canvasId);
    expectStatus(verdict, 'ISOLATION-CANVAS', detail, 404, `tenant A reads the detail of B's canvas ${wf.canvasId}`);
    const values = wf.plan ? (await prepareRun(api, faker, wf.plan as WorkflowPlan)).values : {};
    const run = await api.run(wf.canvasId, runBody(values));
    expectStatus(verdict, 'ISOLATION-CANVAS', run, 404, `tenant A runs B's canvas ${wf.canvasId}`);
    await abortQuietly(api, dataOf<RunData>(run)?.executionId);
    if (config.allowOverwrite) {
      // Only with opt-in: a target that fails this check would overwrite B's workflow.
      const gen = await api.generate({ query: 'Summarise a document', canvasId: wf.canvasId });
      expectStatus(verdict, 'ISOLATION-CANVAS', gen, 404, `tenant A generates over B's canvas ${wf.canvasId}`);
    }
  }
});

test("the other tenant's executions are unknown to status, output and abort [ISOLATION-EXECUTION]", async ({ api, apiB, config, verdict, faker }) => {
  test.skip(!apiB, NEEDS_B);
  const b = await discoverB(apiB!, config);
  const wf = candidates(b, /slow|long|batch/i).find((w) => !/disabled/i.test(w.title));
  test.skip(!wf, "tenant B has no runnable workflow");
  const started = await startRun(apiB!, verdict, faker, wf!);
  test.skip(!started.executionId, `tenant B's run did not start: ${describe(started.run)}`);
  const id = started.executionId!;
  for (const [label, call] of [
    ['status', () => api.status(id)],
    ['output', () => api.output(id)],
    ['abort', () => api.abort(id)],
  ] as const) {
    const ex = await call();
    expectStatus(verdict, 'ISOLATION-EXECUTION', ex, 404, `tenant A reads the ${label} of B's execution ${id}`);
  }
  await abortQuietly(apiB!, id);
});

test("the other tenant's file keys are not accepted as file variable values [ISOLATION-FILE-KEY]", async ({ api, apiB, verdict, faker, discovery }) => {
  test.skip(!apiB, NEEDS_B);
  const wf = candidates(discovery).find((w) => hasVariableType(w, 'resource') && !/disabled/i.test(w.title));
  test.skip(!wf, 'tenant A has no workflow with a resource variable');
  const up = await apiB!.upload([buildFile(faker, 'txt', 'small')]);
  const keyB = dataOf<UploadData>(up)?.files?.[0]?.fileKey;
  test.skip(!keyB, `tenant B's upload returned no fileKey: ${describe(up)}`);
  const prepared = await prepareRun(api, faker, wf!.plan!);
  const fileVar = (wf!.plan!.variables ?? []).find((v) => v.variableType === 'resource')!;
  const run = await api.run(wf!.canvasId, runBody({ ...prepared.values, [fileVar.name]: keyB! }));
  expectStatus(verdict, 'ISOLATION-FILE-KEY', run, clientError('not accepted (4xx)'), `tenant A runs ${wf!.canvasId} with B's fileKey for ${fileVar.name}`);
  await abortQuietly(api, dataOf<RunData>(run)?.executionId);
});
