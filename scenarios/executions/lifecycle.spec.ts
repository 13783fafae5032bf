/**
 * Lifecycle (§1, §4.1–4.4, §4.7): upload → run with file variables → poll
 * status → output, on workflows discovered through search + detail, with
 * seeded values per variableType, in the `variables` wrapper and the legacy
 * top-level form; values of every kind, and a run without a body.
 *
 * A run is accepted when it is answered 2xx with an executionId — whichever 2xx:
 * the status code itself is the status clause's. When a step deviates, what
 * depends on it is "blocked by" the clause that failed.
 *
 * The suites that wait for executions live in executions/, the first folder by
 * name, so the runner, which starts files in path order, starts them first; inside, the longest waits come first, and
 * each test starts the executions it needs before following them together.
 */
import { test } from '../fixtures.ts';
import { buildFile } from '../../foundation/data/files.ts';
import { variableValues } from '../../foundation/data/variables.ts';
import { checkExecutionHistory } from '../../engine/live/judging/relations.ts';
import { seg } from '../../engine/live/transport/exchange.ts';
import {
  abortQuietly,
  executionIdIn,
  followTogether,
  judgeRun,
  quickestFirst,
  startRun,
  type Started,
} from '../../engine/live/execution/runs.ts';
import {
  dependsOn,
  describe,
  expectStatus,
  served,
  stopAll,
  type OutputFile,
} from '../../engine/live/judging/judging.ts';
import { workflowMissing } from '../../engine/live/discovery/roles.ts';
import {
  acceptedUpload,
  hasVariableType,
  prepareRun,
  runBody,
  runnable,
  unfilledReason,
  unlistedVariableTypes,
  type Discovery,
  type Workflow,
} from '../../engine/live/discovery/workflows.ts';

type Fixtures = Parameters<Parameters<typeof test>[2]>[0];

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/** What the first lifecycle test judges on the execution's history and output, once it ran. */
const AFTER_START = [
  'STATUS-ECHOES-EXECUTION',
  'TIMES-ORDERED',
  'OUTPUT-FILE-NODE-EXISTS',
  'OUTPUT-FILE-TYPE-VALUES',
  'OUTPUT-FILE-SIZE-UNIT',
  'OUTPUT-FILE-URL-SERVES',
];
/** What needs the files themselves (OUTPUT-FILE-NODE-EXISTS is the history's, judged on every output read). */
const ON_FILES = ['OUTPUT-FILE-TYPE-VALUES', 'OUTPUT-FILE-SIZE-UNIT', 'OUTPUT-FILE-URL-SERVES'];

/** The workflow covering the most variable types (resource first): the richest lifecycle. */
function richest(list: Workflow[]): Workflow | undefined {
  const score = (w: Workflow) =>
    (hasVariableType(w, 'resource') ? 4 : 0) +
    (hasVariableType(w, 'option') ? 2 : 0) +
    (hasVariableType(w, 'string') ? 1 : 0);
  return [...list].sort((a, b) => score(b) - score(a))[0];
}

/** No discovered workflow has a file variable: not run — unless plans type variables outside the enum, which may hide them. */
function fileVariableNotExercised(verdict: Fixtures['verdict'], discovery: Discovery): void {
  const unlisted = discovery.workflows.flatMap(unlistedVariableTypes);
  if (unlisted.length > 0)
    verdict.blocked('RUN-FILE-VARIABLE', {
      blockedBy: 'VARIABLE-TYPE-ENUM',
      step: 'the plans discovery read',
      reason: `no variable is typed resource; plans type variables as ${[...new Set(unlisted)].join(', ')}`,
    });
  else verdict.notRun('RUN-FILE-VARIABLE', unfilledReason(discovery, 'file variable'));
}

/**
 * The files of a finished execution, as its last output listed them: their types are observed, their urls
 * fetched (loopback only), and the unit of their size read against the bytes served. size and url are
 * optional (§2.3): a file without them says nothing of what needs them.
 */
