/**
 * The contract-checked API client: the only way the suites talk to a target.
 *
 * Every response — including deliberately malformed requests — is recorded
 * (request redacted, response excerpt, curl reproducer) and run through
 * `checkResponse`; its findings become verdicts against their requirement IDs.
 *
 * Node's fetch is used rather than Playwright's request context because a
 * conformance tool must survive hostile targets: the body is read as a stream
 * with a size cap, one deadline covers connect + headers + body, and transport
 * errors keep their cause (refused, reset, parse error) so the failure names
 * the fault instead of hanging or exhausting memory.
 *
 * A broken operation costs its deadline once per run: once a call of an operation went unanswered
 * within the deadline, answered with a body slower than it, or broke off (reset, cut short, malformed),
 * later calls of that operation — in any worker — are answered at once with the same fault, marked
 * `operation-faulted`, and not sent (faults-seen.ts). Whose fault it is stays as it was: a deadline the
 * harness gave up on is its own limit, never the target's failure, so what needed the operation is
 * "not run" because of it; an answer that broke off failed the operation's status clause, and what
 * needed the operation is "blocked by" that clause. Either way the report names one fault.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkResponse, operationFor, operationInfo, type OperationId, type Violation } from '../../contracts/check.ts';
import { citedRequirements, type EvidenceWriter, type ExchangeRecord, type TestRef } from '../verdict/evidence.ts';
import { MIN_SECRET_LENGTH, redactHeaders, redactSecrets } from '../../foundation/environment/redact.ts';
import { curlFor, INLINE_BODY_LIMIT, type ReproBody } from '../verdict/reproducer.ts';
import type { FileSpec } from '../../foundation/data/files.ts';
import { bodyKindOf, clausesCheckedFor } from '../../contracts/coverage.ts';
import { levelOf } from '../../contracts/requirements.ts';
import type { RunConfig } from '../../foundation/environment/config.ts';
import type { Verdict } from '../verdict/verdict.ts';
import { describeFault, faultsSeen, type FaultSeen } from './faults-seen.ts';

export interface Tenant {
  /** 'A' uses API_KEY, 'B' uses API_KEY_B. */
  name: 'A' | 'B';
  apiKey: string;
}

/**
 * Authorization sent with a request: the tenant's key (default), none at all,
 * or a literal header value (auth variants; may embed the key via {key}).
 */
export type AuthMode = { kind: 'tenant' } | { kind: 'none' } | { kind: 'literal'; value: string };

export interface RequestSpec {
  method: string;
  /** Path after the base URL, already encoded (use `seg()` for ids). */
  path: string;
  /** An absolute URL outside the interface (e.g. a file's url); no contract applies, and the key is sent only to the base URL's origin. */
  absoluteUrl?: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  /** Raw body (sent as is) with its content type. */
  raw?: { body: string | Uint8Array; contentType?: string };
  /** Multipart upload: files under `field` (default "files"). */
  multipart?: { field?: string; files: FileSpec[] };
  auth?: AuthMode;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** What the call is for, shown in evidence. */
  label?: string;
  /** Return transport faults as an exchange instead of throwing. */
  allowFault?: boolean;
  /**
   * Judge a transport fault of the target (reset, malformed answer, body cut short) as a failure of the
   * operation's status clause; default true. The reachability probe turns it off: a target that answers
   * nothing at all is unreachable, and the run says so instead of judging.
   */
  judgeFaults?: boolean;
  /**
   * The request probes a point the specification leaves open (e.g. page=0, an unknown `order`): an
   * unlisted status in its answer is recorded under this observe clause instead of failing the
   * operation's status clause.
   */
  openPoint?: string;
}

