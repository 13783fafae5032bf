/**
 * A tunnel through an egress proxy (HTTP CONNECT, RFC 9110 §9.3.6): a connection to the proxy, the
 * CONNECT request for the target's host and port, and, once the proxy answers 2xx, the same socket
 * carrying the bytes to the target and back (TLS to the target is spoken inside it). Node's http module
 * has no proxy support; this is the small client the harness needs for it, the proxy's credentials (its
 * URL's user and password) sent as Basic and kept out of every message.
 */
import net from 'node:net';
import { registerSecret } from '../settings/redact.ts';

/** The proxy refused the tunnel, or could not be reached: the harness cannot reach the target through it. */
export class ProxyError extends Error {
  readonly code = 'EPROXY';
  constructor(
    message: string,
    /** The proxy's status, when it answered. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProxyError';
  }
}

/** How a proxy is named in messages: its host and port, never its credentials. */
export function proxyName(proxy: URL): string {
  return `${proxy.hostname}:${proxy.port || '80'}`;
}

/** The host:port of a CONNECT request (an IPv6 address in brackets). */
function authority(host: string, port: number): string {
  const bare = host.replace(/^\[|\]$/g, '');
  return `${net.isIPv6(bare) ? `[${bare}]` : bare}:${port}`;
}

/** The value of Proxy-Authorization for a proxy whose URL carries credentials; undefined without them. */
export function proxyAuthorization(proxy: URL): string | undefined {
  if (!proxy.username) return undefined;
  const user = decodeURIComponent(proxy.username);
  const password = decodeURIComponent(proxy.password);
  registerSecret(password, 'HTTPS_PROXY');
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** The proxy's answer once its head is whole: its status line, and what came after the head. */
function headOf(bytes: Buffer): { status: number; line: string; rest: Buffer } | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const line = bytes.subarray(0, bytes.indexOf('\r\n')).toString('latin1');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(line)?.[1] ?? Number.NaN);
  return { status, line, rest: bytes.subarray(end + 4) };
}

/**
 * A socket to `host:port` through `proxy`, ready for the target's bytes; rejects with a ProxyError when
 * the proxy cannot be reached, refuses, or does not answer within `timeoutMs`.
 */
export function openTunnel(proxy: URL, host: string, port: number, timeoutMs: number): Promise<net.Socket> {
  const target = authority(host, port);
  const auth = proxyAuthorization(proxy);
  return new Promise((resolve, reject) => {
    const socket = net.connect({
      host: proxy.hostname.replace(/^\[|\]$/g, ''),
      port: Number(proxy.port) || 80,
      allowHalfOpen: true,
    });
    let bytes = Buffer.alloc(0);
    const fail = (err: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    };
    const timer = setTimeout(
      () =>
        fail(
          new ProxyError(`the proxy at ${proxyName(proxy)} did not open a tunnel to ${target} within ${timeoutMs} ms`),
        ),
      timeoutMs,
    );
    socket.once('connect', () =>
      socket.write(
        `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth ? `Proxy-Authorization: ${auth}\r\n` : ''}\r\n`,
      ),
    );
    // The proxy itself cannot be reached: said as the proxy's, its code kept.
    socket.on('error', (err: NodeJS.ErrnoException) =>
      fail(
        Object.assign(
          new ProxyError(`the proxy at ${proxyName(proxy)} cannot be reached (${err.code ?? err.message})`),
          {
            cause: err,
          },
        ),
      ),
    );
    socket.on('end', () =>
      fail(
        new ProxyError(`the proxy at ${proxyName(proxy)} closed the connection before opening a tunnel to ${target}`),
      ),
    );
    const onData = (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      const head = headOf(bytes);
      if (!head) return;
      // Paused before the listener goes: what comes next is the target's, for whoever reads the socket.
      socket.pause();
      socket.off('data', onData);
      socket.removeAllListeners('end');
      socket.removeAllListeners('error');
      clearTimeout(timer);
      if (!(head.status >= 200 && head.status < 300)) {
        socket.destroy();
        reject(new ProxyError(`the proxy at ${proxyName(proxy)} refused CONNECT ${target}: ${head.line}`, head.status));
        return;
      }
      if (head.rest.length) socket.unshift(head.rest);
      resolve(socket);
    };
    socket.on('data', onData);
  });
}
