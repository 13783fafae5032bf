/**
 * Contract checks on load traffic, through the generated validators bundle
 * (k6 cannot import node_modules, so the checking API is shipped as a
 * dependency-free ES module and imported by relative path).
 *
 * Cost matters here: in k6's JavaScript runtime (goja, an interpreter) one check
 * of a status response takes ~130–150 µs against ~5–8 µs in Node, an output
 * response ~450 µs. JSON.parse alone is a third to a half of that (goja builds
 * objects slowly), the generated validators most of the rest; `npm run bench:load`
 * prints the split per response kind. Unmemoised, checking every response costs a
 * saturated generator about a third of its throughput. Two measures keep every
 * response checked at a fraction of that cost:
 *  - verdicts are memoised per VU: the check is a pure function of
 *    (operation, status, content type, body), and under load most bodies
 *    repeat byte for byte (finished executions, details, search pages);
 *  - one metric sample per response (a Rate whose sample count is also the
 *    number of checked responses); warnings are counted only when they occur.
 * Sampling (CONTRACT_CHECK_SAMPLE < 1) remains available but is off by default.
 */
import * as bundle from '../../contracts/generated/check.k6.js';
import type { checkResponse as CheckResponse, Violation } from '../../contracts/check.ts';
import type { OperationId } from './operations.ts';
import { contractViolations, contractWarnings } from './metrics.ts';

/** Prefix of the log line carrying one violating response as JSON; `npm run load` collects these into the report. */
export const VIOLATION_LOG_MARKER = 'CONTRACT-VIOLATION ';

/** At most this many violating responses are logged per VU, so a broken target cannot flood the output. */
const MAX_LOGGED_PER_VU = 5;
/** Memo bounds per VU: small, so memory per VU stays low. */
const MEMO_ENTRIES = 64;
const MEMO_MAX_BODY = 8 * 1024;

/** The bundle is the checking API compiled for k6; its types are those of contracts/check.ts. */
const checkResponse = bundle.checkResponse as typeof CheckResponse;
let logged = 0;
let seen = 0;
const memo = new Map<string, Violation[]>();

export interface CheckedExchange {
  operation: OperationId;
  method: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface CheckSettings { sample: number; memo: boolean }

/**
 * Sampling is deterministic (every k-th response of a VU) so a rerun with the
 * same settings checks the same share of traffic.
 */
function selected(sample: number): boolean {
  if (sample >= 1) return true;
  if (sample <= 0) return false;
  const every = Math.max(1, Math.round(1 / sample));
  return seen++ % every === 0;
}

/** k6 hands headers over in canonical case (`Content-Type`); no entry destructuring, which is slow in k6's runtime. */
function contentType(headers: Record<string, string>): string {
  const canonical = headers['Content-Type'];
  if (canonical !== undefined) return canonical;
  for (const k in headers) if (k.toLowerCase() === 'content-type') return headers[k] ?? '';
  return '';
}

/**
 * The memo key holds every input the check reads except headers other than
 * the content type, which is the only header the checking API inspects.
 */
function check(x: CheckedExchange, useMemo: boolean): Violation[] {
  if (!useMemo || x.body.length > MEMO_MAX_BODY) {
    return checkResponse({ operation: x.operation, status: x.status, headers: x.headers, body: x.body });
  }
  const key = `${x.operation}\n${x.status}\n${contentType(x.headers)}\n${x.body}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const result = checkResponse({ operation: x.operation, status: x.status, headers: x.headers, body: x.body });
  if (memo.size >= MEMO_ENTRIES) memo.delete(memo.keys().next().value as string); // oldest first
  memo.set(key, result);
  return result;
}

export function checkContract(x: CheckedExchange, settings: CheckSettings): Violation[] {
  if (!selected(settings.sample)) return [];
  const violations = check(x, settings.memo);
  let must = false;
  let should = false;
  for (const v of violations) {
    if (v.level === 'must') must = true;
    else if (v.level === 'should') should = true;
  }
  contractViolations.add(must);
  if (should) contractWarnings.add(1);
  if ((must || should) && logged < MAX_LOGGED_PER_VU) {
    logged++;
    console.warn(VIOLATION_LOG_MARKER + JSON.stringify({
      operation: x.operation,
      request: `${x.method} ${x.url}`,
      status: x.status,
      bodyExcerpt: x.body.slice(0, 500),
      violations: violations.filter((v) => v.level !== 'observe'),
    }));
  }
  return violations;
}
