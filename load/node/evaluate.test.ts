/**
 * Threshold building, the Node-side evaluation of merged runs, and the
 * baseline comparison: pure logic, plus one check that the merged evaluation
 * reproduces k6's own numbers on the same samples.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildThresholds, parseThresholdExpression, parseThresholdKey, sloFromEnv } from '../k6/lib/thresholds.ts';
import { evaluateMerged, mergeK6Json, percentile } from './merge.ts';
import { compareReports, DEFAULT_COMPARE } from './compare.ts';
import type { RunReport } from '../k6/lib/run-report.ts';
import { startTarget } from '../../fixtures/reference/server.ts';
import { ensureK6 } from './ensure-k6.ts';
import { writeLoadData } from './prepare-data.ts';
import { runK6 } from './run-k6.ts';

const created: string[] = [];
const tmp = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `wfcheck-${name}-`));
  created.push(dir);
  return dir;
};

test.afterEach(async ({}, info) => {
  const dirs = created.splice(0);
  if (info.status !== info.expectedStatus)
    for (const d of dirs) info.annotations.push({ type: 'run folder', description: d });
  else for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

test('thresholds: every gate of the issue, in one place', () => {
  const t = buildThresholds(['getExecutionStatus', 'runWorkflow'], true);
  expect(t.http_req_failed).toEqual(['rate<0.01']);
  expect(t.contract_violations).toEqual(['count==0']);
  expect(t['http_req_duration{operation:getExecutionStatus}']).toEqual(['p(95)<300', 'p(99)<800']);
  expect(t['http_req_duration{operation:runWorkflow}']).toEqual(['p(95)<500', 'p(99)<1000']);
  expect(t.workflow_completed).toEqual(['rate>=0.99']);
  expect(Object.keys(buildThresholds(['uploadFiles'], false))).not.toContain('workflow_completed');
  const scaled = buildThresholds(
    ['getExecutionStatus'],
    false,
    sloFromEnv({ SLO_LATENCY_SCALE: '2', SLO_MAX_FAILED_RATE: '0.05' }),
  );
  expect(scaled['http_req_duration{operation:getExecutionStatus}']).toEqual(['p(95)<600', 'p(99)<1600']);
  expect(scaled.http_req_failed).toEqual(['rate<0.05']);
  expect(() => sloFromEnv({ SLO_LATENCY_SCALE: 'fast' })).toThrow(/SLO_LATENCY_SCALE/);
});

test('threshold keys and expressions parse as k6 writes them', () => {
  expect(parseThresholdKey('http_req_duration{operation:getExecutionStatus}')).toEqual({
    metric: 'http_req_duration',
    tags: { operation: 'getExecutionStatus' },
  });
  expect(parseThresholdKey('http_req_failed')).toEqual({ metric: 'http_req_failed', tags: {} });
  expect(parseThresholdExpression('p(99.9) < 250')).toEqual({ aggregation: 'p(99.9)', operator: '<', value: 250 });
  expect(parseThresholdExpression('rate==0')).toEqual({ aggregation: 'rate', operator: '==', value: 0 });
  expect(() => parseThresholdExpression('p95<3')).toThrow();
});

test('percentiles interpolate between closest ranks, as k6 does', () => {
  const values = Array.from({ length: 100 }, (_, i) => i + 1);
  expect(percentile(values, 0.95)).toBeCloseTo(95.05, 10);
  expect(percentile(values, 0.5)).toBeCloseTo(50.5, 10);
  expect(percentile([7], 0.99)).toBe(7);
  expect(percentile([], 0.99)).toBe(0);
});

function ndjson(
  points: { metric: string; type: string; value: number; tags?: Record<string, string>; t?: number }[],
): string {
  const declared = new Set<string>();
  const lines: string[] = [];
  for (const p of points) {
    if (!declared.has(p.metric)) {
      declared.add(p.metric);
      lines.push(JSON.stringify({ type: 'Metric', metric: p.metric, data: { name: p.metric, type: p.type } }));
    }
    lines.push(
      JSON.stringify({
        type: 'Point',
        metric: p.metric,
        data: { time: new Date(1_700_000_000_000 + (p.t ?? 0)).toISOString(), value: p.value, tags: p.tags ?? {} },
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

test('merged evaluation judges the union of all segments', async () => {
  const dir = tmp('merge');
  const op = { operation: 'getExecutionStatus' };
  // Segment A is fast and clean, segment B slow and failing: only the merged data tells the whole story.
  const a = Array.from({ length: 90 }, (_, i) => [
    { metric: 'http_req_duration', type: 'trend', value: 10, tags: op, t: i * 10 },
    { metric: 'http_req_failed', type: 'rate', value: 0, t: i * 10 },
    { metric: 'http_reqs', type: 'counter', value: 1, t: i * 10 },
  ]).flat();
  const b = Array.from({ length: 10 }, (_, i) => [
    { metric: 'http_req_duration', type: 'trend', value: 900, tags: op, t: i * 100 },
    { metric: 'http_req_failed', type: 'rate', value: 1, t: i * 100 },
    { metric: 'http_reqs', type: 'counter', value: 1, t: 1000 + i },
  ]).flat();
  writeFileSync(join(dir, 'a.ndjson'), ndjson(a));
  writeFileSync(join(dir, 'b.ndjson'), ndjson(b));
  const thresholds = buildThresholds(['getExecutionStatus'], false);
  const merged = await mergeK6Json([join(dir, 'a.ndjson'), join(dir, 'b.ndjson')], thresholds);
  expect(merged.metrics['http_req_duration{operation:getExecutionStatus}'].values.count).toBe(100);
  expect(merged.metrics.http_req_failed.values.rate).toBeCloseTo(0.1, 10);
  expect(merged.metrics.http_reqs.values.count).toBe(100);
  const report = evaluateMerged(merged, thresholds, {
    profile: 'smoke',
    scenarios: ['statusRead'],
    seed: 1,
    baseUrl: 'x',
    contractSample: 1,
    evaluation: 'merged 2',
  });
  expect(report.passed).toBe(false);
  const verdict = Object.fromEntries(report.thresholds.map((t) => [`${t.metric} ${t.expression}`, t.ok]));
  expect(verdict['http_req_failed rate<0.01']).toBe(false);
  expect(verdict['http_req_duration{operation:getExecutionStatus} p(95)<300']).toBe(false); // p95 of the union falls in B's 900 ms
  expect(verdict['contract_violations count==0']).toBe(true); // no samples: nothing breached it, as in k6
  // Segment A alone would have passed.
  const aOnly = evaluateMerged(await mergeK6Json([join(dir, 'a.ndjson')], thresholds), thresholds, report.meta);
  expect(aOnly.passed).toBe(true);
});

test("merged evaluation reproduces k6's own figures on the same samples", { tag: '@k6' }, async ({}, info) => {
  info.setTimeout(10 * 60_000);
  const k6 = await ensureK6((l) => console.log(l));
  const target = await startTarget({ nodeDurationMs: 5 });
  try {
    const dir = tmp('fidelity');
    const dataFile = join(dir, 'load-data.json');
    writeLoadData(dataFile, 5);
    const result = await runK6({
      k6,
      baseUrl: target.baseUrl,
      apiKey: target.tenants[0].apiKey,
      profile: 'smoke',
      seed: 5,
      reportDir: dir,
      dataFile,
      scenarios: 'readMix,uploads',
      duration: '4s',
      jsonOut: join(dir, 'samples.ndjson'),
      quiet: true,
      env: { THINK_TIME_S: '0.05' },
    });
    const k6Report = result.report!;
    const thresholds = buildThresholds(
      ['searchWorkflows', 'getWorkflowDetail', 'getExecutionStatus', 'getExecutionOutput', 'uploadFiles'],
      false,
    );
    const merged = await mergeK6Json([join(dir, 'samples.ndjson')], thresholds);
    const ours = evaluateMerged(merged, thresholds, k6Report.meta);
    expect(ours.thresholds.map((t) => [t.metric, t.expression, t.ok])).toEqual(
      k6Report.thresholds.map((t) => [t.metric, t.expression, t.ok]),
    );
    for (const t of k6Report.thresholds) {
      const mine = ours.thresholds.find((x) => x.metric === t.metric && x.expression === t.expression)!;
      if (t.actual === null) expect(mine.actual).toBeNull();
      else expect(mine.actual, `${t.metric} ${t.expression}`).toBeCloseTo(t.actual, 6);
    }
    expect(merged.metrics.http_reqs.values.count).toBe(k6Report.metrics.http_reqs.values.count);
  } finally {
    await target.close();
  }
});

function report(p95: number, failed: number, violations = 0, rate = 100): RunReport {
  return {
    meta: {
      profile: 'smoke',
      scenarios: ['readMix'],
      seed: 1,
      baseUrl: 'x',
      contractSample: 1,
      durationMs: 1000,
      evaluation: 'single',
    },
    passed: true,
    thresholds: [],
    metrics: {
      'http_req_duration{operation:getExecutionStatus}': {
        type: 'trend',
        values: { 'p(95)': p95, 'p(99)': p95 * 1.5, count: 10 },
      },
      http_req_failed: { type: 'rate', values: { rate: failed } },
      contract_checked: { type: 'counter', values: { count: 1000 } },
      contract_violations: { type: 'counter', values: { count: violations * 1000 } },
      http_reqs: { type: 'counter', values: { count: 100, rate } },
    },
  };
}

test('comparison flags regressions beyond tolerance and ignores noise', () => {
  const base = report(100, 0);
  const regressed = (cur: RunReport) =>
    compareReports(base, cur, DEFAULT_COMPARE)
      .rows.filter((r) => r.regression)
      .map((r) => r.measure);
  expect(regressed(report(105, 0))).toEqual([]); // +5%: within 10%
  expect(regressed(report(150, 0))).toEqual(['getExecutionStatus p(95)', 'getExecutionStatus p(99)']);
  expect(regressed(report(100, 0.02))).toEqual(['failed requests']);
  expect(regressed(report(100, 0, 0.001))).toEqual(['contract violations']);
  expect(regressed(report(100, 0, 0, 80))).toEqual(['throughput (API requests)']);
  // On loopback 1 ms → 2 ms is +100% but below the absolute floor.
  expect(compareReports(report(1, 0), report(2, 0), DEFAULT_COMPARE).rows.some((r) => r.regression)).toBe(false);
});
