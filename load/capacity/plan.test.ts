/**
 * A capacity plan's timeline, arrival schedule and mix, and the gates of a step: what k6 is told and what
 * the Node side reads back must name the same windows and the load run's own gates.
 */
import { expect, test } from '@playwright/test';
import { DEFAULT_SLO } from '../k6/lib/thresholds.ts';
import type { MetricSummary } from '../k6/lib/run-report.ts';
import { readStep } from './figures.ts';
import { describeBreak, judgeGate, k6Thresholds, stepGates, windowedKey, worstBreak } from './gates.ts';
import { arrivalStages, type CapacityPlan, lifecycleOf, steadyEndMs, timeline, windowAt } from './plan.ts';

const PLAN: CapacityPlan = {
  steps: [
    { rate: 2, warmupS: 2, steadyS: 4 },
    { rate: 4.5, warmupS: 2, steadyS: 4 },
  ],
  readsPerLifecycle: 2,
  abortOnFail: true,
  lifecycleS: 1,
};

test('each step is a warm-up then a steady window, and the drain follows the last', () => {
  const w = timeline(PLAN);
  expect(w.map((x) => [x.name, x.fromMs, x.toMs])).toEqual([
    ['warmup', 0, 2000],
    ['s1', 2000, 6000],
    ['warmup', 6000, 8000],
    ['s2', 8000, 12000],
    ['drain', 12000, Number.POSITIVE_INFINITY],
  ]);
  expect(windowAt(w, 0).name).toBe('warmup');
  expect(windowAt(w, 5999).name).toBe('s1');
  expect(windowAt(w, 6000).name).toBe('warmup');
  expect(windowAt(w, 99_000).name).toBe('drain');
  expect(steadyEndMs(PLAN, 1)).toBe(12_000);
});

test('the arrival rate jumps to each step and holds it, lifecycles and reads together', () => {
  const s = arrivalStages(PLAN, 3);
  expect(s).toEqual({
    startRate: 360,
    timeUnit: '1m',
    stages: [
      { duration: '0s', target: 360 },
      { duration: '6000ms', target: 360 },
      { duration: '0s', target: 810 },
      { duration: '6000ms', target: 810 },
    ],
  });
});

test('one arrival in 1 + reads is a lifecycle, numbered across VUs, whatever the share', () => {
  const lifecycles = (plan: CapacityPlan, n: number) =>
    Array.from({ length: n }, (_, i) => lifecycleOf(i, plan)).filter((x) => x !== undefined);
  expect(lifecycles(PLAN, 300)).toEqual(Array.from({ length: 100 }, (_, i) => i));
  const fractional = { ...PLAN, readsPerLifecycle: 1.5 };
  expect(lifecycles(fractional, 250)).toHaveLength(100);
  expect(lifecycles({ ...PLAN, readsPerLifecycle: 0 }, 10)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

test("a step's gates are the load run's own, on its steady window, and the offered rate", () => {
  const gates = stepGates(PLAN, 1, ['getExecutionStatus', 'runWorkflow'], DEFAULT_SLO);
  const keys = gates.map((g) => `${g.key} ${g.expression}`);
  expect(keys).toContain('http_req_duration{operation:getExecutionStatus,window:s2} p(99)<800');
  expect(keys).toContain('http_req_failed{window:s2} rate<0.01');
  expect(keys).toContain('contract_violations{window:s2} count==0');
  expect(keys).toContain('workflow_completed{flow:file,window:s2} rate>=0.99');
  // 4.5/s for 4 s is 18 lifecycles; 95 % of them must have started.
  expect(keys).toContain('capacity_arrivals{window:s2} count>=17');
  expect(windowedKey('http_req_failed', 's3')).toBe('http_req_failed{window:s3}');
});

test('the ramp aborts on a step only once its steady window is over', () => {
  const t = k6Thresholds(PLAN, ['getExecutionStatus'], DEFAULT_SLO, true);
  expect(t['http_req_duration{operation:getExecutionStatus,window:s2}']).toContainEqual({
    threshold: 'p(99)<800',
    abortOnFail: true,
    delayAbortEval: '13s',
  });
  expect(t.contract_unchecked).toEqual(['count==0']);
  const bisect = k6Thresholds({ ...PLAN, abortOnFail: false }, ['getExecutionStatus'], DEFAULT_SLO, false);
  expect(bisect['http_req_failed{window:s1}']).toEqual(['rate<0.01']);
});

test('a step is read from the summary: held, or the gate furthest past its limit names its break', () => {
  const m = (values: Record<string, number>, type: MetricSummary['type'] = 'trend'): MetricSummary => ({
    type,
    values,
  });
  const metrics: Record<string, MetricSummary> = {
    'http_req_duration{operation:getExecutionStatus,window:s1}': m({ count: 400, med: 20, 'p(95)': 250, 'p(99)': 912 }),
    'http_req_failed{window:s1}': m({ rate: 0.004, passes: 2, fails: 498 }, 'rate'),
    'capacity_arrivals{window:s1}': m({ count: 8 }, 'counter'),
    // No lifecycle finished in the window: no sample, which is no break.
    'workflow_completed{window:s1}': m({ rate: 0, passes: 0, fails: 0 }, 'rate'),
  };
  const step = readStep({
    plan: PLAN,
    step: 0,
    index: 3,
    purpose: 'bisect',
    metrics,
    operations: ['getExecutionStatus'],
    slo: DEFAULT_SLO,
  });
  expect(step.held).toBe(false);
  expect(step.requestsPerS).toBe(100);
  expect(step.lifecyclesPerS).toBe(2);
  expect(step.completion).toBeNull();
  expect(describeBreak(step.broke!)).toBe('p99 of getExecutionStatus (912 ms > 800 ms)');
  // Offloaded verdicts counted in the window by the Node checker break the contract gate, first of all.
  const withViolation = readStep({
    plan: PLAN,
    step: 0,
    index: 3,
    purpose: 'bisect',
    metrics,
    operations: ['getExecutionStatus'],
    slo: DEFAULT_SLO,
    nodeViolations: 2,
  });
  expect(describeBreak(withViolation.broke!)).toBe('contract violations (2 ≠ 0)');
});

test('gates read in words', () => {
  const failed = judgeGate({ key: 'http_req_failed{window:s1}', expression: 'rate<0.01' }, 0.032);
  expect(describeBreak(failed)).toBe('failed requests (3.20% > 1.00%)');
  const completion = judgeGate({ key: 'workflow_completed{window:s1}', expression: 'rate>=0.99' }, 0.971);
  expect(describeBreak(completion)).toBe('workflow completion (97% < 99%)');
  const held = judgeGate({ key: 'capacity_arrivals{window:s1}', expression: 'count>=17' }, 12);
  expect(describeBreak(held)).toBe('offered rate held (lifecycles started) (12 < 17)');
  expect(worstBreak([failed, completion, held])).toBe(failed);
});