export interface Exchange {
  record: ExchangeRecord;
  /** Undefined when the exchange failed at transport level. */
  status?: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed body when it is JSON. */
  json?: unknown;
  /** The body parsed as JSON (`json` may legitimately be null). */
  parsed?: boolean;
  operation?: OperationId;
  violations: Violation[];
  fault?: { kind: string; message: string };
  /**
   * The operation's fault that stops what needed this call: the one this exchange met (when it is one
   * the run does not wait for twice), or, for a call answered without being sent, the one met before.
   */
  faulted?: FaultSeen;
}

/** §5.2: answers never carry the key. */
export const KEY_NOT_ECHOED = 'KEY-NOT-ECHOED';

/** Whether an answer carries one of `keys` in its body or a header (keys too short to be secrets are not looked for). */
export function carriesKey(ex: Exchange, keys: readonly (string | undefined)[]): boolean {
  const headers = Object.values(ex.headers).join('\n');
  return keys.some(
    (k) => k !== undefined && k.length >= MIN_SECRET_LENGTH && (ex.text.includes(k) || headers.includes(k)),
  );
}

/** The fault kind of a call answered at once because its operation already faulted in this run. */
export const OPERATION_FAULTED = 'operation-faulted';

export class TransportFault extends Error {
  constructor(
    readonly kind: string,
    message: string,
    readonly exchange: Exchange,
  ) {
    super(message);
    this.name = 'TransportFault';
  }
}

/** Encodes one path segment (ids are opaque strings: slashes, dots and unicode stay inside the segment). */
export function seg(id: string): string {
  return encodeURIComponent(id);
}

const EXCERPT = 2000;
let sequence = 0;

/**
 * Faults that are the target's answer going wrong, judged as a deviation from its status line. The others
 * are limits of the harness (our deadline, our body-size cap) or no answer at all (refused, DNS): they
 * stop the test, and its clauses are "not run" with the reason.
 */
const TARGET_FAULTS: ReadonlySet<string> = new Set(['connection-reset', 'protocol-error', 'incomplete-body']);

/**
 * Why a faulted call stops what needed it: blocked by the clause its fault failed (an answer of the
 * target's making that broke off), or, with no clause, a limit of the harness (its deadline, its body
 * cap, no connection at all) that leaves it "not run". Undefined when the call did not fault.
 */
export function faultStop(ex: Exchange): { blockedBy?: string; reason: string } | undefined {
  if (ex.faulted)
    return { ...(ex.faulted.clause ? { blockedBy: ex.faulted.clause } : {}), reason: describeFault(ex.faulted) };
  if (!ex.fault) return undefined;
  const reason = `${ex.operation ?? ex.record.method} ${ex.fault.kind}: ${ex.fault.message}`;
  if (!ex.operation || !TARGET_FAULTS.has(ex.fault.kind)) return { reason };
  return { blockedBy: `${operationInfo(ex.operation).prefix}-HTTP-STATUS-LISTED`, reason };
}

/** Why a faulted call has no answer to judge when the fault is the harness's (its deadline, no connection); else undefined. */
export function harnessFault(ex: Exchange): string | undefined {
  const stop = ex.fault ? faultStop(ex) : undefined;
  return stop && !stop.blockedBy ? stop.reason : undefined;
}

/** Bounds of waiting out a 429: at most this many attempts, each wait at most MAX_RETRY_WAIT_MS. */
const RATE_LIMIT_ATTEMPTS = 3;
const MAX_RETRY_WAIT_MS = 5_000;

