/**
 * How the generative mode reads the verdict on one answer. It judges nothing itself: the core does,
 * with the functions the suites call, so a clause reads the same whichever mode sent the request.
 *
 * - Every answer is judged by the client as it arrives (judging/contract.ts: the contract checks, the
 *   status clause, the key never echoed; an open point's unlisted status observed).
 * - What an input is about beyond that (aboutOf) picks the clause judge of judging/refusals.ts: a request
 *   without a valid key, a request over a limit of §8 where the limit applies, an invalid parameter with
 *   a clause of its own; or of judging/search.ts, for a keyword no title holds (a NUL, a control
 *   character, a length no title has), whose answer lists nothing. An allowed input is about nothing more.
 * - The records those judges wrote for the exchange become one judgement: the failure it is about (a
 *   crash first, as the status clause), the others it also shows listed, not counted.
 *
 * Limits of the harness (its deadline, a refused connection, a call of an operation that faulted
 * already, a 429 still standing) are never the target's failure: they are inconclusive.
 */
import type { Level } from '../../contracts/requirements.ts';
import type { CheckRecord, EvidenceInMemory, ObservationRecord } from '../../core/evidence/records.ts';
import type { AnyRecorder, Verdict } from '../../core/evidence/verdict.ts';
import { KEY_NOT_ECHOED } from '../../core/judging/contract.ts';
import { CLOSED_UNANSWERED } from '../../core/transport/framing.ts';
import {
  judgeInvalidParameter,
  judgeOverLimit,
  judgeUploadNotMultipart,
  judgeWithoutKey,
  keyClauseOf,
  type InvalidParameterClause,
  type LimitClause,
  type OperationKeyClause,
  type UnkeyedClause,
} from '../../core/judging/refusals.ts';
import { judgeKeywordApplied, listOf, type SearchListing } from '../../core/judging/search.ts';
import { statusClauseOf, TARGET_FAULTS, type Exchange } from '../../core/transport/exchange.ts';
import type { Prepared } from '../generate/inputs.ts';
import type { AuthInput, ExploreInput } from '../generate/model.ts';
import { textOf } from '../generate/text.ts';

/** What an input is about beyond the clauses judged on every answer. */
export type About =
  | { kind: 'answer' }
  | { kind: 'without-key'; clauses: (OperationKeyClause | UnkeyedClause)[] }
  | { kind: 'limit'; clause: LimitClause }
  | { kind: 'invalid'; clause: InvalidParameterClause }
  /** An upload whose body is JSON: any 4xx refuses it (its content type is not shown), accepting it fails. */
  | { kind: 'upload-not-multipart' }
  /** A search keyword no title holds: a list served for it is empty (SEARCH-KEYWORD-APPLIED). */
  | { kind: 'in-no-title'; keyword: string; listing: SearchListing };

export type Judgement =
  | { kind: 'pass'; observed?: { clause: string; status: number | 'closed' } }
  | {
      kind: 'fail';
      clause: string;
      level: Level;
      message: string;
      expected: string;
      actual: string;
      /** The other clauses the same answer fails (one deviation, one finding: they are listed, not counted). */
      others: string[];
    }
  | { kind: 'inconclusive'; reason: string; unreachable?: boolean };

/** The §5 clause of a credential variant, beside the operation's own 401 clause. */
function authClause(auth: AuthInput): UnkeyedClause {
  if ('none' in auth) return 'AUTH-401-MISSING-KEY';
  if (auth.scheme.toLowerCase() !== 'bearer') return 'AUTH-401-WRONG-SCHEME';
  return auth.token.trim() === '' ? 'AUTH-401-EMPTY-BEARER' : 'AUTH-401-INVALID-KEY';
}

/** A run body §4.1 lets through: blank (no body), a JSON object, or JSON null. */
function isJsonObjectBlankOrNull(text: string): boolean {
  if (text.trim() === '') return true;
  try {
    const v = JSON.parse(text);
    // JSON null is read by many frameworks (Jackson, Python's json with `or {}`) as no body at all, which a
    // run may omit: refusing it is not what §4.1's words force, so its answer is judged as any other's.
    return v === null || (typeof v === 'object' && !Array.isArray(v));
  } catch {
    return false;
  }
}

/** The clause an input is about, from its family and from what was actually sent. */
export function aboutOf(input: ExploreInput, p: Prepared): About {
  if (input.auth) return { kind: 'without-key', clauses: [keyClauseOf(input.op), authClause(input.auth)] };
  if (p.inNoTitle) {
    const { keyword, facts } = p.inNoTitle;
    const listing: SearchListing = { items: facts.items, pagesRead: 1, capped: facts.capped };
    return { kind: 'in-no-title', keyword, listing };
  }
  if (p.size === 'content-over') return { kind: 'limit', clause: 'LIMIT-CONTENT-100K' };
  if (p.size === 'payload-over') return { kind: 'limit', clause: 'LIMIT-PAYLOAD-100KB' };
  if (p.size === 'ambiguous') return { kind: 'answer' };
  switch (input.family) {
    case 'body-not-object': {
      const raw = 'body' in input && input.body.form === 'raw' ? textOf(input.body.text) : '';
      if (input.op !== 'runWorkflow' || isJsonObjectBlankOrNull(raw)) return { kind: 'answer' };
      return { kind: 'invalid', clause: 'RUN-400-INVALID-BODY' };
    }
    case 'missing-query':
      return { kind: 'invalid', clause: 'GENERATE-400-MISSING-QUERY' };
    case 'no-files':
      return 'body' in input && input.body.form === 'json'
        ? { kind: 'upload-not-multipart' }
        : { kind: 'invalid', clause: 'UPLOAD-400-NO-FILES' };
    default:
      return { kind: 'answer' };
  }
}

