/**
 * Typed access to response payloads, and how a response reads in a check.
 * The types come from the generated contract (contracts/generated/api-types.ts);
 * the shapes themselves are validated by checkResponse, so these helpers only
 * *read*: a payload may still lack a field its type promises, which is why
 * callers keep their runtime guards.
 */
import type { components } from '../../contracts/generated/api-types.ts';
import { SCHEMA_BUNDLE } from '../../contracts/generated/schemas.ts';
import type { ClauseId } from '../../contracts/requirements.ts';
import { faultStop, harnessFault, statusClauseOf, type Exchange } from '../transport/exchange.ts';
import type { AnyRecorder, Cause, Recorder } from '../evidence/verdict.ts';

type S = components['schemas'];
export type RunData = S['RunData'];
export type StatusData = S['StatusData'];
export type NodeExecution = S['NodeExecution'];
export type OutputData = S['OutputData'];
export type OutputNode = S['OutputNode'];
export type OutputFile = S['OutputFile'];
export type SearchItem = S['SearchItem'];
export type WorkflowPlan = S['WorkflowPlan'];
export type PlanVariable = S['PlanVariable'];
export type ExecutionStatus = S['ExecutionStatus'];
export type NodeStatus = S['NodeStatus'];
export type UploadData = S['UploadData'];
export type UploadedFile = S['UploadedFile'];
export type GenerateData = S['GenerateData'];
export type GenerateError = S['GenerateError'];

export const TERMINAL: readonly string[] = ['finish', 'failed'];

/** One read of an execution: its status, and its output when it was read at the same moment. */
export interface Snapshot {
  at: number;
  status: StatusData;
  statusExchange: Exchange;
  output?: OutputData;
  outputExchange?: Exchange;
  /**
   * The status read at once after an output that lists a file whose producing node it does not show
   * ended: what that node was when the file was listed, as near to the output as two requests can be.
   */
  confirm?: { status: StatusData; exchange: Exchange };
}

/** The enumerations of the contract, read from it (never written twice). */
const DEFS = (
  SCHEMA_BUNDLE as unknown as {
    $defs: Record<string, { enum?: string[]; properties?: Record<string, { enum?: string[] }> }>;
  }
).$defs;
export const EXEC_STATUSES: readonly string[] = DEFS.ExecutionStatus.enum ?? [];
export const NODE_STATUSES: readonly string[] = DEFS.NodeStatus.enum ?? [];
export const VARIABLE_TYPES: readonly string[] = DEFS.PlanVariable.properties?.variableType.enum ?? [];

/**
 * The request was served: a 2xx answer. Which 2xx is the status clause's business (judged on every
 * response by the contract checks), so a flow goes on after a 201 whose body is right.
 */
export function served(ex: Exchange): boolean {
  return !ex.fault && ex.status !== undefined && ex.status >= 200 && ex.status < 300;
}

/** `data` of a served JSON envelope (any 2xx), else undefined. */
export function dataOf<T>(ex: Exchange): T | undefined {
  if (!served(ex) || !ex.json || typeof ex.json !== 'object') return undefined;
  return (ex.json as { data?: T }).data;
}

