/**
 * The capacity search's decisions on a simulated target (no k6): a target that holds every gate up to a
 * known rate, with or without noise, must come out at that rate within the search's precision, confirmed,
 * inside the budget; one that breaks at once, or never, must say so.
 */
import { expect, test } from '@playwright/test';
import type { StepFigures, StepPurpose } from './figures.ts';
import { type CapacityPlan, planSeconds } from './plan.ts';
import { headline, resultOf } from './report.ts';
import { nextRun, type SearchSettings } from './search.ts';
import { exampleStep } from './k6/step-examples.ts';

const SETTINGS: SearchSettings = {
  budgetS: 180,
  startRate: 2,
  rampFactor: 2,
  rampWarmupS: 2,
  rampSteadyS: 4,
  stepWarmupS: 2,
  stepSteadyS: 8,
  confirmSteadyS: 15,
  precision: 0.05,
  maxRate: 10_000,
  readsPerLifecycle: 2,
  lifecycleS: 1,
};

/** A step of a target that holds every gate up to `capacity` (short ramp steps a little above it). */
function simulate(capacity: number, rate: number, purpose: StepPurpose, index: number): StepFigures {
  const tolerance = purpose === 'ramp' ? 1.05 : 1;
  const step = exampleStep(index, rate, rate <= capacity * tolerance, purpose);
  return { ...step, gates: [] };
}

/** Runs the search against a simulated target on a simulated clock; the steps it ran and why it ended. */
function search(capacity: number, settings = SETTINGS, overheadS = 4) {
  const steps: StepFigures[] = [];
  let usedS = 15; // discovery
  const costS = (p: CapacityPlan) => planSeconds(p) + overheadS;
  for (let guard = 0; guard < 50; guard++) {
    const next = nextRun(settings, steps, { leftS: settings.budgetS - usedS, costS });
    if (next.kind === 'done') return { steps, why: next.why, usedS };
    // A ramp stops at its first break: only the steps it ran take time (and a second to notice the break).
    usedS += overheadS;
    for (const s of next.plan.steps) {
      const step = simulate(capacity, s.rate, next.purpose, steps.length + 1);
      steps.push(step);
      usedS += s.warmupS + s.steadyS;
      if (!step.held && next.plan.abortOnFail) break;
    }
  }
  throw new Error('the search did not end');
}

test('finds a known capacity within its precision, confirmed, inside the budget', () => {
  for (const capacity of [3.3, 17, 31.6, 250, 1400]) {
    const { steps, usedS } = search(capacity);
    const { capacity: found, knee } = resultOf(steps);
    expect(found, `capacity ${capacity}`).not.toBeNull();
    expect(found!.lifecyclesPerS).toBeLessThanOrEqual(capacity);
    expect(found!.lifecyclesPerS, `capacity ${capacity}: ${steps.map((s) => s.rate).join(' ')}`).toBeGreaterThan(
      capacity / (1 + 2 * SETTINGS.precision),
    );
    expect(found!.confirmed).toBe(true);
    expect(knee!.rate).toBeGreaterThan(found!.lifecyclesPerS);
    expect(usedS).toBeLessThanOrEqual(SETTINGS.budgetS);
  }
});

test('the ramp brackets, bisection narrows and a longer step confirms, in that order', () => {
  const { steps } = search(31.6);
  const purposes = steps.map((s) => s.purpose);
  expect(purposes[0]).toBe('ramp');
  expect(purposes.indexOf('bisect')).toBeGreaterThan(purposes.lastIndexOf('ramp'));
  expect(purposes.at(-1)).toBe('confirm');
  // The ramp stopped at its first break: no ramp step above a broken one.
  const ramp = steps.filter((s) => s.purpose === 'ramp');
  expect(ramp.filter((s) => !s.held)).toHaveLength(1);
  expect(ramp.at(-1)!.held).toBe(false);
});

test('a short ramp step that held above the capacity is corrected by the confirmation', () => {
  // Ramp steps hold up to 5 % above the capacity; 32/s is one of the ramp's rates.
  const { steps } = search(31);
  const { capacity } = resultOf(steps);
  expect(capacity!.lifecyclesPerS).toBeLessThanOrEqual(31);
  expect(capacity!.confirmed).toBe(true);
});

test('a target that breaks at the lowest rate has no capacity; one that never breaks has a lower bound', () => {
  const none = search(0.05);
  expect(resultOf(none.steps).capacity).toBeNull();
  expect(headline({ ...resultOf(none.steps), ended: none.why, generator: unknownCeiling })).toMatch(
    /^capacity: none — p99 of getExecutionStatus \(912 ms > 800 ms\) already at /,
  );
  const all = search(1e9, { ...SETTINGS, maxRate: 100 });
  const result = resultOf(all.steps);
  expect(result.knee).toBeNull();
  expect(headline({ ...result, ended: all.why, generator: unknownCeiling })).toMatch(
    /^capacity: at least 64\.0 lifecycles\/s .* no rate tried broke a gate \(every step held up to 64\/s, the highest rate allowed\)/,
  );
});

const unknownCeiling = { requestsPerS: null, source: 'not measured', reached: false };

test('a tiny budget ends the search early, never past its end', () => {
  const { usedS, why } = search(31.6, { ...SETTINGS, budgetS: 60 });
  expect(usedS).toBeLessThanOrEqual(60);
  expect(why).toMatch(/budget|confirmed/);
});

test('the headline names the capacity, the requests it took and the gate that broke first above it', () => {
  const { steps } = search(31.6);
  const r = resultOf(steps);
  expect(headline({ ...r, ended: 'confirmed', generator: unknownCeiling })).toBe(
    `capacity: ${r.capacity!.lifecyclesPerS.toFixed(1)} lifecycles/s (${(r.capacity!.lifecyclesPerS * 6).toFixed(0)} requests/s) with every gate held; first gate to break above it: p99 of getExecutionStatus (912 ms > 800 ms) at ${r.knee!.rate.toFixed(1)}/s`,
  );
});

test("a ramp above a rate that held climbs while its VU pool stays near the held rate's: sized for its top", () => {
  const clock = { leftS: 170, costS: (p: CapacityPlan) => planSeconds(p) + 4 };
  // 256/s held: 512 needs twice its VUs, 1024 four times: one step.
  const high = nextRun(SETTINGS, [simulate(1e9, 256, 'ramp', 1)], clock);
  expect(high.kind === 'run' && high.purpose).toBe('ramp');
  expect(high.kind === 'run' && high.plan.steps.map((s) => s.rate)).toEqual([512]);
  // 4/s held: a pool of a few VUs, several doublings still start in a second or two.
  const low = nextRun(SETTINGS, [simulate(1e9, 4, 'ramp', 1)], clock);
  expect(low.kind === 'run' && low.plan.steps.map((s) => s.rate)).toEqual([8, 16, 32, 64, 128]);
  // The first ramp, from the start rate, is bounded by the budget alone.
  const first = nextRun(SETTINGS, [], clock);
  expect(first.kind === 'run' && first.plan.steps.length).toBeGreaterThan(5);
});
