/**
 * A request described by a caller, made ready to send: its URL with the query, the headers as sent and
 * as shown in evidence, the body as bytes (JSON, raw, or a multipart form built here), and the reproducer
 * body a curl command replays.
 */
import { randomBytes } from 'node:crypto';
import { operationFor } from '../../contracts/check.ts';
import { INLINE_BODY_LIMIT, type ReproBody } from '../evidence/reproducer.ts';
import type { FileSpec } from '../data/files.ts';
import type { Caller, RequestSpec } from './exchange.ts';

export interface PreparedRequest {
  spec: RequestSpec;
  url: URL;
  /** As shown in evidence: one value per header (a repeated header joined by ", "). */
  headers: Record<string, string>;
  /** As sent: a repeated header keeps its values apart. */
  sendHeaders: Record<string, string | string[]>;
  body: Buffer | undefined;
  /** The body as text for evidence (latin1 for bytes that are not text). */
  bodyText: string | undefined;
  bodyBytes: number;
  repro: ReproBody | undefined;
  timeoutMs: number;
  mapped: ReturnType<typeof operationFor>;
  /** A fault of this call is remembered for the run, and a fault remembered meanwhile ends the wait for it. */
  remembers: boolean;
}

export interface PrepareContext {
  baseUrl: string;
  caller: Caller;
  requestTimeoutMs: number;
  /** Keeps a body too long to inline in a reproducer; returns the path the reproducer names. */
  saveBody(text: string): string;
}

/** WHATWG's escaping of a multipart name or filename: quotes and line breaks percent-encoded. */
function formName(text: string): string {
  return text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A multipart/form-data body of `files` under `field`, as a browser's FormData would send it. */
export function multipartBody(field: string, files: readonly FileSpec[]): { body: Buffer; contentType: string } {
  const boundary = `----wfcheck${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${formName(field)}"; filename="${formName(f.name)}"\r\n` +
          `Content-Type: ${f.type || 'application/octet-stream'}\r\n\r\n`,
      ),
      Buffer.from(f.content),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

function authorization(spec: RequestSpec, caller: Caller, sameOrigin: boolean): string | string[] | undefined {
  const auth = spec.auth ?? (sameOrigin ? { kind: 'tenant' } : { kind: 'none' });
  if (auth.kind === 'tenant') return `Bearer ${caller.apiKey}`;
  if (auth.kind === 'literal') return auth.value;
  if (auth.kind === 'repeated') return auth.values;
  return undefined;
}

export function prepareRequest(spec: RequestSpec, ctx: PrepareContext): PreparedRequest {
  const url = new URL(spec.absoluteUrl ?? ctx.baseUrl + spec.path);
  const sameOrigin = url.origin === new URL(ctx.baseUrl).origin;
  for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const sendHeaders: Record<string, string | string[]> = { accept: 'application/json', ...(spec.headers ?? {}) };
  const auth = authorization(spec, ctx.caller, sameOrigin);
  if (auth !== undefined) sendHeaders.authorization = auth;

  let body: Buffer | undefined;
  let bodyText: string | undefined;
  let repro: ReproBody | undefined;
  if (spec.json !== undefined) {
    bodyText = JSON.stringify(spec.json);
    sendHeaders['content-type'] ??= 'application/json';
    body = Buffer.from(bodyText);
  } else if (spec.raw) {
    body = Buffer.from(spec.raw.body);
    bodyText = typeof spec.raw.body === 'string' ? spec.raw.body : body.toString('latin1');
    if (spec.raw.contentType) sendHeaders['content-type'] = spec.raw.contentType;
  } else if (spec.multipart) {
    const field = spec.multipart.field ?? 'files';
    const form = multipartBody(field, spec.multipart.files);
    body = form.body;
    sendHeaders['content-type'] = form.contentType;
    repro = {
      kind: 'multipart',
      field,
      files: spec.multipart.files.map((f) => ({ name: f.name, type: f.type, bytes: f.content.length })),
    };
  }
  const bodyBytes = spec.multipart
    ? spec.multipart.files.reduce((n, f) => n + f.content.length, 0)
    : (body?.length ?? 0);
  if (bodyText !== undefined)
    repro =
      Buffer.byteLength(bodyText) <= INLINE_BODY_LIMIT
        ? { kind: 'text', text: bodyText }
        : { kind: 'file', path: ctx.saveBody(bodyText) };

  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(sendHeaders)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  // The reproducer shows the form's own content type: curl -F makes its boundary itself.
  if (spec.multipart) headers['content-type'] = 'multipart/form-data';
  const mapped = spec.absoluteUrl ? undefined : operationFor(spec.method, spec.path);
  return {
    spec,
    url,
    headers,
    sendHeaders,
    body,
    bodyText,
    bodyBytes,
    repro,
    timeoutMs: spec.timeoutMs ?? ctx.requestTimeoutMs,
    mapped,
    // The reachability probe asks whether there is a target at all: its answers are no operation's fault.
    remembers: mapped !== undefined && spec.judgeFaults !== false && spec.rememberFault !== false,
  };
}
