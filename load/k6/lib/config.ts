/**
 * Run configuration from the environment (k6 `__ENV`): the k6 scripts' one reader. The harness is pointed
 * at an implementation only through env, never through code edits.
 *
 * Only the names of K6_SCRIPT_ENV (core/settings/rules.ts) are read, the list load/node/k6-env.ts
 * writes from, so the Node side and k6 spell each name once, in one place.
 */
import {
  DEFAULT_PROFILE,
  durationSeconds,
  LOAD_PROFILES,
  parseScenarioList,
  PROFILE_NAMES,
  type ProfileDefinition,
  type ProfileName,
  type ScenarioName,
} from './profiles.ts';
import { sloFromEnv, type SloSettings } from './thresholds.ts';
import {
  baseUrl as baseUrlRule,
  ENV,
  flag,
  number,
  oneOf,
  text,
  wholeNumber,
  type EnvLike,
} from '../../../core/settings/rules.ts';
import { commandLineFor, type Subcommand } from '../../../core/settings/command-line.ts';

export interface LoadConfig {
  baseUrl: string;
  apiKey: string;
  profileName: ProfileName;
  profile: ProfileDefinition;
  scenarios: ScenarioName[];
  duration: string;
  vusScale: number;
  seed: number;
  /** Share of responses that go through the contract checks (1 = every response). */
  contractSample: number;
  /** Reuse verdicts for byte-identical responses (exact: the check is a pure function of them). */
  contractMemo: boolean;
  /** Offloaded checks: the address of the Node checker the responses are sent to (CONTRACT_CHECK_SINK). */
  nodeCheckerUrl?: string;
  /** Responses per batch sent to the Node checker, and per contract_checked sample in the VU (CONTRACT_CHECK_BATCH). */
  contractBatch: number;
  pollIntervalMs: number;
  workflowTimeoutMs: number;
  rateLimitRetries: number;
  /** Bound on every request (REQUEST_TIMEOUT, a duration like 10s or 1500ms): a hanging target cannot stall a run. */
  requestTimeoutMs: number;
  thinkTimeS: number;
  /** The seeded data file (LOAD_DATA_FILE); empty when unset (lib/data.ts refuses to run without it). */
  dataFile: string;
  reportDir: string;
  /** The execution segment's label in a distributed run (SEGMENT_LABEL); unset in a single run. */
  segmentLabel?: string;
  slo: SloSettings;
  /** Generate may overwrite a canvas (WFCHECK_ALLOW_OVERWRITE): then every call reuses one canvas. */
  allowOverwrite: boolean;
  /** The canvas generate overwrites (WFCHECK_OVERWRITE_CANVAS_ID); default one created by a first call. */
  overwriteCanvasId?: string;
  /** The workflow the lifecycle aborts mid-run (WFCHECK_ABORT_CANVAS_ID); default slow-sounding titles. */
  abortCanvasId?: string;
}

/** Default request bound: far above every latency gate, far below k6's own 60 s. */
export const DEFAULT_REQUEST_TIMEOUT = '10s';

function requestTimeoutMs(raw: string | undefined): number {
  const given = text(raw) ?? DEFAULT_REQUEST_TIMEOUT;
  let seconds: number;
  try {
    seconds = durationSeconds(given);
  } catch {
    throw new Error(`${ENV.requestTimeout} must be a duration such as 10s or 1500ms, got "${given}"`);
  }
  if (seconds <= 0) throw new Error(`${ENV.requestTimeout} must be positive, got "${given}"`);
  return Math.round(seconds * 1000);
}

/**
 * The command that starts a k6 script with its settings, for a hint to someone who started the script
 * without it (`k6 run` by hand), in both forms: they may have the installed command or a clone.
 */
export function startedBy(command: Subcommand, args: readonly string[] = []): string {
  return `\`${commandLineFor('wfcheck', command, args)}\` (\`${commandLineFor('npm', command, args)}\` in a clone)`;
}

let cached: LoadConfig | undefined;

/**
 * The raw values of another entry's own settings (the capacity search's CAPACITY_* and its ceiling loop's
 * CEILING_*: load/capacity/settings.ts parses them by the same rules). Their Node side passes them with
 * `k6 run -e`, never through K6_SCRIPT_ENV, so they cannot reach the suite's scripts; read here so that
 * `__ENV` keeps one reader. Only the names asked for are read.
 */
export function entrySettings(names: readonly string[]): EnvLike {
  return Object.fromEntries(names.map((name) => [name, __ENV[name]]));
}

/**
 * The run's settings from k6's `__ENV`, read once per VU (the modules of a VU share them), or from `env`
 * when given (the suite's own tests).
 */
export function loadConfig(env?: EnvLike): LoadConfig {
  if (env !== undefined) return readConfig(env);
  if (cached === undefined) cached = readConfig(__ENV);
  return cached;
}

/** Reads the names of K6_SCRIPT_ENV, each of them and no other (load/k6/lib/config.test.ts holds it to that). */
function readConfig(env: EnvLike): LoadConfig {
  if (text(env[ENV.baseUrl]) === undefined) {
    throw new Error(
      `${ENV.baseUrl} is not set (it ends in /v1, e.g. http://127.0.0.1:4010/v1); ${startedBy('load')} sets it for the reference target`,
    );
  }
  const baseUrl = baseUrlRule(env[ENV.baseUrl]);
  const apiKey = env[ENV.apiKey] ?? '';
  if (!apiKey) throw new Error(`${ENV.apiKey} is not set`);
  const profileName = oneOf(env[ENV.profile], ENV.profile, PROFILE_NAMES, DEFAULT_PROFILE);
  const profile = LOAD_PROFILES[profileName];
  return {
    baseUrl,
    apiKey,
    profileName,
    profile,
    scenarios: parseScenarioList(env[ENV.scenarios], profile),
    duration: text(env[ENV.duration]) ?? profile.defaultDuration,
    vusScale: number(env[ENV.vusScale], ENV.vusScale, 1, { positive: true }),
    seed: wholeNumber(env[ENV.seed], ENV.seed, 1),
    contractSample: number(env[ENV.contractSample], ENV.contractSample, 1, { min: 0, max: 1 }),
    contractMemo: flag(env[ENV.contractMemo], ENV.contractMemo, true),
    nodeCheckerUrl: text(env[ENV.contractSink]),
    contractBatch: wholeNumber(env[ENV.contractBatch], ENV.contractBatch, 256),
    pollIntervalMs: number(env[ENV.loadPollIntervalMs], ENV.loadPollIntervalMs, 250, { positive: true }),
    workflowTimeoutMs: number(env[ENV.workflowTimeoutMs], ENV.workflowTimeoutMs, 60_000, { positive: true }),
    rateLimitRetries: wholeNumber(env[ENV.rateLimitRetries], ENV.rateLimitRetries, 4),
    requestTimeoutMs: requestTimeoutMs(env[ENV.requestTimeout]),
    thinkTimeS: number(env[ENV.thinkTimeS], ENV.thinkTimeS, profile.thinkTimeS, { min: 0 }),
    dataFile: env[ENV.loadDataFile] ?? '',
    reportDir: (text(env[ENV.reportDir]) ?? '.').replace(/\/+$/, ''),
    segmentLabel: env[ENV.segmentLabel] || undefined,
    slo: sloFromEnv(env),
    allowOverwrite: flag(env[ENV.allowOverwrite], ENV.allowOverwrite, false),
    overwriteCanvasId: text(env[ENV.overwriteCanvasId]),
    abortCanvasId: text(env[ENV.abortCanvasId]),
  };
}
