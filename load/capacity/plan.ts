/**
 * What one k6 process of a capacity search runs: a list of steps, each an arrival rate of workflow
 * lifecycles held for a warm-up and then a steady window, with the read mix at its share of that rate.
 * The coarse ramp is several steps in one process; a bisection or confirmation step is one.
 *
 * Pure, no k6 imports: the k6 entry (load/capacity/k6/main.ts) turns a plan into `options.scenarios` and
 * tags every request with the window it is sent in; the Node side (load/capacity/node/) writes the
 * plan and reads each step's figures back by the same window names.
 */

export interface CapacityStep {
  /** Lifecycles started per second (the arrival rate offered to the target). */
  rate: number;
  /** Seconds at the rate before the step's figures count: VU pools, connections and the target's queues settle. */
  warmupS: number;
  /** Seconds whose requests judge the step. */
  steadyS: number;
}

export interface CapacityPlan {
  steps: CapacityStep[];
  /** Read-mix iterations started per lifecycle started: the read mix at its usual share of the traffic. */
  readsPerLifecycle: number;
  /** Stop the process at the first step that breaks a gate (the coarse ramp: what lies above it is not needed). */
  abortOnFail: boolean;
  /** A lifecycle's expected length in seconds (upload to output), to size the VU pools. */
  lifecycleS: number;
  /**
   * The share of the plan's arrivals this process starts (an execution segment's, 1/N of N instances; 1
   * when unset): its own gate on lifecycles started is its share's.
   */
  share?: number;
}

/** The line the entry prints as the steps begin: the origin of the windows' clock on the Node side. */
export const STEPS_START_MARKER = 'capacity steps start';

/** A stretch of the process's timeline, in ms from the scenarios' start. */
export interface TimeWindow {
  /** The tag value its requests carry: `s<step>` for a steady window, else WARMUP or DRAIN. */
  name: string;
  fromMs: number;
  toMs: number;
  /** 0-based index of its step; undefined for the drain after the last step. */
  step?: number;
}

/** Requests sent during a warm-up: they judge nothing. */
export const WARMUP = 'warmup';
/** Requests of lifecycles still running after the last step: they judge nothing either. */
export const DRAIN = 'drain';
/** The metric tag that carries the window (k6 VU tag, set per request by load/capacity/k6/main.ts). */
export const WINDOW_TAG = 'window';

/** The steady window's name of a step (0-based index): `s1`, `s2`, … */
export const steadyWindow = (step: number) => `s${step + 1}`;

/** Every window of the plan in order: warm-up then steady per step, then the drain until the end of time. */
export function timeline(plan: CapacityPlan): TimeWindow[] {
  const out: TimeWindow[] = [];
  let at = 0;
  plan.steps.forEach((s, i) => {
    const warmEnd = at + s.warmupS * 1000;
    const end = warmEnd + s.steadyS * 1000;
    if (warmEnd > at) out.push({ name: WARMUP, fromMs: at, toMs: warmEnd, step: i });
    out.push({ name: steadyWindow(i), fromMs: warmEnd, toMs: end, step: i });
    at = end;
  });
  out.push({ name: DRAIN, fromMs: at, toMs: Number.POSITIVE_INFINITY });
  return out;
}

/** The window an offset falls in (the windows cover [0, ∞) without gaps); before 0: the first. */
export function windowAt(windows: readonly TimeWindow[], offsetMs: number): TimeWindow {
  for (let i = 0; i < windows.length; i++) if (offsetMs < windows[i]!.toMs) return windows[i]!;
  return windows[windows.length - 1]!;
}

/** Seconds the steps take, warm-ups included (the drain after them not). */
export const planSeconds = (plan: CapacityPlan) => plan.steps.reduce((s, x) => s + x.warmupS + x.steadyS, 0);

/** Offset (ms from the scenarios' start) at which a step's steady window ends. */
export function steadyEndMs(plan: CapacityPlan, step: number): number {
  return plan.steps.slice(0, step + 1).reduce((s, x) => s + (x.warmupS + x.steadyS) * 1000, 0);
}

