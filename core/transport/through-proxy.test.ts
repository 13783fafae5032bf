/**
 * The wire through an egress proxy and TLS with a private CA: an ordinary request and a request framed
 * wrong on purpose both reach an https target through the proxy's CONNECT tunnel (TLS with the CA inside
 * it), an http target through the proxy in absolute form, and a proxy that refuses the tunnel is a limit
 * of the harness named with the variable to fix, never the target's fault.
 */
import https from 'node:https';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { startConnectProxy, type ConnectProxy } from '../../fixtures/deployment/connect-proxy.ts';
import { PROXIED_NAME, privateCa, type PrivateCa } from '../../fixtures/deployment/private-ca.ts';
import { readConnectionSettings } from '../settings/connection-settings.ts';
import { useConnection } from '../connection/connection.ts';
import { unansweredThroughProxy } from '../client/client.ts';
import { CLOSED_UNANSWERED } from './framing.ts';
import { TARGET_FAULTS } from './exchange.ts';
import { sendFramed } from './framing.ts';
import { sendOnce } from './http.ts';
import { prepareRequest } from './request.ts';

let ca: PrivateCa;
let proxy: ConnectProxy;
let secure: https.Server;
let plain: http.Server;
const seen: string[] = [];

/** Answers 200 with what it was asked; a body framed wrong is Node's own 400. */
const answer = (req: http.IncomingMessage, res: http.ServerResponse) => {
  seen.push(`${req.method} ${req.url} host=${req.headers.host}`);
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}'));
};

test.beforeAll(async () => {
  ca = privateCa();
  const issued = ca.server('localhost', 30);
  secure = https.createServer({ cert: readFileSync(issued.certFile), key: readFileSync(issued.keyFile) }, answer);
  plain = http.createServer(answer);
  await Promise.all([secure, plain].map((s) => new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok))));
  proxy = await startConnectProxy({ names: { [PROXIED_NAME]: '127.0.0.1' } });
  useConnection(readConnectionSettings({ 'ca-file': ca.caFile }, { HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url }));
});
test.afterAll(async () => {
  useConnection(readConnectionSettings());
  await proxy.close();
  await Promise.all([secure, plain].map((s) => new Promise((ok) => s.close(ok))));
  ca.close();
});

const port = (s: http.Server | https.Server) => (s.address() as AddressInfo).port;
const request = (baseUrl: string) =>
  prepareRequest(
    { method: 'POST', path: '/openapi/workflow/c_1/run', json: { variables: {} } },
    { baseUrl, caller: { name: 'A', apiKey: 'wfk_test_key_000' }, requestTimeoutMs: 5_000, saveBody: () => 'body.txt' },
  );

test('an https target: the request and a broken framing go through the tunnel, TLS with the CA inside it', async () => {
  const base = `https://${PROXIED_NAME}:${port(secure)}/v1`;
  const before = proxy.tunnels.length;
  const a = await sendOnce(request(base), { maxBodyBytes: 1 << 20 });
  expect([a.status, a.fault]).toEqual([200, undefined]);
  const framed = await sendFramed(request(base), 'chunk-size-not-hex', { maxBodyBytes: 1 << 20 });
  // Node's parser refuses the chunk size: its 400 came back through the tunnel.
  expect(framed.status).toBe(400);
  expect(proxy.tunnels.slice(before)).toEqual([`${PROXIED_NAME}:${port(secure)}`, `${PROXIED_NAME}:${port(secure)}`]);
});

test('an http target goes to the proxy in absolute form; its framing probe through a tunnel', async () => {
  const base = `http://${PROXIED_NAME}:${port(plain)}/v1`;
  const a = await sendOnce(request(base), { maxBodyBytes: 1 << 20 });
  expect(a.status).toBe(200);
  expect(seen.at(-1)).toBe(`POST /v1/openapi/workflow/c_1/run host=${PROXIED_NAME}:${port(plain)}`);
  const framed = await sendFramed(request(base), 'length-cut-short', { maxBodyBytes: 1 << 20 });
  expect(framed.fault?.kind ?? framed.status).not.toBe('proxy-error');
});

test('a proxy that refuses the tunnel is the harness limit, named with HTTPS_PROXY; no fault of the target', async () => {
  const base = `https://not-a-target.test:${port(secure)}/v1`;
  const a = await sendOnce(request(base), { maxBodyBytes: 1 << 20 });
  expect(a.fault?.kind).toBe('proxy-error');
  expect(a.fault?.message).toMatch(
    /the proxy at 127\.0\.0\.1:\d+ refused CONNECT not-a-target\.test:\d+: HTTP\/1\.1 403/,
  );
  const framed = await sendFramed(request(base), 'chunked-cut-short', { maxBodyBytes: 1 << 20 });
  expect(framed.fault?.kind).toBe('proxy-error');
  expect(TARGET_FAULTS.has('proxy-error')).toBe(false);
});

test('a certificate the settings do not trust is a TLS failure named with --ca-file', async () => {
  useConnection(readConnectionSettings({}, {}));
  try {
    const a = await sendOnce(request(`https://localhost:${port(secure)}/v1`), { maxBodyBytes: 1 << 20 });
    expect(a.fault?.kind).toBe('tls-error');
    expect(a.fault?.message).toMatch(/certificate signed by an unknown CA: pass it with --ca-file FILE/);
  } finally {
    useConnection(readConnectionSettings({ 'ca-file': ca.caFile }, { HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url }));
  }
});

test("a framed request left unanswered through the tunnel is not the target's close: the proxy may have closed it", () => {
  const through = request(`https://${PROXIED_NAME}:${port(secure)}/v1`);
  const direct = request(`https://localhost:${port(secure)}/v1`);
  const reset = { headers: {}, text: '', bodyBytes: 0, truncated: false, durationMs: 1 };
  const fault = { kind: CLOSED_UNANSWERED, message: 'the server closed the connection without an answer' };
  expect(unansweredThroughProxy(through, { ...reset, fault }).fault?.kind).toBe('unanswered-through-proxy');
  expect(TARGET_FAULTS.has('unanswered-through-proxy')).toBe(false);
  // Direct (loopback goes direct whatever HTTPS_PROXY says), the reset stays the target's.
  expect(unansweredThroughProxy(direct, { ...reset, fault }).fault?.kind).toBe(CLOSED_UNANSWERED);
  // An answer that came is the answer, through the proxy or not.
  expect(unansweredThroughProxy(through, { ...reset, status: 400 })).toEqual({ ...reset, status: 400 });
});
