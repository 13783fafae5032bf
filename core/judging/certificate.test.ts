/**
 * TLS-CERT-NOT-EXPIRING, on real connections: a server whose certificate (from a private CA) expires in 5
 * days warns, one valid for 30 does not, a plain http target records nothing. The certificate is seen by
 * the connection check every mode makes, and decided by the one judge.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { privateCa, type PrivateCa } from '../../fixtures/deployment/private-ca.ts';
import { checkConnection } from '../connection/connection-check.ts';
import { readConnectionSettings } from '../settings/connection-settings.ts';
import { useConnection } from '../connection/connection.ts';
import type { EvidenceRecord, CheckRecord } from '../evidence/records.ts';
import { Verdict } from '../evidence/verdict.ts';
import { CERT_NOT_EXPIRING, judgeCertificate } from './certificate.ts';

let ca: PrivateCa;
const servers: https.Server[] = [];

test.beforeAll(() => {
  ca = privateCa();
  useConnection(readConnectionSettings({ 'ca-file': ca.caFile }, {}));
});
test.afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((ok) => s.close(ok))));
  useConnection(readConnectionSettings({}, process.env));
  ca.close();
});

async function served(days: number): Promise<string> {
  const issued = ca.server(`server-${days}d`, days);
  const server = https.createServer(
    { cert: readFileSync(issued.certFile), key: readFileSync(issued.keyFile) },
    (_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"success":false}'),
  );
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return `https://localhost:${(server.address() as AddressInfo).port}/v1`;
}

async function judged(baseUrl: string): Promise<CheckRecord[]> {
  const records: EvidenceRecord[] = [];
  const check = await checkConnection(baseUrl);
  expect(check.failure, check.failure?.line).toBeUndefined();
  judgeCertificate(Verdict.detached({ write: (r) => records.push(r) }), check.facts!);
  return records.filter((r): r is CheckRecord => r.kind === 'check' && r.requirementId === CERT_NOT_EXPIRING);
}

test(`a certificate expiring within 14 days warns [${CERT_NOT_EXPIRING}]; one valid beyond them passes`, async () => {
  const [soon] = await judged(await served(5));
  // A should-level clause that fails is a warning in every report (a failure under --strict).
  expect([soon?.level, soon?.outcome]).toEqual(['should', 'fail']);
  expect(soon?.message).toMatch(/CN=server-5d\) expires on \d{4}-\d\d-\d\d, in 4 day\(s\): within 14 days/);
  const [later] = await judged(await served(30));
  expect(later?.outcome).toBe('pass');
  expect(later?.message).toMatch(/valid until \d{4}-\d\d-\d\d, 29 days from now/);
});

test('a target without TLS has no certificate to judge', async () => {
  const check = await checkConnection('http://127.0.0.1:9/v1');
  expect(check.facts?.scheme).toBe('http');
  const records: EvidenceRecord[] = [];
  judgeCertificate(Verdict.detached({ write: (r) => records.push(r) }), check.facts!);
  expect(records).toEqual([]);
});
