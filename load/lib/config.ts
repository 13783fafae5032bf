/**
 * Run configuration from the environment (k6 `__ENV`). The harness is pointed
 * at an implementation only through env, never through code edits.
 */
import { durationSeconds, profileByName, parseScenarioList, type ProfileDefinition, type ProfileName, type ScenarioName } from './profiles.ts';
import { sloFromEnv, type SloSettings } from './thresholds.ts';

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
  pollIntervalMs: number;
  workflowTimeoutMs: number;
  rateLimitRetries: number;
  /** Bound on every request (REQUEST_TIMEOUT, a duration like 10s or 1500ms): a hanging target cannot stall a run. */
  requestTimeoutMs: number;
  thinkTimeS: number;
  dataFile: string;
  reportDir: string;
  slo: SloSettings;
}

function numberFrom(env: Record<string, string | undefined>, key: string, fallback: number): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new Error(`${key} must be a number, got "${raw}"`);
  return n;
}

/** Default request bound: far above every latency gate, far below k6's own 60 s. */
export const DEFAULT_REQUEST_TIMEOUT = '10s';

function requestTimeoutMs(raw: string | undefined): number {
  const text = raw || DEFAULT_REQUEST_TIMEOUT;
  let seconds: number;
  try {
    seconds = durationSeconds(text);
  } catch {
    throw new Error(`REQUEST_TIMEOUT must be a duration such as 10s or 1500ms, got "${text}"`);
  }
  if (seconds <= 0) throw new Error(`REQUEST_TIMEOUT must be positive, got "${text}"`);
  return Math.round(seconds * 1000);
}

export function loadConfig(env: Record<string, string | undefined>): LoadConfig {
  const baseUrl = (env.BASE_URL ?? '').replace(/\/+$/, '');
  if (!baseUrl) throw new Error('BASE_URL is not set (it ends in /v1, e.g. http://127.0.0.1:4010/v1); `npm run load` sets it for the reference target');
  if (!/\/v1$/.test(baseUrl)) throw new Error(`BASE_URL must end in /v1, got "${baseUrl}"`);
  const apiKey = env.API_KEY ?? '';
  if (!apiKey) throw new Error('API_KEY is not set');
  const profileName = (env.PROFILE || 'smoke') as ProfileName;
  const profile = profileByName(profileName);
  const contractSample = numberFrom(env, 'CONTRACT_CHECK_SAMPLE', 1);
  if (contractSample < 0 || contractSample > 1) throw new Error('CONTRACT_CHECK_SAMPLE must be between 0 and 1');
  return {
    baseUrl,
    apiKey,
    profileName,
    profile,
    scenarios: parseScenarioList(env.SCENARIOS, profile),
    duration: env.DURATION || profile.defaultDuration,
    vusScale: numberFrom(env, 'VUS_SCALE', 1),
    seed: Math.trunc(numberFrom(env, 'SEED', 1)),
    contractSample,
    contractMemo: env.CONTRACT_CHECK_MEMO !== '0',
    pollIntervalMs: numberFrom(env, 'POLL_INTERVAL_MS', 250),
    workflowTimeoutMs: numberFrom(env, 'WORKFLOW_TIMEOUT_MS', 60_000),
    rateLimitRetries: numberFrom(env, 'RATE_LIMIT_RETRIES', 4),
    requestTimeoutMs: requestTimeoutMs(env.REQUEST_TIMEOUT),
    thinkTimeS: numberFrom(env, 'THINK_TIME_S', profile.thinkTimeS),
    dataFile: env.LOAD_DATA_FILE ?? '',
    reportDir: (env.REPORT_DIR || '.').replace(/\/+$/, ''),
    slo: sloFromEnv(env),
  };
}
