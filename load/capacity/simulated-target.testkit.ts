/**
 * A capacity search run against a simulated target on a simulated clock, for the search's tests: no k6,
 * milliseconds a search. The target holds every gate up to a known capacity — a step at a rate holds when
 * the rate is below the capacity, a little above it for a shorter step (a queue grows slowly at its limit,
 * so a short step may hold where a long one does not), moved by seeded noise (one measurement's luck on a
 * shared machine). Each k6 process costs what one costs on 2 cores (k6's start, every VU's start, the
 * drain), and the search learns that cost as the real driver does (load/capacity/cost.ts).
 */
import { ProcessCost } from './cost.ts';
import type { StepFigures } from './figures.ts';
import { type CapacityPlan, plannedVus } from './plan.ts';
import { nextRun, type SearchEnd, type SearchSettings } from './search.ts';
import { exampleStep } from './k6/step-examples.ts';

export interface SimulatedTarget {
  /** The highest rate a confirmation-length step (15 s) holds, without noise. */
  capacity: number;
  /**
   * How far above the capacity a short step still holds: this share times (15 s / its steady seconds − 1).
   * The default, 0.07, is what the reference target showed on 2 cores: a 4 s ramp step held 1,024/s where
   * no 15 s step held 885/s (+19 %), an 8 s bisection step holds about 6 % above.
   */
  shortStepBonus?: number;
  /** The standard deviation of one step's noise, as a share of the capacity (0.03: ±3 %). */
  noise?: number;
  seed?: number;
  /** The share of steps that break whatever their rate: another process took the machine then. */
  busy?: number;
  /** Steps (by index, 1-based) that break whatever their rate, as `busy` but chosen. */
  hiccups?: readonly number[];
}

/** What a process costs on the simulated machine; the search does not know it, it learns it. */
export interface SimulatedMachine {
  /** k6's own start, seconds. */
  fixedS: number;
  /** Seconds to start one VU. */
  perVuS: number;
  /** Seconds after the last step until the process has ended. */
  drainS: number;
  /** Seconds of discovery before the first step. */
  discoveryS: number;
}

/**
 * The reference target's machine: 2 cores shared by k6, the Node checker and the target, the machine
 * otherwise quiet (k6 started 1,477 VUs of the suite in 6.8 s there, 3,810 in 25 s, and takes about 2 s
 * to start itself).
 */
export const TWO_CORES: SimulatedMachine = { fixedS: 2, perVuS: 0.006, drainS: 3, discoveryS: 10 };

/** mulberry32: a small seeded PRNG, so every simulated search can be replayed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal deviate (Box–Muller) from a uniform source. */
const gaussian = (rnd: () => number) => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());

export interface SimulatedSearch {
  steps: StepFigures[];
  end: SearchEnd;
  why: string;
  /** Simulated seconds the search took, discovery included. */
  usedS: number;
}

const CONFIRM_LENGTH_S = 15;

/** Whether a step held, on the target as described. */
function holds(t: SimulatedTarget, rnd: () => number, rate: number, steadyS: number, index: number): boolean {
  if (rnd() < (t.busy ?? 0) || t.hiccups?.includes(index)) return false;
  const bonus = (t.shortStepBonus ?? 0.07) * Math.max(0, CONFIRM_LENGTH_S / steadyS - 1);
  return rate <= t.capacity * (1 + bonus) * (1 + (t.noise ?? 0) * gaussian(rnd));
}

/** Runs the search to its end; every decision is the search's own (load/capacity/search.ts). */
export function simulateSearch(
  settings: SearchSettings,
  target: SimulatedTarget,
  machine: SimulatedMachine = TWO_CORES,
): SimulatedSearch {
  const rnd = seeded(target.seed ?? 1);
  const steps: StepFigures[] = [];
  const cost = new ProcessCost();
  let usedS = machine.discoveryS;
  for (let guard = 0; guard < 100; guard++) {
    const next = nextRun(settings, steps, { leftS: settings.budgetS - usedS, costS: (p) => cost.of(p) });
    if (next.kind === 'done') return { steps, end: next.end, why: next.why, usedS };
    const startupS = machine.fixedS + machine.perVuS * plannedVus(next.plan);
    const ran = runSteps(next.plan, next.purpose, steps.length, (rate, steadyS, index) =>
      holds(target, rnd, rate, steadyS, index),
    );
    steps.push(...ran.steps);
    const wallS = startupS + ran.seconds + machine.drainS;
    usedS += wallS;
    cost.learn(next.plan, { startupMs: startupS * 1000, wallMs: wallS * 1000, ranS: ran.seconds, settledS: 0 });
  }
  throw new Error('the search did not end within 100 processes');
}

/** The steps one process reaches: a ramp stops at its first break (noticed a second after its window). */
function runSteps(
  plan: CapacityPlan,
  purpose: StepFigures['purpose'],
  before: number,
  held: (rate: number, steadyS: number, index: number) => boolean,
): { steps: StepFigures[]; seconds: number } {
  const steps: StepFigures[] = [];
  let seconds = 0;
  for (const s of plan.steps) {
    const index = before + steps.length + 1;
    const ok = held(s.rate, s.steadyS, index);
    steps.push({ ...exampleStep(index, s.rate, ok, purpose), warmupS: s.warmupS, steadyS: s.steadyS });
    seconds += s.warmupS + s.steadyS;
    if (!ok && plan.abortOnFail) return { steps, seconds: seconds + 1 };
  }
  return { steps, seconds };
}
