/**
 * Run configuration from the environment (k6 `__ENV`). The harness is pointed
 * at an implementation only through env, never through code edits.
 */
import {
  durationSeconds,
  profileByName,
  parseScenarioList,
  type ProfileDefinition,
  type ProfileName,
  type ScenarioName,
} from './profiles.ts';
import { sloFromEnv, type SloSettings } from './thresholds.ts';
import { baseUrl as baseUrlRule, ENV, flag, number, text, wholeNumber } from '../../foundation/environment/rules.ts';

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
  /** Offload mode: the address of the Node check sink the responses are handed to (CONTRACT_CHECK_SINK). */
  contractSink?: string;
  /** Responses per hand-over in offload mode, and per contract_checked sample in the VU (CONTRACT_CHECK_BATCH). */
  contractBatch: number;
  pollIntervalMs: number;
  workflowTimeoutMs: number;
  rateLimitRetries: number;
  /** Bound on every request (REQUEST_TIMEOUT, a duration like 10s or 1500ms): a hanging target cannot stall a run. */
  requestTimeoutMs: number;
  thinkTimeS: number;
  dataFile: string;
  reportDir: string;
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

export function loadConfig(env: Record<string, string | undefined>): LoadConfig {
  if (text(env[ENV.baseUrl]) === undefined) {
    throw new Error(
      `${ENV.baseUrl} is not set (it ends in /v1, e.g. http://127.0.0.1:4010/v1); \`npm run load\` sets it for the reference target`,
    );
  }
  const baseUrl = baseUrlRule(env[ENV.baseUrl]);
  const apiKey = env[ENV.apiKey] ?? '';
  if (!apiKey) throw new Error(`${ENV.apiKey} is not set`);
  const profileName = (text(env[ENV.profile]) ?? 'smoke') as ProfileName;
  const profile = profileByName(profileName);
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
    contractSink: text(env.CONTRACT_CHECK_SINK),
    contractBatch: wholeNumber(env.CONTRACT_CHECK_BATCH, 'CONTRACT_CHECK_BATCH', 256),
    pollIntervalMs: number(env[ENV.loadPollIntervalMs], ENV.loadPollIntervalMs, 250, { positive: true }),
    workflowTimeoutMs: number(env[ENV.workflowTimeoutMs], ENV.workflowTimeoutMs, 60_000, { positive: true }),
    rateLimitRetries: wholeNumber(env[ENV.rateLimitRetries], ENV.rateLimitRetries, 4),
    requestTimeoutMs: requestTimeoutMs(env[ENV.requestTimeout]),
    thinkTimeS: number(env[ENV.thinkTimeS], ENV.thinkTimeS, profile.thinkTimeS, { min: 0 }),
    dataFile: env[ENV.loadDataFile] ?? '',
    reportDir: (text(env[ENV.reportDir]) ?? '.').replace(/\/+$/, ''),
    slo: sloFromEnv(env),
    allowOverwrite: flag(env[ENV.allowOverwrite], ENV.allowOverwrite, false),
    overwriteCanvasId: text(env[ENV.overwriteCanvasId]),
    abortCanvasId: text(env[ENV.abortCanvasId]),
  };
}
