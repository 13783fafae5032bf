/**
 * What the client records for one exchange: a transport fault of the target's making (reset, body cut
 * short) is a failure of the operation's status clause with the exchange as evidence; the harness's own
 * limits (its deadline, its body-size cap, a refused connection) are not judged; in the answer to a probe
 * of an open point an unlisted status is that point's observation; a body judged whatever its status.
 * A fault that costs the deadline or breaks the answer off is remembered for the run: later calls of the
 * operation, in this worker or another, are answered at once without being sent, and name that fault.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { appendFileSync, mkdirSync } from 'node:fs';
import { ApiClient } from './client.ts';
import { OPERATION_FAULTED, TransportFault } from '../transport/exchange.ts';
import {
  EvidenceWriter,
  readEvidence,
  type CheckRecord,
  type ExchangeRecord,
  type ObservationRecord,
  type TestRef,
} from '../evidence/records.ts';
import type { FaultSeen } from '../transport/faults-seen.ts';
import { runFileStem } from '../transport/shared-by-workers.ts';
import { Verdict } from '../evidence/verdict.ts';
import type { RunConfig } from '../settings/run-config.ts';

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
  '/openapi/workflow/refused-cut/status': (_req, res) => {
    res.writeHead(404, { 'content-type': 'application/json', 'content-length': '500' });
    res.write('{"success":false,"errCode":');
    setTimeout(() => res.socket?.destroy(), 20);
  },
  '/openapi/workflow/unlisted-cut/status': (_req, res) => {
    res.writeHead(400, { 'content-type': 'application/json', 'content-length': '500' });
    res.write('{"success":false,"errCode":');
    setTimeout(() => res.socket?.destroy(), 20);
  },
  '/openapi/workflows/a%2Fb': (_req, res) => res.writeHead(400, { 'content-type': 'text/html' }).end('<h1>400</h1>'),
  '/openapi/workflows/a%00b': (_req, res) => res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>500</h1>'),
  '/openapi/workflow/hang/status': () => undefined,
  '/openapi/workflow/hang/output': () => undefined,
  '/openapi/workflow/ok/output': (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":{"output":[]}}'),
  '/openapi/workflow/drip/output': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"success":');
    const t = setInterval(() => res.write(' '), 200);
    res.on('close', () => clearInterval(t));
  },
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
/** Requests the server received, by path. */
const received: string[] = [];

