/**
 * The search for the highest arrival rate at which every gate holds: what to run next, given the steps run
 * so far and the time left. A coarse ramp (rates growing by a factor, one process, stopped at its first
 * break) brackets the knee; bisection between the highest rate that held and the lowest that broke narrows
 * it to the precision with steps long enough to be steady; a longer step at the rate found confirms it.
 *
 * The search converges or says it did not: a capacity is only the rate a confirmation step held with the
 * lowest rate that broke within the precision above it (or, when nothing broke up to the highest rate
 * allowed, that rate confirmed). Every step is started only when it fits the budget together with what
 * must still follow it to converge — the bisection steps left and the confirmation — so a ramp can never
 * spend the time the confirmation needs; when even that does not fit, the search ends at once as
 * incomplete, with no figure given as the capacity.
 *
 * Pure: decisions only (load/capacity/node/search.ts runs them), so a simulated target can test the search.
 */
import type { StepFigures } from './figures.ts';
import { type CapacityPlan, plannedVus, roundRate } from './plan.ts';

export interface SearchSettings extends StepLengths {
  /** Seconds the whole search may take, discovery included. */
  budgetS: number;
  /** The coarse ramp's first rate, in lifecycles per second. */
  startRate: number;
  /** Each ramp step's rate over the previous one's. */
  rampFactor: number;
  /** The search has converged when the highest held and the lowest broken rate are this close (0.05: 5 %). */
  precision: number;
  /** No rate above this is tried (the generator's ceiling, or the user's). */
  maxRate: number;
  readsPerLifecycle: number;
  lifecycleS: number;
}

export interface StepLengths {
  rampWarmupS: number;
  rampSteadyS: number;
  /** Bisection steps: long enough that a p99 rests on hundreds of requests. */
  stepWarmupS: number;
  stepSteadyS: number;
  confirmSteadyS: number;
}

/** The default budget: a cold search (no history) of the reference target on 2 cores converges within it. */
export const DEFAULT_BUDGET_S = 420;

/** The command's defaults besides the budget and the steps' lengths (load/capacity/node/command.ts). */
export const SEARCH_DEFAULTS = {
  /** A trickle any target holds: the ramp's first rate when neither --start-rate nor the history gives one. */
  startRate: 2,
  rampFactor: 2,
  precision: 0.05,
  maxRate: 10_000,
} as const;

/** Below this budget the steps are short (tests against small targets): a step must still fit many times. */
const SHORT_BUDGET_S = 90;

/** The steps' lengths for a budget. */
export function stepLengths(budgetS: number): StepLengths {
  const short = budgetS < SHORT_BUDGET_S;
  return {
    rampWarmupS: short ? 1 : 2,
    rampSteadyS: short ? 3 : 4,
    stepWarmupS: short ? 1 : 2,
    stepSteadyS: short ? 4 : 8,
    confirmSteadyS: short ? 5 : 15,
  };
}

/** Below this rate a target holds nothing worth a step: the search ends with no capacity. */
export const MIN_RATE = 0.1;
/** Confirmation steps in all (anchors, bisection by confirmations, the last): a bound, the budget comes first. */
export const MAX_CONFIRMATIONS = 10;

/**
 * How a search ended: `found` (a capacity, confirmed), `none` (even the lowest rate tried broke a gate: no
 * rate holds), `incomplete` (the budget or the confirmations ran out first: no capacity is known).
 */
export type SearchEnd = 'found' | 'none' | 'incomplete';

export type NextRun =
  | { kind: 'run'; purpose: 'ramp' | 'bisect' | 'recheck' | 'confirm'; plan: CapacityPlan }
  | { kind: 'done'; end: SearchEnd; why: string };

export interface Bracket {
  /** The highest rate that held below every rate that broke; undefined when none held. */
  held?: StepFigures;
  /** The lowest rate that broke; undefined when every step held. */
  broke?: StepFigures;
}

/**
 * A ramp step that broke, then held when rechecked at its rate by a longer step: the break was the
 * moment's (another process took the machine for a few seconds), not the rate's.
 */
function overruled(s: StepFigures, steps: readonly StepFigures[]): boolean {
  return (
    s.purpose === 'ramp' &&
    steps.some((x) => x.purpose === 'recheck' && x.held && x.rate >= s.rate && x.index > s.index)
  );
}