async function checkFiles(
  { api, config, verdict }: Pick<Fixtures, 'api' | 'config' | 'verdict'>,
  canvasId: string,
  files: OutputFile[],
  outputRef: string | undefined,
): Promise<void> {
  if (files.length === 0) {
    for (const id of ON_FILES) verdict.notRun(id, `the execution of ${canvasId} produced no file`);
    return;
  }
  for (const f of files) verdict.observe('OUTPUT-FILE-TYPE-VALUES', 'file type', f.type, outputRef);
  let sizeRead = false;
  const sizeNotRead = new Set<string>();
  for (const f of files.slice(0, 5)) {
    if (!f.url) {
      verdict.notRun('OUTPUT-FILE-URL-SERVES', `cannot judge: file ${f.name} has no url (files[].url is optional)`);
      sizeNotRead.add('cannot judge: no file with a size has a url to read its bytes from');
      continue;
    }
    const url = new URL(f.url, config.baseUrl);
    if (!LOOPBACK.test(url.hostname)) {
      // This harness only ever talks to loopback addresses.
      const reason = `file url host ${url.hostname} is not a loopback address`;
      verdict.notRun('OUTPUT-FILE-URL-SERVES', reason);
      sizeNotRead.add(reason);
      continue;
    }
    const fetchFile = (label: string) =>
      api.send({ method: 'GET', path: '', absoluteUrl: url.toString(), label, allowFault: true });
    const first = await fetchFile(`file ${f.name}`);
    // A server error on a file url is no operation's status line: asked once more, so that a transient
    // one (an overloaded gateway, already the finding of the operations it answered) does not read as a
    // url that does not serve its file; a url that fails twice does not serve it.
    const got = (first.status ?? 0) >= 500 ? await fetchFile(`file ${f.name} (again after ${first.status})`) : first;
    const servedFile = expectStatus(
      verdict,
      'OUTPUT-FILE-URL-SERVES',
      got,
      { ok: served, expected: 'the file (a 2xx)' },
      `GET the url of file ${f.name}`,
      'should',
    );
    if (typeof f.size !== 'number') {
      sizeNotRead.add(`cannot judge: file ${f.name} has no size (files[].size is optional)`);
      continue;
    }
    if (!servedFile) {
      // Its bytes were the data the unit is read against.
      verdict.blocked('OUTPUT-FILE-SIZE-UNIT', {
        blockedBy: 'OUTPUT-FILE-URL-SERVES',
        exchangeIds: [got.record.id],
        reason: `the url of file ${f.name} did not serve it`,
      });
      continue;
    }
    sizeRead = true;
    const bytes = got.record.response?.bodyBytes ?? 0;
    verdict.observe(
      'OUTPUT-FILE-SIZE-UNIT',
      'size vs served bytes',
      f.size === bytes ? 'bytes (size equals the served length)' : `size ${f.size} for ${bytes} served bytes`,
      got.record.id,
    );
  }
  if (!sizeRead) for (const reason of sizeNotRead) verdict.notRun('OUTPUT-FILE-SIZE-UNIT', reason);
}

/** A file variable also takes an array of fileKeys (§4.1): the run that gives it two. */
async function startWithFileKeyArray(
  { api, verdict, faker }: Pick<Fixtures, 'api' | 'verdict' | 'faker'>,
  wf: Workflow,
): Promise<Pick<Started, 'executionId' | 'stop'>> {
  const fileVar = (wf.plan!.variables ?? []).find((v) => v.variableType === 'resource')!;
  const files = [buildFile(faker, 'txt', 'tiny'), buildFile(faker, 'csv', 'tiny')];
  const upload = acceptedUpload(verdict, await api.upload(files), files, 'upload of two files for one file variable');
  if (!upload.ok) {
    stopAll(verdict, ['RUN-FILE-VARIABLE'], upload.stop);
    return { stop: upload.stop };
  }
  const run = await api.run(wf.canvasId, runBody(variableValues(faker, wf.plan!.variables ?? [], upload.value)), {
    label: 'run with an array of fileKeys',
  });
  return judgeRun(
    api,
    verdict,
    ['RUN-FILE-VARIABLE'],
    run,
    `run of ${wf.canvasId}, file variable ${fileVar.name} given an array of ${upload.value.length} fileKeys`,
    wf,
  );
}

