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
import { OPERATIONS } from '../../contracts/generated/operations.ts';
import type { OperationId } from './operations.ts';
import type { UploadSample } from './data-shape.ts';
import { checkContract } from './contract.ts';
import { rateLimited } from './metrics.ts';

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
  openPoint?: string;
}

const MAX_BACKOFF_S = 8;

/**
 * A path template split once into literal parts and parameter names, so building a URL per request is
 * plain concatenation (a regex replace with a callback costs microseconds per request in k6's runtime).
 */
interface CompiledPath { literals: string[]; names: string[] }

const COMPILED: Partial<Record<OperationId, CompiledPath>> = {};

function compiledPath(operation: OperationId): CompiledPath {
  const known = COMPILED[operation];
  if (known) return known;
  const parts = OPERATIONS[operation].path.split(/\{(\w+)\}/);
  const compiled: CompiledPath = { literals: parts.filter((_, i) => i % 2 === 0), names: parts.filter((_, i) => i % 2 === 1) };
  COMPILED[operation] = compiled;
  return compiled;
}

function fillPath(operation: OperationId, params: Record<string, string> = {}): string {
  const { literals, names } = compiledPath(operation);
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
 * a fresh tags map) is a measurable share of a saturated generator's time (load/bench/).
 */
const PARAMS = new Map<string, object>();

function paramsFor(cfg: LoadConfig, call: Call): object {
  // Most calls have neither a content type nor extra expected statuses: their key is the operation alone.
  const key = call.contentType || call.alsoExpected ? `${call.operation}|${call.contentType ?? ''}|${call.alsoExpected?.join(',') ?? ''}` : call.operation;
  const known = PARAMS.get(key);
  if (known) return known;
  const headers: Record<string, string> = { Authorization: `Bearer ${cfg.apiKey}`, Accept: 'application/json' };
  if (call.contentType) headers['Content-Type'] = call.contentType;
  const params: Record<string, unknown> = { headers, timeout: cfg.requestTimeoutMs, tags: { operation: call.operation, name: OPERATIONS[call.operation].path } };
  if (call.alsoExpected) params.responseCallback = http.expectedStatuses({ min: 200, max: 399 }, 429, ...call.alsoExpected);
  // Multipart content types carry a per-request boundary: not worth keeping.
  if (!call.contentType?.startsWith('multipart/')) PARAMS.set(key, params);
  return params;
}

export function send(cfg: LoadConfig, call: Call): Response {
  const method = OPERATIONS[call.operation].method;
  const url = cfg.baseUrl + fillPath(call.operation, call.params) + queryString(call.query);
  const params = paramsFor(cfg, call);
  for (let attempt = 0; ; attempt++) {
    const res = http.request(method, url, call.body ?? null, params) as Response;
    // Status 0 means no HTTP response at all (refused, reset, timeout): a transport failure that
    // http_req_failed counts and k6 logs, not a statement of the service about its contract.
    if (res.status !== 0) checkContract(call.operation, method, url, res, cfg, call.openPoint);
    if (res.status !== 429) return res;
    rateLimited.add(1, { operation: call.operation });
    if (attempt >= cfg.rateLimitRetries) return res;
    sleep(backoffSeconds(headerValue(res.headers, 'Retry-After'), attempt));
  }
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
  searchWorkflows: (cfg: LoadConfig, query: { keyword?: string; page?: number; pageSize?: number } = {}, openPoint?: string) =>
    send(cfg, { operation: 'searchWorkflows', query: query as Record<string, string | number>, ...(openPoint ? { openPoint, alsoExpected: [400, 404, 422] } : {}) }),
  getWorkflowDetail: (cfg: LoadConfig, canvasId: string) =>
    send(cfg, { operation: 'getWorkflowDetail', params: { canvasId } }),
  runWorkflow: (cfg: LoadConfig, canvasId: string, variables: Record<string, unknown>, alsoExpected?: number[]) =>
    send(cfg, {
      operation: 'runWorkflow', params: { canvasId },
      body: JSON.stringify({ variables }), contentType: 'application/json', alsoExpected,
    }),
  abortExecution: (cfg: LoadConfig, executionId: string) =>
    send(cfg, { operation: 'abortExecution', params: { executionId } }),
  generateWorkflow: (cfg: LoadConfig, body: { query: string; locale?: string; canvasId?: string }) =>
    send(cfg, { operation: 'generateWorkflow', body: JSON.stringify(body), contentType: 'application/json' }),
  getExecutionStatus: (cfg: LoadConfig, executionId: string) =>
    send(cfg, { operation: 'getExecutionStatus', params: { executionId } }),
  getExecutionOutput: (cfg: LoadConfig, executionId: string) =>
    send(cfg, { operation: 'getExecutionOutput', params: { executionId } }),
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
    chunks.push(asciiBytes(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${safeName}"\r\nContent-Type: ${f.contentType}\r\n\r\n`));
    chunks.push(new Uint8Array(encoding.b64decode(f.base64, 'std')));
    chunks.push(asciiBytes('\r\n'));
  }
  chunks.push(asciiBytes(`--${boundary}--\r\n`));
  const body = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) { body.set(c, at); at += c.length; }
  return { body: body.buffer, contentType: `multipart/form-data; boundary=${boundary}` };
}
