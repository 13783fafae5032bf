/**
 * One request on the wire, built to survive hostile targets and to read what a careful one says:
 *
 * - one deadline covers connecting, the status line and the whole body; the body is read with a size
 *   cap; a fault keeps its cause (refused, reset, malformed answer, body cut short) so a failure names it;
 * - an answer that comes before the request body is written (a 401 read off the headers, a 400 or 413 for
 *   a declared length over a limit, as hyper, many proxies and load balancers give) is the answer: the
 *   body stops being written and what came is read. A large body is announced with `Expect: 100-continue`
 *   so that such a server can answer before any of it is sent; one that ignores the expectation gets the
 *   body after a short wait, as curl does. "No answer" is only when none arrived.
 *
 * Node's http module is used rather than fetch: fetch gives up on the whole exchange when writing the
 * body fails, even when the answer is already in (write EPIPE after an early 401), and it cannot send a
 * header twice.
 */
import type http from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { targetConnection } from '../connection/connection.ts';
import { tlsFailureLine, tlsFailureOf } from '../connection/tls-failure.ts';
import type { TransportFaultInfo } from './exchange.ts';
import type { PreparedRequest } from './request.ts';

export interface Answer {
  /** Undefined when no status line came. */
  status?: number;
  headers: Record<string, string>;
  text: string;
  /** Bytes of the body received (before decoding), the part past the cap included. */
  bodyBytes: number;
  truncated: boolean;
  fault?: TransportFaultInfo;
  durationMs: number;
}

export interface WireOptions {
  maxBodyBytes: number;
  /** Looked at while the call waits: a reason to give it up (its operation faulted meanwhile), or undefined. */
  giveUpWhen?: () => unknown;
}

/** The call was given up on while awaiting its answer: `reason` (what giveUpWhen returned). */
export class Abandoned extends Error {
  constructor(
    readonly reason: unknown,
    readonly durationMs: number,
  ) {
    super('given up while awaiting its answer');
  }
}

/** Bodies of this size or more are announced with Expect: 100-continue. */
const EXPECT_CONTINUE_FROM = 64 * 1024;
/** How long a server that ignores the expectation is waited for before the body is sent anyway (curl: 1 s). */
const CONTINUE_WAIT_MS = 1_000;
const CHUNK = 16 * 1024;
/** How often a call awaiting its answer looks whether it should give up. */
const WATCH_MS = 250;
/**
 * How long the second try of a call whose body could not be written waits, its head sent alone, for an
 * answer before it sends the body: a server that answers on the head (a 401, a declared length over a
 * limit) is heard before a byte of the body could make it reset the connection.
 */
const HEAD_FIRST_WAIT_MS = 1_000;

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

function classify(err: NodeJS.ErrnoException, timeoutMs: number): TransportFaultInfo {
  const code = err.code ?? '';
  const detail = err.message;
  if (err.name === 'TimeoutError') return { kind: 'timeout', message: `no complete response within ${timeoutMs} ms` };
  if (code === 'ECONNREFUSED') return { kind: 'connection-refused', message: `connection refused (${detail})` };
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED')
    return { kind: 'connection-reset', message: `connection reset or closed mid-response (${code}: ${detail})` };
  if (code.startsWith('HPE_'))
    return { kind: 'protocol-error', message: `malformed HTTP response (${code}: ${detail})` };
  // The harness's way to the target, not the target's answer: named with the setting that fixes it.
  if (code === 'EPROXY') return { kind: 'proxy-error', message: detail };
  const tls = tlsFailureOf(`${code} ${detail}`);
  if (tls) return { kind: 'tls-error', message: `${tlsFailureLine(tls)} (${code || detail})` };
  return { kind: 'network-error', message: `${code ? `${code}: ` : ''}${detail}` };
}

/** A fault met once the status line was in: the body slower than the deadline, or cut short. */
function classifyBody(
  err: NodeJS.ErrnoException,
  timeoutMs: number,
  status: number,
  bytes: number,
): TransportFaultInfo {
  if (err.name === 'TimeoutError')
    return {
      kind: 'timeout',
      message: `the ${status} response began, but its body was not complete within ${timeoutMs} ms (${bytes} bytes read)`,
    };
  const fault = classify(err, timeoutMs);
  if (fault.kind === 'protocol-error') return fault;
  return {
    kind: 'incomplete-body',
    message: `the ${status} response ended before its body was complete (${fault.message})`,
  };
}

