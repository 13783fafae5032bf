/**
 * Request helpers: one function per operation. Each request
 *  - carries the API key (never logged),
 *  - is tagged with its operationId and its path template (`name`), so
 *    per-operation thresholds work and ids do not explode metric series,
 *  - honours 429 with a backoff (Retry-After when given) and counts it,
 *  - goes through the contract checks.
 */
import http, { type RefinedResponse, type ResponseType } from 'k6/http';
import { sleep } from 'k6';
import encoding from 'k6/encoding';
import type { LoadConfig } from './config.ts';
import { OPERATIONS } from '../../../contracts/generated/operations.ts';
import type { ClauseId } from '../../../contracts/generated/clause-ids.ts';
import { OPERATION_IDS, type OperationId } from './operations.ts';
import type { UploadSample } from './data-shape.ts';
import { checkContract } from './contract.ts';
import { rateLimited, setupRequests } from './metrics.ts';

export type Response = RefinedResponse<ResponseType | undefined>;

/** Method and path template come from the contract's operation table (generated from openapi.yaml). */
interface Call {
  operation: OperationId;
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: string | ArrayBuffer;
  contentType?: string;
  /** Statuses that are not failures for this call (discovery probes expect 403/404 from some workflows). */
  alsoExpected?: number[];
  /**
   * The observe clause this request probes (e.g. page=0 of search): an unlisted status in its answer is
   * recorded under that clause instead of failing the operation's HTTP-STATUS-LISTED clause.
   */
  openPoint?: ClauseId;
}

const MAX_BACKOFF_S = 8;

/**
 * An operation's method and path template, the template split once into literal parts and parameter
 * names, so building a URL per request is plain concatenation (a regex replace with a callback is costly
 * per request in k6's interpreter).
 */
interface Route {
  method: string;
  literals: string[];
  names: string[];
}

const ROUTES = Object.fromEntries(
  OPERATION_IDS.map((operation) => {
    const parts = OPERATIONS[operation].path.split(/\{(\w+)\}/);
    return [
      operation,
      {
        method: OPERATIONS[operation].method,
        literals: parts.filter((_, i) => i % 2 === 0),
        names: parts.filter((_, i) => i % 2 === 1),
      },
    ];
  }),
) as Record<OperationId, Route>;

function fillPath(operation: OperationId, route: Route, params: Record<string, string> = {}): string {
  const { literals, names } = route;
  let out = literals[0]!;
  for (let i = 0; i < names.length; i++) {
    const v = params[names[i]!];
    if (v === undefined) throw new Error(`missing path parameter ${names[i]} for ${OPERATIONS[operation].path}`);
    out += encodeURIComponent(v) + literals[i + 1]!;
  }
  return out;
}

function queryString(query: Record<string, string | number> | undefined): string {
  if (!query) return '';
  let out = '';
  for (const k in query) {
    const v = query[k];
    if (v === undefined) continue;
    out += `${out ? '&' : '?'}${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`;
  }
  return out;
}

/** Seconds to wait after a 429: Retry-After (seconds or HTTP date) when sane, else exponential with jitter. */
export function backoffSeconds(retryAfter: string | undefined, attempt: number, now = Date.now()): number {
  if (retryAfter) {
    const secs = Number(retryAfter);
    if (Number.isFinite(secs) && secs >= 0) return Math.min(secs, MAX_BACKOFF_S);
    const at = Date.parse(retryAfter);
    if (Number.isFinite(at)) return Math.min(Math.max(0, (at - now) / 1000), MAX_BACKOFF_S);
  }
  const base = Math.min(0.25 * 2 ** attempt, MAX_BACKOFF_S);
  return base / 2 + Math.random() * (base / 2);
}

/** A response header by name, whatever its case. */
export function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const k in headers) if (k.toLowerCase() === lower) return headers[k];
  return undefined;
}

export function bodyText(res: Response): string {
  const b = res.body;
  if (typeof b === 'string') return b;
  if (b === null || b === undefined) return '';
  // Binary bodies are not expected from this API; decode bytes as Latin-1 so the checks still see them.
  return String.fromCharCode(...new Uint8Array(b));
}

/**
 * Request parameters per (operation, content type), made once per VU and reused: the headers, tags and
 * timeout never change between requests of one operation, and building them per request (object spread,
 * a fresh tags map) is a measurable share of a saturated generator's time (proof/bench/k6/).
 */
