/**
 * A request whose HTTP framing is broken on purpose, written byte by byte on a connection of its own:
 * Node's http client frames every body itself, so it cannot send a chunk size that is not hexadecimal, a
 * chunk size of sixteen hex digits, a chunked body cut short or a Content-Length larger than the body.
 *
 * The request is the one the caller prepared (URL, headers, body), only its framing changed. The answer is
 * read as the wire reads every answer (status line, headers, body under the size cap, one deadline) and
 * handed back as the same Answer: the client records and judges it like any other.
 *
 * What HTTP asks of the server decides how the request is written and what a close means:
 * - a message cut short (a chunked body or a Content-Length cut short, and a chunk size of sixteen hex
 *   digits, valid syntax announcing 2^64−1 bytes that never come) is incomplete: the connection is
 *   half-closed once it is written, so a server still waiting for body bytes sees that none will come, and
 *   a close without an answer is what RFC 9112 §8 allows ("MAY send an error response prior to closing");
 * - a message that is whole but malformed (a chunk size that is not hexadecimal) is left open after it is
 *   written, and its answer waited for within the deadline: half-closing it would provoke the close it then
 *   judged. RFC 9112 §2.2 recommends a 400 (SHOULD), and does not require one: a close without an answer is
 *   the HTTP layer's lawful refusal too.
 * Either way such a close is a fault of no one (`closed-unanswered`), recorded under HTTP-LAYER-REFUSAL; a
 * 5xx is still the operation's failure.
 */
import type net from 'node:net';
import { targetConnection } from '../connection/connection.ts';
import { tlsFailureLine, tlsFailureOf } from '../connection/tls-failure.ts';
import type { Framing, TransportFaultInfo } from './exchange.ts';
import { decodeBody, type Answer, type WireOptions } from './http.ts';
import type { PreparedRequest } from './request.ts';

export type { Framing } from './exchange.ts';

/** Every broken framing, in the order a probe tries them. */
export const FRAMINGS: readonly Framing[] = [
  'chunk-size-not-hex',
  'chunk-size-16-digits',
  'chunked-cut-short',
  'length-cut-short',
];

/** The fault of a connection closed without an answer to a request framed wrong on purpose: nobody's failure. */
export const CLOSED_UNANSWERED = 'closed-unanswered';

/** Body bytes a cut-short request announces beyond those it sends. */
const MISSING = 16;
/** Headers the framing decides: whatever the caller set for them is replaced. */
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'expect', 'host']);

/**
 * Whether the message is incomplete: its body ends before the length it announced (a chunk of 2^64−1 bytes
 * included). Only a chunk size that is not hexadecimal makes a message that is whole but malformed.
 */
export function incomplete(framing: Framing): boolean {
  return framing !== 'chunk-size-not-hex';
}

/** The words of RFC 9112 that make a close without an answer lawful for this framing. */
export function lawfulClose(framing: Framing): string {
  return incomplete(framing)
    ? 'RFC 9112 §8: a server that receives an incomplete request "MAY send an error response prior to closing the connection"'
    : 'RFC 9112 §2.2: a server receiving octets that do not match the grammar "SHOULD respond with a 400 (Bad Request) response and close the connection"; a recommendation, not a requirement';
}

/** The body as the framing writes it, with the framing headers. */
function framedBody(body: Buffer, framing: Framing): { headers: string[]; bytes: Buffer } {
  const chunked = (size: string, tail: string) => ({
    headers: ['Transfer-Encoding: chunked'],
    bytes: Buffer.concat([Buffer.from(`${size}\r\n`), body, Buffer.from(tail)]),
  });
  switch (framing) {
    case 'chunk-size-not-hex':
      return chunked('zz', '\r\n0\r\n\r\n');
    case 'chunk-size-16-digits':
      return chunked('ffffffffffffffff', '\r\n0\r\n\r\n');
    case 'chunked-cut-short':
      return chunked((body.length + MISSING).toString(16), '');
    case 'length-cut-short':
      return { headers: [`Content-Length: ${body.length + MISSING}`], bytes: body };
  }
}

