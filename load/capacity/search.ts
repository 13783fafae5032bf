/**
 * The search for the highest arrival rate at which every gate holds: what to run next, given the steps run
 * so far and the time left. A coarse ramp (rates growing by a factor, one process, stopped at its first
 * break) brackets the knee; bisection between the highest rate that held and the lowest that broke narrows
 * it with steps long enough to be steady; a longer step at the rate found confirms it. Everything is
 * bounded by the budget: a step that would not fit is not started.
 *
 * Pure: decisions only (load/capacity/node/search.ts runs them), so a fake target can test the search.
 */
import type { StepFigures } from './figures.ts';
import { type CapacityPlan, plannedVus, roundRate } from './plan.ts';

export interface SearchSettings {
  /** Seconds the whole search may take, discovery included. */
  budgetS: number;
  /** The coarse ramp's first rate, in lifecycles per second. */
  startRate: number;
  /** Each ramp step's rate over the previous one's. */
  rampFactor: number;
  rampWarmupS: number;
  rampSteadyS: number;
  /** Bisection steps: long enough that a p99 rests on hundreds of requests. */
  stepWarmupS: number;
  stepSteadyS: number;
  confirmSteadyS: number;
  /** Bisection stops when the highest held and the lowest broken rate are this close (0.05: within 5 %). */
  precision: number;
  /** No rate above this is tried (the generator's ceiling, or the user's). */
  maxRate: number;
  readsPerLifecycle: number;
  lifecycleS: number;
}

/** Below this rate a target holds nothing worth a step: the search ends with no capacity. */
export const MIN_RATE = 0.1;
/** Share of the budget the coarse ramp may use: bisection and confirmation need the rest. */
const RAMP_SHARE = 0.4;
/** A failed confirmation steps down and confirms again, at most this many times. */
const MAX_CONFIRMATIONS = 3;

export type NextRun =
  | { kind: 'run'; purpose: 'ramp' | 'bisect' | 'confirm'; plan: CapacityPlan }
  | { kind: 'done'; why: string };

export interface Bracket {
  /** The highest rate that held below every rate that broke; undefined when none held. */
  held?: StepFigures;
  /** The lowest rate that broke; undefined when every step held. */
  broke?: StepFigures;
}