/** The clauses `about` names, in the order its judgement puts them first. */
function aboutClauses(about: About): string[] {
  if (about.kind === 'without-key') return ['AUTH-NOT-SERVED-WITHOUT-KEY', ...about.clauses];
  if (about.kind === 'answer') return [];
  if (about.kind === 'upload-not-multipart') return ['UPLOAD-400-NO-FILES'];
  if (about.kind === 'in-no-title') return ['SEARCH-KEYWORD-APPLIED'];
  return [about.clause];
}

/** Runs the clause judge an input is about on its answer (the contract judge ran as it arrived). */
function judgeAbout(verdict: AnyRecorder, about: About, ex: Exchange, message: string): void {
  if (about.kind === 'without-key') judgeWithoutKey(verdict, ex, { clauses: about.clauses, message });
  else if (about.kind === 'limit') judgeOverLimit(verdict, about.clause, ex, message);
  else if (about.kind === 'invalid') judgeInvalidParameter(verdict, about.clause, ex, message);
  else if (about.kind === 'upload-not-multipart') judgeUploadNotMultipart(verdict, ex, message);
  // A served answer only: a refusal or a crash is the status clause's, judged as it arrived.
  else if (about.kind === 'in-no-title' && listOf(ex).items)
    judgeKeywordApplied(verdict, shownKeyword(about.keyword), ex, about.listing);
}

/** A keyword as a report shows it: control characters escaped, a long one cut (its length said). */
function shownKeyword(k: string): string {
  const escaped = JSON.stringify(k).slice(1, -1);
  return escaped.length > 80 ? `${escaped.slice(0, 60)}… (${k.length} characters)` : escaped;
}

/**
 * Which failure a judgement is about: a crash (a 5xx or a broken answer) is the status clause's; then a
 * key the answer gives away; then the clause the input is about; then an unlisted status; then any other
 * must, then should.
 */
function rank(r: CheckRecord, ex: Exchange, about: string[]): number {
  const status = ex.operation ? statusClauseOf(ex.operation) : '';
  const crash = ex.fault !== undefined || (ex.status ?? 0) >= 500;
  if (r.requirementId === status && crash) return 0;
  if (r.requirementId === KEY_NOT_ECHOED) return 1;
  const at = about.indexOf(r.requirementId);
  if (at >= 0) return 2 + at / 100;
  if (r.requirementId === status) return 3;
  return r.level === 'must' ? 4 : 5;
}

function judgementOf(ex: Exchange, about: About, records: (CheckRecord | ObservationRecord)[]): Judgement {
  const clauses = aboutClauses(about);
  const fails = records
    .filter((r): r is CheckRecord => r.kind === 'check' && r.outcome === 'fail' && r.level !== 'observe')
    .sort((a, b) => rank(a, ex, clauses) - rank(b, ex, clauses));
  const first = fails[0];
  if (!first) {
    const observed = records.find((r): r is ObservationRecord => r.kind === 'observation');
    return {
      kind: 'pass',
      ...(observed ? { observed: { clause: observed.requirementId, status: ex.status ?? 'closed' } } : {}),
    };
  }
  return {
    kind: 'fail',
    clause: first.requirementId,
    level: first.level,
    message: first.message,
    expected: first.expected ?? '',
    actual: first.actual ?? '',
    others: [...new Set(fails.slice(1).map((f) => f.requirementId))].filter((id) => id !== first.requirementId),
  };
}

export interface Judges {
  /** The verdict the client records every answer's contract judgement into. */
  verdict: Verdict;
  /** Where that verdict writes: read back by exchange. */
  records: EvidenceInMemory;
}

/** Judges one answer to an input: the core's verdict on it, as one judgement. */
export function judgeAnswer(judges: Judges, input: ExploreInput, p: Prepared, ex: Exchange): Judgement {
  const about = aboutOf(input, p);
  // A body framed wrong on purpose, closed without an answer: the HTTP layer's lawful refusal, observed.
  if (ex.fault && !TARGET_FAULTS.has(ex.fault.kind) && ex.fault.kind !== CLOSED_UNANSWERED) {
    judges.records.take(ex.record.id);
    return { kind: 'inconclusive', reason: ex.fault.kind, unreachable: ex.fault.kind === 'connection-refused' };
  }
  // Still rate limited after the client waited as Retry-After asked: nothing to judge (§8: rate limits not shown).
  if (ex.status === 429) {
    judges.records.take(ex.record.id);
    return { kind: 'inconclusive', reason: 'rate-limited' };
  }
  judgeAbout(judges.verdict, about, ex, `${input.op} (${input.family})`);
  return judgementOf(ex, about, judges.records.take(ex.record.id));
}
