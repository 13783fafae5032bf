/**
 * Contract checks on load traffic. Every response is checked, in one of two places:
 *  - in the VU, with the checking API bundled for k6 (contracts/generated/check.k6.js; k6 cannot import
 *    node_modules, so it is a dependency-free ES module imported by relative path);
 *  - in Node (offloaded checks, CONTRACT_CHECK_SINK set by the runner): the responses are sent in batches
 *    to load/node/node-checker.ts, whose verdict is recorded. Any k6 does it, in this module's JavaScript:
 *    on the load benchmark (`npm run bench:load`) that keeps a saturated generator as near a bare k6 loop's
 *    rate as a native batcher in a k6 extension did.
 *
 * Cost decides the shape of this module. k6's JavaScript runtime is an interpreter: a check of a response
 * costs there many times what it costs in Node (JSON.parse alone, which no checking code can avoid, is a
 * large share of it), and a metric sample is costly too, far more than a call through an imported name or
 * into a native function. So:
 *  - batching in JavaScript does per response only what it must: read status, content type and body,
 *    and push them onto the VU's batch (load/k6/lib/check-batch.ts);
 *  - checked responses are counted per operation and added to `contract_checked` once per batch, not
 *    with a sample each; a response violating a must clause in the VU is recorded at once
 *    (`contract_violations`), so a violation found there never waits in a buffer;
 *  - in the VU, verdicts are memoised per VU for byte-identical responses (CONTRACT_CHECK_MEMO, on by
 *    default): the check is a pure function of operation, status, content type and body.
 * What a VU buffers is flushed when a batch is full, when it is older than FLUSH_AFTER_MS at the end of an
 * iteration, and at the end of every iteration after which the VU may be stopped (load/k6/lib/profiles.ts
 * stopWindows), so no checked response goes unrecorded when a VU ends.
 * Sampling (CONTRACT_CHECK_SAMPLE < 1) remains available but is off by default.
 */
import * as bundle from '../../../contracts/generated/check.k6.js';
import type { checkResponse as CheckResponse, Violation } from '../../../contracts/check.ts';
import type { ClauseId } from '../../../contracts/generated/clause-ids.ts';
import http, { type RefinedResponse, type ResponseType } from 'k6/http';
import { OPERATION_IDS, type OperationId } from './operations.ts';
import { batchText, pushFrame, type BatchVerdict } from './check-batch.ts';
import {
  contractChecked,
  contractBatchesSent,
  contractUnchecked,
  contractViolations,
  contractWarnings,
} from './metrics.ts';

/** Prefix of the log line carrying one violating response as JSON; `npm run load` collects these into the report. */
export const VIOLATION_LOG_MARKER = 'CONTRACT-VIOLATION ';

/** At most this many violating responses are logged per VU, so a broken target cannot flood the output. */
const MAX_LOGGED_PER_VU = 5;
/** Memo bounds per VU: small, so memory per VU stays low. */
const MEMO_ENTRIES = 64;
const MEMO_MAX_BODY = 8 * 1024;
/** Buffered responses older than this are flushed at the end of an iteration. */
const FLUSH_AFTER_MS = 1000;

// Module-local names for what the hot path uses: in k6's runtime an imported name is looked up by name on
// every use, which costs more than the rest of a line like `checked.add(n, tags)`.
const checkResponse = bundle.checkResponse as typeof CheckResponse;
const post = http.post;
const checked = contractChecked;
const violationsFound = contractViolations;
const warningsFound = contractWarnings;
const pushResponse = pushFrame;

type Response = RefinedResponse<ResponseType | undefined>;

/** One tags object per operation, made once: the contract metrics are tagged so a breach names the operation. */
const TAGS = Object.fromEntries(OPERATION_IDS.map((op) => [op, { operation: op }])) as Record<
  OperationId,
  { operation: OperationId }
>;

export interface CheckSettings {
  contractSample: number;
  contractMemo: boolean;
  /** The Node checker's address when the checks are offloaded (CONTRACT_CHECK_SINK); undefined: checked in the VU. */
  nodeCheckerUrl?: string;
  /** Responses per batch sent to the Node checker, and per contract_checked sample in the VU. */
  contractBatch: number;
}

