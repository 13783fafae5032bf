/**
 * The judges of errors and limits (§4, §7, §8): what does not exist is not found (404), a workflow whose
 * API is disabled is refused (403), a run missing a required variable or naming a fileKey never returned
 * is refused (400), requests within the limits are not refused for their size (those over them are
 * refusals.ts's), and odd ids never crash the server.
 */
import type { ClauseId } from '../../contracts/requirements.ts';
import { OPERATION_FACTS, OPERATIONS_ON_ID, type OperationOnId } from '../../contracts/operation-facts.ts';
import type { AnyRecorder } from '../evidence/verdict.ts';
import { harnessFault, type Exchange } from '../transport/exchange.ts';
import { judge } from './judge.ts';
import { describe, errCodeOf, served, statusDeviation } from './answers.ts';
import { expectStatus, type StatusExpectation } from './expect.ts';
import { onAttempt, stopAll, type Attempt, type Stop } from './stops.ts';
import { judgeInvalidParameter, judgeOverLimit, observeNearInvalid } from './refusals.ts';

// ---- not found (§4, §7) ---------------------------------------------------------------------------------

/** The clause of each operation sent with an id, about an id that does not exist (contracts/operation-facts.ts). */
const NOT_FOUND = Object.fromEntries(OPERATIONS_ON_ID.map((op) => [op, OPERATION_FACTS[op].about.notFound])) as {
  readonly [K in OperationOnId]: (typeof OPERATION_FACTS)[K]['about']['notFound'];
};

/** The judge of ids that do not exist (or are another tenant's): not found. */
export const notFound = judge('unknown canvases and executions', Object.values(NOT_FOUND));

/** The clause an answer of `operation` about an id it does not know is judged by (for stops that name it). */
export function notFoundClauseOf(operation: OperationOnId): ClauseId {
  return NOT_FOUND[operation];
}

/** A request of `operation` naming an id it does not know (or may not know) gets 404. */
export const judgeNotFound = notFound.judges((v, operation: OperationOnId, ex: Exchange, message: string): boolean =>
  expectStatus(v, NOT_FOUND[operation], ex, 404, message),
);

/** What a not-found clause could not be judged on: the stop of the step it needed, or why it was not probed. */
export const notFoundUnjudged = notFound.judges((v, operations: readonly OperationOnId[], stop: Stop): void =>
  stopAll(
    v,
    operations.map((op) => NOT_FOUND[op]),
    stop,
  ),
);

// ---- refused runs (§4.1) --------------------------------------------------------------------------------

/** The judge of runs the words refuse: API disabled, a required variable missing, a fileKey never returned. */
export const refusedRuns = judge('runs that are refused', [
  'RUN-403-API-DISABLED',
  'RUN-400-MISSING-REQUIRED-VARIABLE',
  'RUN-400-UNKNOWN-FILE-KEY',
]);

/** A run of a workflow believed disabled, as sent: whether its file variable could be given a key. */
export interface DisabledRun {
  ex: Exchange;
  message: string;
  /** The workflow was named by WFCHECK_DISABLED_CANVAS_ID: its answer is judged whatever it is. */
  configured: boolean;
  /** Its file variable could not be given a key: a refusal other than 403 may be for that. */
  unprepared?: Stop;
}

/** Whether the run decides RUN-403-API-DISABLED: a 403, or any answer to the configured workflow. */
export function decidesApiDisabled(run: DisabledRun): boolean {
  if (run.ex.status !== 403 && run.unprepared) return run.configured;
  return run.ex.status === 403 || run.configured;
}

/**
 * A workflow whose API is disabled gets 403: judged on the run that decides it (see decidesApiDisabled);
 * a configured one sent without its file variable and answered otherwise is stopped by that step.
 * Without one, not run for `unfound`.
 */
export const judgeApiDisabled = refusedRuns.judges((v, run: DisabledRun | undefined, unfound: string) => {
  if (!run) return v.notRun('RUN-403-API-DISABLED', unfound);
  if (run.ex.status !== 403 && run.unprepared)
    return stopAll(v, ['RUN-403-API-DISABLED'], {
      ...run.unprepared,
      reason: `${run.message} was sent without its file variable (${run.unprepared.reason}) and answered ${describe(run.ex)}`,
    });
  expectStatus(v, 'RUN-403-API-DISABLED', run.ex, 403, run.message);
});

/** A run without one of its required variables gets 400 (should: see the catalogue's reading). */
export const judgeMissingRequired = refusedRuns.judges((v, attempt: Attempt): void =>
  onAttempt(v, 'RUN-400-MISSING-REQUIRED-VARIABLE', attempt, (ex, message) => {
    expectStatus(v, 'RUN-400-MISSING-REQUIRED-VARIABLE', ex, 400, message);
  }),
);

/** A run whose file variable names a fileKey no upload returned gets 400 (should). */
export const judgeUnknownFileKey = refusedRuns.judges((v, attempt: Attempt): void =>
  onAttempt(v, 'RUN-400-UNKNOWN-FILE-KEY', attempt, (ex, message) => {
    expectStatus(v, 'RUN-400-UNKNOWN-FILE-KEY', ex, 400, message);
  }),
);

