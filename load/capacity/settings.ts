/**
 * The settings only the capacity entry (load/capacity/k6/main.ts) reads, besides the suite's own
 * (load/k6/lib/config.ts, K6_SCRIPT_ENV): the plan of the process and where setup's findings are kept.
 * The Node side passes them with `k6 run -e` (load/capacity/node/process.ts), so they never mix with the
 * suite's names; a k6 archive bakes them the same way.
 *
 * Pure: the rules of core/settings/rules.ts, so a bad value is refused naming its variable.
 */
import { positiveInt, SettingError, text, type EnvLike } from '../../core/settings/rules.ts';
import type { CapacityPlan } from './plan.ts';

export const CAPACITY_K6_ENV = {
  /** The plan of the process, as JSON (plan.ts CapacityPlan); unset: discover only, and write what was found. */
  plan: 'CAPACITY_PLAN',
  /**
   * The setup data a first process found (its summary's setup_data, written to a file): every step reads it
   * instead of discovering again. Unset: setup() discovers (a k6 archive run on its own).
   */
  setupFile: 'CAPACITY_SETUP_FILE',
  /**
   * A single rate for a run on its own (a k6 archive at the found rate): one step of CAPACITY_STEADY_S. Both
   * shape the test's scenarios, which k6 fixes when the archive is built: they are baked into it.
   */
  rate: 'CAPACITY_RATE',
  steadyS: 'CAPACITY_STEADY_S',
  /** The generator's ceiling (bare-loop.ts): where its loop sends, with how many VUs, how long, where it writes. */
  ceilingUrl: 'CEILING_URL',
  ceilingVus: 'CEILING_VUS',
  ceilingSeconds: 'CEILING_SECONDS',
  ceilingOut: 'CEILING_OUT',
} as const;

export interface CeilingSettings {
  url: string;
  vus: number;
  seconds: number;
  out: string;
}

/** bare-loop.ts's settings: all four are set by load/capacity/node/ceiling.ts. */
export function readCeilingSettings(env: EnvLike): CeilingSettings {
  const required = (name: string) => {
    const v = text(env[name]);
    if (v === undefined) throw new SettingError(`${name} is not set; load/capacity/node/ceiling.ts sets it`);
    return v;
  };
  return {
    url: required(CAPACITY_K6_ENV.ceilingUrl),
    vus: positiveInt(env[CAPACITY_K6_ENV.ceilingVus], CAPACITY_K6_ENV.ceilingVus, 10),
    seconds: positiveInt(env[CAPACITY_K6_ENV.ceilingSeconds], CAPACITY_K6_ENV.ceilingSeconds, 5),
    out: required(CAPACITY_K6_ENV.ceilingOut),
  };
}

export interface CapacitySettings {
  /** Undefined: the process discovers only (the first of a search). */
  plan?: CapacityPlan;
  setupFile?: string;
}

function planFromJson(raw: string): CapacityPlan {
  let plan: CapacityPlan;
  try {
    plan = JSON.parse(raw) as CapacityPlan;
  } catch (err) {
    throw new SettingError(`${CAPACITY_K6_ENV.plan} is not JSON: ${(err as Error).message}`);
  }
  const steps = Array.isArray(plan?.steps) ? plan.steps : [];
  if (steps.length === 0 || steps.some((s) => !(s.rate > 0) || !(s.steadyS > 0) || !(s.warmupS >= 0)))
    throw new SettingError(`${CAPACITY_K6_ENV.plan} needs steps, each with a rate and a steady time above 0`);
  return plan;
}

/** A plan of one step at a given rate: a k6 archive run at the rate a search found (load/k8s). */
function planAtRate(env: EnvLike, rate: string): CapacityPlan {
  const perSecond = Number(rate);
  const steadyS = Number(text(env[CAPACITY_K6_ENV.steadyS]) ?? '300');
  if (!(perSecond > 0)) throw new SettingError(`${CAPACITY_K6_ENV.rate} must be a rate above 0, got "${rate}"`);
  if (!(steadyS > 0))
    throw new SettingError(`${CAPACITY_K6_ENV.steadyS} must be seconds above 0, got "${env[CAPACITY_K6_ENV.steadyS]}"`);
  return {
    steps: [{ rate: perSecond, warmupS: 10, steadyS }],
    readsPerLifecycle: DEFAULT_READS_PER_LIFECYCLE,
    abortOnFail: false,
    lifecycleS: DEFAULT_LIFECYCLE_S,
  };
}

/**
 * Read-mix iterations per lifecycle: the average profile's traffic, whose 10 read-mix VUs (0.5 s think
 * time) start about 2 reads for each lifecycle its 5 lifecycle VUs start (a lifecycle lasts about 1 s).
 */
export const DEFAULT_READS_PER_LIFECYCLE = 2;
/**
 * A lifecycle's mean length on the reference target, to size the VU pools: most workflows end within
 * 0.5 s, one in 24 takes 9 s, and a tenth are aborted after a second of polls.
 */
export const DEFAULT_LIFECYCLE_S = 1;

export function readCapacitySettings(env: EnvLike): CapacitySettings {
  const raw = text(env[CAPACITY_K6_ENV.plan]);
  const rate = text(env[CAPACITY_K6_ENV.rate]);
  const plan = raw !== undefined ? planFromJson(raw) : rate !== undefined ? planAtRate(env, rate) : undefined;
  return { plan, setupFile: text(env[CAPACITY_K6_ENV.setupFile]) };
}
