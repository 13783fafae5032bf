/**
 * What the client records for one exchange: a transport fault of the target's making (reset, body cut
 * short) is a failure of the operation's status clause with the exchange as evidence; the harness's own
 * limits (its deadline, its body-size cap, a refused connection) are not judged; in the answer to a probe
 * of an open point an unlisted status is that point's observation; a body judged whatever its status.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ApiClient, TransportFault } from './client.ts';
import { EvidenceWriter, readEvidence, type CheckRecord, type ObservationRecord } from '../verdict/evidence.ts';
import { Verdict } from '../verdict/verdict.ts';
import type { RunConfig } from '../../foundation/environment/config.ts';

/** How the server answers each path (the client's paths after /v1). */
const ANSWERS: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void> = {
  '/openapi/workflows': (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":[]}'),
  '/openapi/workflows?order=sideways': (_req, res) =>
    res.writeHead(422, { 'content-type': 'application/json' }).end('{"success":false}'),
  '/openapi/workflow/reset/status': (req) => req.socket.resetAndDestroy(),
  '/openapi/workflow/cut/status': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
    res.write('{"success":true,"data":');
    setTimeout(() => res.socket?.destroy(), 20);
  },
  '/openapi/workflow/hang/status': () => undefined,
  '/openapi/workflow/big/status': (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(`{"success":true,"pad":"${'x'.repeat(4096)}"}`),
  '/openapi/workflow/c1/run': (_req, res) =>
    res
      .writeHead(201, { 'content-type': 'application/json' })
      .end('{"success":true,"data":{"executionId":"e1","status":"running"}}'),
};

let server: http.Server;
let baseUrl: string;
let dir: string;

test.beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    const answer = ANSWERS[(req.url ?? '').replace(/^\/v1/, '')];
    if (answer) answer(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
});

test.beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wfcheck-client-'));
});
test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

function client(overrides: Partial<RunConfig> = {}): ApiClient {
  const config = {
    baseUrl,
    apiKey: 'k',
    requestTimeoutMs: 500,
    maxBodyBytes: 1024,
    evidenceDir: join(dir, 'evidence'),
    strict: false,
    ...overrides,
  } as RunConfig;
  const writer = new EvidenceWriter(config.evidenceDir, 'w');
  return new ApiClient(
    config,
    { name: 'A', apiKey: 'k' },
    writer,
    new Verdict(writer, undefined, false, undefined),
    undefined,
  );
}

function recorded(): { fails: CheckRecord[]; observations: ObservationRecord[] } {
  const { records } = readEvidence(join(dir, 'evidence'));
  return {
    fails: records.filter((r): r is CheckRecord => r.kind === 'check' && r.outcome === 'fail'),
    observations: records.filter((r): r is ObservationRecord => r.kind === 'observation'),
  };
}

for (const [id, kind] of [
  ['reset', 'connection-reset'],
  ['cut', 'incomplete-body'],
] as const) {
  test(`a ${kind} is the target's deviation: STATUS-HTTP-STATUS-LISTED fails with the exchange as evidence`, async () => {
    const err = await client()
      .status(id)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportFault);
    expect((err as TransportFault).kind).toBe(kind);
    const { fails } = recorded();
    expect(fails.map((f) => [f.requirementId, f.level, f.source])).toEqual([
      ['STATUS-HTTP-STATUS-LISTED', 'must', 'contract'],
    ]);
    expect(fails[0]!.actual).toContain(kind);
    expect(fails[0]!.exchangeId).toBe((err as TransportFault).exchange.record.id);
  });
}

/** A loopback address nobody listens on (bound, then released). */
async function closedBaseUrl(): Promise<string> {
  const s = http.createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const { port } = s.address() as AddressInfo;
  await new Promise((ok) => s.close(ok));
  return `http://127.0.0.1:${port}/v1`;
}

for (const [id, kind] of [
  ['hang', 'timeout'],
  ['big', 'body-too-large'],
  ['x', 'connection-refused'],
] as const) {
  test(`a ${kind} is a limit of the harness or no answer at all: it throws, and nothing is judged`, async () => {
    const overrides = kind === 'connection-refused' ? { baseUrl: await closedBaseUrl() } : {};
    const err = await client(overrides)
      .status(id)
      .catch((e: unknown) => e);
    expect((err as TransportFault).kind).toBe(kind);
    expect(recorded().fails).toEqual([]);
  });
}

test('the reachability probe does not judge a reset (an unreachable target is not a failing one)', async () => {
  const ex = await client().status('reset', { allowFault: true, judgeFaults: false });
  expect(ex.fault?.kind).toBe('connection-reset');
  expect(recorded().fails).toEqual([]);
});

test('in the answer to an open-point probe, an unlisted status is an observation of that point, not a failure', async () => {
  await client().search({ order: 'sideways' }, { openPoint: 'SEARCH-ORDER-VALUES' });
  const { fails, observations } = recorded();
  expect(fails).toEqual([]);
  expect(observations.map((o) => [o.requirementId, o.value])).toEqual([['SEARCH-ORDER-VALUES', 422]]);
  await client().search({ order: 'sideways' });
  expect(recorded().fails.map((f) => f.requirementId)).toEqual(['SEARCH-HTTP-STATUS-LISTED']);
});

test('a 201 is judged once by its status clause, and its body still against the 200 schema', async () => {
  await client().run('c1', {});
  expect(recorded().fails.map((f) => f.requirementId)).toEqual(['RUN-HTTP-STATUS-LISTED', 'EXEC-STATUS-ENUM']);
});
