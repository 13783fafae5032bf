/**
 * How the generative mode judges one answer: with the findings of the contract checks the suites use
 * (contracts/check.ts, run by the client on every response) and their requirement IDs, and with what
 * the input's family makes of them.
 *
 * - allowed input: no 5xx, a listed status, a body that passes its schema, no key in the answer. Where
 *   the input touches a point the specification leaves open (an `order` value, a page or page size
 *   outside the plain range) an unlisted 4xx is recorded under that point's observe clause instead.
 * - forbidden input with a clause that says it is refused (a body that is not a JSON object, a missing
 *   query, an upload without files, a payload or content over §8's limits, no valid key): a 4xx the
 *   contract allows, never a 2xx, never a 5xx.
 * - forbidden input no clause says is refused (a null value, an unlisted locale, …), and sizes between
 *   the two readings of §8's limits: whatever the target decides, as long as its status is listed.
 *
 * A 5xx is always the operation's status clause (`<OP>-HTTP-STATUS-LISTED`: no operation lists one), so
 * one crash is one finding. Limits of the harness (its deadline, a refused connection) are never the
 * target's failure: they are inconclusive.
 */
import { operationInfo, type OperationId, type Violation } from '../contracts/check.ts';
import { levelOf, type Level } from '../contracts/requirements.ts';
import { carriesKey, KEY_NOT_ECHOED } from '../engine/judging/contract.ts';
import type { Exchange } from '../engine/transport/exchange.ts';
import type { ExploreInput, Prepared } from './inputs.ts';
import { textOf } from './text.ts';

export type Expectation =
  | { kind: 'allowed'; openPoints: string[] }
  | { kind: 'lenient' }
  /** Refused with a 4xx the contract allows; `only` narrows it to one status, `served` names a 2xx's clause. */
  | { kind: 'reject'; clause: string; only?: number; served?: string };

export type Outcome =
  | { kind: 'pass'; observed?: { clause: string; status: number } }
  | {
      kind: 'fail';
      clause: string;
      level: Level;
      message: string;
      expected: string;
      actual: string;
      /** The other findings the same answer carries (one deviation, one finding: they are listed, not counted). */
      others: string[];
    }
  | { kind: 'inconclusive'; reason: string; unreachable?: boolean };

/** Transport faults that are the target's answer going wrong (as the client judges them). */
const TARGET_FAULTS = new Set(['connection-reset', 'protocol-error', 'incomplete-body']);

const PLAIN_PAGE = /^[1-9]\d{0,15}$/;

/** The open points a search input touches: where an unlisted 4xx is behaviour the specification leaves open. */
function searchOpenPoints(p: Prepared): string[] {
  const q = p.spec.query ?? {};
  const out: string[] = [];
  if (q.order !== undefined) out.push('SEARCH-ORDER-VALUES');
  const page = q.page === undefined ? undefined : String(q.page);
  // Pages are 1-based and unbounded: a plain positive integer is an ordinary page; anything else is open.
  if (page !== undefined && !(PLAIN_PAGE.test(page) && Number(page) <= 2 ** 53)) out.push('SEARCH-PAGESIZE-DEFAULT');
  const size = q.pageSize === undefined ? undefined : String(q.pageSize);
  // The maximum page size is not shown: beyond 50 (what the suites rely on), below 1 or not whole is open.
  if (size !== undefined && !(PLAIN_PAGE.test(size) && Number(size) <= 50)) out.push('SEARCH-PAGESIZE-MAX');
  return out;
}

