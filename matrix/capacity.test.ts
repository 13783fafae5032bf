/**
 * Capacity across versions: searches recorded under an implementation's name and version are read back per
 * implementation and per version, and shown by the implementation matrix (the latest beside the score, every
 * version on the implementation's page) and by a load run's trend page.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { capacityByVersion, capacityTrend, recordCapacityRun } from '../core/history-store/capacity.ts';
import type { LoadRunRecord } from '../core/history-store/records.ts';
import { openHistory, recordConformanceRun } from '../core/history-store/store.ts';
import { capacityTrendSection } from '../load/capacity/node/trend.ts';
import { buildMatrixSite } from './site.ts';

let dir: string;
test.beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wfcheck-capacity-history-'));
});
test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

const base = { seed: 1, harnessVersion: '0.1.0', target: 'abc:def', exitCode: 0 };

function load(name: string, version: string, day: number): LoadRunRecord {
  return {
    ...base,
    startedAt: `2026-03-0${day}T00:00:00Z`,
    name,
    targetVersion: version,
    profile: 'capacity',
    passed: true,
    operations: [{ operation: 'getExecutionStatus', requests: 900, p95Ms: 120, p99Ms: 300 }],
  };
}

const found = (lifecyclesPerS: number, knee: string) => ({
  lifecyclesPerS,
  requestsPerS: lifecyclesPerS * 6,
  confirmed: true,
  kneeRate: lifecyclesPerS * 1.1,
  kneeGate: knee,
  generatorCeilingRps: 20_000,
  generatorReached: false,
  steps: 11,
  mixProfile: 'average',
});

test('capacity per implementation and version: history, matrix and trend page', () => {
  const path = join(dir, 'history.sqlite');
  const db = openHistory(path).db!;
  try {
    recordConformanceRun(db, {
      ...base,
      startedAt: '2026-03-01T00:00:00Z',
      name: 'vendor-a',
      targetVersion: '2.0',
      requirements: [{ id: 'A-1', verdict: 'pass', rawVerdict: 'pass', waived: false, evidence: 1 }],
      tests: [],
    });
    recordCapacityRun(db, load('vendor-a', '2.0', 1), found(32, 'p95 of getExecutionStatus (410 ms > 300 ms)'));
    recordCapacityRun(db, load('vendor-a', '2.1', 2), found(16, 'p99 of runWorkflow (1210 ms > 1000 ms)'));
    const trend = capacityTrend(db, { name: 'vendor-a' }, 30);
    expect(trend.map((p) => [p.version, p.lifecyclesPerS])).toEqual([
      ['2.0', 32],
      ['2.1', 16],
    ]);
    expect(capacityByVersion(db).map((p) => p.version)).toEqual(['2.0', '2.1']);
    // A capacity search is a load run too: its profile says what it was.
    const profile = db.prepare('SELECT profile FROM load_runs').all() as { profile: string }[];
    expect(profile.map((p) => p.profile)).toEqual(['capacity', 'capacity']);
    const section = capacityTrendSection(capacityByVersion(db), []);
    expect(section).toContain('vendor-a 2.1');
    expect(section).toContain('p99 of runWorkflow (1210 ms &gt; 1000 ms) at 17.6');
  } finally {
    db.close();
  }
  const out = join(dir, 'site');
  buildMatrixSite({ historyFile: path, outDir: out });
  const grid = readFileSync(join(out, 'index.html'), 'utf8');
  expect(grid).toMatch(/<td class="num" title="first gate to break above it: p99 of runWorkflow[^"]*">16\.0\/s/);
  expect(grid).toContain('(-50% on 2.0)');
  const page = readFileSync(join(out, 'impl', 'vendor-a.html'), 'utf8');
  expect(page).toContain('<h2 id="capacity">Capacity per version</h2>');
  expect(page).toMatch(/<td>2\.0<\/td>.*<td class="num">32\.0<\/td>/);
  const json = JSON.parse(readFileSync(join(out, 'matrix.json'), 'utf8'));
  expect(json.implementations[0].capacity).toHaveLength(2);
});
