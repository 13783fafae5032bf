/**
 * Errors and limits (§4, §7, §8): the 400/403/404 of §4, the E2004/E2005
 * limits, unknown ids, and odd ids (very long, unicode, traversal-looking)
 * that must never be answered with a 5xx. The suite sends; its judges decide
 * (core/judging/limits.ts, refusals.ts).
 */
import { test } from '../suite.ts';
import { abortQuietly } from '../../core/execution/runs.ts';
import { dataOf } from '../../core/judging/answers.ts';
import type { Attempt, Stop } from '../../core/judging/stops.ts';
import type { RunData } from '../../core/judging/payloads.ts';
import {
  contentLimitNotProbedOnRun,
  decidesApiDisabled,
  INVALID_RUN_BODIES,
  judgeApiDisabled,
  judgeMissingRequired,
  judgeNotFound,
  judgeOddId,
  judgeOverContent,
  judgeOverPayload,
  judgeRunBody,
  judgeUnknownFileKey,
  judgeWithinLimits,
  serverFault,
  type DisabledRun,
} from '../../core/judging/limits.ts';
import type { OperationOnId } from '../../contracts/operation-facts.ts';
import {
  hasVariableType,
  prepareRun,
  runBody,
  runnable,
  unfilledReason,
  withRole,
  type Discovery,
  type Workflow,
} from '../../core/discovery/workflows.ts';
import type { ApiClient } from '../../core/client/client.ts';
import type { Verdict } from '../../core/evidence/verdict.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import { observeUndeclared, undeclaredName, undeclaredNeedsControl } from '../../core/judging/lifecycle.ts';
import { LIMITS } from '../../contracts/error-codes.ts';
import { howToSupply, workflowMissing } from '../../core/discovery/roles.ts';

type Fixtures = Parameters<Parameters<typeof test>[2]>[0];

const PAYLOAD_LIMIT_BYTES = LIMITS.payloadBytesSurelyOver; // §8: 100KB read as KiB: the larger reading, so "over" is over in both
const CONTENT_LIMIT_CHARS = LIMITS.maxContentChars; // §8: 100k characters
/** Just under the content limit in either reading (100,000 or 102,400 characters). */
const CONTENT_SURELY_WITHIN_CHARS = LIMITS.maxContentChars - 1_000;

/**
 * `text` cut so the body built around it stays just under both limits: the value at most
 * CONTENT_SURELY_WITHIN_CHARS characters, the whole JSON payload under 100,000 bytes (the smaller
 * reading of 100KB). Probing far below the limits would miss a target that enforces a lower one.
 */
function justUnderLimits(text: string, body: (value: string) => unknown): string {
  const overhead = Buffer.byteLength(JSON.stringify(body('')));
  return text.slice(0, Math.min(CONTENT_SURELY_WITHIN_CHARS, LIMITS.payloadBytesSurelyWithin - 1 - overhead));
}

/** A variable of the plan that takes text: typed string, or untyped (§2.5 makes variableType optional). */
function textVariableOf(w: Workflow): string | undefined {
  return (w.plan?.variables ?? []).find((v) => v.variableType === 'string' || v.variableType === undefined)?.name;
}

/**
 * A workflow whose run needs nothing but optional variables, so 400s come only from what the test
 * breaks; one that ends soon first (what it starts is aborted, but need not be).
 */
function withoutRequired(discovery: Discovery): Workflow | undefined {
  const bare = (w: Workflow) => !(w.plan?.variables ?? []).some((v) => v.required);
  return runnable(discovery, 'long-running').find(bare) ?? runnable(discovery).find(bare);
}

async function cleanup(api: Parameters<typeof abortQuietly>[0], ex: Exchange): Promise<void> {
  await abortQuietly(api, dataOf<RunData>(ex)?.executionId);
}