/**
 * The bracket of the steps so far: a held rate above a broken one (noise near the knee) does not count,
 * nor a ramp step's break that its recheck did not repeat.
 */
export function bracket(steps: readonly StepFigures[]): Bracket {
  const broke = steps
    .filter((s) => !s.held && !overruled(s, steps))
    .sort((a, b) => a.rate - b.rate || b.index - a.index)[0];
  const held = steps
    .filter((s) => s.held && (broke === undefined || s.rate < broke.rate))
    .sort((a, b) => b.rate - a.rate || confirmedFirst(a, b))[0];
  return { ...(held ? { held } : {}), ...(broke ? { broke } : {}) };
}

const confirmedFirst = (a: StepFigures, b: StepFigures) =>
  (b.purpose === 'confirm' ? 1 : 0) - (a.purpose === 'confirm' ? 1 : 0) || b.index - a.index;

/** Whether the rate found was confirmed: a confirmation step at it held. */
export function confirmed(steps: readonly StepFigures[], rate: number | undefined): boolean {
  return rate !== undefined && steps.some((s) => s.purpose === 'confirm' && s.rate === rate && s.held);
}

/** Rates are rounded to 3 significant digits: a bracket within the precision by half a percent more is narrow. */
const ROUNDING = 1.005;

/** Whether the bracket is within the precision (or bisection can no longer split it). */
export function narrow(held: number, broke: number, precision: number): boolean {
  const mid = roundRate(Math.sqrt(held * broke));
  return broke / held <= (1 + precision) * ROUNDING || mid <= held || mid >= broke;
}

/** Bisection steps that narrow a bracket to the precision: each one halves its width on a log scale. */
export function stepsToNarrow(held: number, broke: number, precision: number): number {
  if (narrow(held, broke, precision)) return 0;
  return Math.ceil(Math.log2(Math.log(broke / held) / Math.log((1 + precision) * ROUNDING)));
}

function plan(s: SearchSettings, rates: number[], warmupS: number, steadyS: number, abortOnFail: boolean) {
  return {
    steps: rates.map((rate) => ({ rate, warmupS, steadyS })),
    readsPerLifecycle: s.readsPerLifecycle,
    abortOnFail,
    lifecycleS: s.lifecycleS,
  } satisfies CapacityPlan;
}

const stepPlan = (s: SearchSettings, rate: number) => plan(s, [rate], s.stepWarmupS, s.stepSteadyS, false);
const confirmPlan = (s: SearchSettings, rate: number) => plan(s, [rate], s.stepWarmupS, s.confirmSteadyS, false);

export interface SearchClock {
  /** Seconds left in the budget. */
  leftS: number;
  /** What a plan would take, its process's start and drain included (as measured so far). */
  costS: (plan: CapacityPlan) => number;
}

/**
 * Seconds the search still needs once the knee lies between `held` and `broke`: the bisection steps that
 * narrow it to the precision (confirmation steps once one broke: `long`) and the confirmation, each at
 * the bracket's middle (a step's cost grows with its rate: its VUs).
 */
export function convergeS(s: SearchSettings, clock: SearchClock, held: number, broke: number, long = false): number {
  const mid = roundRate(Math.sqrt(held * broke));
  const step = clock.costS(long ? confirmPlan(s, mid) : stepPlan(s, mid));
  return stepsToNarrow(held, broke, s.precision) * step + clock.costS(confirmPlan(s, mid));
}

/**
 * A ramp pre-allocates its VUs for its top step, and a high rate costs hundreds of VUs to start
 * (load/capacity/cost.ts), paid in full even when the ramp breaks at its first steps: the first ramp's
 * pool is at most RAMP_VU_ROOM (2/s to 256/s), and one that continues above a rate that held may grow to
 * RAMP_VU_GROWTH times the held rate's, or to RAMP_VU_ROOM. Two doublings above 724/s once asked for 4,000
 * VUs, half a minute of a 3-minute budget that bisection then lacked; a first ramp sized for 512/s on a
 * busy machine took 46 s to start, and broke at 128/s.
 */
const RAMP_VU_GROWTH = 2.5;
const RAMP_VU_ROOM = 400;

/**
 * The ramp's rates from `from` up (the highest rate allowed as its last step when the factor would pass
 * it): as many as fit the budget with the bisection and confirmation a break at the top would need, and
 * as `maxVus` allows.
 */