/** A body as its Content-Encoding says; one that does not decode is judged as it came. */
export function decodeBody(bytes: Buffer, encoding: string | undefined): Buffer {
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(bytes);
    if (encoding === 'deflate') return inflateSync(bytes);
    if (encoding === 'br') return brotliDecompressSync(bytes);
  } catch {
    // A body that does not decode is judged as it came.
  }
  return bytes;
}

function headersOf(res: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

interface Exchanging {
  res?: http.IncomingMessage;
  chunks: Buffer[];
  bytes: number;
  truncated: boolean;
  /** A byte of the body was handed to the socket: a reset before any answer may have cost an answer already sent. */
  bodyStarted: boolean;
}

/** Writes the body in chunks, yielding between them so an answer that comes meanwhile is read; stops once one has. */
async function writeBody(req: http.ClientRequest, body: Buffer | undefined, state: Exchanging): Promise<void> {
  if (!body || body.length === 0) {
    req.end();
    return;
  }
  for (let at = 0; at < body.length; at += CHUNK) {
    if (state.res || req.destroyed) return;
    state.bodyStarted = true;
    await new Promise<void>((resolve) => req.write(body.subarray(at, at + CHUNK), () => resolve()));
    await tick();
  }
  if (!state.res && !req.destroyed) req.end();
}

/**
 * Waits for the server's final answer, the wait's end or the connection's close, whichever comes first;
 * with `goAhead`, also for its go-ahead (100 Continue).
 */
function answerOrWait(req: http.ClientRequest, state: Exchanging, waitMs: number, goAhead: boolean): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      req.off('continue', done);
      req.off('response', done);
      req.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, waitMs);
    if (goAhead) req.once('continue', done);
    req.once('response', done);
    req.once('close', done);
    if (state.res) done();
  });
}

/**
 * How a call sends its body: `announced` (bodies of 64 KiB or more ask for 100 Continue first), or
 * `head-first` (the head alone, then a wait for an answer: the second try of a call whose body could not
 * be written, on a fresh connection).
 */
type Sending = 'announced' | 'head-first';

type Attempt = Answer & { reusedSocket: boolean; bodyStarted: boolean };

/** One attempt of a request: the wire, the deadline, the watch, and how the answer is read and settled. */
class Call {
  private readonly started = performance.now();
  private readonly state: Exchanging = { chunks: [], bytes: 0, truncated: false, bodyStarted: false };
  private readonly req: http.ClientRequest;
  private readonly expect: boolean;
  private readonly headFirst: boolean;
  private settled = false;
  private deadline?: NodeJS.Timeout;
  private watch?: NodeJS.Timeout;

  constructor(
    private readonly r: PreparedRequest,
    private readonly opts: WireOptions,
    private readonly resolve: (a: Attempt) => void,
    private readonly reject: (e: unknown) => void,
    sending: Sending,
  ) {
    const headers: Record<string, string | string[]> = { ...r.sendHeaders };
    this.headFirst = sending === 'head-first' && (r.body?.length ?? 0) > 0;
    this.expect = !this.headFirst && (r.body?.length ?? 0) >= EXPECT_CONTINUE_FROM;
    if (r.body) headers['content-length'] = String(r.body.length);
    if (this.expect) headers.expect = '100-continue';
    // Direct or through the egress proxy, with the trust and client certificate of the settings; the second
    // try goes on a connection of its own: none the first one's server may have closed.
    const route = targetConnection().route(r.url, sending === 'head-first');
    this.req = route.client.request({
      ...route.options,
      method: r.spec.method,
      headers: { ...headers, ...route.headers },
    });
  }

  start(): void {
    this.deadline = setTimeout(() => {
      this.fail(
        Object.assign(new Error(`no complete response within ${this.r.timeoutMs} ms`), { name: 'TimeoutError' }),
      );
      this.req.destroy();
    }, this.r.timeoutMs);
    if (this.opts.giveUpWhen) this.watch = setInterval(() => this.look(), WATCH_MS);
    this.req.on('response', (res) => this.answered(res));
    this.req.on('error', (err) => this.fail(err));
    this.send().catch((err) => this.fail(err));
  }

