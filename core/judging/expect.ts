/**
 * The two ways a clause is judged on one answer: whether its status is what the clause expects
 * (expectStatus), or whether it was accepted and carries what the clause is about (accepted). An answer
 * that already failed a contract clause blocks the clause instead of failing it a second time; our own
 * deadline, and a 429 still there after Retry-After, leave it not run.
 */
import type { ClauseId } from '../../contracts/requirements.ts';
import { harnessFault, type Exchange } from '../transport/exchange.ts';
import type { AnyRecorder, Recorder } from '../evidence/verdict.ts';
import { bodyDeviation, describe, served, statusDeviation } from './answers.ts';
import type { Stop } from './stops.ts';

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
