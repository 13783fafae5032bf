/**
 * How an answer reads in a check: served or not, its data and error code, its description in a message,
 * and the contract clause it already failed (its status line or its body), which blocks a clause that
 * needed another answer.
 */
import type { ClauseId } from '../../contracts/requirements.ts';
import { faultStop, statusClauseOf, type Exchange } from '../transport/exchange.ts';

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