/** Run bodies that are invalid (400), and one whose answer the words leave open (`judged` false: recorded). */
export const INVALID_RUN_BODIES: readonly { label: string; body: string; judged: boolean }[] = [
  { label: 'not JSON', body: '{"variables": {', judged: true },
  { label: 'a JSON array', body: '[1, 2, 3]', judged: true },
  { label: 'a JSON string', body: '"variables"', judged: true },
  { label: 'variables not an object', body: '{"variables": "text"}', judged: false },
];

/** An invalid run body gets 400; a `variables` that is no object is recorded. */
export function judgeRunBody(v: AnyRecorder, sent: (typeof INVALID_RUN_BODIES)[number], ex: Exchange): void {
  if (sent.judged) judgeInvalidParameter(v, 'RUN-400-INVALID-BODY', ex, `run body that is ${sent.label}: ${sent.body}`);
  else observeNearInvalid(v, 'RUN-400-INVALID-BODY', ex, 'run with "variables" that is not an object');
}

// ---- the limits (§8) ------------------------------------------------------------------------------------

/** The judge of requests within the limits, and of which operations the limits bind (recorded). */
export const withinLimits = judge('requests within the limits', ['LIMIT-WITHIN-ACCEPTED', 'LIMIT-OPERATIONS']);

/** Which operations the limits bind is stated only by the codes: what each answers over a limit is recorded. */
const observeLimitAnswer = withinLimits.judges((v, what: string, ex: Exchange): void =>
  v.observe('LIMIT-OPERATIONS', what, describe(ex), ex.record.id),
);

/**
 * Whether the payload limit binds uploads is stated only by its code ("request payload too large"): what an
 * upload over 100KB gets is recorded, never judged (a 413 or a 400 is as fair as accepting it).
 */
export function observeUploadOverPayload(v: AnyRecorder, ex: Exchange): void {
  observeLimitAnswer(v, 'upload over 100KB', ex);
}

/** A request over 100KB in total (every value far below 100k characters) is refused; its answer recorded. */
export function judgeOverPayload(v: AnyRecorder, ex: Exchange, message: string, what: string): void {
  judgeOverLimit(v, 'LIMIT-PAYLOAD-100KB', ex, message);
  observeLimitAnswer(v, what, ex);
}

/** Content over 100k characters the operation takes is refused; its answer recorded. */
export function judgeOverContent(v: AnyRecorder, ex: Exchange, message: string, what: string): void {
  judgeOverLimit(v, 'LIMIT-CONTENT-100K', ex, message);
  observeLimitAnswer(v, what, ex);
}

/** No runnable workflow declares a variable that takes text: the content limit is not judged on run. */
export function contentLimitNotProbedOnRun(v: AnyRecorder): void {
  v.notRun(
    'LIMIT-CONTENT-100K',
    'run: no runnable workflow declares a variable that takes text; content under a name the plan does not declare is not judged (a server may ignore it)',
  );
}

/** Within the limits: served (any 2xx — which one is the status clause's business). */
const NOT_REJECTED: StatusExpectation = { ok: served, expected: 'not rejected for its size (2xx)' };

/**
 * A request under both limits is not refused for its size. A rejection for another reason (a target
 * refusing the value) is no size verdict: not run.
 */
export const judgeWithinLimits = withinLimits.judges((v, ex: Exchange, label: string): void => {
  const code = errCodeOf(ex);
  if (served(ex) || code === 'E2004' || code === 'E2005' || ex.status === 413)
    expectStatus(v, 'LIMIT-WITHIN-ACCEPTED', ex, NOT_REJECTED, label);
  else v.notRun('LIMIT-WITHIN-ACCEPTED', `${label} was answered ${describe(ex)}, not a size rejection`);
});

// ---- odd ids (§7) ---------------------------------------------------------------------------------------

/** The judge of odd ids: answered, never with a server error. */
export const oddIds = judge('odd ids', ['ODD-IDS-NO-5XX']);

const BELOW_500: StatusExpectation = {
  ok: (ex) => ex.status !== undefined && ex.status < 500,
  expected: 'a status below 500',
};

/** A 5xx, or no answer at all. */
export const serverFault = (ex: Exchange) => (ex.status === undefined ? !!ex.fault : ex.status >= 500);

/**
 * An odd id is answered below 500. No answer at all is the status clause's finding (the core records it
 * there), and so is a 5xx the operation also gives a plain unknown id (`plainFaults`): the clause is
 * blocked by it. A status line with a body too large to read is no complete answer to judge.
 */
export const judgeOddId = oddIds.judges((v, ex: Exchange, message: string, plainFaults: boolean) => {
  if (ex.status !== undefined && ex.fault) return v.notRun('ODD-IDS-NO-5XX', `${message}: ${describe(ex)}`);
  const deviation = ex.status === undefined || (plainFaults && serverFault(ex)) ? statusDeviation(ex) : undefined;
  const harness = ex.status === undefined && !deviation ? harnessFault(ex) : undefined;
  if (harness) v.notRun('ODD-IDS-NO-5XX', `${message}: ${harness}`);
  else if (deviation)
    v.blocked('ODD-IDS-NO-5XX', {
      blockedBy: deviation,
      exchangeIds: [ex.record.id],
      reason: `${message}: ${describe(ex)}`,
    });
  else
    v.check('ODD-IDS-NO-5XX', BELOW_500.ok(ex), {
      message,
      expected: BELOW_500.expected,
      actual: describe(ex),
      exchangeId: ex.record.id,
    });
});