function rampPlan(s: SearchSettings, from: number, clock: SearchClock, maxVus: number) {
  let best: CapacityPlan | undefined;
  const rates: number[] = [];
  const top = roundRate(s.maxRate);
  for (let r = from; rates.at(-1) !== top; r *= s.rampFactor) {
    const rate = Math.min(roundRate(r), top);
    rates.push(rate);
    const candidate = plan(s, [...rates], s.rampWarmupS, s.rampSteadyS, true);
    // A break at the top: the rate below it anchored by a confirmation, then bisection and confirmation.
    const below = rate / s.rampFactor;
    const need = clock.costS(candidate) + clock.costS(confirmPlan(s, below)) + convergeS(s, clock, below, rate);
    // The first step is always allowed by the pool (the search must climb); later ones within it.
    if (need > clock.leftS || (rates.length > 1 && plannedVus(candidate) > maxVus)) break;
    best = candidate;
  }
  return best;
}

const run = (purpose: Extract<NextRun, { kind: 'run' }>['purpose'], p: CapacityPlan): NextRun => ({
  kind: 'run',
  purpose,
  plan: p,
});
const done = (end: SearchEnd, why: string): NextRun => ({ kind: 'done', end, why });

/** What to run next, or why the search is over and how it ended. */
export function nextRun(s: SearchSettings, steps: readonly StepFigures[], clock: SearchClock): NextRun {
  const { held, broke } = bracket(steps);
  if (!broke) return climb(s, steps, held, clock);
  if (!held) return descend(s, broke, clock);
  return narrowDown(s, steps, held, broke, clock);
}

/** Nothing broke yet: the ramp climbs on, or — at the highest rate allowed — confirms the top. */
function climb(s: SearchSettings, steps: readonly StepFigures[], held: StepFigures | undefined, clock: SearchClock) {
  if (held && held.rate >= roundRate(s.maxRate)) {
    const why = `every step held up to ${held.rate}/s, the highest rate allowed`;
    if (confirmed(steps, held.rate)) return done('found', `${why}, confirmed`);
    return confirmOrEnd(s, steps, held.rate, clock, why);
  }
  const from = held ? held.rate * s.rampFactor : s.startRate;
  const pool = held
    ? Math.max(RAMP_VU_ROOM, RAMP_VU_GROWTH * plannedVus(plan(s, [held.rate], 0, 1, true)))
    : RAMP_VU_ROOM;
  const ramp = rampPlan(s, from, clock, pool);
  if (ramp) return run('ramp', ramp);
  const rate = roundRate(Math.min(from, s.maxRate));
  const below = rate / s.rampFactor;
  const need =
    clock.costS(plan(s, [rate], s.rampWarmupS, s.rampSteadyS, true)) +
    clock.costS(confirmPlan(s, below)) +
    convergeS(s, clock, below, rate);
  const what = `a ramp step at ${rate}/s with the confirmations and bisection after it ${needs(need, clock)}`;
  return done(
    'incomplete',
    held
      ? `every step held up to ${held.rate}/s, and the budget left cannot hold ${what}`
      : `the budget cannot hold ${what}`,
  );
}

/** How far short the budget is: what the rest of the search needs against what is left. */
const needs = (needS: number, clock: SearchClock) =>
  `(about ${Math.ceil(needS)}s needed, ${Math.max(0, Math.floor(clock.leftS))}s left)`;

/** The lowest rate tried broke: a step lower by the ramp's factor. */
function descend(s: SearchSettings, broke: StepFigures, clock: SearchClock) {
  const lower = roundRate(broke.rate / s.rampFactor);
  if (lower < MIN_RATE) return done('none', `even ${broke.rate}/s broke a gate`);
  const need = clock.costS(stepPlan(s, lower)) + convergeS(s, clock, lower, broke.rate);
  if (need > clock.leftS)
    return done(
      'incomplete',
      `${broke.rate}/s broke a gate, and the budget left cannot hold the search below it ${needs(need, clock)}`,
    );
  return run('bisect', stepPlan(s, lower));
}

/**
 * A bracket: its lower end anchored by a confirmation, bisected to the precision, a break only a ramp step
 * saw rechecked, the rate found confirmed. Once a confirmation broke, the search is on confirmation-length
 * steps: it bisects with confirmations between the highest rate confirmed and the lowest that broke.
 */