/** Retry-After (delta-seconds or an HTTP date; absent → 1 s) in ms; undefined when it asks for longer than we wait. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  let ms = 1_000;
  if (value !== undefined && value.trim() !== '') {
    const v = value.trim();
    if (/^\d+$/.test(v)) ms = Number(v) * 1000;
    else if (!Number.isNaN(Date.parse(v))) ms = Math.max(0, Date.parse(v) - now);
  }
  return ms <= MAX_RETRY_WAIT_MS ? ms : undefined;
}

function classifyFault(err: unknown, timeoutMs: number): { kind: string; message: string } {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError')
    return { kind: 'timeout', message: `no complete response within ${timeoutMs} ms` };
  const code = e?.cause?.code ?? '';
  const detail = e?.cause?.message ?? e?.message ?? String(err);
  if (code === 'ECONNREFUSED') return { kind: 'connection-refused', message: `connection refused (${detail})` };
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')
    return { kind: 'connection-reset', message: `connection reset or closed mid-response (${detail})` };
  if (code.startsWith('HPE_') || code === 'UND_ERR_INVALID_ARG')
    return { kind: 'protocol-error', message: `malformed HTTP response (${code}: ${detail})` };
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
    return { kind: 'timeout', message: detail };
  return { kind: 'network-error', message: `${code ? `${code}: ` : ''}${detail}` };
}

/** A transport error met while reading the body: the answer began and then broke off (or our deadline hit). */
function classifyBodyFault(
  err: unknown,
  timeoutMs: number,
  status: number,
  bytesRead: number,
): { kind: string; message: string } {
  const fault = classifyFault(err, timeoutMs);
  // A body slower than the deadline (a drip): the answer began, and the same deadline ran out on it.
  if (fault.kind === 'timeout')
    return {
      kind: 'timeout',
      message:
        `the ${status} response began, but its body was not complete within ${timeoutMs} ms ` +
        `(${bytesRead} bytes read)`,
    };
  if (fault.kind !== 'connection-reset' && fault.kind !== 'network-error') return fault;
  return {
    kind: 'incomplete-body',
    message: `the ${status} response ended before its body was complete (${fault.message})`,
  };
}

/** `progress.bytes` counts what was read so far, so a body broken off midway can say how far it got. */
async function readCapped(
  res: Response,
  maxBytes: number,
  progress: { bytes: number },
): Promise<{ bytes: Uint8Array; total: number; truncated: boolean }> {
  if (!res.body) return { bytes: new Uint8Array(), total: 0, truncated: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    progress.bytes = total;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      const keep = value.subarray(0, Math.max(0, value.length - (total - maxBytes)));
      chunks.push(keep);
      return { bytes: Buffer.concat(chunks), total, truncated: true };
    }
    chunks.push(value);
  }
  return { bytes: Buffer.concat(chunks), total, truncated: false };
}

