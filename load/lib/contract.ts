/**
 * Contract checks on load traffic, through the generated validators bundle
 * (k6 cannot import node_modules, so the checking API is shipped as a
 * dependency-free ES module and imported by relative path).
 */
import * as bundle from '../../contracts/generated/check.k6.js';
import type { checkResponse as CheckResponse, Violation } from '../../contracts/check.ts';
import type { OperationId } from './operations.ts';
import { contractChecked, contractViolations, contractWarnings } from './metrics.ts';

/** Prefix of the log line carrying one violating response as JSON; `npm run load` collects these into the report. */
export const VIOLATION_LOG_MARKER = 'CONTRACT-VIOLATION ';

/** At most this many violating responses are logged per VU, so a broken target cannot flood the output. */
const MAX_LOGGED_PER_VU = 5;

/** The bundle is the checking API compiled for k6; its types are those of contracts/check.ts. */
const checkResponse = bundle.checkResponse as typeof CheckResponse;
let logged = 0;
let seen = 0;

export interface CheckedExchange {
  operation: OperationId;
  method: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

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

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = v;
  return out;
}

export function checkContract(x: CheckedExchange, sample: number): Violation[] {
  if (!selected(sample)) return [];
  const violations = checkResponse({ operation: x.operation, status: x.status, headers: lowerCaseKeys(x.headers), body: x.body });
  const must = violations.filter((v) => v.level === 'must');
  const should = violations.filter((v) => v.level === 'should');
  const tags = { operation: x.operation };
  contractChecked.add(1, tags);
  contractViolations.add(must.length > 0, tags);
  contractWarnings.add(should.length > 0, tags);
  if ((must.length > 0 || should.length > 0) && logged < MAX_LOGGED_PER_VU) {
    logged++;
    console.warn(VIOLATION_LOG_MARKER + JSON.stringify({
      operation: x.operation,
      request: `${x.method} ${x.url}`,
      status: x.status,
      bodyExcerpt: x.body.slice(0, 500),
      violations: [...must, ...should],
    }));
  }
  return violations;
}