test('unknown canvases and executions get 404 on every operation [RUN-404-UNKNOWN-CANVAS] [DETAIL-404-UNKNOWN-CANVAS] [STATUS-404-UNKNOWN-EXECUTION] [OUTPUT-404-UNKNOWN-EXECUTION] [ABORT-404-UNKNOWN-EXECUTION]', async ({
  api,
  verdict,
  faker,
}) => {
  const canvasId = `wfcheck-missing-${faker.string.alphanumeric(20)}`;
  const executionId = `wfcheck-missing-${faker.string.alphanumeric(20)}`;
  const cases: [OperationOnId, () => Promise<Exchange>][] = [
    ['runWorkflow', () => api.run(canvasId, { variables: {} })],
    ['getWorkflowDetail', () => api.detail(canvasId)],
    ['getExecutionStatus', () => api.status(executionId)],
    ['getExecutionOutput', () => api.output(executionId)],
    ['abortExecution', () => api.abort(executionId)],
  ];
  for (const [operation, send] of cases) {
    const ex = await send();
    judgeNotFound(verdict, operation, ex, `${ex.record.method} ${ex.record.url.replace(/^.*\/v1/, '')}`);
  }
});

/** The workflows to run as disabled: the configured one, else those discovery saw refused with 403. */
function disabledPool({ config, discovery }: Pick<Fixtures, 'config' | 'discovery'>): Workflow[] {
  if (!config.disabledCanvasId) return withRole(discovery, 'API disabled').slice(0, 5);
  const plan = discovery.workflows.find((w) => w.canvasId === config.disabledCanvasId)?.plan;
  return [{ canvasId: config.disabledCanvasId, title: '', plan }];
}

test('a workflow whose API is disabled gets 403 [RUN-403-API-DISABLED]', async ({
  api,
  config,
  verdict,
  faker,
  discovery,
}) => {
  // Discovery saw these refused with 403 (a trial run, or an earlier run's it remembers): a refusal now is judged.
  const pool = disabledPool({ config, discovery });
  const configured = !!config.disabledCanvasId;
  let decided: DisabledRun | undefined;
  for (const wf of pool) {
    const prepared: { values: Record<string, unknown>; stop?: Stop } = wf.plan
      ? await prepareRun(api, verdict, faker, wf.plan)
      : { values: {} };
    const ex = await api.run(wf.canvasId, runBody(prepared.values));
    const message = `run of ${wf.canvasId}${configured ? ' (WFCHECK_DISABLED_CANVAS_ID)' : ` ("${wf.title}")`}`;
    const run: DisabledRun = { ex, message, configured, ...(prepared.stop ? { unprepared: prepared.stop } : {}) };
    const decides = decidesApiDisabled(run);
    // What a run that is not refused 403 started is aborted, unless the refusal is what is judged.
    if (!decides || (ex.status !== 403 && prepared.stop)) await cleanup(api, ex);
    if (decides) {
      decided = run;
      break;
    }
  }
  const unfound = pool.length
    ? `none of the ${pool.length} workflow(s) discovery saw refused with 403 answered 403 this time: ${howToSupply('API disabled')} whose workflow API is disabled`
    : unfilledReason(discovery, 'API disabled');
  judgeApiDisabled(verdict, decided, unfound);
});

test('invalid run bodies get 400 [RUN-400-INVALID-BODY]', async ({ api, verdict, discovery }) => {
  // A body that is not a JSON object is invalid for any workflow: one without required variables, where a
  // refusal can have no other cause, else any that runs (on an account where every workflow needs an input).
  const wf = withoutRequired(discovery) ?? runnable(discovery, 'long-running')[0] ?? runnable(discovery)[0];
  test.skip(!wf, workflowMissing('is runnable (not disabled)'));
  for (const sent of INVALID_RUN_BODIES) {
    const ex = await api.request(
      'runWorkflow',
      { canvasId: wf!.canvasId },
      { raw: { body: sent.body, contentType: 'application/json' }, label: sent.label },
    );
    judgeRunBody(verdict, sent, ex);
    await cleanup(api, ex);
  }
});

