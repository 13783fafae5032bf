/**
 * The load suite's own tests: a smoke run against the reference target must
 * meet every gate, and runs against a deliberately slowed, failing or
 * rate-limiting target must show the gates react as they should.
 */
import { test, expect } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTarget, type StartedTarget } from '../fixtures/target/server.ts';
import { ensureK6 } from './node/ensure-k6.ts';
import { writeLoadData } from './node/prepare-data.ts';
import { K6_EXIT, runK6, type K6RunOptions } from './node/run-k6.ts';
import { startFaultyProxy, type Faults } from '../fixtures/proof/hostile/faulty-proxy.ts';
import { checkedResponses, type RunReport } from './lib/report.ts';

test.describe.configure({ mode: 'serial' });

const SEED = 20250101;
let k6 = '';
let target: StartedTarget;

test.beforeAll(async ({}, info) => {
  info.setTimeout(15 * 60_000); // the first k6 build from source takes minutes
  k6 = await ensureK6((l) => console.log(l));
  // Short node steps keep the slowest seeded workflow (30× multiplier) to a few seconds.
  target = await startTarget({ nodeDurationMs: 10 });
});

test.afterAll(async () => {
  await target?.close();
});

async function run(outDir: string, baseUrl: string, extra: Partial<K6RunOptions> = {}) {
  const dataFile = join(outDir, 'load-data.json');
  writeLoadData(dataFile, SEED);
  return runK6({
    k6, baseUrl, apiKey: target.tenants[0].apiKey, profile: 'smoke', seed: SEED,
    reportDir: outDir, dataFile, duration: '8s', quiet: true, ...extra,
  });
}

/** Runs against a proxy whose faults are switched on once setup() has discovered the workflows. */
async function runWithFaults(outDir: string, faults: Faults, extra: Partial<K6RunOptions> = {}) {
  const proxy = await startFaultyProxy(target.baseUrl);
  try {
    return await run(outDir, proxy.baseUrl, { ...extra, onLine: (l) => { if (l.includes('discovered')) proxy.setFaults(faults); } });
  } finally {
    await proxy.close();
  }
}

/**
 * Run folders live outside test-results/: several Playwright runs may share a
 * checkout, and each one empties test-results/ when it starts.
 */
const created: string[] = [];
const outDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `wfcheck-load-${name}-`));
  created.push(dir);
  return dir;
};

/** Run folders are kept only when a test fails, and named in its annotations. */
test.afterEach(async ({}, info) => {
  const dirs = created.splice(0);
  if (info.status !== info.expectedStatus) {
    for (const d of dirs) info.annotations.push({ type: 'load run folder', description: d });
  } else {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
});

const failing = (r: RunReport) => r.thresholds.filter((t) => !t.ok).map((t) => `${t.metric} ${t.expression}`);
const count = (r: RunReport, metric: string, key = 'count') => r.metrics[metric]?.values[key] ?? 0;

test('smoke profile against the reference target meets every gate', async ({}, info) => {
  info.setTimeout(180_000);
  const out = outDir('smoke');
  const result = await run(out, target.baseUrl, { duration: '10s', dashboard: true });
  const report = result.report!;
  expect(report, 'handleSummary wrote summary.json').toBeTruthy();
  expect(failing(report)).toEqual([]);
  expect(result.exitCode).toBe(K6_EXIT.ok);
  expect(report.passed).toBe(true);
  // Every operation of the three scenarios was exercised and gated.
  for (const op of ['runWorkflow', 'getExecutionStatus', 'getExecutionOutput', 'searchWorkflows', 'getWorkflowDetail', 'uploadFiles']) {
    expect(count(report, `http_req_duration{operation:${op}}`), op).toBeGreaterThan(0);
    expect(report.thresholds.some((t) => t.metric === `http_req_duration{operation:${op}}` && t.expression.startsWith('p(99)'))).toBe(true);
  }
  // Every response went through the contract checks, and executions finished.
  expect(checkedResponses(report)).toBe(count(report, 'http_reqs'));
  expect(count(report, 'workflow_completed', 'passes')).toBeGreaterThan(0);
  expect(count(report, 'workflow_duration')).toBeGreaterThan(0);
  // Reports: JUnit without failures, the text summary, the dashboard export; no key anywhere.
  const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
  expect(junit).toContain('failures="0"');
  expect(readFileSync(join(out, 'summary.txt'), 'utf8')).toContain('VERDICT: PASS');
  expect(existsSync(join(out, 'dashboard.html'))).toBe(true);
  for (const f of ['summary.json', 'summary.txt', 'junit.xml', 'k6.log']) {
    expect(readFileSync(join(out, f), 'utf8')).not.toContain(target.tenants[0].apiKey);
  }
});

test('a slowed target breaches the latency gates, and only those', async ({}, info) => {
  info.setTimeout(180_000);
  const result = await runWithFaults(outDir('slow'), { delayMs: 450 });
  const report = result.report!;
  expect(result.exitCode).toBe(K6_EXIT.thresholdsFailed);
  expect(report.passed).toBe(false);
  const breached = failing(report);
  expect(breached).toContain('http_req_duration{operation:getExecutionStatus} p(95)<300');
  expect(breached.every((b) => b.startsWith('http_req_duration{'))).toBe(true);
  expect(readFileSync(join(result.violationsFile, '..', 'junit.xml'), 'utf8')).toMatch(/<failure message="actual \d+/);
});

test('a failing, non-conformant target breaches the error and contract gates', async ({}, info) => {
  info.setTimeout(180_000);
  const out = outDir('failing');
  const result = await runWithFaults(out, { failEvery: 5, corruptEvery: 7 });
  const report = result.report!;
  expect(result.exitCode).toBe(K6_EXIT.thresholdsFailed);
  const breached = failing(report);
  expect(breached).toContain('http_req_failed rate<0.01');
  expect(breached).toContain('contract_violations rate==0');
  // The violating responses are kept with the clause they break, and without the key.
  const lines = readFileSync(result.violationsFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { violations: { requirementId: string; level: string }[]; status: number });
  expect(lines.length).toBeGreaterThan(0);
  expect(lines.some((l) => l.status === 500 && l.violations.some((v) => v.level === 'must' && /HTTP-STATUS-LISTED$/.test(v.requirementId)))).toBe(true);
  expect(lines.some((l) => l.status === 200 && l.violations.some((v) => v.level === 'must'))).toBe(true);
  expect(readFileSync(result.violationsFile, 'utf8')).not.toContain(target.tenants[0].apiKey);
});

test('429 answers are retried after a backoff and counted, not failed', async ({}, info) => {
  info.setTimeout(180_000);
  const result = await runWithFaults(outDir('rate-limited'), { rateLimitEvery: 4 }, { scenarios: 'readMix,uploads' });
  const report = result.report!;
  expect(count(report, 'rate_limited_responses')).toBeGreaterThan(0);
  expect(failing(report)).toEqual([]);
  expect(result.exitCode).toBe(K6_EXIT.ok);
});