/** Rates are given to k6 per minute: an integer there is a rate to 1/60 of a lifecycle per second. */
const TIME_UNIT = '1m';
const perMinute = (perSecond: number) => Math.max(0, Math.round(perSecond * 60));

export interface ArrivalStages {
  startRate: number;
  timeUnit: string;
  stages: { duration: string; target: number }[];
}

/**
 * A ramping-arrival-rate schedule that jumps to each step's rate (a stage of 0 s) and holds it for the
 * step; `share` scales the rate (1 for the lifecycle, readsPerLifecycle for the read mix).
 */
export function arrivalStages(plan: CapacityPlan, share: number): ArrivalStages {
  const first = plan.steps[0];
  if (!first) throw new Error('a capacity plan needs at least one step');
  return {
    startRate: perMinute(first.rate * share),
    timeUnit: TIME_UNIT,
    stages: plan.steps.flatMap((s) => [
      { duration: '0s', target: perMinute(s.rate * share) },
      { duration: `${Math.round((s.warmupS + s.steadyS) * 1000)}ms`, target: perMinute(s.rate * share) },
    ]),
  };
}

/** VUs for an arrival rate: enough to start every iteration on time while each lasts `iterationS`. */
export function vuPool(peakPerSecond: number, iterationS: number): { preAllocatedVUs: number; maxVUs: number } {
  // Pre-allocated with a fifth to spare: every VU is initialised before the steps start (the suite's
  // modules, tens of ms of CPU each), and one initialised mid-step costs the generator CPU while it
  // measures. The ceiling allows iterations four times slower than expected (a target at its knee) before
  // k6 drops arrivals, which the step's "offered rate held" gate then shows.
  const expected = peakPerSecond * iterationS;
  const preAllocatedVUs = Math.ceil(expected * 1.2) + 2;
  return { preAllocatedVUs, maxVUs: Math.max(preAllocatedVUs, Math.ceil(expected * 4) + 5) };
}

/** A read lasts milliseconds; a tenth of a second leaves room for a slow answer. */
export const READ_ITERATION_S = 0.1;

/**
 * Arrivals per lifecycle: the lifecycle itself and its reads. Lifecycles and reads share one arrival-rate
 * scenario, so that a read of an execution follows one its VU started (a target may forget old executions,
 * and then answers 404), and one pool of VUs serves both.
 */
export const arrivalsPerLifecycle = (plan: CapacityPlan) => 1 + plan.readsPerLifecycle;

/** The mean length of an iteration of the shared scenario, lifecycles and reads together. */
export const iterationSeconds = (plan: CapacityPlan) =>
  (plan.lifecycleS + plan.readsPerLifecycle * READ_ITERATION_S) / arrivalsPerLifecycle(plan);

/** VUs the plan's process initialises before its steps start. */
export function plannedVus(plan: CapacityPlan): number {
  return vuPool(peakRate(plan) * arrivalsPerLifecycle(plan), iterationSeconds(plan)).preAllocatedVUs;
}

/**
 * Whether the i-th arrival (0-based, counted across VUs) is a lifecycle, and which: of every
 * `arrivalsPerLifecycle` arrivals one is (fractional shares spread evenly), the others are reads.
 */
export function lifecycleOf(arrival: number, plan: CapacityPlan): number | undefined {
  const per = arrivalsPerLifecycle(plan);
  // Lifecycle k is arrival floor(k × per): the first one at or after this arrival is k = ceil(arrival / per).
  const k = Math.ceil(arrival / per);
  return Math.floor(k * per) === arrival ? k : undefined;
}

/** The highest rate of the plan. */
export const peakRate = (plan: CapacityPlan) => Math.max(...plan.steps.map((s) => s.rate));

/** Round to 3 significant digits: rates are printed and compared at the precision a search can give. */
export function roundRate(rate: number): number {
  if (rate <= 0) return 0;
  const digits = Math.max(0, 2 - Math.floor(Math.log10(rate)));
  return Number(rate.toFixed(digits));
}
