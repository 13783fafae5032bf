/**
 * What the entries of the catalogue share: the clause lists they name, and the small readers and writers
 * of requests, answers and proxy state their hooks are made of.
 */
import { randomUUID } from 'node:crypto';
import { LIMITS } from '../../../contracts/error-codes.ts';
import { OPERATION_PREFIX } from '../../../contracts/requirements.ts';
import {
  jsonOf,
  withJsonRequest,
  type EditableJson,
  type MutantContext,
  type ProxyRequest,
  type ProxyResponse,
  type CarriedKey,
} from '../proxy.ts';

const ALL_PREFIXES = Object.values(OPERATION_PREFIX);
export const perOp = (suffix: string) => ALL_PREFIXES.map((p) => `${p}-${suffix}`);

/** Clauses of the suites that need workflows but not search itself: a search deviation must not starve them. */
export const BEYOND_SEARCH = [
  'RUN-FILE-VARIABLE',
  'STATE-TERMINAL',
  'ABORT-ACCEPTED',
  'RUN-400-MISSING-REQUIRED-VARIABLE',
  'OUTPUT-FILE-URL-SERVES',
];
/** Search clauses a listing read in a deviant shape still lets the suite judge. */
export const SEARCH_STILL_JUDGED = [
  'SEARCH-KEYWORD-APPLIED',
  'SEARCH-PAGES-STABLE',
  'DETAIL-FOR-SEARCH-ITEM',
  'SEARCH-TENANT-SCOPED',
];

export type Json = EditableJson;

export const isOp = (ctx: MutantContext, ...ops: string[]) => ctx.op !== undefined && ops.includes(ctx.op);
export const EXECUTION_OPS = ['getExecutionStatus', 'getExecutionOutput', 'abortExecution'];

/** The known key the request did not carry, when it carried one and the other is known. */
export function otherKey(ctx: MutantContext): { name: CarriedKey; key: string } | undefined {
  if (ctx.carried === 'A' && ctx.keys.B) return { name: 'B', key: ctx.keys.B };
  if (ctx.carried === 'B') return { name: 'A', key: ctx.keys.A };
  return undefined;
}

export function setOf(ctx: MutantContext, name: string): Set<string> {
  let s = ctx.state.get(name) as Set<string> | undefined;
  if (!s) {
    s = new Set();
    ctx.state.set(name, s);
  }
  return s;
}

export function mapOf<V>(ctx: MutantContext, name: string): Map<string, V> {
  let m = ctx.state.get(name) as Map<string, V> | undefined;
  if (!m) {
    m = new Map();
    ctx.state.set(name, m);
  }
  return m;
}

/** Applies `fn` to every node-like entry (status nodeExecutions, output nodes). */
export function eachNode(data: Json | undefined, fn: (node: Json) => void): void {
  for (const list of [data?.nodeExecutions, data?.output])
    if (Array.isArray(list))
      for (const n of list) {
        if (n && typeof n === 'object') fn(n);
      }
}

export function eachPlan(ctx: MutantContext, body: Json, fn: (plan: Json) => void): void {
  if (ctx.op === 'getWorkflowDetail' && body.data && typeof body.data === 'object') fn(body.data);
  if (ctx.op === 'generateWorkflow' && body.data?.workflowPlan && typeof body.data.workflowPlan === 'object')
    fn(body.data.workflowPlan);
}

export function isJsonResponse(res: ProxyResponse): boolean {
  return /json/i.test(res.headers['content-type'] ?? '');
}

/** Every string value inside a JSON value, rewritten. */
export function mapStrings(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, fn)]));
  return value;
}

/** Records which key uploaded each fileKey (isolation and file-variable bugs need it). */
export function rememberUploads(res: ProxyResponse, ctx: MutantContext): void {
  if (ctx.op !== 'uploadFiles' || res.status !== 200 || !ctx.carried) return;
  const files = (jsonOf(res) as Json | undefined)?.data?.files;
  if (Array.isArray(files))
    for (const f of files)
      if (typeof f?.fileKey === 'string') mapOf<CarriedKey>(ctx, 'fileKeys').set(f.fileKey, ctx.carried);
}

/** Uploads a placeholder file upstream under `key` and returns its fileKey. */
async function uploadPlaceholder(ctx: MutantContext, key: string): Promise<string | undefined> {
  const boundary = `----wfcheck${randomUUID()}`;
  const body = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="placeholder.txt"\r\nContent-Type: text/plain\r\n\r\nplaceholder\r\n--${boundary}--\r\n`,
  );
  const res = await ctx.forward({
    method: 'POST',
    path: '/openapi/files/upload',
    headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
  });
  return (jsonOf(res) as Json | undefined)?.data?.files?.[0]?.fileKey;
}

/** The run request with file keys not owned by `as` swapped for a placeholder file uploaded by `as`. */
export async function withOwnFileKeys(
  req: ProxyRequest,
  ctx: MutantContext,
  as: { name: CarriedKey; key: string },
): Promise<ProxyRequest> {
  const body = isOp(ctx, 'runWorkflow') ? runBodyOf(req) : undefined;
  const owners = mapOf<CarriedKey>(ctx, 'fileKeys');
  const callers = new Set<string>();
  if (body)
    mapStrings(body, (s) => {
      if (owners.has(s) && owners.get(s) !== as.name) callers.add(s);
      return s;
    });
  if (!body || callers.size === 0) return req;
  const placeholder = await uploadPlaceholder(ctx, as.key);
  return placeholder
    ? withJsonRequest(
        req,
        mapStrings(body, (s) => (callers.has(s) ? placeholder : s)),
      )
    : req;
}

export function runBodyOf(req: ProxyRequest): Json | undefined {
  const v = jsonOf(req);
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

/** The clauses that say an unknown id answers 404. */
export const NOT_FOUND_CLAUSES = [
  'RUN-404-UNKNOWN-CANVAS',
  'DETAIL-404-UNKNOWN-CANVAS',
  'GENERATE-404-UNKNOWN-CANVAS',
  'STATUS-404-UNKNOWN-EXECUTION',
  'OUTPUT-404-UNKNOWN-EXECUTION',
  'ABORT-404-UNKNOWN-EXECUTION',
];

/** §8's limits as the contract states them: the payload read at its larger (102,400 bytes), content in characters. */
export const PAYLOAD_LIMIT_BYTES = LIMITS.payloadBytesSurelyOver;
export const CONTENT_LIMIT_CHARS = LIMITS.maxContentChars;

// ---- the catalogue ---------------------------------------------------------------------------------

/** The plan of a canvas as the caller reads it (its detail), or undefined when the caller cannot read it. */
export async function planOf(ctx: MutantContext, req: ProxyRequest): Promise<Json | undefined> {
  const res = await ctx.forward({
    method: 'GET',
    path: `/openapi/workflows/${encodeURIComponent(ctx.params.canvasId ?? '')}`,
    headers: { authorization: req.headers.authorization ?? '' },
    body: Buffer.alloc(0),
  });
  const data = res.status === 200 ? (jsonOf(res) as Json | undefined)?.data : undefined;
  return data && typeof data === 'object' ? data : undefined;
}

/** A run body's variables by name: the legacy top-level fields, the `variables` wrapper's on top. */
export function givenVariables(body: Json): Json {
  const { variables, ...legacy } = body;
  return { ...legacy, ...(variables && typeof variables === 'object' && !Array.isArray(variables) ? variables : {}) };
}
