/**
 * Lifecycle (§1, §4.1–4.4, §4.7): upload → run with file variables → poll
 * status → output, on workflows discovered through search + detail, with
 * seeded values per variableType, in the `variables` wrapper and the legacy
 * top-level form.
 */
import { test } from './fixtures.ts';
import { buildFile } from '../fixtures/data/files.ts';
import { variableValues } from '../fixtures/data/variables.ts';
import { checkExecutionHistory } from './support/analysis.ts';
import { abortQuietly, poll, startRun } from './support/runs.ts';
import { dataOf, describe, expectStatus, statusIn, type OutputData, type RunData, type StatusExpectation, type UploadData } from './support/shapes.ts';
import { candidates, hasVariableType, runBody, type Workflow } from './support/workflows.ts';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/** The workflow covering the most variable types (resource first): the richest lifecycle. */
function richest(list: Workflow[]): Workflow | undefined {
  const score = (w: Workflow) => (hasVariableType(w, 'resource') ? 4 : 0) + (hasVariableType(w, 'option') ? 2 : 0) + (hasVariableType(w, 'string') ? 1 : 0);
  return [...list].sort((a, b) => score(b) - score(a))[0];
}

test('upload, run with file variables in the variables wrapper, poll to the end, read the output [RUN-VARIABLES-WRAPPER] [RUN-FILE-VARIABLE] [RUN-RETURNS-EXECUTION-ID] [OUTPUT-FILE-NODE-EXISTS] [OUTPUT-FILE-TYPE-VALUES] [OUTPUT-FILE-SIZE-UNIT] [OUTPUT-FILE-URL-SERVES]', async ({ api, config, verdict, faker, discovery }) => {
  const usable = candidates(discovery).filter((w) => !/disabled/i.test(w.title));
  const wf = richest(usable.filter((w) => hasVariableType(w, 'resource'))) ?? richest(usable);
  test.skip(!wf, 'no workflow with a readable plan was discovered (set WFCHECK_CANVAS_IDS)');
  const started = await startRun(api, verdict, faker, wf!, 'wrapper');
  expectStatus(verdict, 'RUN-VARIABLES-WRAPPER', started.run, 200, `run of ${wf!.canvasId} with every variable in { variables: {...} }`);
  if (hasVariableType(wf!, 'resource')) {
    expectStatus(verdict, 'RUN-FILE-VARIABLE', started.run, 200, `file variable of ${wf!.canvasId} given one uploaded fileKey`);
  } else {
    verdict.notRun('RUN-FILE-VARIABLE', 'no discovered workflow has a resource variable');
  }
  test.skip(!started.executionId, `the run did not start: ${describe(started.run)}`);
  const snaps = await poll(api, config, started.executionId!, true);
  checkExecutionHistory(verdict, started.executionId!, wf!.plan, snaps);

  const output = dataOf<OutputData>(await api.output(started.executionId!));
  const files = output?.files ?? [];
  for (const f of files) verdict.observe('OUTPUT-FILE-TYPE-VALUES', 'file type', f.type);
  if (files.length === 0) verdict.notRun('OUTPUT-FILE-URL-SERVES', `execution of ${wf!.canvasId} produced no file`);
  for (const f of files.slice(0, 5)) {
    if (!f.url) {
      verdict.notRun('OUTPUT-FILE-URL-SERVES', `file ${f.name} has no url`);
      continue;
    }
    const url = new URL(f.url, config.baseUrl);
    if (!LOOPBACK.test(url.hostname)) {
      // This harness only ever talks to loopback addresses.
      verdict.notRun('OUTPUT-FILE-URL-SERVES', `file url host ${url.hostname} is not a loopback address`);
      continue;
    }
    const got = await api.send({ method: 'GET', path: '', absoluteUrl: url.toString(), label: `file ${f.name}`, allowFault: true });
    expectStatus(verdict, 'OUTPUT-FILE-URL-SERVES', got, statusIn(200, 'HTTP 200 with the file'), `GET the url of file ${f.name}`, 'should');
    if (got.status === 200 && typeof f.size === 'number') {
      const bytes = got.record.response?.bodyBytes ?? 0;
      verdict.observe('OUTPUT-FILE-SIZE-UNIT', 'size vs served bytes', f.size === bytes ? 'bytes (size equals the served length)' : `size ${f.size} for ${bytes} served bytes`);
    }
  }

  // A file variable also takes an array of fileKeys (§4.1).
  const resourceVars = (wf!.plan!.variables ?? []).filter((v) => v.variableType === 'resource');
  if (resourceVars.length > 0) {
    const up = await api.upload([buildFile(faker, 'txt', 'tiny'), buildFile(faker, 'csv', 'tiny')]);
    const keys = (dataOf<UploadData>(up)?.files ?? []).map((f) => f.fileKey);
    const values = variableValues(faker, wf!.plan!.variables ?? [], keys);
    const run = await api.run(wf!.canvasId, runBody(values), { label: 'run with an array of fileKeys' });
    expectStatus(verdict, 'RUN-FILE-VARIABLE', run, 200, `file variable ${resourceVars[0].name} given an array of ${keys.length} fileKeys`);
    const id = dataOf<RunData>(run)?.executionId;
    if (id) await poll(api, config, id);
  }
});

test('the legacy form: variables as top-level body fields [RUN-LEGACY-TOP-LEVEL] [RUN-RETURNS-EXECUTION-ID]', async ({ api, config, verdict, faker, discovery }) => {
  const usable = candidates(discovery).filter((w) => !/disabled|slow|long/i.test(w.title));
  const wf = richest(usable.filter((w) => (w.plan?.variables ?? []).some((v) => v.name !== 'variables')));
  test.skip(!wf, 'no discovered workflow has variables');
  const started = await startRun(api, verdict, faker, wf!, 'legacy');
  const withExecutionId: StatusExpectation = { ok: (ex) => ex.status === 200 && started.executionId !== undefined, expected: 'HTTP 200 with an executionId' };
  expectStatus(verdict, 'RUN-LEGACY-TOP-LEVEL', started.run, withExecutionId, `run of ${wf!.canvasId} with variables as top-level fields`);
  if (started.executionId) await poll(api, config, started.executionId);
});

test('every discovered workflow runs to a terminal status with seeded variables [RUN-RETURNS-EXECUTION-ID] [RUN-VARIABLES-WRAPPER] [STATE-TERMINAL]', async ({ api, config, verdict, faker, discovery }) => {
  // Slow workflows are left to the abort suite; on a foreign target only a bounded number run.
  const list = candidates(discovery).filter((w) => !/slow|long-running/i.test(w.title)).slice(0, config.targetKind === 'reference' ? 12 : Math.min(5, config.maxRuns));
  test.skip(list.length === 0, 'no workflow with a readable plan was discovered');
  await Promise.all(
    list.map(async (wf) => {
      const started = await startRun(api, verdict, faker, wf);
      if (started.run.status === 403) {
        verdict.note('run', `${wf.canvasId}: API disabled (403)`);
        return;
      }
      expectStatus(verdict, 'RUN-VARIABLES-WRAPPER', started.run, 200, `run of ${wf.canvasId} with seeded values for ${(wf.plan?.variables ?? []).map((v) => `${v.name}:${v.variableType ?? '?'}`).join(', ') || 'no variables'}`);
      if (!started.executionId) return;
      try {
        const snaps = await poll(api, config, started.executionId);
        checkExecutionHistory(verdict, started.executionId, wf.plan, snaps);
      } catch (err) {
        await abortQuietly(api, started.executionId);
        throw err;
      }
    }),
  );
});
