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
 * The suite runs and reads; its judges decide (core/judging/lifecycle.ts, relations.ts, state.ts).
 */
import { test } from '../suite.ts';
import { buildFile } from '../../core/data/files.ts';
import { variableValues } from '../../core/data/variables.ts';
import {
  abortQuietly,
  executionIdIn,
  followTogether,
  judgeRun,
  quickestFirst,
  startRun,
  type Started,
} from '../../core/execution/runs.ts';
import {
  fileUrls,
  fileVariableNotExercised,
  judgeFiles,
  judgeLifecycle,
  observeTypedValue,
  runNotExercised,
  runNotMade,
  type FileRead,
  type Followed,
  vaguelyDescribedVariables,
} from '../../core/judging/lifecycle.ts';
import { judgeRunToEnd } from '../../core/judging/state.ts';
import type { OutputFile } from '../../core/judging/payloads.ts';
import { workflowMissing } from '../../core/discovery/roles.ts';
import {
  acceptedUpload,
  hasVariableType,
  prepareRun,
  runBody,
  runnable,
  unfilledReason,
  unlistedVariableTypes,
  type Workflow,
} from '../../core/discovery/workflows.ts';

type Fixtures = Parameters<Parameters<typeof test>[2]>[0];

/** The workflow covering the most variable types (resource first): the richest lifecycle. */
function richest(list: Workflow[]): Workflow | undefined {
  const score = (w: Workflow) =>
    (hasVariableType(w, 'resource') ? 4 : 0) +
    (hasVariableType(w, 'option') ? 2 : 0) +
    (hasVariableType(w, 'string') ? 1 : 0);
  return [...list].sort((a, b) => score(b) - score(a))[0];
}

/**
 * Reads the url of each file a finished execution listed (loopback only). A server error on a file url
 * is no operation's status line: asked once more, so that a transient one (an overloaded gateway, already
 * the finding of the operations it answered) does not read as a url that does not serve its file. The
 * first url read with the key is read once more without it: whether it needs the key is not shown.
 */
async function readFiles(
  { api, config }: Pick<Fixtures, 'api' | 'config'>,
  files: readonly OutputFile[],
): Promise<FileRead[]> {
  const reads: FileRead[] = [];
  for (const { file, url, keyed, notRead } of fileUrls(files, config.baseUrl)) {
    if (!url) {
      reads.push({ file, notRead });
      continue;
    }
    const fetchFile = (label: string, withoutKey = false) =>
      api.send({
        method: 'GET',
        path: '',
        absoluteUrl: url.toString(),
        label,
        allowFault: true,
        ...(withoutKey ? { auth: { kind: 'none' as const } } : {}),
      });
    const first = await fetchFile(`file ${file.name}`);
    const got = (first.status ?? 0) >= 500 ? await fetchFile(`file ${file.name} (again after ${first.status})`) : first;
    const firstRead = !reads.some((r) => r.got);
    const unkeyed = keyed && firstRead ? await fetchFile(`file ${file.name} without the key`, true) : undefined;
    reads.push({ file, got, keyed, ...(unkeyed ? { unkeyed } : {}) });
  }
  return reads;
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
    runNotMade(verdict, ['file variable'], upload.stop);
    return { stop: upload.stop };
  }
  const run = await api.run(wf.canvasId, runBody(variableValues(faker, wf.plan!.variables ?? [], upload.value)), {
    label: 'run with an array of fileKeys',
  });
  return judgeRun(
    api,
    verdict,
    ['file variable'],
    run,
    `run of ${wf.canvasId}, file variable ${fileVar.name} given an array of ${upload.value.length} fileKeys`,
    wf,
  );
}

/**
 * A workflow the trial saw write files, to read output files from when the lifecycle's own workflow is
 * not known to write any: on an account where only some workflows do, the file clauses are judged on one.
 */
function fileWriter(usable: readonly Workflow[], wf: Workflow): Workflow | undefined {
  if (wf.writesFiles === true) return undefined;
  return quickestFirst(usable.filter((w) => w.writesFiles === true && w.canvasId !== wf.canvasId))[0];
}

/** The final output of a followed execution: the files it listed and the exchange that listed them. */
interface FinalOutput {
  canvasId: string;
  files: OutputFile[];
  ref?: string;
}

/** The last snapshot's output was read once the execution had ended: it is the final output. */
function finalOutput(outcome: Followed, canvasId: string): FinalOutput {
  const last = outcome.snaps[outcome.snaps.length - 1];
  return { canvasId, files: last?.output?.files ?? [], ref: last?.outputExchange?.record.id };
}

