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
import http, { type RefinedResponse, type ResponseType } from 'k6/http';
import { OPERATION_IDS, type OperationId } from './operations.ts';
import { frame, type BatchVerdict } from './handover.ts';
import { contractHandovers, contractUnchecked, contractViolations, contractWarnings } from './metrics.ts';

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

type Response = RefinedResponse<ResponseType | undefined>;

/** One tags object per operation, made once: the violation rate is tagged so a breach names the operation. */
const TAGS = Object.fromEntries(OPERATION_IDS.map((op) => [op, { operation: op }])) as Record<OperationId, { operation: OperationId }>;

export interface CheckSettings {
  contractSample: number;
  contractMemo: boolean;
  /** Where responses are handed over to be checked in Node (offload mode); undefined: checked in the VU. */
  contractSink?: string;
  /** Responses per hand-over in offload mode. */
  contractBatch: number;
  /** When the scenarios end (ms since the epoch, 0 unknown): from 2 s before, every response is handed over at once. */
  scenariosEndAt: number;
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

/** k6 hands headers over in canonical case (`Content-Type`); no entry destructuring, which is slow in k6's runtime. */
function contentType(headers: Record<string, string>): string {
  const canonical = headers['Content-Type'];
  if (canonical !== undefined) return canonical;
  for (const k in headers) if (k.toLowerCase() === 'content-type') return headers[k] ?? '';
  return '';
}

function bodyOf(res: Response): string {
  const b = res.body;
  if (typeof b === 'string') return b;
  if (b === null || b === undefined) return '';
  // Binary bodies are not expected from this API; decode bytes as Latin-1 so the checks still see them.
  return String.fromCharCode(...new Uint8Array(b));
}

/**
 * The memo key holds every input the check reads except headers other than
 * the content type, which is the only header the checking API inspects.
 */
function check(operation: OperationId, status: number, headers: Record<string, string>, body: string, useMemo: boolean): Violation[] {
  if (!useMemo || body.length > MEMO_MAX_BODY) return checkResponse({ operation, status, headers, body });
  const key = `${operation}\n${status}\n${contentType(headers)}\n${body}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const result = checkResponse({ operation, status, headers, body });
  if (memo.size >= MEMO_ENTRIES) memo.delete(memo.keys().next().value as string); // oldest first
  memo.set(key, result);
  return result;
}

// ---- offload mode: responses are checked in Node (load/node/check-sink.ts) -------------------------

const NONE: Violation[] = [];
const FLUSH_AFTER_MS = 250;
const SINK_PARAMS = { headers: { 'Content-Type': 'text/plain; charset=utf-8' }, tags: { name: 'contract-check-sink' }, timeout: '60s' };
let pending: string[] = [];
let pendingOperations: OperationId[] = [];
let pendingSince = 0;
let sinkFailureLogged = false;

function handOver(settings: CheckSettings, operation: OperationId, entry: string): void {
  if (pending.length === 0) pendingSince = Date.now();
  pending.push(entry);
  pendingOperations.push(operation);
  const now = Date.now();
  const closing = settings.scenariosEndAt > 0 && now > settings.scenariosEndAt - 2000;
  if (pending.length >= settings.contractBatch || now - pendingSince >= FLUSH_AFTER_MS || closing) flushContractChecks(settings);
}

/**
 * Hands the pending responses to the sink and records its verdict: one contract_violations sample per
 * response, as in-VU checking does, so the same gate judges both modes. A batch the sink could not
 * check is counted in contract_unchecked (a harness failure, gated separately), never as conforming.
 */
export function flushContractChecks(settings: CheckSettings): void {
  if (!settings.contractSink || pending.length === 0) return;
  const batch = pendingOperations;
  const res = http.post(settings.contractSink, pending.join(''), SINK_PARAMS);
  contractHandovers.add(1);
  pending = [];
  pendingOperations = [];
  let verdict: BatchVerdict | undefined;
  try { verdict = res.status === 200 ? JSON.parse(res.body as string) : undefined; } catch { verdict = undefined; }
  if (!verdict) {
    contractUnchecked.add(batch.length);
    if (!sinkFailureLogged) console.error(`contract check sink answered ${res.status} ${res.error}: ${batch.length} responses not checked`);
    sinkFailureLogged = true;
    return;
  }
  let next = 0;
  for (let i = 0; i < batch.length; i++) {
    const must = verdict.must[next] === i;
    if (must) next++;
    contractViolations.add(must, TAGS[batch[i]!]);
  }
  if (verdict.should.length > 0) contractWarnings.add(verdict.should.length);
}

/**
 * A request that probes an open point (openPoint names its observe clause): an unlisted status in its
 * answer is what the probe observes, so that finding is recorded under the open point, never failed.
 */
function underOpenPoint(violations: Violation[], openPoint: string | undefined): Violation[] {
  if (!openPoint) return violations;
  return violations.map((v) => (/HTTP-STATUS-LISTED$/.test(v.requirementId) ? { ...v, requirementId: openPoint, level: 'observe' as const } : v));
}

/**
 * Checks one response against its operation's contract and records the verdict (one sample of the
 * contract_violations rate per checked response, tagged with the operation so a breach names it).
 */
export function checkContract(operation: OperationId, method: string, url: string, res: Response, settings: CheckSettings, openPoint?: string): Violation[] {
  if (!selected(settings.contractSample)) return [];
  const body = bodyOf(res);
  if (settings.contractSink && !openPoint) {
    handOver(settings, operation, frame(operation, res.status, contentType(res.headers), `${method} ${url}`, body));
    return NONE;
  }
  const violations = underOpenPoint(check(operation, res.status, res.headers, body, settings.contractMemo), openPoint);
  let must = false;
  let should = false;
  for (let i = 0; i < violations.length; i++) {
    const level = violations[i]!.level;
    if (level === 'must') must = true;
    else if (level === 'should') should = true;
  }
  contractViolations.add(must, TAGS[operation]);
  if (should) contractWarnings.add(1, TAGS[operation]);
  if ((must || should) && logged < MAX_LOGGED_PER_VU) {
    logged++;
    console.warn(VIOLATION_LOG_MARKER + JSON.stringify({
      operation,
      request: `${method} ${url}`,
      status: res.status,
      bodyExcerpt: body.slice(0, 500),
      violations: violations.filter((v) => v.level !== 'observe'),
    }));
  }
  return violations;
}
