/**
 * The connection check every mode makes once, before its first request: the way to the target as the
 * settings give it (the proxy's tunnel, the TLS handshake with the trusted CAs and the client certificate),
 * and what it shows (connection-facts.ts). A failure to trust the certificate, to get through the proxy
 * or to satisfy a server that asks for a client certificate ends the run at once, in one line naming the
 * setting that fixes it, the same in every mode (tls-failure.ts); a target that does not answer at all is
 * left to the mode, which reports an unreachable target as it always has.
 *
 * Two connections: one offers h2 and http/1.1 over ALPN to see what the server offers, one asks for the
 * base address itself (no operation: nothing of the interface is judged, and no key is sent) over HTTP/1.1,
 * because a TLS-terminating proxy such as nginx answers a missing client certificate with an HTTP 400 page,
 * not with a TLS alert.
 */
import type net from 'node:net';
import type { TLSSocket } from 'node:tls';
import { targetConnection } from './connection.ts';
import type { ConnectionFacts, TlsFacts } from './connection-facts.ts';
import { tlsFailureLine, tlsFailureOf } from './tls-failure.ts';
import { ProxyError } from './tunnel.ts';

export interface ConnectionFailure {
  kind: 'tls-error' | 'proxy-error';
  /** The one line: what failed and the setting that fixes it. */
  line: string;
}

export interface ConnectionCheck {
  /** What the connection showed; undefined when the target could not be reached at all. */
  facts?: ConnectionFacts;
  failure?: ConnectionFailure;
}

/** Bytes of the base address's answer read: enough for a proxy's error page. */
const ANSWER_BYTES = 16 * 1024;

/** The failure an error shows, when it is the proxy's or the TLS layer's; undefined for any other. */
export function failureOf(err: unknown, proxyVariable: string): ConnectionFailure | undefined {
  if (err instanceof ProxyError)
    return {
      kind: 'proxy-error',
      line: `${err.message}: check ${proxyVariable} (credentials go in it as http://user:password@host:port), or list the target in NO_PROXY to go direct`,
    };
  const e = err as NodeJS.ErrnoException;
  const tls = tlsFailureOf(`${e?.code ?? ''} ${e?.message ?? String(err)}`);
  return tls ? { kind: 'tls-error', line: `${tlsFailureLine(tls)} (${e?.code ?? e?.message})` } : undefined;
}

function tlsFactsOf(socket: TLSSocket): TlsFacts {
  const peer = socket.getPeerX509Certificate();
  const line = (s: string | undefined) => (s ?? '').replace(/\n/g, ', ');
  return {
    version: socket.getProtocol() ?? 'unknown',
    alpn: socket.alpnProtocol || 'none',
    cipher: socket.getCipher()?.name ?? 'unknown',
    subject: line(peer?.subject) || 'none',
    issuer: line(peer?.issuer) || 'none',
    validTo: peer ? new Date(peer.validTo).toISOString() : new Date(0).toISOString(),
    authorized: socket.authorized,
    ...(socket.authorizationError ? { authorizationError: String(socket.authorizationError) } : {}),
  };
}

/** The base address asked for over HTTP/1.1 without a key: the status line and the start of the answer. */
function askBase(socket: net.Socket, url: URL, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => done(), timeoutMs);
    const done = (err?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (err && !text) reject(err);
      else resolve(text);
    };
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.length >= ANSWER_BYTES) done();
    });
    socket.on('end', () => done());
    socket.on('error', (err) => done(err));
    socket.write(`GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: */*\r\nConnection: close\r\n\r\n`);
  });
}

/** Checks the way to the target of `baseUrl` with this process's connection; never throws for the target's sake. */
export async function checkConnection(baseUrl: string, timeoutMs = 10_000): Promise<ConnectionCheck> {
  const connection = targetConnection();
  const url = new URL(baseUrl);
  const s = connection.settings;
  const proxy = connection.proxyOf(url);
  const names = s.proxies.names ?? { httpsProxy: 'HTTPS_PROXY', httpProxy: 'HTTP_PROXY' };
  const proxyVariable = url.protocol === 'https:' ? names.httpsProxy : names.httpProxy;
  const facts: ConnectionFacts = {
    baseUrl,
    scheme: url.protocol === 'https:' ? 'https' : 'http',
    ...(proxy ? { proxy: `${proxy.hostname}:${proxy.port || '80'}` } : {}),
    ...(connection.tls.client ? { clientCertificate: connection.tls.client.subject } : {}),
    ...(s.caFile ? { caFile: s.caFile } : {}),
    ...(s.extraCaFile ? { extraCaFile: s.extraCaFile } : {}),
    insecure: s.insecure,
    seenAt: new Date().toISOString(),
  };
  if (url.protocol !== 'https:') return { facts };
  try {
    const offered = (await connection.open(url, { timeoutMs, alpn: ['h2', 'http/1.1'] })) as TLSSocket;
    facts.tls = tlsFactsOf(offered);
    offered.destroy();
    const answer = await askBase(await connection.open(url, { timeoutMs, alpn: ['http/1.1'] }), url, timeoutMs);
    // A proxy's page in place of an alert (nginx: 400 "No required SSL certificate was sent").
    const refused = /^HTTP\/1\.[01] 4\d\d/.test(answer) ? tlsFailureOf(answer) : undefined;
    if (refused) {
      const page = /<title>([^<]*)</i.exec(answer)?.[1] ?? answer.split('\r\n', 1)[0];
      return {
        facts,
        failure: { kind: 'tls-error', line: `${tlsFailureLine(refused)} (the server answered: ${page})` },
      };
    }
    return { facts };
  } catch (err) {
    const failure = failureOf(err, proxyVariable);
    return failure ? { facts, failure } : {};
  }
}