/** A run of `wf` with every variable given but for what `values` changes: the attempt to judge. */
async function runWith(
  { api, verdict, faker }: Pick<Fixtures, 'api' | 'verdict' | 'faker'>,
  wf: Workflow,
  change: (values: Record<string, unknown>) => Record<string, unknown>,
  message: string,
): Promise<Attempt> {
  const prepared = await prepareRun(api, verdict, faker, wf.plan!);
  if (prepared.stop) return { stop: prepared.stop };
  const ex = await api.run(wf.canvasId, runBody(change({ ...prepared.values })));
  return { ex, message };
}

test('a missing required variable and an unknown fileKey get 400 [RUN-400-MISSING-REQUIRED-VARIABLE] [RUN-400-UNKNOWN-FILE-KEY]', async ({
  api,
  verdict,
  faker,
  discovery,
}) => {
  const list = runnable(discovery);
  const withRequired = list.find((w) => (w.plan?.variables ?? []).some((v) => v.required));
  // Every other variable is given, so that the one left out is the only reason for a 400.
  const missing = withRequired && (withRequired.plan!.variables ?? []).find((v) => v.required)!;
  const required: Attempt = withRequired
    ? await runWith(
        { api, verdict, faker },
        withRequired,
        (values) => {
          delete values[missing!.name];
          return values;
        },
        `run of ${withRequired.canvasId} without required variable ${missing!.name}`,
      )
    : { unexercised: unfilledReason(discovery, 'required variable') };
  judgeMissingRequired(verdict, required);
  if ('ex' in required) await cleanup(api, required.ex);

  const withFile = list.find((w) => hasVariableType(w, 'resource'));
  const fileVar = withFile && (withFile.plan!.variables ?? []).find((v) => v.variableType === 'resource')!;
  const file: Attempt = withFile
    ? await runWith(
        { api, verdict, faker },
        withFile,
        (values) => ({ ...values, [fileVar!.name]: `wfcheck-never-uploaded-${faker.string.alphanumeric(16)}` }),
        `run of ${withFile.canvasId} with a fileKey upload never returned for ${fileVar!.name}`,
      )
    : { unexercised: unfilledReason(discovery, 'file variable') };
  judgeUnknownFileKey(verdict, file);
  if ('ex' in file) await cleanup(api, file.ex);
});

test('a variable the plan does not declare is ignored or refused: recorded [RUN-UNDECLARED-VARIABLES]', async ({
  api,
  verdict,
  faker,
  discovery,
}) => {
  // One that ends soon and needs no upload first: the variable added is then the run's only novelty.
  const quick = runnable(discovery, 'long-running');
  const wf = quick.find((w) => !hasVariableType(w, 'resource')) ?? quick[0] ?? runnable(discovery)[0];
  test.skip(!wf, workflowMissing('is runnable (not disabled)'));
  const prepared = await prepareRun(api, verdict, faker, wf!.plan!);
  if (prepared.stop) return observeUndeclared(verdict, { stop: prepared.stop });
  const name = undeclaredName(wf!.plan!);
  const run = await api.run(wf!.canvasId, runBody({ ...prepared.values, [name]: 'a value no variable takes' }), {
    label: 'run with an undeclared variable',
  });
  // A refusal may be of a value guessed for a declared variable: the same run without the name tells.
  const control = undeclaredNeedsControl(run)
    ? await api.run(wf!.canvasId, runBody(prepared.values), { label: 'control run (no undeclared variable)' })
    : undefined;
  const message = `run of ${wf!.canvasId} with ${name}, which its plan does not declare`;
  observeUndeclared(verdict, { ex: run, message }, control);
  await cleanup(api, run);
  if (control) await cleanup(api, control);
});

/** What the limits probes run: a canvas, the values its runs carry, and the declared variable that takes text. */
interface LimitsTarget {
  canvasId: string;
  values: Record<string, unknown>;
  /**
   * A declared variable that takes text: content the run takes. A name the plan does not declare may be
   * ignored unread, so it carries no content limit (LIMIT-CONTENT-100K applies to what the operation takes).
   */
  declared?: string;
}