// What a VU holds between its requests: k6 gives each VU its own copy of every module, so these are one VU's.
let logged = 0;
let seen = 0;
const memo = new Map<string, Violation[]>();
/** Offloaded checks: the fields of the responses not yet sent to the Node checker (load/k6/lib/check-batch.ts), and how many. */
let frames: unknown[] = [];
let framed = 0;
/** Checked in the VU, not yet added to contract_checked: per operation, and in all. */
let uncounted: Partial<Record<OperationId, number>> = {};
let uncountedTotal = 0;
/** When the oldest buffered response (of either kind) came in. */
let bufferedSince = 0;
let checkerFailureLogged = false;

/**
 * Sampling is deterministic (every k-th response of a VU) so a rerun with the
 * same settings checks the same share of traffic.
 */
function selected(sample: number): boolean {
  if (sample <= 0) return false;
  const every = Math.max(1, Math.round(1 / sample));
  return seen++ % every === 0;
}

/**
 * The content type when k6 did not give it in canonical case (`Content-Type`), '' when there is none
 * (an empty header says no more than a missing one). No entry destructuring: it is slow in k6's runtime.
 */
function contentType(headers: Record<string, string>): string {
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

// ---- in the VU ------------------------------------------------------------------------------------

/**
 * The memo key holds every input the check reads: the content type is the only header the checking
 * API inspects, so it is passed alone, under the lower-case name the checks look up first.
 */
function check(operation: OperationId, status: number, type: string, body: string, useMemo: boolean): Violation[] {
  const headers: Record<string, string> = type ? { 'content-type': type } : {};
  if (!useMemo || body.length > MEMO_MAX_BODY) return checkResponse({ operation, status, headers, body });
  const key = `${operation}\n${status}\n${type}\n${body}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const result = checkResponse({ operation, status, headers, body });
  if (memo.size >= MEMO_ENTRIES) memo.delete(memo.keys().next().value as string); // oldest first
  memo.set(key, result);
  return result;
}

/**
 * A request that probes an open point (openPoint names its observe clause): an unlisted status in its
 * answer is what the probe observes, so that finding is recorded under the open point, never failed.
 */
function underOpenPoint(violations: Violation[], openPoint: ClauseId | undefined): Violation[] {
  if (!openPoint) return violations;
  return violations.map((v) =>
    /HTTP-STATUS-LISTED$/.test(v.requirementId) ? { ...v, requirementId: openPoint, level: 'observe' as const } : v,
  );
}

/** Records a response with findings at once (violation, warning) and logs it, within the per-VU bound. */
function recordFindings(
  operation: OperationId,
  request: string,
  status: number,
  body: string,
  violations: Violation[],
): void {
  let must = false;
  let should = false;
  for (let i = 0; i < violations.length; i++) {
    const level = violations[i]!.level;
    if (level === 'must') must = true;
    else if (level === 'should') should = true;
  }
  if (must) violationsFound.add(1, TAGS[operation]);
  if (should) warningsFound.add(1, TAGS[operation]);
  if ((must || should) && logged < MAX_LOGGED_PER_VU) {
    logged++;
    console.warn(
      VIOLATION_LOG_MARKER +
        JSON.stringify({
          operation,
          request,
          status,
          bodyExcerpt: body.slice(0, 500),
          violations: violations.filter((v) => v.level !== 'observe'),
        }),
    );
  }
}

function countChecked(): void {
  const counts = uncounted;
  uncounted = {};
  uncountedTotal = 0;
  for (const op in counts) checked.add(counts[op as OperationId]!, TAGS[op as OperationId]);
}

// ---- offloaded checks: responses are checked in Node (load/node/node-checker.ts) -------------------

// No responseCallback: a batch sent to the checker is not a request to the API under test, so it adds no
// http_req_failed sample (that rate and its gate are the target's); no operation tag, so it is in no
// per-operation figure. The tags name it in k6's own output.
const BATCH_PARAMS = {
  headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  tags: { name: 'contract-check-sink', handover: 'contract-check' },
  timeout: '60s',
  responseCallback: null,
};

function checkerVerdict(res: Response): BatchVerdict | undefined {
  if (res.status !== 200) return undefined;
  try {
    const verdict = JSON.parse(res.body as string) as BatchVerdict;
    return verdict && typeof verdict.checked === 'object' ? verdict : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sends the pending responses to the Node checker and records its verdict per operation: responses
 * checked, violating (the gated count) and with warnings. Responses the checker did not check are counted
 * in contract_unchecked (a harness failure, gated at 0), never as conforming.
 */
function sendBatch(checkerUrl: string): void {
  const count = framed;
  const text = batchText(frames);
  frames = [];
  framed = 0;
  const res = post(checkerUrl, text, BATCH_PARAMS as never) as Response;
  contractBatchesSent.add(1);
  const verdict = checkerVerdict(res);
  let judged = 0;
  if (verdict) {
    for (const op in verdict.checked) {
      const n = verdict.checked[op as OperationId]!;
      judged += n;
      checked.add(n, TAGS[op as OperationId]);
    }
    for (const op in verdict.must) violationsFound.add(verdict.must[op as OperationId]!, TAGS[op as OperationId]);
    for (const op in verdict.should) warningsFound.add(verdict.should[op as OperationId]!, TAGS[op as OperationId]);
  }
  if (judged >= count) return;
  contractUnchecked.add(count - judged);
  if (!checkerFailureLogged)
    console.error(`contract check sink answered ${res.status} ${res.error}: ${count - judged} responses not checked`);
  checkerFailureLogged = true;
}

// ---- the API ----------------------------------------------------------------------------------------

/** Records everything buffered: sends the pending responses to the Node checker (offloaded) and adds the checked counts. */
export function flushContractChecks(settings: CheckSettings): void {
  if (framed > 0 && settings.nodeCheckerUrl !== undefined) sendBatch(settings.nodeCheckerUrl);
  if (uncountedTotal > 0) countChecked();
}

/**
 * At the end of an iteration: flushes what is buffered when it is older than the flush interval, or
 * when the VU may be stopped before its next iteration (`mayStopAt`), so nothing buffered is lost with it.
 */
export function flushContractChecksIfDue(settings: CheckSettings, mayStopAt: (now: number) => boolean): void {
  if (framed + uncountedTotal === 0) return;
  const now = Date.now();
  if (now - bufferedSince >= FLUSH_AFTER_MS || mayStopAt(now)) flushContractChecks(settings);
}

/**
 * Checks one response against its operation's contract, or batches it to be checked in Node.
 * A response with a must-level finding is recorded at once in contract_violations (tagged with the
 * operation, so a breach names it); checked responses are counted in contract_checked per batch.
 * Returns the findings when checked in the VU (none when offloaded).
 */
export function checkContract(
  operation: OperationId,
  method: string,
  url: string,
  res: Response,
  status: number,
  settings: CheckSettings,
  openPoint?: ClauseId,
): readonly Violation[] {
  if (settings.contractSample < 1 && !selected(settings.contractSample)) return NO_FINDINGS;
  const checkerUrl = settings.nodeCheckerUrl;
  const offloaded = checkerUrl !== undefined && openPoint === undefined;
  if (framed + uncountedTotal === 0) bufferedSince = Date.now();
  const raw = res.body;
  const body = typeof raw === 'string' ? raw : bodyOf(res);
  const headers = res.headers;
  const type = headers['Content-Type'] ?? contentType(headers);
  if (offloaded) {
    pushResponse(frames, operation, status, method, type, url, body);
    if (++framed >= settings.contractBatch) sendBatch(checkerUrl);
    return NO_FINDINGS;
  }
  const violations = underOpenPoint(check(operation, status, type, body, settings.contractMemo), openPoint);
  if (violations.length > 0) recordFindings(operation, `${method} ${url}`, status, body, violations);
  uncounted[operation] = (uncounted[operation] ?? 0) + 1;
  if (++uncountedTotal >= settings.contractBatch) countChecked();
  return violations;
}

const NO_FINDINGS: readonly Violation[] = Object.freeze([]);