/** The bracket of the steps so far: a held rate above a broken one (noise near the knee) does not count. */
export function bracket(steps: readonly StepFigures[]): Bracket {
  const broke = [...steps].filter((s) => !s.held).sort((a, b) => a.rate - b.rate || b.index - a.index)[0];
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

function plan(
  s: SearchSettings,
  rates: number[],
  warmupS: number,
  steadyS: number,
  abortOnFail: boolean,
): CapacityPlan {
  return {
    steps: rates.map((rate) => ({ rate, warmupS, steadyS })),
    readsPerLifecycle: s.readsPerLifecycle,
    abortOnFail,
    lifecycleS: s.lifecycleS,
  };
}

/**
 * A ramp that continues above a rate that held pre-allocates its VUs for its top step, and a high rate
 * costs hundreds of VUs to start (load/capacity/node/search.ts): its pool may grow to this multiple of
 * the held rate's, or to RAMP_VU_ROOM, whichever is more. Two doublings above 724/s once asked for 4,000
 * VUs, half a minute of a 3-minute budget that bisection then lacked; a low rate still climbs several.
 */
const RAMP_VU_GROWTH = 2.5;
const RAMP_VU_ROOM = 200;

/** The ramp's rates from `from` up: as many as the budget (and `maxVus`) allows, each under the highest rate. */
function rampPlan(
  s: SearchSettings,
  from: number,
  limitS: number,
  costS: (p: CapacityPlan) => number,
  maxVus = Number.POSITIVE_INFINITY,
) {
  let best: CapacityPlan | undefined;
  for (let r = from, rates: number[] = []; r <= s.maxRate; r *= s.rampFactor) {
    rates.push(roundRate(r));
    const candidate = plan(s, [...rates], s.rampWarmupS, s.rampSteadyS, true);
    // The first step is always allowed (above the held rate the search must climb); later ones within the pool.
    if (costS(candidate) > limitS || (rates.length > 1 && plannedVus(candidate) > maxVus)) break;
    best = candidate;
  }
  return best;
}

export interface SearchClock {
  /** Seconds left in the budget. */
  leftS: number;
  /** What a plan would take, its process's start and drain included (as measured so far). */
  costS: (plan: CapacityPlan) => number;
}

/** What to run next, or why the search is over. */
export function nextRun(s: SearchSettings, steps: readonly StepFigures[], clock: SearchClock): NextRun {
  const { held, broke } = bracket(steps);
  const step = (rate: number) => plan(s, [rate], s.stepWarmupS, s.stepSteadyS, false);
  const confirm = (rate: number) => plan(s, [rate], s.stepWarmupS, s.confirmSteadyS, false);
  const fits = (...plans: CapacityPlan[]) => plans.reduce((n, p) => n + clock.costS(p), 0) <= clock.leftS;
  if (!broke) {
    const top = held ? held.rate * s.rampFactor : s.startRate;
    if (top > s.maxRate)
      return { kind: 'done', why: `every step held up to ${held?.rate}/s, the highest rate allowed` };
    const limitS = Math.min(clock.leftS, s.budgetS * RAMP_SHARE);
    const pool = held
      ? Math.max(RAMP_VU_ROOM, RAMP_VU_GROWTH * plannedVus(plan(s, [held.rate], 0, 1, true)))
      : undefined;
    const ramp = rampPlan(s, top, limitS, clock.costS, pool);
    if (!ramp) return { kind: 'done', why: 'the budget ended before any step broke a gate' };
    return { kind: 'run', purpose: 'ramp', plan: ramp };
  }
  if (!held) {
    const lower = roundRate(broke.rate / s.rampFactor);
    if (lower < MIN_RATE) return { kind: 'done', why: `even ${broke.rate}/s broke a gate` };
    if (!fits(step(lower))) return { kind: 'done', why: 'the budget ended before any step held every gate' };
    return { kind: 'run', purpose: 'bisect', plan: step(lower) };
  }
  const tries = steps.filter((x) => x.purpose === 'confirm').length;
  const candidate = tries < MAX_CONFIRMATIONS ? confirmAfterMiss(s, held, broke, steps[steps.length - 1]) : undefined;
  if (candidate !== undefined) {
    if (!fits(confirm(candidate))) return { kind: 'done', why: 'the budget ended before the confirmation step' };
    return { kind: 'run', purpose: 'confirm', plan: confirm(candidate) };
  }
  const mid = roundRate(Math.sqrt(held.rate * broke.rate));
  const narrow = broke.rate / held.rate <= 1 + s.precision || mid <= held.rate || mid >= broke.rate;
  if (!narrow && fits(step(mid), confirm(held.rate))) return { kind: 'run', purpose: 'bisect', plan: step(mid) };
  if (confirmed(steps, held.rate)) return { kind: 'done', why: `confirmed at ${held.rate}/s` };
  if (tries >= MAX_CONFIRMATIONS) return { kind: 'done', why: `no confirmation held in ${tries} tries` };
  if (!fits(confirm(held.rate))) return { kind: 'done', why: 'the budget ended before the confirmation step' };
  return { kind: 'run', purpose: 'confirm', plan: confirm(held.rate) };
}

/**
 * After a confirmation that broke: the rate a little below it, when that lies above the highest rate that
 * held. A short step near the knee may hold where a long one does not (a queue grows slowly at its
 * limit), so the capacity is close below the rate that broke, not back at a rate far beneath it.
 */
function confirmAfterMiss(
  s: SearchSettings,
  held: StepFigures,
  broke: StepFigures,
  last: StepFigures | undefined,
): number | undefined {
  if (last?.purpose !== 'confirm' || last.held || last !== broke) return undefined;
  const lower = roundRate(broke.rate / (1 + 2 * s.precision));
  return lower > held.rate ? lower : undefined;
}
