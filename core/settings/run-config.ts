/**
 * The settings of a conformance run: those of `wfcheck conformance` (and of `report merge`, which writes
 * where an unsharded run does), and those the suites read in every test worker, which the command sets
 * from what it decided (a user may set them too).
 */
import { join, resolve } from 'node:path';
import { randomSeed } from '../data/seeded.ts';
import { readConnectionSettings, type ConnectionArgs, type ConnectionSettings } from './connection-settings.ts';
import { readImplementation, type Implementation, type ImplementationArgs } from './history-settings.ts';
import { commandLine } from './invocation.ts';
import { optionOrEnv, optionOrEnvText } from './option-or-env.ts';
import { WORK_DIR } from './roots.ts';
import {
  baseUrl,
  budgetParts,
  ENV,
  flag,
  list,
  number,
  positiveInt,
  SettingError,
  text,
  wholeNumber,
  type BudgetParts,
  type EnvLike,
} from './rules.ts';
import { readTargetSettings, type TargetSettings } from './target-settings.ts';

/** Where a conformance run writes everything unless --out (WFCHECK_OUT_DIR) says otherwise. */
export const CONFORMANCE_OUT_DIR = join(WORK_DIR, 'reports', 'conformance');
/** Evidence of suites run outside `wfcheck conformance` (relative: Playwright runs in the work dir). */
const DEFAULT_EVIDENCE_DIR = 'reports/conformance/evidence';

// ---------------------------------------------------------------------------------------------
// The conformance suites (read in every test worker; `wfcheck conformance` sets what it decides)

export interface RunConfig {
  /** Base address, ending in /v1 (no trailing slash kept). */
  baseUrl: string;
  apiKey: string;
  /** Second tenant's key; isolation tests are "not run" without it. */
  apiKeyB?: string;
  seed: number;
  /** 'reference' when the run booted the reference target itself. */
  targetKind: 'reference' | 'external';
  /** Canvas ids to use instead of (only) those discovered through search. */
  canvasIds: string[];
  /** A canvas whose workflow API is disabled (run → 403). */
  disabledCanvasId?: string;
  /** A canvas whose executions run long enough to be aborted mid-run. */
  abortCanvasId?: string;
  /** Generate may overwrite a canvas only when this is set. */
  allowOverwrite: boolean;
  /** The canvas generate may overwrite (default: one created by a first generate call, else a discovered one). */
  overwriteCanvasId?: string;
  /** Promote should-level warnings to failures. */
  strict: boolean;
  requestTimeoutMs: number;
  maxBodyBytes: number;
  pollIntervalMs: number;
  pollTimeoutMs: number;
  /** Upper bound on workflows the suites will run (each run may cost the target's owner). */
  maxRuns: number;
  /** What discovery's trial may cost the target, where set (WFCHECK_TRIAL_BUDGET); the rest is its default. */
  trialBudget?: BudgetParts;
  evidenceDir: string;
  /** Where discovery keeps what it learned about a target between runs; undefined: nothing is kept. */
  cacheDir?: string;
}

let cached: RunConfig | undefined;

/** Absolute, so every test worker names the same folder; `off` (or `0`) keeps nothing between runs. */
function cacheDirOf(value: string | undefined): string | undefined {
  const v = text(value);
  if (v === 'off' || v === '0') return undefined;
  return resolve(WORK_DIR, v ?? join('reports', 'cache'));
}