function narrowDown(
  s: SearchSettings,
  steps: readonly StepFigures[],
  held: StepFigures,
  broke: StepFigures,
  clock: SearchClock,
): NextRun {
  const long = steps.some((x) => x.purpose === 'confirm' && !x.held);
  const between = `the knee lies between ${held.rate}/s and ${broke.rate}/s`;
  // A confirmation broke at or just below a rate a bisection step held: an 8 s step near the knee may hold
  // where a 15 s one does not (a queue grows slowly at its limit), so the longer step's knee lies just
  // below. Up to two confirmations a precision lower each, before bisecting with confirmations.
  const last = steps[steps.length - 1];
  const bisected = Math.max(0, ...steps.filter((x) => x.purpose === 'bisect' && x.held).map((x) => x.rate));
  const nearBisected = bisected > 0 && last?.rate !== undefined && last.rate * (1 + s.precision) * ROUNDING >= bisected;
  if (last === broke && last.purpose === 'confirm' && nearBisected) {
    const lower = roundRate(broke.rate / (1 + s.precision));
    if (lower > held.rate) return confirmOrEnd(s, steps, lower, clock, `the confirmation at ${broke.rate}/s broke`);
  }
  if (!narrow(held.rate, broke.rate, s.precision)) {
    if (needsAnchor(s, steps, held, broke, long))
      return confirmOrEnd(s, steps, held.rate, clock, between, convergeS(s, clock, held.rate, broke.rate, long));
    const mid = roundRate(Math.sqrt(held.rate * broke.rate));
    const after = convergeS(s, clock, held.rate, mid, long);
    if (long) return confirmOrEnd(s, steps, mid, clock, between, after);
    const need = clock.costS(stepPlan(s, mid)) + after;
    if (need > clock.leftS)
      return done(
        'incomplete',
        `the budget ended with ${between}, wider than the ${pct(s.precision)} precision ${needs(need, clock)}`,
      );
    return run('bisect', stepPlan(s, mid));
  }
  // Only a short step, in a process shared with the steps below it, saw this break, and every longer step
  // below it held: one burst of another process on the machine can make such a break, far below the knee.
  // A bisection step at its rate decides whether it counts (if it holds, the ramp climbs on from there).
  const recheck = stepPlan(s, broke.rate);
  if (broke.purpose === 'ramp' && clock.costS(recheck) + clock.costS(confirmPlan(s, held.rate)) <= clock.leftS)
    return run('recheck', recheck);
  if (confirmed(steps, held.rate))
    return done(
      'found',
      `confirmed at ${held.rate}/s; ${broke.rate}/s broke, within the ${pct(s.precision)} precision`,
    );
  return confirmOrEnd(s, steps, held.rate, clock, between);
}

/**
 * Whether the bracket's lower end must hold a confirmation before the search narrows above it: a rate
 * only a ramp step held (4 s, in a process whose load grew step by step) may lie far above what a longer
 * step holds — a ramp once held 1,024/s where no 15 s step held 885/s, and four bisection steps above it
 * all broke. Once a confirmation broke, any rate only shorter steps held is as weak, unless it lies a
 * ramp's factor or more below that break.
 */
function needsAnchor(
  s: SearchSettings,
  steps: readonly StepFigures[],
  held: StepFigures,
  broke: StepFigures,
  long: boolean,
): boolean {
  if (confirmed(steps, held.rate)) return false;
  if (long) return !(broke.purpose === 'confirm' && held.rate * s.rampFactor <= broke.rate * ROUNDING);
  return held.purpose === 'ramp';
}

const pct = (p: number) => `${Math.round(p * 1000) / 10}%`;

/**
 * A confirmation at `rate` when one is left and it fits with what must follow it (`afterS`); else the
 * search ends incomplete, saying why.
 */
function confirmOrEnd(
  s: SearchSettings,
  steps: readonly StepFigures[],
  rate: number,
  clock: SearchClock,
  why: string,
  afterS = 0,
) {
  const tries = steps.filter((x) => x.purpose === 'confirm').length;
  if (tries >= MAX_CONFIRMATIONS) return done('incomplete', `${why}, and no confirmation held in ${tries} tries`);
  const need = clock.costS(confirmPlan(s, rate)) + afterS;
  if (need > clock.leftS)
    return done(
      'incomplete',
      `${why}, and the budget cannot hold the confirmation step at ${rate}/s and what must follow it ${needs(need, clock)}`,
    );
  return run('confirm', confirmPlan(s, rate));
}