function excerpt(text: string): string {
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT)}… (${text.length} chars)` : text;
}

/** A request ready to send (and to send again after a 429). */
interface PreparedRequest {
  spec: RequestSpec;
  url: URL;
  /** As shown in evidence (multipart keeps its content type here). */
  headers: Record<string, string>;
  sendHeaders: Record<string, string>;
  body: BodyInit | undefined;
  bodyText: string | undefined;
  bodyBytes: number;
  repro: ReproBody | undefined;
  timeoutMs: number;
  mapped: ReturnType<typeof operationFor>;
  /** A fault of this call is remembered for the run, and a fault remembered meanwhile ends the wait for it. */
  remembers: boolean;
}

/** How often a call awaiting its answer looks whether its operation faulted meanwhile (here or in another worker). */
const WATCH_MS = 250;

/** The call was given up on while awaiting its answer: its operation faulted meanwhile. */
class Abandoned extends Error {
  constructor(
    readonly seen: FaultSeen,
    readonly durationMs: number,
  ) {
    super(describeFault(seen));
  }
}

export class ApiClient {
  constructor(
    readonly config: RunConfig,
    readonly tenant: Tenant,
    private readonly writer: EvidenceWriter,
    private readonly verdict: Verdict,
    private readonly test: TestRef | undefined,
  ) {}

  /** Contract clauses already credited with a pass in this test (one record per clause is enough evidence). */
  private readonly credited = new Set<string>();

  async send(spec: RequestSpec): Promise<Exchange> {
    const url = new URL(spec.absoluteUrl ?? this.config.baseUrl + spec.path);
    const sameOrigin = url.origin === new URL(this.config.baseUrl).origin;
    for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: 'application/json', ...(spec.headers ?? {}) };
    const auth = spec.auth ?? (sameOrigin ? { kind: 'tenant' } : { kind: 'none' });
    if (auth.kind === 'tenant') headers.authorization = `Bearer ${this.tenant.apiKey}`;
    if (auth.kind === 'literal') headers.authorization = auth.value;

    let body: BodyInit | undefined;
    let bodyBytes = 0;
    let bodyText: string | undefined;
    let repro: ReproBody | undefined;
    if (spec.json !== undefined) {
      bodyText = JSON.stringify(spec.json);
      headers['content-type'] ??= 'application/json';
      body = bodyText;
    } else if (spec.raw) {
      body = typeof spec.raw.body === 'string' ? spec.raw.body : new Uint8Array(spec.raw.body);
      bodyText = typeof spec.raw.body === 'string' ? spec.raw.body : Buffer.from(spec.raw.body).toString('latin1');
      if (spec.raw.contentType) headers['content-type'] = spec.raw.contentType;
    } else if (spec.multipart) {
      const field = spec.multipart.field ?? 'files';
      const form = new FormData();
      for (const f of spec.multipart.files)
        form.append(field, new Blob([new Uint8Array(f.content)], { type: f.type }), f.name);
      body = form;
      bodyBytes = spec.multipart.files.reduce((n, f) => n + f.content.length, 0);
      repro = {
        kind: 'multipart',
        field,
        files: spec.multipart.files.map((f) => ({ name: f.name, type: f.type, bytes: f.content.length })),
      };
      headers['content-type'] = 'multipart/form-data';
    }
    if (bodyText !== undefined) {
      bodyBytes = Buffer.byteLength(bodyText);
      repro =
        bodyBytes <= INLINE_BODY_LIMIT
          ? { kind: 'text', text: bodyText }
          : { kind: 'file', path: this.saveBody(bodyText) };
    }
    // fetch computes the multipart content type (with its boundary) itself.
    const sendHeaders = { ...headers };
    if (spec.multipart) delete sendHeaders['content-type'];

    const timeoutMs = spec.timeoutMs ?? this.config.requestTimeoutMs;
    const mapped = spec.absoluteUrl ? undefined : operationFor(spec.method, spec.path);
    // The reachability probe asks whether there is a target at all: its answers are no operation's fault.
    const remembers = mapped !== undefined && spec.judgeFaults !== false;
    const request: PreparedRequest = {
      spec,
      url,
      headers,
      sendHeaders,
      body,
      bodyText,
      bodyBytes,
      repro,
      timeoutMs,
      mapped,
      remembers,
    };
    const seen = remembers ? faultsSeen(this.config.evidenceDir).find(mapped.operation, 'call') : undefined;
    if (seen) return this.notSentAgain(request, seen);
    try {
      return await this.dispatch(request);
    } catch (err) {
      if (!(err instanceof Abandoned)) throw err;
      // Sent, and given up on once the operation was found faulted: the evidence says so, as no exchange.
      this.writer.write({
        kind: 'note',
        topic: OPERATION_FAULTED,
        message:
          `${spec.method} ${redactSecrets(url.toString())} given up after ${err.durationMs} ms: ` +
          describeFault(err.seen),
        test: this.test,
        at: new Date().toISOString(),
      });
      return this.notSentAgain(request, err.seen);
    }
  }

  /** Sends a prepared request (again after a 429), records and judges the answer; throws a fault unless allowed. */
  private async dispatch(request: PreparedRequest): Promise<Exchange> {
    const { spec, timeoutMs } = request;
    // Rate limiting is legal (§8: rate limits not shown): a 429 is recorded, its Retry-After honoured
    // (bounded), and only the answer after it is judged, so no test fails for having been throttled.
    const first = performance.now();
    let exchange = await this.attempt(request);
    for (let tries = 1; exchange.status === 429 && tries < RATE_LIMIT_ATTEMPTS; tries++) {
      const waitMs = retryAfterMs(exchange.headers['retry-after']);
      if (waitMs === undefined || performance.now() - first + waitMs >= timeoutMs) break;
      this.writer.write(exchange.record);
      this.judge(exchange, false, spec.openPoint);
      this.verdict.observe(
        'LIMIT-RATE',
        `${exchange.operation ?? spec.method} answered 429`,
        `Retry-After ${exchange.headers['retry-after'] ?? '(none)'}; retried after ${waitMs} ms`,
        exchange.record.id,
      );
      await new Promise((r) => setTimeout(r, waitMs));
      exchange = await this.attempt(request);
    }
    this.writer.write(exchange.record);
    this.judge(exchange, true, spec.openPoint);
    if (spec.judgeFaults !== false) this.judgeFault(exchange);
    if (request.remembers && exchange.fault) exchange.faulted = this.remember(exchange, timeoutMs);

    if (exchange.fault && !spec.allowFault) {
      this.stopCited(exchange);
      // A fault the run remembers reads the same in every test it stops: its name comes first.
      const named = exchange.faulted ? `${describeFault(exchange.faulted)}\n` : '';
      throw new TransportFault(
        exchange.fault.kind,
        `${named}${spec.method} ${spec.path}: ${exchange.fault.message}\nreproduce: ${exchange.record.curl}`,
        exchange,
      );
    }
    return exchange;
  }

  /**
   * Remembers for the rest of the run an operation whose call cost the deadline (no answer, or a body
   * slower than it) or broke off: later calls would only wait again, or repeat the finding. A deadline
   * shorter than the run's own says nothing of how the operation answers others, and a body over the
   * harness's size cap or a refused connection costs no wait. Returns the fault in force (the first seen).
   */
  private remember(ex: Exchange, timeoutMs: number): FaultSeen | undefined {
    const { kind, message } = ex.fault!;
    const target = TARGET_FAULTS.has(kind);
    if (!target && !(kind === 'timeout' && timeoutMs >= this.config.requestTimeoutMs)) return undefined;
    const operation = ex.operation!;
    const { prefix, listedStatuses } = operationInfo(operation);
    const clause = target ? `${prefix}-HTTP-STATUS-LISTED` : undefined;
    const inForce = faultsSeen(this.config.evidenceDir).record({
      operation,
      scope: 'call',
      kind,
      message,
      ...(clause ? { clause } : {}),
      exchangeId: ex.record.id,
      at: new Date().toISOString(),
    });
    // The clauses judged on every answer of the operation get no answer of it any more: the fault that
    // took them away is their reason, said once, by the call that met it (a verdict outranks it).
    if (inForce.exchangeId === ex.record.id) {
      const lost = new Set(listedStatuses.flatMap((status) => clausesCheckedFor(operation, status)));
      for (const id of lost) if (id !== clause) this.verdict.notRun(id, describeFault(inForce));
    }
    return inForce;
  }

  /**
   * A call of an operation that already faulted in this run: answered at once, nothing sent, nothing
   * recorded as an exchange (the evidence is the exchange that showed the fault, whose id it carries).
   * Thrown like the fault itself unless the caller takes faults as answers.
   */
  private notSentAgain(r: PreparedRequest, seen: FaultSeen): Exchange {
    const fault = { kind: OPERATION_FAULTED, message: describeFault(seen) };
    const exchange: Exchange = {
      record: {
        kind: 'exchange',
        id: seen.exchangeId ?? `${process.pid}-${++sequence}`,
        test: this.test,
        at: new Date().toISOString(),
        label: r.spec.label,
        tenant: this.tenant.name,
        method: r.spec.method,
        url: redactSecrets(r.url.toString()),
        operation: seen.operation,
        request: { headers: redactHeaders(r.headers), bodyBytes: r.bodyBytes },
        fault,
        violations: [],
        durationMs: 0,
        curl: curlFor(
          { method: r.spec.method, url: r.url.toString(), headers: r.headers, body: r.repro },
          this.config.baseUrl,
        ),
      },
      headers: {},
      text: '',
      operation: seen.operation,
      violations: [],
      fault,
      faulted: seen,
    };
    if (r.spec.allowFault) return exchange;
    this.stopCited(exchange);
    throw new TransportFault(OPERATION_FAULTED, fault.message, exchange);
  }

  /**
   * A fault that is thrown ends the test that met it: the clauses the test cites are stopped by it, in
   * the same words wherever it stops something — blocked by the clause the fault failed (which another
   * worker may have recorded, out of this test's sight), or "not run" at the harness's limit. A clause
   * the test judged already keeps that result: a result outranks a stop.
   */
  private stopCited(ex: Exchange): void {
    if (!ex.faulted || !this.test) return;
    const { clause } = ex.faulted;
    const { reason } = faultStop(ex)!;
    for (const id of citedRequirements(this.test.title)) {
      if (id === clause) continue;
      if (clause) this.verdict.blocked(id, clause, reason);
      else this.verdict.notRun(id, reason);
    }
  }

  /** One request/response: read with a size cap under one deadline, contract-checked, recorded (not yet written). */
  private async attempt(r: PreparedRequest): Promise<Exchange> {
    const { spec, url, headers, timeoutMs, mapped } = r;
    const id = `${process.pid}-${++sequence}`;
    const started = performance.now();
    const exchange: Exchange = {
      record: undefined as unknown as ExchangeRecord,
      headers: {},
      text: '',
      operation: mapped?.operation,
      violations: [],
    };
    let response: ExchangeRecord['response'];
    let res: Response | undefined;
    const progress = { bytes: 0 };
    // One controller for both ways a call ends early, held strongly by its deadline's timer. (AbortSignal.any
    // holds its sources weakly, as AbortSignal.timeout's timer holds its signal: combined, a deadline can be
    // collected before it fires, and the call then hangs.)
    const stop = new AbortController();
    const deadline = setTimeout(
      () => stop.abort(new DOMException(`no complete response within ${timeoutMs} ms`, 'TimeoutError')),
      timeoutMs,
    );
    // Another call of the operation may fault while this one waits (calls go side by side, and workers run
    // at once): then this one waits no longer, and ends as a call of a faulted operation.
    let faultedMeanwhile: FaultSeen | undefined;
    const watch =
      r.remembers && mapped
        ? setInterval(() => {
            faultedMeanwhile = faultsSeen(this.config.evidenceDir).find(mapped.operation, 'call');
            if (faultedMeanwhile) stop.abort(new DOMException('its operation faulted meanwhile', 'AbortError'));
          }, WATCH_MS)
        : undefined;
    try {
      res = await fetch(url, {
        method: spec.method,
        headers: r.sendHeaders,
        body: r.body,
        redirect: 'manual',
        signal: stop.signal,
      });
      const read = await readCapped(res, this.config.maxBodyBytes, progress);
      exchange.status = res.status;
      res.headers.forEach((value, name) => {
        exchange.headers[name] = value;
      });
      exchange.text = Buffer.from(read.bytes).toString('utf8');
      response = {
        status: res.status,
        headers: redactHeaders(exchange.headers),
        bodyExcerpt: redactSecrets(excerpt(exchange.text)),
        bodyBytes: read.total,
        truncated: read.truncated,
      };
      if (read.truncated)
        exchange.fault = {
          kind: 'body-too-large',
          message: `response body exceeds ${this.config.maxBodyBytes} bytes (WFCHECK_MAX_BODY_BYTES); reading stopped`,
        };
    } catch (err) {
      if ((stop.signal.reason as DOMException | undefined)?.name === 'AbortError' && faultedMeanwhile)
        throw new Abandoned(faultedMeanwhile, Math.round(performance.now() - started));
      // Once the status line is in, a break is the body ending early, not a connection never made.
      exchange.fault = res
        ? classifyBodyFault(err, timeoutMs, res.status, progress.bytes)
        : classifyFault(err, timeoutMs);
    } finally {
      clearTimeout(deadline);
      clearInterval(watch);
    }
    const durationMs = Math.round(performance.now() - started);

    if (exchange.status !== undefined && !exchange.fault) {
      try {
        exchange.json = JSON.parse(exchange.text);
        exchange.parsed = true;
      } catch {
        exchange.json = undefined;
      }
      if (mapped)
        exchange.violations = checkResponse({
          operation: mapped.operation,
          status: exchange.status,
          headers: exchange.headers,
          body: exchange.text,
        });
    }

    exchange.record = {
      kind: 'exchange',
      id,
      test: this.test,
      at: new Date().toISOString(),
      label: spec.label,
      tenant: this.tenant.name,
      method: spec.method,
      url: redactSecrets(url.toString()),
      operation: mapped?.operation,
      request: {
        headers: redactHeaders(headers),
        bodyExcerpt:
          r.bodyText !== undefined
            ? redactSecrets(excerpt(r.bodyText))
            : r.repro?.kind === 'multipart'
              ? `(multipart: ${r.repro.files.map((f) => `${f.name} ${f.bytes} B ${f.type}`).join(', ')})`
              : undefined,
        bodyBytes: r.bodyBytes,
      },
      response,
      fault: exchange.fault,
      violations: exchange.violations.map((v) => ({ ...v, actual: redactSecrets(v.actual) })),
      durationMs,
      curl: curlFor({ method: spec.method, url: url.toString(), headers, body: r.repro }, this.config.baseUrl),
    };
    return exchange;
  }

  /**
   * Turns contract findings into verdicts; clean responses credit the clauses they were checked against,
   * given the kind of body they carried (one that did not parse is evidence for nothing that needs a
   * body). A rate-limited answer that was retried credits nothing. In the answer to a probe of an open
   * point, an unlisted status is that point's observation, not a failure of the status clause.
   */
  private judge(ex: Exchange, credit: boolean, openPoint: string | undefined): void {
    if (!ex.operation || ex.status === undefined || ex.fault) return;
    this.judgeKeyNotEchoed(ex, credit);
    const failed = new Set<string>();
    for (const v of ex.violations) {
      failed.add(v.requirementId);
      if (openPoint && v.requirementId.endsWith('-HTTP-STATUS-LISTED')) {
        this.verdict.observe(openPoint, `${ex.operation} status`, ex.status, ex.record.id);
        continue;
      }
      this.verdict.contract(
        v.requirementId,
        v.level,
        false,
        { message: v.message, expected: v.expected, actual: v.actual, exchangeId: ex.record.id },
        `${ex.operation} ${ex.status}`,
      );
    }
    if (!credit) return;
    const body = bodyKindOf(ex.json, ex.parsed ? undefined : 'not JSON');
    for (const id of clausesCheckedFor(ex.operation, ex.status, body)) {
      if (failed.has(id) || this.credited.has(id)) continue;
      this.credited.add(id);
      this.verdict.contract(id, levelOf(id) ?? 'must', true, {
        message: `${ex.operation} ${ex.status} response conforms`,
        exchangeId: ex.record.id,
      });
    }
  }

  /**
   * KEY-NOT-ECHOED on every answer: neither key in use may come back in the body or a header. Keys too
   * short to be told from ordinary text are not looked for (nor redacted). The evidence never holds the key: the exchange
   * is recorded redacted, and the check names it only as "the key".
   */
  private judgeKeyNotEchoed(ex: Exchange, credit: boolean): void {
    const echoed = carriesKey(ex, [this.tenant.apiKey, this.config.apiKey, this.config.apiKeyB]);
    if (!echoed && (!credit || this.credited.has(KEY_NOT_ECHOED))) return;
    if (!echoed) this.credited.add(KEY_NOT_ECHOED);
    this.verdict.check(
      KEY_NOT_ECHOED,
      !echoed,
      {
        message: `${ex.operation} ${ex.status} answer ${echoed ? 'carries' : 'does not carry'} the API key`,
        expected: 'no API key in the answer',
        actual: echoed ? 'the API key (redacted here)' : 'none',
        exchangeId: ex.record.id,
      },
      'should',
      'contract',
    );
  }

  /**
   * A transport fault of the target's own making (reset, malformed answer, body cut short) is its
   * deviation: no listed status came back. Recorded as an explicit failure of the operation's status
   * clause with the exchange as evidence; the harness's own limits are not judged here.
   */
  private judgeFault(ex: Exchange): void {
    if (!ex.operation || !ex.fault || !TARGET_FAULTS.has(ex.fault.kind)) return;
    const { prefix, listedStatuses } = operationInfo(ex.operation);
    this.verdict.check(
      `${prefix}-HTTP-STATUS-LISTED`,
      false,
      {
        message: `${ex.operation} got no listed status: ${ex.fault.kind}`,
        expected: `one of ${listedStatuses.join(', ')}`,
        actual: `${ex.fault.kind}: ${ex.fault.message}`,
        exchangeId: ex.record.id,
      },
      'must',
      'contract',
    );
  }

  private saveBody(text: string): string {
    const name = `${createHash('sha1').update(text).digest('hex').slice(0, 16)}.txt`;
    const dir = join(dirname(this.config.evidenceDir), 'bodies');
    const path = join(dir, name);
    if (!existsSync(path)) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path, redactSecrets(text));
    }
    return path;
  }

  // ---- the eight operations (ids are encoded as one path segment) ----

  run(canvasId: string, body: unknown, extra: Partial<RequestSpec> = {}): Promise<Exchange> {
    return this.send({
      method: 'POST',
      path: `/openapi/workflow/${seg(canvasId)}/run`,
      json: body,
      label: 'run',
      ...extra,
    });
  }
  abort(executionId: string, extra: Partial<RequestSpec> = {}): Promise<Exchange> {
    return this.send({ method: 'POST', path: `/openapi/workflow/${seg(executionId)}/abort`, label: 'abort', ...extra });
  }
  status(executionId: string, extra: Partial<RequestSpec> = {}): Promise<Exchange> {
    return this.send({
      method: 'GET',
      path: `/openapi/workflow/${seg(executionId)}/status`,
      label: 'status',
      ...extra,
    });
  }
  output(executionId: string, extra: Partial<RequestSpec> = {}): Promise<Exchange> {
    return this.send({
      method: 'GET',
      path: `/openapi/workflow/${seg(executionId)}/output`,
      label: 'output',
      ...extra,
    });
  }
  search(query: Record<string, string | number | undefined> = {}, extra: Partial<RequestSpec> = {}): Promise<Exchange> {
    return this.send({ method: 'GET', path: '/openapi/workflows', query, label: 'search', ...extra });
  }
  detail(canvasId: string, extra: Partial<RequestSpec> = {}): Promise<Exchange> {
    return this.send({ method: 'GET', path: `/openapi/workflows/${seg(canvasId)}`, label: 'detail', ...extra });
  }
  upload(files: FileSpec[], extra: Partial<RequestSpec> = {}): Promise<Exchange> {
    return this.send({
      method: 'POST',
      path: '/openapi/files/upload',
      multipart: { files },
      label: 'upload',
      ...extra,
    });
  }
  generate(body: unknown, extra: Partial<RequestSpec> = {}): Promise<Exchange> {
    return this.send({
      method: 'POST',
      path: '/openapi/copilot/workflow/generate',
      json: body,
      label: 'generate',
      ...extra,
    });
  }
}
