/**
 * --baseline without k6: a search whose capacity fell by more than the tolerance fails, and its text and
 * JUnit name the fall and the gate that broke first above the new capacity; within the tolerance it passes;
 * a search that did not converge is not compared at all.
 */
import { expect, test } from '@playwright/test';
import { type CapacityMeta, capacityJunit, capacityText, type CapacityReport, exitCodeOf } from '../report.ts';
import { exampleStep as step } from '../k6/step-examples.ts';
import { DEFAULT_SLO } from '../../k6/lib/thresholds.ts';
import { compareCapacity } from './baseline.ts';
import { buildCapacityReport } from './report-files.ts';

const META: CapacityMeta = {
  startedAt: '2026-01-01T00:00:00.000Z',
  wallMs: 170_000,
  seed: 1,
  baseUrl: 'http://127.0.0.1:4010/v1',
  mixProfile: 'average',
  mix: 'lifecycle',
  readsPerLifecycle: 2,
  budgetS: 180,
  precision: 0.05,
  instances: 1,
  slo: DEFAULT_SLO,
};

/** A search that held `capacity` (confirmed) and broke a little above it. */
function searched(capacity: number, baseline?: (r: CapacityReport) => ReturnType<typeof compareCapacity>) {
  const steps = [step(1, capacity, true), step(2, capacity * 1.1, false), step(3, capacity, true, 'confirm')];
  return buildCapacityReport(
    { meta: META, steps, end: 'found', ended: 'confirmed', ceiling: { requestsPerS: 10_000, source: 'given' } },
    baseline,
  );
}

test('a capacity fallen past the tolerance fails the search, naming the fall and the gate that broke first', () => {
  const base = searched(32);
  const fallen = searched(16, (r) => compareCapacity(base, r, 'baseline.json', 0.1));
  expect(fallen.baseline).toMatchObject({ lifecyclesPerS: 32, change: -0.5, regressed: true });
  expect(fallen.passed).toBe(false);
  const text = capacityText(fallen);
  expect(text).toContain("REGRESSED: capacity -50.0% against the baseline's 32.0 lifecycles/s");
  expect(text).toContain(
    'capacity: 16.0 lifecycles/s (96.0 requests/s) with every gate held; first gate to break above it: p99 of getExecutionStatus (912 ms > 800 ms) at 17.6/s',
  );
  expect(text).toMatch(/VERDICT: FAIL\n$/);
  const junit = capacityJunit(fallen).suites[0]!.cases.find((c) => c.name === 'capacity against the baseline');
  expect(junit?.failure?.message).toMatch(/REGRESSED.*first gate to break above it: p99 of getExecutionStatus/);
});

test('a capacity within the tolerance, or above the baseline, passes', () => {
  const base = searched(32);
  expect(searched(30, (r) => compareCapacity(base, r, 'baseline.json', 0.1)).passed).toBe(true);
  expect(searched(40, (r) => compareCapacity(base, r, 'baseline.json', 0.1)).baseline?.change).toBe(0.25);
  // No capacity at all where the baseline had one is the largest fall there is.
  const none = buildCapacityReport(
    {
      meta: META,
      steps: [step(1, 2, false)],
      end: 'none',
      ended: 'even 2/s broke a gate',
      ceiling: { requestsPerS: null, source: 'off' },
    },
    (r) => compareCapacity(base, r, 'baseline.json', 0.1),
  );
  expect(none.baseline).toMatchObject({ change: -1, regressed: true });
  expect(capacityText(none)).toMatch(
    /capacity: none — p99 of getExecutionStatus \(912 ms > 800 ms\) already at 2\.00\/s/,
  );
});

test('a search that did not converge is not set against the baseline: no capacity, INCOMPLETE, exit 2', () => {
  const base = searched(32);
  // Short ramp steps held up to 512/s, 1024/s broke, and the budget ended before bisection could narrow it.
  const steps = [step(1, 256, true, 'ramp'), step(2, 512, true, 'ramp'), step(3, 1024, false, 'ramp')];
  const r = buildCapacityReport(
    {
      meta: META,
      steps,
      end: 'incomplete',
      ended: 'the budget ended with the knee between 512/s and 1024/s, wider than the 5% precision',
      ceiling: { requestsPerS: null, source: 'off' },
    },
    (x) => compareCapacity(base, x, 'baseline.json', 0.1),
  );
  expect(r.capacity).toBeNull();
  expect(r.baseline).toBeUndefined();
  expect(exitCodeOf(r)).toBe(2);
  const text = capacityText(r);
  expect(text).toContain(
    'capacity: not found — the search did not converge: the budget ended with the knee between 512/s and 1024/s, wider than the 5% precision; no rate is given as the capacity',
  );
  expect(text).not.toMatch(/with every gate held/);
  expect(text).toMatch(/VERDICT: INCOMPLETE\n$/);
  const cases = capacityJunit(r).suites[0]!.cases;
  expect(cases.find((c) => c.name === 'capacity with every gate held')?.skipped?.message).toMatch(
    /^capacity: not found/,
  );
  expect(cases.some((c) => c.failure)).toBe(false);
});