/** Over 100KB in total while every value stays far below 100k characters: only the payload limit applies. */
async function probeOverPayload(api: ApiClient, verdict: Verdict, t: LimitsTarget): Promise<void> {
  const chunks = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`wfcheck_pad_${i}`, 'p'.repeat(4_000)]));
  const overPayload = await api.run(t.canvasId, runBody({ ...t.values, ...chunks }), {
    label: 'run payload > 100KB',
  });
  const kb = Math.round(JSON.stringify(chunks).length / 1024);
  judgeOverPayload(verdict, overPayload, `run with a ${kb}KB body (30 values of 4k characters)`, 'run over 100KB');
  await cleanup(api, overPayload);

  const genOver = await api.generate(
    { query: 'Summarise a document', wfcheck_padding: 'p'.repeat(PAYLOAD_LIMIT_BYTES + 2_048) },
    { label: 'generate payload > 100KB' },
  );
  judgeOverPayload(verdict, genOver, 'generate with a body over 100KB', 'generate over 100KB');
}

/**
 * Content just over 100k characters in one value, cut from `longText` (the body stays near the payload
 * limit, so either code may answer).
 */
async function probeOverContent(api: ApiClient, verdict: Verdict, t: LimitsTarget, longText: string): Promise<void> {
  const overContent = longText.padEnd(CONTENT_LIMIT_CHARS + 500, ' x').slice(0, CONTENT_LIMIT_CHARS + 500);
  const genLong = await api.generate({ query: overContent }, { label: 'generate query > 100k characters' });
  const what = `a query of ${overContent.length} characters`;
  judgeOverContent(verdict, genLong, `generate with ${what}`, 'generate content over 100k characters');
  if (!t.declared) return contentLimitNotProbedOnRun(verdict);
  const runLong = await api.run(t.canvasId, runBody({ ...t.values, [t.declared]: overContent }), {
    label: 'run value > 100k characters',
  });
  judgeOverContent(
    verdict,
    runLong,
    `run with ${t.declared} (declared by the plan) given ${overContent.length} characters`,
    'run content over 100k characters',
  );
  await cleanup(api, runLong);
}

/** Under both limits, cut from `longText`: allowed. */
async function probeUnderLimits(api: ApiClient, verdict: Verdict, t: LimitsTarget, longText: string): Promise<void> {
  const filler = longText.padEnd(CONTENT_SURELY_WITHIN_CHARS, ' y');
  const textVariable = t.declared ?? 'wfcheck_padding';
  const runUnder = (value: string) => runBody({ ...t.values, [textVariable]: value });
  const genUnder = (value: string) => ({ query: value });
  const underRun = justUnderLimits(filler, runUnder);
  const underGen = justUnderLimits(filler, genUnder);
  const bytes = (b: unknown) => Buffer.byteLength(JSON.stringify(b));
  for (const [label, send] of [
    [
      `run with a ${underRun.length}-character value (${bytes(runUnder(underRun))}-byte body)`,
      () => api.run(t.canvasId, runUnder(underRun), { label: 'run under the limits' }),
    ],
    [
      `generate with a ${underGen.length}-character query (${bytes(genUnder(underGen))}-byte body)`,
      () => api.generate(genUnder(underGen), { label: 'generate under the limits' }),
    ],
  ] as const) {
    const ex = await send();
    judgeWithinLimits(verdict, ex, label);
    await cleanup(api, ex);
  }
}