test('upload, run with file variables in the variables wrapper, poll to the end, read the output [RUN-VARIABLES-WRAPPER] [RUN-FILE-VARIABLE] [RUN-RETURNS-EXECUTION-ID] [STATUS-ECHOES-EXECUTION] [TIMES-ORDERED] [OUTPUT-FILE-NODE-EXISTS] [OUTPUT-FILE-TYPE-VALUES] [OUTPUT-FILE-SIZE-UNIT] [OUTPUT-FILE-URL-SERVES]', async ({
  api,
  config,
  verdict,
  faker,
  discovery,
}) => {
  const usable = runnable(discovery);
  const wf = richest(usable.filter((w) => hasVariableType(w, 'resource'))) ?? richest(usable);
  test.skip(!wf, workflowMissing('has a readable plan'));
  const withFile = hasVariableType(wf!, 'resource');
  if (!withFile) fileVariableNotExercised(verdict, discovery);
  await followTogether({ api, verdict, config }, async (follow) => {
    const started = await startRun(api, verdict, faker, wf!, {
      clauses: withFile ? ['RUN-VARIABLES-WRAPPER', 'RUN-FILE-VARIABLE'] : ['RUN-VARIABLES-WRAPPER'],
    });
    follow(started, {
      withOutput: true,
      judge: async ({ executionId, snaps, stop }) => {
        // What was read of a history cut short is judged; what needed its end is blocked by why it stopped.
        if (stop && executionId && snaps.length > 0) {
          checkExecutionHistory(verdict, executionId, wf!.plan, snaps, stop);
          return stopAll(
            verdict,
            AFTER_START.filter((id) => !verdict.recorded.has(id)),
            stop,
          );
        }
        // A run never sent (its upload failed) leaves the wrapper clause blocked: what needed the run is blocked by it.
        if (stop)
          return stopAll(
            verdict,
            AFTER_START,
            started.run ? stop : dependsOn('RUN-VARIABLES-WRAPPER', stop, `the run of ${wf!.canvasId} (never sent)`),
          );
        const facts = checkExecutionHistory(verdict, executionId!, wf!.plan, snaps);
        if (!facts.sawFiles)
          verdict.notRun('OUTPUT-FILE-NODE-EXISTS', `the execution of ${wf!.canvasId} produced no file`);
        // The last snapshot's output was read once the execution had ended: it is the final output.
        const last = snaps[snaps.length - 1];
        await checkFiles(
          { api, config, verdict },
          wf!.canvasId,
          last.output?.files ?? [],
          last.outputExchange?.record.id,
        );
      },
    });
    // Only worth trying once a file variable was accepted at all; it runs alongside the first execution.
    if (withFile && started.executionId) follow(await startWithFileKeyArray({ api, verdict, faker }, wf!));
  });
});

test('every discovered workflow runs to a terminal status with seeded variables [RUN-RETURNS-EXECUTION-ID] [RUN-VARIABLES-WRAPPER] [STATE-TERMINAL]', async ({
  api,
  config,
  verdict,
  faker,
  discovery,
}) => {
  // Slow workflows are left to the abort suite; on a foreign target only a bounded number run.
  const list = runnable(discovery, 'long-running').slice(
    0,
    config.targetKind === 'reference' ? 12 : Math.min(5, config.maxRuns),
  );
  test.skip(list.length === 0, 'no workflow with a readable plan was discovered');
  await followTogether({ api, verdict, config }, async (follow) => {
    for (const wf of list) {
      follow(await startRun(api, verdict, faker, wf), {
        judge: ({ executionId, snaps, stop }) => {
          if (executionId && snaps.length > 0) checkExecutionHistory(verdict, executionId, wf.plan, snaps, stop);
          else if (stop) stopAll(verdict, ['STATE-TERMINAL'], stop);
        },
      });
    }
  });
});

