/**
 * The run history and the capacity search: only a confirmed capacity seeds the next search's ramp, and a
 * search that did not converge is not recorded as a capacity (a null there would read as "no rate held").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { capacityTrend, recordCapacityRun } from '../../../core/history-store/capacity.ts';
import { targetFingerprint } from '../../../core/history-store/records.ts';
import { openHistory } from '../../../core/history-store/store.ts';
import type { CapacityReport } from '../report.ts';
import { DEFAULT_SLO } from '../../k6/lib/thresholds.ts';
import { lastCapacity, recordCapacityHistory } from './history.ts';

const TARGET = { baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'k-history-test', kind: 'external' as const };
const FINGERPRINT = targetFingerprint(TARGET.baseUrl, TARGET.apiKey, TARGET.kind);

let dir = '';
let saved: string | undefined;
test.beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wfcheck-capacity-seed-'));
  saved = process.env.WFCHECK_HISTORY;
  process.env.WFCHECK_HISTORY = join(dir, 'history.sqlite');
});
test.afterEach(() => {
  if (saved === undefined) delete process.env.WFCHECK_HISTORY;
  else process.env.WFCHECK_HISTORY = saved;
  rmSync(dir, { recursive: true, force: true });
});

function record(lifecyclesPerS: number, confirmed: boolean, day: number): void {
  const db = openHistory(process.env.WFCHECK_HISTORY).db!;
  try {
    recordCapacityRun(
      db,
      {
        startedAt: `2026-03-0${day}T00:00:00Z`,
        seed: 1,
        harnessVersion: '0.1.0',
        target: FINGERPRINT,
        exitCode: 0,
        profile: 'capacity',
        passed: true,
        operations: [],
      },
      {
        lifecyclesPerS,
        requestsPerS: lifecyclesPerS * 6,
        confirmed,
        kneeRate: lifecyclesPerS * 1.05,
        kneeGate: 'p95 of getExecutionStatus (410 ms > 300 ms)',
        generatorCeilingRps: null,
        generatorReached: false,
        steps: 12,
        mixProfile: 'average',
      },
    );
  } finally {
    db.close();
  }
}

test('the ramp is seeded by the last confirmed capacity only: an unconfirmed figure seeds nothing', () => {
  expect(lastCapacity(TARGET, undefined)).toBeUndefined();
  record(700, true, 1);
  // An older search's short-step figure, recorded unconfirmed: a later one must not start from it.
  record(512, false, 2);
  expect(lastCapacity(TARGET, undefined)).toBe(700);
});

test('a search that did not converge is not recorded as a capacity, and says so', () => {
  record(700, true, 1);
  const warnings: string[] = [];
  const incomplete = {
    meta: {
      startedAt: '2026-03-05T00:00:00Z',
      wallMs: 1000,
      seed: 1,
      baseUrl: TARGET.baseUrl,
      mixProfile: 'average',
      mix: 'lifecycle',
      readsPerLifecycle: 2,
      budgetS: 360,
      precision: 0.05,
      instances: 1,
      slo: DEFAULT_SLO,
    },
    capacity: null,
    knee: null,
    end: 'incomplete',
    ended: 'the budget ended before the confirmation step at 724/s',
    generator: { requestsPerS: null, source: 'off', reached: false },
    steps: [],
    passed: false,
  } satisfies CapacityReport;
  const history = recordCapacityHistory(incomplete, TARGET, 2, (l) => warnings.push(l));
  expect(history.map((p) => p.lifecyclesPerS)).toEqual([700]);
  expect(warnings.join('\n')).toMatch(/not recorded in the run history: the search did not converge/);
  const db = openHistory(process.env.WFCHECK_HISTORY).db!;
  try {
    expect(capacityTrend(db, { target: FINGERPRINT }, 10)).toHaveLength(1);
  } finally {
    db.close();
  }
});
