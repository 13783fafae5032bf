/**
 * The load suite's own tests: a smoke run against the reference target must
 * meet every gate, and runs against a deliberately slowed, failing or
 * rate-limiting target must show the gates react as they should.
 */
import { test, expect } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTarget, type StartedTarget } from '../fixtures/reference/server.ts';
import { ensureK6 } from './node/ensure-k6.ts';
import { writeLoadData } from './node/prepare-data.ts';
import { LOAD_REPORT_FILES } from './node/report-files.ts';
import { K6_EXIT, runK6, type K6RunOptions } from './node/run-k6.ts';
import { startFaultyProxy, type Faults } from '../fixtures/hostile/faulty-proxy.ts';
import { startHostile } from '../fixtures/hostile/servers.ts';
import { apiResponses, checkedResponses, type RunReport } from './k6/lib/run-report.ts';

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
    k6,
    baseUrl,
    apiKey: target.tenants[0].apiKey,
    profile: 'smoke',
    seed: SEED,
    reportDir: outDir,
    dataFile,
    duration: '8s',
    quiet: true,
    ...extra,
    // The reference target allows generate to overwrite: every call reuses one canvas.
    env: { WFCHECK_ALLOW_OVERWRITE: '1', ...extra.env },
  });
}

/** Runs against a proxy whose faults are switched on once setup() has discovered the workflows. */
async function runWithFaults(outDir: string, faults: Faults, extra: Partial<K6RunOptions> = {}) {
  const proxy = await startFaultyProxy(target.baseUrl);
  try {
    return await run(outDir, proxy.baseUrl, {
      ...extra,
      onLine: (l) => {
        if (l.includes('discovered')) proxy.setFaults(faults);
      },
    });
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

/** The operations of the product's flow, with the route a faulty proxy corrupts to break each one. */
const LIFECYCLE_OPERATIONS = [
  { operation: 'uploadFiles', method: 'POST', path: /^\/openapi\/files\/upload$/ },
  { operation: 'runWorkflow', method: 'POST', path: /^\/openapi\/workflow\/[^/]+\/run$/ },
  { operation: 'getExecutionStatus', method: 'GET', path: /^\/openapi\/workflow\/[^/]+\/status$/ },
  { operation: 'getExecutionOutput', method: 'GET', path: /^\/openapi\/workflow\/[^/]+\/output$/ },
  { operation: 'abortExecution', method: 'POST', path: /^\/openapi\/workflow\/[^/]+\/abort$/ },
  { operation: 'generateWorkflow', method: 'POST', path: /^\/openapi\/copilot\/workflow\/generate$/ },
] as const;

const failing = (r: RunReport) => r.thresholds.filter((t) => !t.ok).map((t) => `${t.metric} ${t.expression}`);
const count = (r: RunReport, metric: string, key = 'count') => r.metrics[metric]?.values[key] ?? 0;

test('smoke profile against the reference target meets every gate', { tag: '@k6' }, async ({}, info) => {
  info.setTimeout(180_000);
  const out = outDir('smoke');
  const result = await run(out, target.baseUrl, { duration: '10s', dashboard: true });
  const report = result.report!;
  expect(report, 'handleSummary handed the report over').toBeTruthy();
  expect(failing(report)).toEqual([]);
  expect(result.exitCode).toBe(K6_EXIT.ok);
  expect(report.passed).toBe(true);
  // Every operation of the scenarios was exercised and gated.
  for (const op of [
    ...LIFECYCLE_OPERATIONS.map((o) => o.operation as string),
    'searchWorkflows',
    'getWorkflowDetail',
  ]) {
    expect(count(report, `http_req_duration{operation:${op}}`), op).toBeGreaterThan(0);
    expect(
      report.thresholds.some(
        (t) => t.metric === `http_req_duration{operation:${op}}` && t.expression.startsWith('p(99)'),
      ),
    ).toBe(true);
  }
  // Setup's requests (discovery, trial runs) are counted apart: the per-operation figures hold the load's alone.
  const perOperation = Object.keys(report.metrics)
    .filter((k) => /^http_req_duration\{operation:[^}]+\}$/.test(k))
    .reduce((n, k) => n + count(report, k), 0);
  expect(count(report, 'setup_requests')).toBeGreaterThan(0);
  expect(perOperation + count(report, 'setup_requests')).toBe(count(report, 'http_reqs'));
  expect(readFileSync(join(out, 'report.txt'), 'utf8')).toMatch(/of which [\d,]+ made by setup/);
  // Every response went through the contract checks, and executions finished.
  expect(checkedResponses(report)).toBe(count(report, 'http_reqs'));
  expect(count(report, 'workflow_completed', 'passes')).toBeGreaterThan(0);
  expect(count(report, 'workflow_duration')).toBeGreaterThan(0);
  // The product's flow: runs fed an uploaded file key finished, executions were aborted, generate reused one canvas.
  expect(count(report, 'workflow_completed{flow:file}', 'passes')).toBeGreaterThan(0);
  expect(count(report, 'executions_aborted')).toBeGreaterThan(0);
  expect(count(report, 'canvases_created')).toBe(1);
  // Reports: JUnit without failures, the text summary, the dashboard export; no key anywhere.
  const junit = readFileSync(join(out, 'report.junit.xml'), 'utf8');
  expect(junit).toContain('failures="0"');
  expect(readFileSync(join(out, 'report.txt'), 'utf8')).toContain('VERDICT: PASS');
  expect(existsSync(join(out, 'dashboard.html'))).toBe(true);
  for (const f of [...LOAD_REPORT_FILES, 'k6.log']) {
    expect(readFileSync(join(out, f), 'utf8')).not.toContain(target.tenants[0].apiKey);
  }
});

test('a slowed target breaches the latency gates, and only those', { tag: '@k6' }, async ({}, info) => {
  info.setTimeout(180_000);
  const result = await runWithFaults(outDir('slow'), { delayMs: 450 });
  const report = result.report!;
  expect(result.exitCode).toBe(K6_EXIT.thresholdsFailed);
  expect(report.passed).toBe(false);
  const breached = failing(report);
  expect(breached).toContain('http_req_duration{operation:getExecutionStatus} p(95)<300');
  expect(breached.every((b) => b.startsWith('http_req_duration{'))).toBe(true);
  expect(readFileSync(join(result.violationsFile, '..', 'report.junit.xml'), 'utf8')).toMatch(
    /<failure message="actual \d+/,
  );
});

test('a failing, non-conformant target breaches the error and contract gates', { tag: '@k6' }, async ({}, info) => {
  info.setTimeout(180_000);
  const out = outDir('failing');
  const result = await runWithFaults(out, { failEvery: 5, corruptEvery: 7 });
  const report = result.report!;
  expect(result.exitCode).toBe(K6_EXIT.thresholdsFailed);
  const breached = failing(report);
  expect(breached).toContain('http_req_failed rate<0.01');
  expect(breached).toContain('contract_violations count==0');
  // The violating responses are kept with the clause they break, and without the key.
  const lines = readFileSync(result.violationsFile, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { violations: { requirementId: string; level: string }[]; status: number });
  expect(lines.length).toBeGreaterThan(0);
  expect(
    lines.some(
      (l) =>
        l.status === 500 && l.violations.some((v) => v.level === 'must' && /HTTP-STATUS-LISTED$/.test(v.requirementId)),
    ),
  ).toBe(true);
  expect(lines.some((l) => l.status === 200 && l.violations.some((v) => v.level === 'must'))).toBe(true);
  expect(readFileSync(result.violationsFile, 'utf8')).not.toContain(target.tenants[0].apiKey);
});

test('429 answers are retried after a backoff and counted, not failed', { tag: '@k6' }, async ({}, info) => {
  info.setTimeout(180_000);
  const result = await runWithFaults(outDir('rate-limited'), { rateLimitEvery: 4 }, { scenarios: 'readMix,uploads' });
  const report = result.report!;
  expect(count(report, 'rate_limited_responses')).toBeGreaterThan(0);
  expect(failing(report)).toEqual([]);
  expect(result.exitCode).toBe(K6_EXIT.ok);
});

for (const { operation, method, path } of LIFECYCLE_OPERATIONS) {
  test(
    `a contract violation injected into ${operation} alone fails the run, naming ${operation}`,
    { tag: '@k6' },
    async ({}, info) => {
      info.setTimeout(180_000);
      const result = await runWithFaults(
        outDir(`violation-${operation}`),
        { corruptRoute: { method, path } },
        {
          // Unreadable status answers would otherwise keep an iteration polling for the full minute.
          scenarios: 'lifecycle,generate',
          duration: '6s',
          env: { WORKFLOW_TIMEOUT_MS: '5000' },
        },
      );
      const report = result.report!;
      expect(result.exitCode).toBe(K6_EXIT.thresholdsFailed);
      const breached = failing(report);
      expect(breached).toContain('contract_violations count==0');
      expect(breached).toContain(`contract_violations{operation:${operation}} count==0`);
      // No other operation is blamed for the broken one.
      expect(
        breached
          .filter((b) => b.startsWith('contract_violations{'))
          .every((b) => b.includes(`{operation:${operation}}`)),
      ).toBe(true);
      // The logged example names the operation and the clause, with a body excerpt and without the key.
      const logged = readFileSync(result.violationsFile, 'utf8');
      const first = JSON.parse(logged.trim().split('\n')[0]!) as {
        operation: string;
        bodyExcerpt: string;
        violations: { requirementId: string; level: string }[];
      };
      expect(first.operation).toBe(operation);
      expect(first.violations.some((v) => v.level === 'must' && v.requirementId.length > 0)).toBe(true);
      expect(first.bodyExcerpt).toContain('injected');
      expect(logged).not.toContain(target.tenants[0].apiKey);
    },
  );
}

/** Samples of a rate metric (its passes and fails). */
const samples = (r: RunReport, metric: string) => count(r, metric, 'passes') + count(r, metric, 'fails');

test(
  'offloaded checks: every API response checked in Node, and a violation still fails the run naming its operation',
  { tag: '@k6' },
  async ({}, info) => {
    info.setTimeout(180_000);
    const clean = await run(outDir('offload'), target.baseUrl, { contractMode: 'offload' });
    expect(failing(clean.report!)).toEqual([]);
    expect(clean.exitCode).toBe(K6_EXIT.ok);
    expect(checkedResponses(clean.report!)).toBe(apiResponses(clean.report!));
    // Batches sent to the checker are not requests to the target: the failure rate and its gate count the target's only.
    expect(samples(clean.report!, 'http_req_failed')).toBe(apiResponses(clean.report!));
    expect(count(clean.report!, 'contract_handovers')).toBeGreaterThan(0);
    const broken = await runWithFaults(
      outDir('offload-violation'),
      { corruptRoute: { method: LIFECYCLE_OPERATIONS[2].method, path: LIFECYCLE_OPERATIONS[2].path } },
      {
        contractMode: 'offload',
        scenarios: 'lifecycle',
        duration: '6s',
        env: { WORKFLOW_TIMEOUT_MS: '5000' },
      },
    );
    expect(broken.exitCode).toBe(K6_EXIT.thresholdsFailed);
    expect(failing(broken.report!)).toContain('contract_violations{operation:getExecutionStatus} count==0');
    const first = JSON.parse(readFileSync(broken.violationsFile, 'utf8').split('\n')[0]!) as {
      operation: string;
      bodyExcerpt: string;
      violations: { requirementId: string; level: string }[];
    };
    expect(first.operation).toBe('getExecutionStatus');
    expect(first.violations.some((v) => v.level === 'must' && v.requirementId.length > 0)).toBe(true);
    expect(first.bodyExcerpt).toContain('injected');
    expect(readFileSync(broken.violationsFile, 'utf8')).not.toContain(target.tenants[0].apiKey);
  },
);

test(
  'responses the Node checker cannot take are counted unchecked and fail the run, never pass',
  { tag: '@k6' },
  async ({}, info) => {
    info.setTimeout(120_000);
    // A checker address nobody listens on: every batch fails.
    const result = await run(outDir('offload-no-checker'), target.baseUrl, {
      scenarios: 'readMix',
      duration: '3s',
      env: { CONTRACT_CHECK_SINK: 'http://127.0.0.1:9/check' },
    });
    expect(result.exitCode).toBe(K6_EXIT.thresholdsFailed);
    expect(failing(result.report!)).toEqual(['contract_unchecked count==0']);
    // Only the open-point probe of discovery (search page 0) is checked in the VU whatever the mode.
    expect(count(result.report!, 'contract_unchecked')).toBeGreaterThan(apiResponses(result.report!) / 2);
    expect(count(result.report!, 'contract_unchecked') + checkedResponses(result.report!)).toBe(
      apiResponses(result.report!),
    );
  },
);

/** Where a response is checked: in the VU, or in Node. */
const CHECK_PLACES = [
  { where: 'in the VU', contractMode: 'vu' },
  { where: 'in Node', contractMode: 'offload' },
] as const;

for (const { where, contractMode } of CHECK_PLACES) {
  test(
    `a run stopped in setup by a broken answer still checks that answer ${where}: the violation is counted on its operation`,
    { tag: '@k6' },
    async ({}, info) => {
      info.setTimeout(120_000);
      const hostile = await startHostile('html-502');
      try {
        const result = await run(outDir('setup-abort'), hostile.baseUrl, {
          contractMode,
          duration: '3s',
        });
        expect(result.exitCode).toBe(K6_EXIT.scriptAborted);
        expect(result.abortReason).toMatch(/search answered 502/);
        // The one clause on searchWorkflows, and the target's error rate (a 502 is a failed request): nothing else.
        expect(failing(result.report!).sort()).toEqual([
          'contract_violations count==0',
          'contract_violations{operation:searchWorkflows} count==0',
          'http_req_failed rate<0.01',
        ]);
        expect(count(result.report!, 'contract_unchecked')).toBe(0);
        expect(checkedResponses(result.report!)).toBe(apiResponses(result.report!));
      } finally {
        await hostile.close();
      }
    },
  );
}

test(
  'offloaded checks over a ramping profile: responses of VUs stopped during the ramp-down are checked too',
  { tag: '@k6' },
  async ({}, info) => {
    info.setTimeout(180_000);
    // Each VU buffers its own batch: one stopped in the ramp-down sends it before it goes.
    const result = await run(outDir('offload-ramp'), target.baseUrl, {
      contractMode: 'offload',
      profile: 'average',
      scenarios: 'readMix,lifecycle',
      duration: '10s',
    });
    expect(failing(result.report!)).toEqual([]);
    expect(checkedResponses(result.report!)).toBe(apiResponses(result.report!));
    expect(count(result.report!, 'contract_unchecked')).toBe(0);
  },
);

/** Every workflow search lists on the reference target (1-based pages, read directly). */
async function workflowCount(baseUrl: string, key: string): Promise<number> {
  const ids = new Set<string>();
  for (let page = 1; page < 100; page++) {
    const res = await fetch(`${baseUrl}/openapi/workflows?page=${page}&pageSize=10`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    const items = ((await res.json()) as { data: { canvasId: string }[] }).data;
    if (items.length === 0) break;
    for (const it of items) ids.add(it.canvasId);
  }
  return ids.size;
}

for (const paging of [{ maxPageSize: 20 }, { maxPageSize: 20, zeroBased: true }]) {
  test(
    `discovery reads every workflow when search ${paging.zeroBased ? 'counts pages from 0 and ' : ''}caps pageSize at ${paging.maxPageSize}`,
    { tag: '@k6' },
    async ({}, info) => {
      info.setTimeout(180_000);
      const proxy = await startFaultyProxy(target.baseUrl, { searchPaging: paging });
      try {
        let discovered = '';
        const result = await run(outDir('paging'), proxy.baseUrl, {
          scenarios: 'readMix',
          duration: '2s',
          onLine: (l) => {
            if (l.includes('discovered')) discovered = l;
          },
        });
        const listed = await workflowCount(target.baseUrl, target.tenants[0].apiKey);
        expect(listed).toBeGreaterThan(paging.maxPageSize);
        expect(discovered).toContain(`discovered ${listed} workflows`);
        expect(failing(result.report!)).toEqual([]);
      } finally {
        await proxy.close();
      }
    },
  );
}