  /** Gives the call up when the reason to (its operation faulted meanwhile) appears. */
  private look(): void {
    const reason = this.opts.giveUpWhen?.();
    if (reason === undefined || this.settled) return;
    this.settle();
    this.req.destroy();
    this.reject(new Abandoned(reason, Math.round(performance.now() - this.started)));
  }

  private async send(): Promise<void> {
    if (this.expect || this.headFirst) {
      this.req.flushHeaders();
      await answerOrWait(this.req, this.state, this.headFirst ? HEAD_FIRST_WAIT_MS : CONTINUE_WAIT_MS, this.expect);
    }
    await writeBody(this.req, this.r.body, this.state);
  }

  private answered(res: http.IncomingMessage): void {
    this.state.res = res;
    res.on('data', (chunk: Buffer) => this.read(chunk));
    res.on('end', () => this.finish());
    res.on('error', (err) => this.fail(err));
    res.on('aborted', () => this.fail(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
  }

  /** A chunk of the body, kept up to the size cap; past it, reading stops. */
  private read(chunk: Buffer): void {
    const state = this.state;
    state.bytes += chunk.length;
    if (state.truncated) return;
    const room = this.opts.maxBodyBytes - (state.bytes - chunk.length);
    if (chunk.length <= room) {
      state.chunks.push(chunk);
      return;
    }
    state.chunks.push(chunk.subarray(0, Math.max(0, room)));
    state.truncated = true;
    this.finish({
      kind: 'body-too-large',
      message: `response body exceeds ${this.opts.maxBodyBytes} bytes (WFCHECK_MAX_BODY_BYTES); reading stopped`,
    });
    this.req.destroy();
  }

  private fail(err: NodeJS.ErrnoException): void {
    if (this.settled) return;
    const res = this.state.res;
    if (res?.complete) {
      this.finish();
      return;
    }
    // An answer may be on its way when writing the body fails: it is read before the call is judged unanswered.
    if (!res) {
      void tick().then(() => (this.state.res ? undefined : this.finish(classify(err, this.r.timeoutMs))));
      return;
    }
    this.finish(classifyBody(err, this.r.timeoutMs, res.statusCode ?? 0, this.state.bytes));
  }

  private settle(): void {
    this.settled = true;
    clearTimeout(this.deadline);
    clearInterval(this.watch);
  }

  private finish(fault?: TransportFaultInfo): void {
    if (this.settled) return;
    this.settle();
    // A body left half-written (the answer came first) leaves a connection nobody can reuse.
    if (!this.req.writableEnded) this.req.destroy();
    const { res, chunks, truncated, bytes } = this.state;
    const raw = Buffer.concat(chunks);
    const body = truncated ? raw : decodeBody(raw, res?.headers['content-encoding']);
    this.resolve({
      status: res?.statusCode,
      headers: res ? headersOf(res) : {},
      text: body.toString('utf8'),
      bodyBytes: bytes,
      truncated,
      ...(fault ? { fault } : {}),
      durationMs: Math.round(performance.now() - this.started),
      reusedSocket: this.req.reusedSocket,
      bodyStarted: this.state.bodyStarted,
    });
  }
}

function attemptOnce(r: PreparedRequest, opts: WireOptions, sending: Sending): Promise<Attempt> {
  return new Promise((resolve, reject) => new Call(r, opts, resolve, reject, sending).start());
}

/**
 * Sends a prepared request and reads its answer. A connection reset before any status line came is no
 * answer yet when it may have cost one: a keep-alive connection the server closed while it sat idle, or
 * a body still being written when the server answered early and closed (the reset that the unread body
 * provokes can reach the socket before the answer is read). Such a call is tried once more, on a fresh
 * connection, its head sent alone first, so that an answer given on the head is read before any of the
 * body is written; only then is it "no answer".
 */
export async function sendOnce(r: PreparedRequest, opts: WireOptions): Promise<Answer> {
  const first = await attemptOnce(r, opts, 'announced');
  const unanswered = first.status === undefined && first.fault?.kind === 'connection-reset';
  const again = unanswered && (first.reusedSocket || first.bodyStarted);
  const { reusedSocket: _, bodyStarted: __, ...answer } = again ? await attemptOnce(r, opts, 'head-first') : first;
  return answer;
}