test.beforeAll(async () => {
  server = http.createServer((req, res) => {
    received.push((req.url ?? '').replace(/^\/v1/, ''));
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

function client(overrides: Partial<RunConfig> = {}, testRef?: TestRef): ApiClient {
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
  return new ApiClient({
    config,
    caller: { name: 'A', apiKey: 'k' },
    writer,
    verdict: new Verdict({ writer, test: testRef }),
    test: testRef,
  });
}

function recorded(): {
  fails: CheckRecord[];
  checks: CheckRecord[];
  observations: ObservationRecord[];
  exchanges: ExchangeRecord[];
} {
  const { records } = readEvidence(join(dir, 'evidence'));
  const checks = records.filter((r): r is CheckRecord => r.kind === 'check');
  return {
    fails: checks.filter((r) => r.outcome === 'fail'),
    checks,
    observations: records.filter((r): r is ObservationRecord => r.kind === 'observation'),
    exchanges: records.filter((r): r is ExchangeRecord => r.kind === 'exchange'),
  };
}

/** The error a call throws (or undefined when it answers), and how long it took. */
async function timed(call: Promise<unknown>): Promise<{ err: unknown; ms: number }> {
  const started = performance.now();
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { err, ms: performance.now() - started };
}

for (const [id, kind, clause] of [
  ['reset', 'connection-reset', 'STATUS-HTTP-STATUS-LISTED'],
  ['cut', 'incomplete-body', 'STATUS-200-ENVELOPE'],
] as const) {
  test(`a ${kind} is the target's deviation: ${clause} fails with the exchange as evidence`, async () => {
    const err = await client()
      .status(id)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportFault);
    expect((err as TransportFault).kind).toBe(kind);
    const { fails } = recorded();
    expect(fails.map((f) => [f.requirementId, f.level, f.source])).toEqual([[clause, 'must', 'contract']]);
    expect(fails[0]!.actual).toContain(kind);
    expect(fails[0]!.exchangeId).toBe((err as TransportFault).exchange.record.id);
  });
}

test('a refusal whose body the server cut short is judged by its status: listed passes, unlisted fails; the body is not judged', async () => {
  const refused = await client().status('refused-cut');
  expect([refused.status, refused.fault, refused.parsed]).toEqual([404, undefined, undefined]);
  expect(recorded().fails).toEqual([]);
  const [record] = recorded().exchanges;
  expect(record?.fault).toBeUndefined();
  expect(record?.response?.bodyNotJudged).toContain('closed the connection after the 404 status line');
  expect(recorded().checks.map((c) => [c.requirementId, c.outcome])).toContainEqual([
    'STATUS-HTTP-STATUS-LISTED',
    'pass',
  ]);
  // Not remembered as a fault of the operation: the next call is sent.
  const again = await client().status('unlisted-cut');
  expect(again.status).toBe(400);
  expect(recorded().fails.map((f) => f.requirementId)).toEqual(['STATUS-HTTP-STATUS-LISTED']);
});

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

test('a request target no stack routes: a 4xx refusal is observed under HTTP-LAYER-REFUSAL, a 5xx still fails', async () => {
  await client().detail('a/b');
  const { fails, observations } = recorded();
  expect(fails).toEqual([]);
  expect(observations.map((o) => [o.requirementId, o.value])).toEqual([['HTTP-LAYER-REFUSAL', 400]]);
  expect(observations[0]!.key).toContain('an encoded slash in a path id');
  await client().detail('a\u0000b');
  expect(recorded().fails.map((f) => f.requirementId)).toEqual(['DETAIL-HTTP-STATUS-LISTED']);
});

test('a 201 is judged once by its status clause, and its body still against the 200 schema', async () => {
  await client().run('c1', {});
  expect(recorded().fails.map((f) => f.requirementId)).toEqual(['RUN-HTTP-STATUS-LISTED', 'EXEC-STATUS-ENUM']);
});

// ---- a fault seen once is not waited for again ---------------------------------------------------

test('an operation that timed out is not sent again: later calls end at once, naming the first fault', async () => {
  const first = await timed(client().status('hang'));
  expect((first.err as TransportFault).kind).toBe('timeout');
  const before = received.length;
  const again = await timed(client().status('another-execution'));
  expect(again.ms).toBeLessThan(100);
  expect(received.length).toBe(before);
  const fault = again.err as TransportFault;
  expect(fault.kind).toBe(OPERATION_FAULTED);
  // Both name the same fault first, with the exchange that showed it: one finding, however many stops.
  const named = (first.err as Error).message.split('\n')[0];
  expect(fault.message.split('\n')[0]).toBe(named);
  expect(named).toMatch(/^getExecutionStatus ran into the harness's request deadline .* exchange \d+-\d+$/);
  expect(fault.exchange.record.id).toBe((first.err as TransportFault).exchange.record.id);
  // Nothing was sent, so nothing new is recorded; other operations are still asked.
  expect(recorded().exchanges.filter((x) => x.operation === 'getExecutionStatus')).toHaveLength(1);
  expect(recorded().fails).toEqual([]);
  expect((await client().output('ok')).status).toBe(200);
  // A caller that takes faults as answers gets the same, without a throw.
  const answer = await client().status('hang', { allowFault: true });
  expect([answer.fault?.kind, answer.faulted?.kind, answer.faulted?.clause]).toEqual([
    OPERATION_FAULTED,
    'timeout',
    undefined,
  ]);
});

test('a body slower than the deadline is a timeout saying the answer began, and is not waited for again', async () => {
  const { err } = await timed(client().output('drip'));
  expect((err as TransportFault).kind).toBe('timeout');
  expect((err as Error).message).toMatch(/the 200 response began, but its body was not complete within 500 ms/);
  expect((await timed(client().output('ok'))).err).toMatchObject({ kind: OPERATION_FAULTED });
});

test('a reset is remembered with the clause it failed: what a later call was for is blocked by it', async () => {
  await client()
    .status('reset')
    .catch(() => undefined);
  const ref = { id: 't1', file: 'x.spec.ts', title: 'reads [STATUS-404-UNKNOWN-EXECUTION] [STATE-TERMINAL]' };
  const { err } = await timed(client({}, ref).status('another-execution'));
  expect((err as TransportFault).kind).toBe(OPERATION_FAULTED);
  const blocked = recorded().checks.filter((c) => c.outcome === 'blocked');
  expect(blocked.map((c) => [c.requirementId, c.blockedBy])).toEqual([
    ['STATUS-404-UNKNOWN-EXECUTION', 'STATUS-HTTP-STATUS-LISTED'],
    ['STATE-TERMINAL', 'STATUS-HTTP-STATUS-LISTED'],
  ]);
  // The failure itself is recorded once, on the exchange that showed it.
  expect(recorded().fails.map((f) => f.requirementId)).toEqual(['STATUS-HTTP-STATUS-LISTED']);
});

test('a fault another worker saw is honoured: the call is not sent', async () => {
  const evidenceDir = join(dir, 'evidence');
  mkdirSync(evidenceDir, { recursive: true });
  const seen: FaultSeen = {
    operation: 'getExecutionOutput',
    scope: 'call',
    kind: 'timeout',
    message: 'no complete response within 500 ms',
    exchangeId: '999-1',
    at: new Date().toISOString(),
  };
  // As another worker process writes it: a line of the run's shared file.
  appendFileSync(`${runFileStem(evidenceDir, 'faults-seen')}.ndjson`, `${JSON.stringify(seen)}\n`);
  const before = received.length;
  const { err, ms } = await timed(client().output('ok'));
  expect(ms).toBeLessThan(100);
  expect(received.length).toBe(before);
  expect((err as TransportFault).exchange.record.id).toBe('999-1');
});

test('a call already waiting gives up once another call of its operation faults', async () => {
  const api = client({ requestTimeoutMs: 3_000 });
  const waiting = timed(api.status('hang', { allowFault: true }));
  await new Promise((r) => setTimeout(r, 300));
  // A second worker's call meets the fault first (its own deadline is shorter here, as if it began earlier).
  const evidenceDir = join(dir, 'evidence');
  mkdirSync(evidenceDir, { recursive: true });
  const seen: FaultSeen = {
    operation: 'getExecutionStatus',
    scope: 'call',
    kind: 'timeout',
    message: 'no complete response within 500 ms',
    exchangeId: '1-1',
    at: new Date().toISOString(),
  };
  appendFileSync(`${runFileStem(evidenceDir, 'faults-seen')}.ndjson`, `${JSON.stringify(seen)}\n`);
  const { ms } = await waiting;
  // Given up within a look or two after the fault was recorded, long before its own deadline.
  expect(ms).toBeLessThan(1_000);
  expect(recorded().exchanges).toEqual([]);
});

test("a deadline shorter than the run's, and the reachability probe, leave the operation asked again", async () => {
  await client()
    .status('hang', { timeoutMs: 100 })
    .catch(() => undefined);
  await client()
    .status('reset', { allowFault: true, judgeFaults: false })
    .catch(() => undefined);
  const again = await client().output('ok');
  expect(again.status).toBe(200);
  const { err } = await timed(client().status('reset'));
  expect((err as TransportFault).kind).toBe('connection-reset');
});