/** The request as it goes on the wire: request line, the caller's headers, the framing's, and the body. */
export function framedBytes(r: PreparedRequest, framing: Framing): Buffer {
  const { headers, bytes } = framedBody(r.body ?? Buffer.alloc(0), framing);
  const lines = [`${r.spec.method} ${r.url.pathname}${r.url.search} HTTP/1.1`, `Host: ${r.url.host}`];
  for (const [name, value] of Object.entries(r.sendHeaders)) {
    if (FRAMING_HEADERS.has(name.toLowerCase())) continue;
    for (const one of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${one}`);
  }
  lines.push(...headers, 'Connection: close');
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), bytes]);
}

interface Head {
  status: number;
  headers: Record<string, string>;
  /** Where the body starts in the bytes read. */
  at: number;
}

/** The final (non-1xx) status line and headers in `bytes`, once whole. */
function headOf(bytes: Buffer): Head | undefined {
  let from = 0;
  for (;;) {
    const end = bytes.indexOf('\r\n\r\n', from);
    if (end < 0) return undefined;
    const [line = '', ...fields] = bytes.subarray(from, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(line)?.[1] ?? Number.NaN);
    if (Number.isNaN(status)) throw new Error(`malformed status line: ${JSON.stringify(line.slice(0, 80))}`);
    if (status >= 200 || status < 100) {
      const headers: Record<string, string> = {};
      for (const f of fields) {
        const colon = f.indexOf(':');
        if (colon <= 0) continue;
        const name = f.slice(0, colon).trim().toLowerCase();
        const value = f.slice(colon + 1).trim();
        headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
      }
      return { status, headers, at: end + 4 };
    }
    from = end + 4;
  }
}

/** A chunked body decoded, or undefined while its last chunk has not come. */
function unchunked(bytes: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = bytes.indexOf('\r\n', at);
    if (eol < 0) return undefined;
    const size = Number.parseInt(bytes.subarray(at, eol).toString('latin1').split(';')[0]!.trim(), 16);
    if (Number.isNaN(size)) throw new Error('malformed chunk size in the answer');
    if (size === 0) return Buffer.concat(parts);
    if (bytes.length < eol + 2 + size + 2) return undefined;
    parts.push(bytes.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/** The body of an answer once complete (by its length, its chunks, or the close), else undefined. */
function bodyOf(head: Head, bytes: Buffer, closed: boolean): Buffer | undefined {
  const rest = bytes.subarray(head.at);
  if (/chunked/i.test(head.headers['transfer-encoding'] ?? '')) return unchunked(rest);
  const length = head.headers['content-length'];
  if (length !== undefined) return rest.length >= Number(length) ? rest.subarray(0, Number(length)) : undefined;
  if (head.status === 204 || head.status === 304) return Buffer.alloc(0);
  return closed ? rest : undefined;
}

/** One framed request on its own connection: written (half-closed when incomplete), its answer read under the deadline. */
class FramedCall {
  private readonly started = performance.now();
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  private settled = false;
  /** Whether the request reached the server: an error before that is no answer of the server's at all. */
  private connected = false;
  private socket?: net.Socket;
  private readonly deadline: NodeJS.Timeout;

  constructor(
    r: PreparedRequest,
    private readonly framing: Framing,
    private readonly opts: WireOptions,
    private readonly resolve: (a: Answer) => void,
  ) {
    this.deadline = setTimeout(
      () => this.finish({ kind: 'timeout', message: `no complete response within ${r.timeoutMs} ms` }),
      r.timeoutMs,
    );
    // The connection of the settings: TLS with their trust and client certificate, direct or through the
    // egress proxy's tunnel; the bytes are written once it is ready.
    targetConnection()
      .open(r.url, { timeoutMs: r.timeoutMs })
      .then(
        (socket) => this.opened(socket, r),
        (err: NodeJS.ErrnoException) => this.notOpened(err),
      );
  }

  private opened(socket: net.Socket, r: PreparedRequest): void {
    this.socket = socket;
    if (this.settled) {
      socket.destroy();
      return;
    }
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('end', () => this.closed());
    socket.on('error', (err: NodeJS.ErrnoException) => this.failed(err));
    this.connected = true;
    const bytes = framedBytes(r, this.framing);
    if (incomplete(this.framing)) socket.end(bytes);
    else socket.write(bytes);
  }

  /** No connection to write on: the proxy's refusal and a TLS failure are the harness's limits, said with their fix. */
  private notOpened(err: NodeJS.ErrnoException): void {
    const tls = tlsFailureOf(`${err.code ?? ''} ${err.message}`);
    if (err.code === 'EPROXY') this.finish({ kind: 'proxy-error', message: err.message });
    else if (tls) this.finish({ kind: 'tls-error', message: `${tlsFailureLine(tls)} (${err.code ?? err.message})` });
    else if (err.name === 'TimeoutError') this.finish({ kind: 'timeout', message: err.message });
    else this.failed(err);
  }

  private read(chunk: Buffer): void {
    this.bytes += chunk.length;
    this.chunks.push(chunk);
    if (this.bytes > this.opts.maxBodyBytes + 64 * 1024) {
      const message = `response body exceeds ${this.opts.maxBodyBytes} bytes (WFCHECK_MAX_BODY_BYTES); reading stopped`;
      this.finish({ kind: 'body-too-large', message }, true);
      return;
    }
    this.settleIfWhole(false);
  }

  private closed(): void {
    if (this.settleIfWhole(true)) return;
    this.finish(this.unanswered('the server closed the connection'));
  }

  private failed(err: NodeJS.ErrnoException): void {
    if (err.code === 'ECONNREFUSED')
      this.finish({ kind: 'connection-refused', message: `connection refused (${err.message})` });
    else if (!this.connected) this.finish({ kind: 'network-error', message: `${err.code ?? 'error'}: ${err.message}` });
    else this.finish(this.unanswered(`${err.code ?? 'error'}: ${err.message}`));
  }

  /**
   * The fault of a connection that ended: a body cut short after its status line, or no status line at all,
   * which for a request framed wrong on purpose is the HTTP layer's lawful close (a reset included: a
   * server closing with our bytes unread sends one).
   */
  private unanswered(how: string): TransportFaultInfo {
    const head = this.headSafe();
    if (head)
      return { kind: 'incomplete-body', message: `the ${head.status} response ended before its body was complete` };
    return {
      kind: CLOSED_UNANSWERED,
      message: `${how} without an answer to a body framed ${this.framing} (${lawfulClose(this.framing)})`,
    };
  }

  private headSafe(): Head | undefined {
    try {
      return headOf(Buffer.concat(this.chunks));
    } catch {
      return undefined;
    }
  }

  /** Settles once the answer is whole; true when it did. */
  private settleIfWhole(closed: boolean): boolean {
    let head: Head | undefined;
    let body: Buffer | undefined;
    try {
      const all = Buffer.concat(this.chunks);
      head = headOf(all);
      body = head && bodyOf(head, all, closed);
    } catch (err) {
      this.finish({ kind: 'protocol-error', message: `malformed HTTP response (${(err as Error).message})` });
      return true;
    }
    if (!head || !body) return false;
    this.finish(undefined);
    return true;
  }

  private finish(fault: TransportFaultInfo | undefined, truncated = false): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.deadline);
    this.socket?.destroy();
    const all = Buffer.concat(this.chunks);
    const head = this.headSafe();
    const raw = head ? (bodyOf(head, all, true) ?? all.subarray(head.at)) : Buffer.alloc(0);
    const capped = raw.subarray(0, this.opts.maxBodyBytes);
    this.resolve({
      status: head?.status,
      headers: head?.headers ?? {},
      text: (truncated ? capped : decodeBody(capped, head?.headers['content-encoding'])).toString('utf8'),
      bodyBytes: raw.length,
      truncated,
      ...(fault ? { fault } : {}),
      durationMs: Math.round(performance.now() - this.started),
    });
  }
}

/** Sends a prepared request with its framing broken as `framing` says, and reads the answer. */
export function sendFramed(r: PreparedRequest, framing: Framing, opts: WireOptions): Promise<Answer> {
  return new Promise((resolve) => new FramedCall(r, framing, opts, resolve));
}

/**
 * A shell command that sends the same bytes (curl cannot break framing): printf into nc, the key as
 * `${API_KEY}` and the body written as printf reads it.
 */
export function framedReproducer(r: PreparedRequest, framing: Framing, key: string): string {
  const text = framedBytes(r, framing).toString('latin1');
  const printable = (s: string) =>
    s
      .replace(/\\/g, '\\\\')
      .replace(/%/g, '%%')
      .replace(/'/g, `'\\''`)
      .replace(/\r/g, '\\r')
      .replace(/\n/g, '\\n')
      .replace(/[^\x20-\x7e]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);
  const parts = text.split(key).map(printable);
  const port = r.url.port || (r.url.protocol === 'https:' ? '443' : '80');
  const sender =
    r.url.protocol === 'https:'
      ? `openssl s_client -quiet -connect ${r.url.hostname}:${port}`
      : `nc -N ${r.url.hostname} ${port}`;
  return `printf '${parts.join('%s')}'${' "${API_KEY}"'.repeat(parts.length - 1)} | ${sender}`;
}