const PARAMS: Record<string, object> = {};

/**
 * Whether this VU is setup()'s. Its requests (discovery, trial runs) are made before the load, one at a
 * time; tagged by operation they would swell the per-operation rates and latency gates, which describe
 * the load. They carry `phase: setup` instead, and are counted in setup_requests; their responses are
 * still contract-checked under their operation.
 */
let setupPhase = false;

/** Marks this VU's requests as setup's (called first thing in setup()). */
export function markSetupRequests(): void {
  setupPhase = true;
}

/**
 * Called before every request when set: a capacity search (load/capacity/k6/main.ts) tags each request with
 * the step window it is sent in, not the one its iteration started in, since a lifecycle may span two steps.
 */
let beforeRequest: (() => void) | undefined;

export function onEveryRequest(hook: () => void): void {
  beforeRequest = hook;
}

function paramsFor(cfg: LoadConfig, call: Call): object {
  // Most calls have neither a content type nor extra expected statuses: their key is the operation alone.
  const key =
    call.contentType || call.alsoExpected
      ? `${call.operation}|${call.contentType ?? ''}|${call.alsoExpected?.join(',') ?? ''}`
      : call.operation;
  const known = PARAMS[key];
  if (known) return known;
  const headers: Record<string, string> = { Authorization: `Bearer ${cfg.apiKey}`, Accept: 'application/json' };
  if (call.contentType) headers['Content-Type'] = call.contentType;
  const params: Record<string, unknown> = {
    headers,
    timeout: cfg.requestTimeoutMs,
    tags: setupPhase
      ? { phase: 'setup', name: OPERATIONS[call.operation].path }
      : { operation: call.operation, name: OPERATIONS[call.operation].path },
  };
  if (call.alsoExpected)
    params.responseCallback = http.expectedStatuses({ min: 200, max: 399 }, 429, ...call.alsoExpected);
  // Multipart content types carry a per-request boundary: not worth keeping.
  if (!call.contentType?.startsWith('multipart/')) PARAMS[key] = params;
  return params;
}

// Module-local names for what every request uses: in k6's runtime an imported name is looked up by name
// on every use.
const request = http.request;
const get = http.get;
const checkResponse = checkContract;

/** Checks the response (or batches it for Node); status 0 is no response (a transport failure k6 counts), nothing to check. */
function record(cfg: LoadConfig, call: Call, method: string, url: string, res: Response, status: number): void {
  if (setupPhase) setupRequests.add(1);
  if (status === 0) return;
  checkResponse(call.operation, method, url, res, status, cfg, call.openPoint);
}

/** After a 429: counts it and, unless the retries are used up, waits; whether to send again. */
function backedOff(cfg: LoadConfig, call: Call, res: Response, attempt: number): boolean {
  rateLimited.add(1, { operation: call.operation });
  if (attempt >= cfg.rateLimitRetries) return false;
  sleep(backoffSeconds(headerValue(res.headers, 'Retry-After'), attempt));
  return true;
}

/** Sends a request, checks the response against the contract, and retries a 429 after a backoff. */
function exchange(cfg: LoadConfig, call: Call, method: string, url: string, params: object, attempt = 0): Response {
  for (; ; attempt++) {
    if (beforeRequest !== undefined) beforeRequest();
    const res = request(method, url, call.body ?? null, params) as Response;
    const status = res.status;
    record(cfg, call, method, url, res, status);
    if (status !== 429 || !backedOff(cfg, call, res, attempt)) return res;
  }
}

export function send(cfg: LoadConfig, call: Call): Response {
  const route = ROUTES[call.operation];
  const params = paramsFor(cfg, call);
  return exchange(
    cfg,
    call,
    route.method,
    cfg.baseUrl + fillPath(call.operation, route, call.params) + queryString(call.query),
    params,
  );
}

/**
 * A reader of one execution's status or output, the reads the scenarios repeat most: URL parts and
 * parameters resolved on its first call, and the common case — one request, the response batched or
 * checked — done in the reader itself. k6's runtime drops its value stack after every iteration, so each
 * level of calls under an iteration is allocated again in every iteration; a 429 goes on in exchange.
 */
