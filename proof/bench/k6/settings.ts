/**
 * The one reader of k6's `__ENV` for the benchmark's k6 scripts (bare-status.ts, bare-lifecycle.ts,
 * check-cost.ts), by the rules of core/settings/rules.ts, so that a value means what it means to
 * the suite and a bad one is refused naming its variable. The suite's own scripts read load/k6/lib/config.ts.
 */
import {
  baseUrl,
  ENV,
  number,
  positiveInt,
  SettingError,
  text,
  wholeNumber,
  type EnvLike,
} from '../../../core/settings/rules.ts';
import { BENCH_K6_ENV } from './setting-names.ts';

/** What every bare loop reads. */
export interface BareLoopSettings {
  baseUrl: string;
  apiKey: string;
  vus: number;
  /** A k6 duration. */
  duration: string;
  /** Where handleSummary writes the request count. */
  summaryFile: string;
}

function required(env: EnvLike, name: string): string {
  const value = text(env[name]);
  if (value === undefined) throw new SettingError(`${name} is not set; proof/bench/load.ts sets it`);
  return value;
}

function bareLoop(env: EnvLike): BareLoopSettings {
  return {
    baseUrl: baseUrl(env[ENV.baseUrl]),
    apiKey: required(env, ENV.apiKey),
    vus: positiveInt(env[BENCH_K6_ENV.vus], BENCH_K6_ENV.vus, 10),
    duration: text(env[ENV.duration]) ?? '10s',
    summaryFile: required(env, BENCH_K6_ENV.summaryFile),
  };
}

/** bare-status.ts: the loop's settings and the file of execution ids it reads. */
export function readBareStatusSettings(env: EnvLike = __ENV): BareLoopSettings & { idsFile: string } {
  return { ...bareLoop(env), idsFile: required(env, BENCH_K6_ENV.ids) };
}

/** bare-lifecycle.ts: the loop's settings, its plan file, the suite's seed and the pause between polls. */
export function readBareLifecycleSettings(
  env: EnvLike = __ENV,
): BareLoopSettings & { planFile: string; seed: number; pollS: number } {
  return {
    ...bareLoop(env),
    planFile: required(env, BENCH_K6_ENV.plan),
    seed: wholeNumber(env[ENV.seed], ENV.seed, 1),
    pollS: number(env[BENCH_K6_ENV.pollS], BENCH_K6_ENV.pollS, 0.001, { min: 0 }),
  };
}

/** check-cost.ts: calls per timed round. */
export function readCheckCostCalls(env: EnvLike = __ENV): number {
  return positiveInt(env[BENCH_K6_ENV.checkCostCalls], BENCH_K6_ENV.checkCostCalls, 1000);
}