function isJsonObjectOrBlank(text: string): boolean {
  if (text.trim() === '') return true;
  try {
    const v = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

/** What the answer to an input must be, from its family and from what was actually sent. */
export function expectationFor(input: ExploreInput, p: Prepared): Expectation {
  const { prefix } = operationInfo(input.op);
  if (input.auth)
    return {
      kind: 'reject',
      clause: `${prefix}-401-MISSING-OR-INVALID-KEY`,
      only: 401,
      served: 'AUTH-NOT-SERVED-WITHOUT-KEY',
    };
  if (p.size === 'content-over') return { kind: 'reject', clause: 'LIMIT-CONTENT-100K' };
  if (p.size === 'payload-over') return { kind: 'reject', clause: 'LIMIT-PAYLOAD-100KB' };
  if (p.size === 'ambiguous') return { kind: 'lenient' };
  switch (input.family) {
    case 'allowed':
      return { kind: 'allowed', openPoints: input.op === 'searchWorkflows' ? searchOpenPoints(p) : [] };
    case 'body-not-object': {
      const raw = 'body' in input && input.body.form === 'raw' ? textOf(input.body.text) : '';
      if (isJsonObjectOrBlank(raw)) return { kind: 'allowed', openPoints: [] };
      return input.op === 'runWorkflow' ? { kind: 'reject', clause: 'RUN-400-INVALID-BODY' } : { kind: 'lenient' };
    }
    case 'missing-query':
      return { kind: 'reject', clause: 'GENERATE-400-MISSING-QUERY' };
    case 'no-files':
      return { kind: 'reject', clause: 'UPLOAD-400-NO-FILES' };
    default:
      return { kind: 'lenient' };
  }
}

function describeAnswer(ex: Exchange): string {
  if (ex.fault) return `${ex.fault.kind}: ${ex.fault.message}`;
  const code = ex.json && typeof ex.json === 'object' ? (ex.json as { errCode?: unknown }).errCode : undefined;
  return `HTTP ${ex.status}${typeof code === 'string' ? ` (${code})` : ''}`;
}

function fromViolation(v: Violation, all: readonly Violation[]): Outcome {
  return {
    kind: 'fail',
    clause: v.requirementId,
    level: v.level,
    message: v.message,
    expected: v.expected,
    actual: v.actual,
    others: all.filter((o) => o !== v && o.level !== 'observe').map((o) => o.requirementId),
  };
}

function failure(
  clause: string,
  message: string,
  expected: string,
  actual: string,
  all: readonly Violation[],
): Outcome {
  return {
    kind: 'fail',
    clause,
    level: levelOf(clause) ?? 'should',
    message,
    expected,
    actual,
    others: all.filter((o) => o.requirementId !== clause && o.level !== 'observe').map((o) => o.requirementId),
  };
}

export function judge(op: OperationId, ex: Exchange, expectation: Expectation, keys: readonly string[]): Outcome {
  const { prefix, listedStatuses } = operationInfo(op);
  const statusClause = `${prefix}-HTTP-STATUS-LISTED`;
  const listed = `one of ${listedStatuses.join(', ')}`;
  if (ex.fault) {
    if (TARGET_FAULTS.has(ex.fault.kind))
      return failure(statusClause, `${op} got no listed status: ${ex.fault.kind}`, listed, describeAnswer(ex), []);
    return {
      kind: 'inconclusive',
      reason: ex.fault.kind,
      unreachable: ex.fault.kind === 'connection-refused',
    };
  }
  const status = ex.status ?? 0;
  // Still rate limited after the client waited as Retry-After asked: nothing to judge (§8: rate limits not shown).
  if (status === 429) return { kind: 'inconclusive', reason: 'rate-limited' };
  const all = ex.violations;
  const must = all.filter((v) => v.level === 'must');
  const unlisted = must.find((v) => v.requirementId === statusClause);
  if (status >= 500)
    return unlisted
      ? fromViolation(unlisted, all)
      : failure(statusClause, `status ${status} is not listed for ${op}`, listed, describeAnswer(ex), all);
  // §5.2 "The key must be kept secret.": judged as the suites judge it on every answer.
  if (carriesKey(ex, keys))
    return failure(
      KEY_NOT_ECHOED,
      `the ${status} answer carries the API key`,
      'no API key in the answer',
      'the key used (redacted)',
      all,
    );
  if (expectation.kind === 'reject') {
    if (status >= 200 && status < 300) {
      const clause = expectation.served ?? expectation.clause;
      return failure(
        clause,
        `a refused request was served: ${status}`,
        'a 4xx the contract allows',
        describeAnswer(ex),
        all,
      );
    }
    if (unlisted) return fromViolation(unlisted, all);
    if (expectation.only !== undefined && status !== expectation.only)
      return failure(
        expectation.clause,
        `answered ${status} instead of ${expectation.only}`,
        String(expectation.only),
        describeAnswer(ex),
        all,
      );
  }
  if (expectation.kind === 'allowed' && unlisted && status >= 400 && status < 500 && expectation.openPoints.length) {
    const rest = must.filter((v) => v !== unlisted);
    if (rest.length === 0) return { kind: 'pass', observed: { clause: expectation.openPoints[0]!, status } };
    return fromViolation(rest[0]!, all);
  }
  if (must.length) return fromViolation(must[0]!, all);
  const should = all.find((v) => v.level === 'should');
  if (should) return fromViolation(should, all);
  // An unlisted 4xx the checks let pass (its errCode's status is open in §7) is behaviour worth recording.
  if (status >= 400 && status < 500 && !listedStatuses.includes(status)) {
    const clause =
      expectation.kind === 'allowed' && expectation.openPoints.length
        ? expectation.openPoints[0]!
        : 'ERROR-STATUS-FOR-UNLISTED-CODES';
    return { kind: 'pass', observed: { clause, status } };
  }
  return { kind: 'pass' };
}