test('requests over the payload and content limits are rejected; requests under them are not [LIMIT-PAYLOAD-100KB] [LIMIT-CONTENT-100K] [LIMIT-WITHIN-ACCEPTED] [LIMIT-OPERATIONS]', async ({
  api,
  verdict,
  faker,
  discovery,
}) => {
  // Without a file variable first: an upload that fails would leave the run without a value it needs.
  const withString = runnable(discovery).filter((w) => textVariableOf(w) !== undefined);
  const wf = withString.find((w) => !hasVariableType(w, 'resource')) ?? withString[0];
  const canvasId = wf?.canvasId ?? withoutRequired(discovery)?.canvasId;
  test.skip(!canvasId, workflowMissing('is runnable (not disabled)'));
  const prepared = wf ? await prepareRun(api, verdict, faker, wf.plan!) : { values: {} };
  const target: LimitsTarget = {
    canvasId: canvasId!,
    values: prepared.values,
    declared: wf ? textVariableOf(wf) : undefined,
  };

  await probeOverPayload(api, verdict, target);
  // Seeded text drawn after the run's values, in the order a seed replays: the values below are cut from it.
  const longText = faker.lorem.paragraphs(400).replace(/\s+/g, ' ');
  await probeOverContent(api, verdict, target, longText);
  await probeUnderLimits(api, verdict, target, longText);
});

const ODD_IDS: [string, string][] = [
  ['very long', 'w'.repeat(2_000)],
  ['unicode', '工作流-🚀-ñ-\u202e-ü'],
  ['traversal-looking', '../../../etc/passwd'],
  ['encoded traversal', '..%2F..%2Fadmin'],
  ['three dots', '...'],
  ['null byte', 'abc\u0000def'],
  ['markup', '<script>alert(1)</script>'],
  ['SQL-looking', "' OR '1'='1' --"],
  ['whitespace', '  spaced id  '],
  ['JSON-looking', '{"$ne":null}'],
];

/**
 * Sends an odd-id request, and again (twice at most) while it is answered with a 5xx: a 5xx the same
 * request does not repeat is a flake of the target, not an answer about the id — the status clause
 * judged it already. A 5xx every attempt gets is the odd-id clause's.
 */
async function answerTo(send: () => Promise<Exchange>): Promise<Exchange> {
  let ex = await send();
  for (let again = 0; again < 2 && serverFault(ex); again++) ex = await send();
  return ex;
}

/** The odd-id calls, one per operation that takes an id, for `id`. */
function idCalls(api: ApiClient, id: string, label: string): (() => Promise<Exchange>)[] {
  const extra = { label, allowFault: true };
  return [
    () => api.run(id, { variables: {} }, extra),
    () => api.status(id, extra),
    () => api.output(id, extra),
    () => api.abort(id, extra),
    () => api.detail(id, extra),
    () => api.generate({ query: 'Summarise a document', canvasId: id }, extra),
  ];
}

/**
 * Operations that answer a 5xx to a plain unknown id as well: their 5xx for an odd id says nothing
 * about odd ids — the status clause has that deviation already (one deviation, one failure).
 */
async function plainUnknownFaults(api: ApiClient): Promise<boolean[]> {
  return Promise.all(
    idCalls(api, 'wfcheck-plain-unknown-id', 'plain unknown id').map(async (send) => serverFault(await answerTo(send))),
  );
}

/**
 * A workflow's id with a slash after it: a router that decodes the path before it routes (Starlette) sees
 * the workflow's own path with a trailing slash, and may redirect to it, another resource.
 */
function knownIdWithSlash(discovery: Discovery): [string, string][] {
  const id = discovery.workflows[0]?.canvasId;
  return id ? [['known id with a slash after it', `${id}/`]] : [];
}

test('odd ids are answered with a listed status, never a 5xx [ODD-IDS-NO-5XX]', async ({ api, verdict, discovery }) => {
  const plainFaults = await plainUnknownFaults(api);
  for (const [label, id] of [...ODD_IDS, ...knownIdWithSlash(discovery)]) {
    const answers = await Promise.all(idCalls(api, id, `odd id (${label})`).map(answerTo));
    for (const [i, ex] of answers.entries()) {
      judgeOddId(verdict, ex, `${ex.record.method} with a ${label} id`, plainFaults[i]);
      await cleanup(api, ex);
    }
  }
});