test('the legacy form: variables as top-level body fields [RUN-LEGACY-TOP-LEVEL] [RUN-RETURNS-EXECUTION-ID]', async ({
  api,
  config,
  verdict,
  faker,
  discovery,
}) => {
  const usable = runnable(discovery, 'long-running');
  // Among equally rich workflows, the one that ends soonest: this test judges the run. Its execution is
  // still followed to its end rather than aborted, whose answer would depend on how far it had got.
  const wf = richest(
    quickestFirst(usable.filter((w) => (w.plan?.variables ?? []).some((v) => v.name !== 'variables'))),
  );
  test.skip(!wf, workflowMissing('has variables'));
  await followTogether({ api, verdict, config }, async (follow) =>
    follow(await startRun(api, verdict, faker, wf!, { form: 'legacy' })),
  );
});

/** One value of each kind §4.1 names besides a string. */
const VALUE_KINDS: [string, unknown][] = [
  ['a number', 42.5],
  ['a boolean', true],
  ['an object', { region: 'EMEA', limit: 3 }],
  ['an array', ['alpha', 'beta']],
];

/**
 * RUN-VALUE-KINDS: a value of each kind given to a variable the plan declares without a type must be
 * accepted (should: an untyped variable may be read as a string one). A variable typed string takes what
 * its type says, so what it makes of the other kinds is recorded; no names the plan does not declare are
 * sent, since a server may ignore them.
 */
async function judgeValueKinds(
  { api, verdict, faker }: Pick<Fixtures, 'api' | 'verdict' | 'faker'>,
  runnable: Workflow[],
  unfilled: string,
): Promise<void> {
  const untyped = (w: Workflow) => (w.plan?.variables ?? []).find((v) => v.variableType === undefined);
  const typedString = (w: Workflow) => (w.plan?.variables ?? []).find((v) => v.variableType === 'string');
  const wf = runnable.find(untyped) ?? runnable.find(typedString);
  if (!wf) return verdict.notRun('RUN-VALUE-KINDS', unfilled);
  const variable = (untyped(wf) ?? typedString(wf))!;
  const judged = variable.variableType === undefined;
  for (const [kind, value] of VALUE_KINDS) {
    const prepared = await prepareRun(api, verdict, faker, wf.plan!);
    if (prepared.stop) {
      if (judged) stopAll(verdict, ['RUN-VALUE-KINDS'], prepared.stop);
      return;
    }
    const run = await api.run(wf.canvasId, runBody({ ...prepared.values, [variable.name]: value }), {
      label: `run with ${kind}`,
    });
    const message = `run of ${wf.canvasId} with ${variable.name} given ${kind} (${JSON.stringify(value)})`;
    if (judged) {
      const started = await judgeRun(api, verdict, ['RUN-VALUE-KINDS'], run, message, wf);
      await abortQuietly(api, started.executionId);
      continue;
    }
    verdict.observe('RUN-VALUE-KINDS', `a variable typed string given ${kind}`, describe(run), run.record.id);
    await abortQuietly(api, executionIdIn(run));
  }
}

test('variables of every value kind, and a run without a body, are accepted [RUN-VALUE-KINDS] [RUN-WITHOUT-BODY] [RUN-RETURNS-EXECUTION-ID]', async ({
  api,
  verdict,
  faker,
  discovery,
}) => {
  // Without file variables first: nothing to upload. Option and file values are confined to their
  // options and fileKeys, so the kinds are given to an untyped variable, else to a string one.
  const quick = runnable(discovery, 'long-running').sort(
    (a, b) => Number(hasVariableType(a, 'resource')) - Number(hasVariableType(b, 'resource')),
  );
  await judgeValueKinds({ api, verdict, faker }, quick, unfilledReason(discovery, 'string variable'));

  // Fewest variables first: a workflow without any is the plainest run without a body.
  const bare = quick
    .filter((w) => !(w.plan?.variables ?? []).some((v) => v.required))
    .sort((a, b) => (a.plan?.variables ?? []).length - (b.plan?.variables ?? []).length)[0];
  if (!bare) return verdict.notRun('RUN-WITHOUT-BODY', unfilledReason(discovery, 'no required variable'));
  const run = await api.send({
    method: 'POST',
    path: `/openapi/workflow/${seg(bare.canvasId)}/run`,
    label: 'run without a body',
  });
  const judged = await judgeRun(
    api,
    verdict,
    ['RUN-WITHOUT-BODY'],
    run,
    `run of ${bare.canvasId} sent with no body at all`,
  );
  await abortQuietly(api, judged.executionId);
});