export function loadRunConfig(env: NodeJS.ProcessEnv = process.env): RunConfig {
  if (cached && env === process.env) return cached;
  if (text(env[ENV.baseUrl]) === undefined) {
    throw new SettingError(
      `${ENV.baseUrl} is not set (it must end in /v1). Run through \`${commandLine('conformance', [], env)}\` to use the reference target.`,
    );
  }
  const url = baseUrl(env[ENV.baseUrl]);
  const apiKey = env[ENV.apiKey] ?? '';
  if (!apiKey) throw new SettingError(`${ENV.apiKey} is not set.`);
  const seed = wholeNumber(env[ENV.seed], ENV.seed);
  if (seed === undefined)
    throw new SettingError(`${ENV.seed} is not set; ${commandLine('conformance', [], env)} picks and prints one.`);
  const reference = env[ENV.targetKind] === 'reference';
  const config: RunConfig = {
    baseUrl: url,
    apiKey,
    apiKeyB: env[ENV.apiKeyB] || undefined,
    seed,
    targetKind: reference ? 'reference' : 'external',
    canvasIds: list(env[ENV.canvasIds]),
    disabledCanvasId: env[ENV.disabledCanvasId] || undefined,
    abortCanvasId: env[ENV.abortCanvasId] || undefined,
    allowOverwrite: flag(env[ENV.allowOverwrite], ENV.allowOverwrite),
    overwriteCanvasId: env[ENV.overwriteCanvasId] || undefined,
    strict: flag(env[ENV.strict], ENV.strict),
    requestTimeoutMs: positiveInt(env[ENV.requestTimeoutMs], ENV.requestTimeoutMs, 10_000),
    maxBodyBytes: positiveInt(env[ENV.maxBodyBytes], ENV.maxBodyBytes, 8 * 1024 * 1024),
    pollIntervalMs: positiveInt(env[ENV.pollIntervalMs], ENV.pollIntervalMs, reference ? 50 : 1000),
    pollTimeoutMs: positiveInt(env[ENV.pollTimeoutMs], ENV.pollTimeoutMs, reference ? 15_000 : 120_000),
    maxRuns: positiveInt(env[ENV.maxRuns], ENV.maxRuns, reference ? 200 : 30),
    trialBudget: budgetParts(env[ENV.trialBudget], ENV.trialBudget),
    evidenceDir: env[ENV.evidenceDir] || DEFAULT_EVIDENCE_DIR,
    cacheDir: cacheDirOf(env[ENV.cacheDir]),
  };
  if (env === process.env) cached = config;
  return config;
}

// ---------------------------------------------------------------------------------------------
// `wfcheck conformance`

/** Its options as node:util parseArgs gives them. */
export interface ConformanceArgs extends ImplementationArgs, ConnectionArgs {
  seed?: string;
  waivers?: string;
  strict?: boolean;
  timeout?: string;
  'request-timeout'?: string;
  workers?: string;
  grep?: string;
  out?: string;
}

export interface ConformanceSettings {
  seed: number;
  /** The seed was given (--seed or SEED), not picked for this run. */
  seedGiven: boolean;
  waivers?: string;
  strict: boolean;
  runTimeoutS: number;
  requestTimeoutMs?: number;
  workers: number;
  grep?: string;
  /** Absolute. */
  outDir: string;
  /** Extra Playwright arguments (after `--`). */
  extra: string[];
  target: TargetSettings;
  /** The way to the target: trust, client certificate, proxies (connection-settings.ts). */
  connection: ConnectionSettings;
  /** The implementation the run is recorded under (--name); undefined: its target alone. */
  implementation?: Implementation;
}

export function readConformanceSettings(
  args: ConformanceArgs,
  extra: string[],
  env: EnvLike = process.env,
): ConformanceSettings {
  const seed = wholeNumber(...optionOrEnv(args.seed, '--seed', env, ENV.seed));
  return {
    seed: seed ?? randomSeed(),
    seedGiven: seed !== undefined,
    waivers: optionOrEnvText(args.waivers, env, ENV.waivers),
    strict: args.strict || flag(env[ENV.strict], ENV.strict),
    runTimeoutS: number(...optionOrEnv(args.timeout, '--timeout', env, ENV.runTimeoutS), 300, { positive: true }),
    requestTimeoutMs: positiveInt(
      ...optionOrEnv(args['request-timeout'], '--request-timeout', env, ENV.requestTimeoutMs),
    ),
    workers: positiveInt(...optionOrEnv(args.workers, '--workers', env, ENV.workers), 4),
    grep: args.grep,
    outDir: resolve(optionOrEnvText(args.out, env, ENV.outDir) ?? CONFORMANCE_OUT_DIR),
    extra,
    target: readTargetSettings(env),
    connection: readConnectionSettings(args, env),
    implementation: readImplementation(args, env),
  };
}

/**
 * Where `report merge` writes the verdict of the whole run: --out, else where an unsharded run writes
 * its own (WFCHECK_OUT_DIR, else reports/conformance). Absolute.
 */
export function readMergeOutDir(out: string | undefined, env: EnvLike = process.env): string {
  return resolve(optionOrEnvText(out, env, ENV.outDir) ?? CONFORMANCE_OUT_DIR);
}