/** The errCode of an error body, when it is the usual envelope (the shape is not shown, so it may be absent). */
export function errCodeOf(ex: Exchange): string | undefined {
  const code = ex.json && typeof ex.json === 'object' ? (ex.json as { errCode?: unknown }).errCode : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** Short description of a response for check messages. */
export function describe(ex: Exchange): string {
  if (ex.fault) return `${ex.fault.kind}: ${ex.fault.message}`;
  const code = errCodeOf(ex);
  return `HTTP ${ex.status}${code ? ` (${code})` : ''}`;
}

/** What a clause accepts of a response, and how the report states it. */
export interface StatusExpectation {
  ok(ex: Exchange): boolean;
  /** The expectation as the report shows it, e.g. "HTTP 200", "a status below 500". */
  expected: string;
  /** The response as the report shows it; describe(ex) unless the clause needs more (e.g. a body that is not JSON). */
  actual?(ex: Exchange): string;
}

/** One status or any of several: statusIn(404) reads "HTTP 404", statusIn([200, 202]) "HTTP 200 or 202". */
export function statusIn(statuses: number | readonly number[], expected?: string): StatusExpectation {
  const list = typeof statuses === 'number' ? [statuses] : statuses;
  return {
    ok: (ex) => ex.status !== undefined && list.includes(ex.status),
    expected: expected ?? `HTTP ${list.join(' or ')}`,
  };
}

/** Any 4xx: refused as the client's fault — neither accepted nor a server error. */
export function clientError(expected: string): StatusExpectation {
  return { ok: (ex) => ex.status !== undefined && ex.status >= 400 && ex.status < 500, expected };
}

/** The clause that judges the status line of the operation an answer is of, e.g. RUN-HTTP-STATUS-LISTED. */
function statusClauseOfAnswer(ex: Exchange): ClauseId | undefined {
  return ex.operation ? statusClauseOf(ex.operation) : undefined;
}

/**
 * The status clause, when this very answer already failed it: no answer at all (a transport fault), or
 * a refusal with a status the operation does not list (a 5xx, a 422, a 403 where none is listed). A
 * clause that needs a particular answer cannot be judged on such an answer: it is "blocked by" the
 * status clause — one deviation, one failure. A 2xx is never one here: its body is what the suite
 * clauses judge, whichever 2xx it is.
 */
export function statusDeviation(ex: Exchange): ClauseId | undefined {
  const clause = statusClauseOfAnswer(ex);
  if (!clause) return undefined;
  // A fault is the target's only when its answer broke off; our deadline or a refused connection is ours.
  if (ex.fault) return faultStop(ex)?.blockedBy;
  if (served(ex)) return undefined;
  return ex.violations.some((v) => v.requirementId === clause && v.level === 'must') ? clause : undefined;
}

/** The first clause the contract checks failed on this answer's body (its status line aside). */
export function bodyDeviation(ex: Exchange): ClauseId | undefined {
  const clause = statusClauseOfAnswer(ex);
  return ex.violations.find((v) => v.level === 'must' && v.requirementId !== clause)?.requirementId;
}

/**
 * Why a flow cannot go on, and what data it lost: the exchanges (`exchangeIds`) whose answer deviated —
 * `blockedBy` names the clause that failed there — or a step that was never taken (`step`). Without a
 * clause the harness is the cause (no suitable workflow, our deadline): what depends on it is "not run".
 */
export type Stop = Cause;

/**
 * What a probe gave a clause: the answer to judge, or why there is none — a stop (the step it needed
 * deviated, or a reason of the harness's), or the reason it could not be exercised on this target.
 */
export type Attempt = { ex: Exchange; message: string } | { stop: Stop } | { unexercised: string };

/**
 * Judges `id` on an attempt: the answer by `judgeAnswer`, a stop as the stop says, a probe that could not
 * be made as not run.
 */
export function onAttempt<C extends ClauseId>(
  verdict: Recorder<C>,
  id: C,
  attempt: Attempt,
  judgeAnswer: (ex: Exchange, message: string) => void,
): void {
  if ('ex' in attempt) judgeAnswer(attempt.ex, attempt.message);
  else if ('stop' in attempt) stopAll(verdict, [id], attempt.stop);
  else verdict.notRun(id, attempt.unexercised);
}

/**
 * Records each clause of `ids` as blocked by the failure on the data the stop lost (see Verdict.blocked),
 * or as not run for a reason of the harness.
 */
export function stopAll(verdict: AnyRecorder, ids: readonly ClauseId[], stop: Stop): void {
  for (const id of ids) {
    if (id === stop.blockedBy) continue;
    if (stop.blockedBy || stop.exchangeIds?.length) verdict.blocked(id, stop);
    else verdict.notRun(id, stop.reason);
  }
}

/**
 * The stop of a step that was never taken because `clause` could not be judged: what needed the step is
 * blocked by `clause`, itself blocked by the stop's cause (the chain "A ← clause ← cause"). A stop of the
 * harness's own passes through unchanged.
 */
export function dependsOn(clause: ClauseId, stop: Stop, step: string): Stop {
  return stop.blockedBy || stop.exchangeIds?.length ? { blockedBy: clause, step, reason: stop.reason } : stop;
}

/**
 * Still rate limited after the client waited out Retry-After (§8: rate limits not shown, so a 429 is
 * legal): the answer says nothing about the clause, which is not run for that request.
 */
function rateLimited(verdict: AnyRecorder, id: ClauseId, _ex: Exchange, message: string): { ok: false; stop: Stop } {
  const reason = `${message}: still rate limited (HTTP 429) after waiting out Retry-After`;
  verdict.notRun(id, reason);
  return { ok: false, stop: { reason } };
}

export type Judged<T> = { ok: true; value: T } | { ok: false; stop: Stop };

/** What a clause about acceptance needs from a served answer. */
export interface Acceptance<T> {
  /** What an accepting answer carries, as the report states it: "an executionId", "a plan". */
  carries: string;
  /** The payload, read from the envelope's `data`; undefined when the answer lacks it. */
  read(data: unknown): T | undefined;
  /** The clause that judges a missing payload when the contract checks did not (the caller judges it). */
  judgedBy?: ClauseId;
}

/**
 * Judges a clause about acceptance (RUN-VARIABLES-WRAPPER, UPLOAD-KEY-PER-FILE, GENERATE-LOCALES…):
 * accepted = served (any 2xx), with a body that parses and carries what the clause is about. The exact
 * status is not this clause's: a 201 with the right body is accepted. A refusal with a listed status
 * fails the clause; an answer whose status line or body already failed a contract clause blocks it.
 * Returns the payload so the flow goes on, or the stop that keeps it from going on.
 */
export function accepted<T, C extends ClauseId>(
  verdict: Recorder<C>,
  id: C,
  ex: Exchange,
  want: Acceptance<T>,
  message: string,
): Judged<T> {
  const expected = `accepted (2xx) with ${want.carries}`;
  const exchangeIds = [ex.record.id];
  const blockedBy = (cause: ClauseId): Judged<T> => {
    const stop = { blockedBy: cause, exchangeIds, reason: `${message}: ${describe(ex)}` };
    verdict.blocked(id, stop);
    return { ok: false, stop };
  };
  const failed = (actual: string): Judged<T> => {
    verdict.check(id, false, { message, expected, actual, exchangeId: ex.record.id });
    return { ok: false, stop: { blockedBy: id, exchangeIds, reason: `${message}: ${actual}` } };
  };
  const deviation = statusDeviation(ex);
  if (deviation) return blockedBy(deviation);
  const harness = harnessFault(ex);
  if (harness) {
    // No answer through a limit of the harness: nothing to judge, and nothing of the target's failed.
    verdict.notRun(id, `${message}: ${harness}`);
    return { ok: false, stop: { reason: `${message}: ${harness}` } };
  }
  if (ex.status === 429) return rateLimited(verdict, id, ex, message);
  if (!served(ex)) return failed(`refused: ${describe(ex)}`);
  const value =
    ex.parsed && ex.json && typeof ex.json === 'object' ? want.read((ex.json as { data?: unknown }).data) : undefined;
  if (value === undefined) {
    const deviation = bodyDeviation(ex);
    if (deviation && deviation !== id) return blockedBy(deviation);
    if (!deviation && want.judgedBy && want.judgedBy !== id) {
      // The caller judges the missing payload after this (its failure is not recorded yet): named as given.
      const reason = `${message}: ${describe(ex)} without ${want.carries}`;
      verdict.blocked(id, { blockedBy: want.judgedBy, judgedNext: true, reason });
      return { ok: false, stop: { blockedBy: want.judgedBy, exchangeIds, reason } };
    }
    return failed(
      ex.parsed ? `${describe(ex)} without ${want.carries}` : `${describe(ex)} with a body that is not JSON`,
    );
  }
  verdict.check(id, true, { message, expected, actual: describe(ex), exchangeId: ex.record.id });
  return { ok: true, value };
}

/**
 * Records whether `ex` answers as `want` says, with the response as evidence, and returns the
 * outcome so the caller can branch. For the clauses that are about a status (the 400/401/403/404 of
 * §4): an answer whose status the operation does not list at all already failed the status clause,
 * so this clause is blocked by it instead of failing a second time. The catalogue decides the strength.
 */
export function expectStatus<C extends ClauseId>(
  verdict: Recorder<C>,
  id: C,
  ex: Exchange,
  want: number | readonly number[] | StatusExpectation,
  message: string,
): boolean {
  const rule = typeof want === 'object' && 'ok' in want ? want : statusIn(want);
  const ok = rule.ok(ex);
  if (!ok && ex.status === 429) return rateLimited(verdict, id, ex, message).ok;
  const deviation = ok ? undefined : statusDeviation(ex);
  if (deviation && deviation !== id) {
    verdict.blocked(id, { blockedBy: deviation, exchangeIds: [ex.record.id], reason: `${message}: ${describe(ex)}` });
    return false;
  }
  const harness = !ok && !deviation ? harnessFault(ex) : undefined;
  if (harness) {
    // Our deadline or a refused connection: no status to judge, and nothing of the target's failed.
    verdict.notRun(id, `${message}: ${harness}`);
    return false;
  }
  return verdict.check(id, ok, {
    message,
    expected: rule.expected,
    actual: rule.actual ? rule.actual(ex) : describe(ex),
    exchangeId: ex.record.id,
  });
}