test('upload, run with file variables in the variables wrapper, poll to the end, read the output [RUN-VARIABLES-WRAPPER] [RUN-FILE-VARIABLE] [RUN-RETURNS-EXECUTION-ID] [STATUS-ECHOES-EXECUTION] [TIMES-ORDERED] [OUTPUT-FILE-NODE-EXISTS] [OUTPUT-FILE-TYPE-VALUES] [OUTPUT-FILE-SIZE-UNIT] [OUTPUT-FILE-URL-SERVES] [OUTPUT-FILE-URL-KEY]', async ({
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
  if (!withFile)
    fileVariableNotExercised(
      verdict,
      discovery.workflows.flatMap(unlistedVariableTypes),
      unfilledReason(discovery, 'file variable'),
    );
  const writer = fileWriter(usable, wf!);
  const finals: FinalOutput[] = [];
  await followTogether({ api, verdict, config }, async (follow) => {
    const started = await startRun(api, verdict, faker, wf!, { about: withFile ? ['file variable'] : [] });
    follow(started, {
      withOutput: true,
      judge: async (outcome) => {
        if (judgeLifecycle(verdict, outcome, wf!, started.run !== undefined))
          finals.unshift(finalOutput(outcome, wf!.canvasId));
      },
    });
    // Only worth trying once a file variable was accepted at all; it runs alongside the first execution.
    if (withFile && started.executionId) follow(await startWithFileKeyArray({ api, verdict, faker }, wf!));
    // The files are read from a workflow seen writing them when this one is not known to.
    if (writer)
      follow(await startRun(api, verdict, faker, writer), {
        withOutput: true,
        judge: async (outcome) => {
          if (!outcome.stop) finals.push(finalOutput(outcome, writer.canvasId));
        },
      });
  });
  // One judgement of the files: those of the first execution that listed any, else the lifecycle's own none.
  const judged = finals.find((f) => f.files.length > 0) ?? finals[0];
  if (judged)
    judgeFiles(verdict, judged.canvasId, judged.files, await readFiles({ api, config }, judged.files), judged.ref);
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
    for (const wf of list)
      follow(await startRun(api, verdict, faker, wf), { judge: (outcome) => judgeRunToEnd(verdict, outcome, wf.plan) });
  });
});

test('the legacy form: variables as top-level body fields [RUN-LEGACY-TOP-LEVEL] [RUN-RETURNS-EXECUTION-ID]', async ({
  api,
  config,
  verdict,
  faker,
  discovery,
}) => {
  const withVariables = runnable(discovery, 'long-running').filter((w) =>
    (w.plan?.variables ?? []).some((v) => v.name !== 'variables'),
  );
  // The account's own workflows before those the harness made for a shape the account lacked, and of those
  // the fewest variables the plan leaves vague: a refusal of the legacy form is judged only when the same
  // values are accepted in the wrapper, and a value the harness guessed (an option or a file the plan does
  // not type) is refused in either form. Among equally rich workflows, the one that ends soonest: this test
  // judges the run. Its execution is still followed to its end rather than aborted, whose answer would
  // depend on how far it had got.
  const own = withVariables.filter((w) => !w.made);
  const pool = own.length > 0 ? own : withVariables;
  const vague = (w: Workflow) => vaguelyDescribedVariables(w).length;
  const leastVague = Math.min(...pool.map(vague));
  const wf = richest(quickestFirst(pool.filter((w) => vague(w) === leastVague)));
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
 * sent, since a server may ignore them (what a run gets for one is recorded by the limits suite's test).
 */
async function runValueKinds(
  { api, verdict, faker }: Pick<Fixtures, 'api' | 'verdict' | 'faker'>,
  runnable: Workflow[],
  unfilled: string,
): Promise<void> {
  const untyped = (w: Workflow) => (w.plan?.variables ?? []).find((v) => v.variableType === undefined);
  const typedString = (w: Workflow) => (w.plan?.variables ?? []).find((v) => v.variableType === 'string');
  const wf = runnable.find(untyped) ?? runnable.find(typedString);
  if (!wf) return runNotExercised(verdict, 'value kinds', unfilled);
  const variable = (untyped(wf) ?? typedString(wf))!;
  const judged = variable.variableType === undefined;
  for (const [kind, value] of VALUE_KINDS) {
    const prepared = await prepareRun(api, verdict, faker, wf.plan!);
    if (prepared.stop) {
      if (judged) runNotMade(verdict, ['value kinds'], prepared.stop);
      return;
    }
    const run = await api.run(wf.canvasId, runBody({ ...prepared.values, [variable.name]: value }), {
      label: `run with ${kind}`,
    });
    const message = `run of ${wf.canvasId} with ${variable.name} given ${kind} (${JSON.stringify(value)})`;
    if (judged) {
      // The control of a refusal: the same values with a string there, as the harness's seeded values give.
      const control = {
        differs: `with ${variable.name} given a string`,
        send: () =>
          api.run(wf.canvasId, runBody(prepared.values), { label: `control run (${variable.name} a string)` }),
      };
      const started = await judgeRun(api, verdict, ['value kinds'], run, message, wf, control);
      await abortQuietly(api, started.executionId);
      continue;
    }
    observeTypedValue(verdict, kind, run);
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
  await runValueKinds({ api, verdict, faker }, quick, unfilledReason(discovery, 'string variable'));

  // Fewest variables first: a workflow without any is the plainest run without a body.
  const bare = quick
    .filter((w) => !(w.plan?.variables ?? []).some((v) => v.required))
    .sort((a, b) => (a.plan?.variables ?? []).length - (b.plan?.variables ?? []).length)[0];
  if (!bare) return runNotExercised(verdict, 'no body', unfilledReason(discovery, 'no required variable'));
  const run = await api.request('runWorkflow', { canvasId: bare.canvasId }, { label: 'run without a body' });
  const judged = await judgeRun(api, verdict, ['no body'], run, `run of ${bare.canvasId} sent with no body at all`);
  await abortQuietly(api, judged.executionId);
});
