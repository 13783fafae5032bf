/**
 * The connection check on real TLS servers: what it sees (TLS version, ALPN, the certificate, the client
 * certificate shown), --insecure named with what checking would have said, and a server that asks for a
 * client certificate with a TLS alert (as Node, Go and Envoy do) refused in one line naming --client-cert.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { privateCa, type Issued, type PrivateCa } from '../../fixtures/deployment/private-ca.ts';
import { checkConnection } from './connection-check.ts';
import { connectionLine, insecureLine } from './connection-facts.ts';
import { readConnectionSettings } from '../settings/connection-settings.ts';
import { useConnection } from './connection.ts';

let ca: PrivateCa;
let client: Issued;
let server: https.Server;
let base: string;

test.beforeAll(async () => {
  ca = privateCa();
  client = ca.client('check client', 30);
  const issued = ca.server('localhost', 30);
  // Asks for a client certificate signed by the CA, and refuses the handshake without one.
  server = https.createServer(
    {
      cert: readFileSync(issued.certFile),
      key: readFileSync(issued.keyFile),
      ca: readFileSync(ca.caFile),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (_req, res) => res.writeHead(404).end(),
  );
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `https://localhost:${(server.address() as AddressInfo).port}/v1`;
});
test.afterAll(async () => {
  useConnection(readConnectionSettings());
  await new Promise((ok) => server.close(ok));
  ca.close();
});

test('with the CA and a client certificate: what the connection shows', async () => {
  useConnection(
    readConnectionSettings({ 'ca-file': ca.caFile, 'client-cert': client.certFile, 'client-key': client.keyFile }, {}),
  );
  const { facts, failure } = await checkConnection(base);
  expect(failure).toBeUndefined();
  expect(facts?.tls).toMatchObject({ version: 'TLSv1.3', alpn: 'http/1.1', subject: 'CN=localhost', authorized: true });
  expect(facts?.clientCertificate).toBe('CN=check client');
  expect(connectionLine(facts!, 'HTTP/1.1 spoken')).toMatch(
    /^HTTPS · TLSv1\.3 · HTTP\/1\.1 spoken; the server: http\/1\.1 only · certificate CN=localhost, issued by CN=wfcheck test CA, valid until \d{4}-\d\d-\d\d \(29 days\) · client certificate CN=check client · CA from --ca-file /,
  );
  expect(insecureLine(facts!)).toBeUndefined();
});

test('without the client certificate: refused in one line naming --client-cert', async () => {
  useConnection(readConnectionSettings({ 'ca-file': ca.caFile }, {}));
  const { failure } = await checkConnection(base);
  expect(failure?.kind).toBe('tls-error');
  expect(failure?.line).toMatch(
    /^the server asks for a client certificate: pass one with --client-cert FILE --client-key FILE/,
  );
});

test('--insecure: nothing checked, and the header says what checking would have said', async () => {
  useConnection(
    readConnectionSettings({ insecure: true, 'client-cert': client.certFile, 'client-key': client.keyFile }, {}),
  );
  const { facts, failure } = await checkConnection(base);
  expect(failure).toBeUndefined();
  expect(facts?.tls?.authorized).toBe(false);
  expect(insecureLine(facts!)).toMatch(
    /^INSECURE: --insecure: the target's certificate was not checked \(it would have failed: [A-Z_]+\)$/,
  );
});