function executionReader(operation: 'getExecutionStatus' | 'getExecutionOutput') {
  const call: Call = { operation };
  const route = ROUTES[operation];
  const method = route.method;
  const suffix = route.literals[1]!;
  let prefix = '';
  let params: object | undefined;
  const prepare = (cfg: LoadConfig): object => {
    prefix = cfg.baseUrl + route.literals[0];
    params = paramsFor(cfg, call);
    return params;
  };
  return (cfg: LoadConfig, executionId: string): Response => {
    const url = (params === undefined ? prepare(cfg) && prefix : prefix) + encodeURIComponent(executionId) + suffix;
    if (beforeRequest !== undefined) beforeRequest();
    // Both reads are GETs; http.get takes two arguments where http.request takes four, each converted per call.
    const res = get(url, params) as Response;
    const status = res.status;
    if (setupPhase) setupRequests.add(1);
    if (status === 0) return res;
    checkResponse(operation, method, url, res, status, cfg);
    return status === 429 && backedOff(cfg, call, res, 0) ? exchange(cfg, call, method, url, params!, 1) : res;
  };
}

/**
 * One string field of a JSON body by its path (k6's selector syntax, e.g. `data.status` or
 * `data.files.0.fileKey`), read by k6 natively; undefined when the body is not JSON or holds no string
 * there. Cheaper than JSON.parse, which is costly in k6's interpreter: it builds every object of the body.
 */
export function jsonField(res: Response, path: string): string | undefined {
  if (res.body === null || res.body === undefined) return undefined;
  const value = res.json(path);
  return typeof value === 'string' ? value : undefined;
}

/** Parses a JSON body; undefined when it is not JSON (the contract checks already report that). */
export function json<T>(res: Response): T | undefined {
  try {
    return JSON.parse(bodyText(res)) as T;
  } catch {
    return undefined;
  }
}

export const api = {
  /** openPoint: the observe clause a probe (page=0) is about; its answer may be any status, none failed. */
  searchWorkflows: (
    cfg: LoadConfig,
    query: { keyword?: string; page?: number; pageSize?: number } = {},
    openPoint?: ClauseId,
  ) =>
    send(cfg, {
      operation: 'searchWorkflows',
      query: query as Record<string, string | number>,
      ...(openPoint ? { openPoint, alsoExpected: [400, 404, 422] } : {}),
    }),
  getWorkflowDetail: (cfg: LoadConfig, canvasId: string) =>
    send(cfg, { operation: 'getWorkflowDetail', params: { canvasId } }),
  runWorkflow: (cfg: LoadConfig, canvasId: string, variables: Record<string, unknown>, alsoExpected?: number[]) =>
    send(cfg, {
      operation: 'runWorkflow',
      params: { canvasId },
      body: JSON.stringify({ variables }),
      contentType: 'application/json',
      alsoExpected,
    }),
  abortExecution: (cfg: LoadConfig, executionId: string) =>
    send(cfg, { operation: 'abortExecution', params: { executionId } }),
  generateWorkflow: (cfg: LoadConfig, body: { query: string; locale?: string; canvasId?: string }) =>
    send(cfg, { operation: 'generateWorkflow', body: JSON.stringify(body), contentType: 'application/json' }),
  getExecutionStatus: executionReader('getExecutionStatus'),
  getExecutionOutput: executionReader('getExecutionOutput'),
  uploadFiles: (cfg: LoadConfig, files: readonly UploadSample[]) => {
    const { body, contentType } = multipart(files);
    return send(cfg, { operation: 'uploadFiles', body, contentType });
  },
};

/** ASCII text → bytes (multipart headers are ASCII; k6 has no TextEncoder). */
function asciiBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

/**
 * Builds a multipart/form-data body by hand: k6's object form cannot repeat a
 * field, and the upload operation takes several files under the same `files` field.
 */
export function multipart(files: readonly UploadSample[]): { body: ArrayBuffer; contentType: string } {
  const boundary = `----wfcheck${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
  const chunks: Uint8Array[] = [];
  for (const f of files) {
    const safeName = f.name.replace(/["\r\n]/g, '_');
    chunks.push(
      asciiBytes(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${safeName}"\r\nContent-Type: ${f.contentType}\r\n\r\n`,
      ),
    );
    chunks.push(new Uint8Array(encoding.b64decode(f.base64, 'std')));
    chunks.push(asciiBytes('\r\n'));
  }
  chunks.push(asciiBytes(`--${boundary}--\r\n`));
  const body = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.length;
  }
  return { body: body.buffer, contentType: `multipart/form-data; boundary=${boundary}` };
}
