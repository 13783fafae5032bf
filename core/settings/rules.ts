/**
 * The names of the environment variables every command reads, and the rules it reads them by.
 *
 * Pure (no Node API, no package): the k6 scripts (load/k6/lib/config.ts) read their settings with the
 * same rules as the Node commands, so a value means the same thing to both, and a bad one is
 * refused with the same message naming the variable (or option) it came from.
 */

/** One set of names: a setting is spelled the same in every command, its docs and its errors. */
export const ENV = {
  // The target under test.
  baseUrl: 'BASE_URL',
  apiKey: 'API_KEY',
  apiKeyB: 'API_KEY_B',
  seed: 'SEED',
  /** `inprocess`: serve the reference target from the command's own process instead of booting it. */
  targetBoot: 'WFCHECK_TARGET_BOOT',
  targetSeedFile: 'TARGET_SEED_FILE',

  /**
   * How the harness was started, so that its hints name the command the user has: `wfcheck` (the
   * installed command and its image) or `npm` (an npm script of a clone). Set by bin/wfcheck.mjs.
   */
  invokedAs: 'WFCHECK_INVOKED_AS',

  // Conformance run (set by `npm run conformance` for the suites; a user may set them too).
  targetKind: 'WFCHECK_TARGET_KIND',
  canvasIds: 'WFCHECK_CANVAS_IDS',
  disabledCanvasId: 'WFCHECK_DISABLED_CANVAS_ID',
  abortCanvasId: 'WFCHECK_ABORT_CANVAS_ID',
  allowOverwrite: 'WFCHECK_ALLOW_OVERWRITE',
  overwriteCanvasId: 'WFCHECK_OVERWRITE_CANVAS_ID',
  strict: 'WFCHECK_STRICT',
  requestTimeoutMs: 'WFCHECK_REQUEST_TIMEOUT_MS',
  maxBodyBytes: 'WFCHECK_MAX_BODY_BYTES',
  pollIntervalMs: 'WFCHECK_POLL_INTERVAL_MS',
  pollTimeoutMs: 'WFCHECK_POLL_TIMEOUT_MS',
  maxRuns: 'WFCHECK_MAX_RUNS',
  /** What discovery's trial may cost the target: `executions=60,requests=600,seconds=60` (any of the three). */
  trialBudget: 'WFCHECK_TRIAL_BUDGET',
  evidenceDir: 'WFCHECK_EVIDENCE_DIR',
  /** What discovery learned about a target, kept between runs; default reports/cache, `off` keeps nothing. */
  cacheDir: 'WFCHECK_CACHE_DIR',
  waivers: 'WFCHECK_WAIVERS',
  runTimeoutS: 'WFCHECK_RUN_TIMEOUT_S',
  workers: 'WFCHECK_WORKERS',
  outDir: 'WFCHECK_OUT_DIR',
  /** SQLite file of the run history (conformance, load and explore runs); default reports/history.sqlite. */
  history: 'WFCHECK_HISTORY',
  /** The implementation a run is recorded under (a column of the implementation matrix). */
  targetName: 'WFCHECK_TARGET_NAME',
  /** Its version, as its vendor names it. */
  targetVersion: 'WFCHECK_TARGET_VERSION',

  // The way to the target, in every mode (connection-settings.ts): whom to trust, what to show it.
  /** A PEM file of certificate authorities trusted besides the system's (an internal CA); --ca-file. */
  caFile: 'WFCHECK_CA_FILE',
  /** Node's own: a PEM file of extra trusted authorities, read by Node at start and honoured for k6 too. */
  nodeExtraCaCerts: 'NODE_EXTRA_CA_CERTS',
  /** The client certificate (PEM) a target that asks for one is shown; --client-cert. */
  clientCert: 'WFCHECK_CLIENT_CERT',
  /** Its private key (PEM); --client-key. */
  clientKey: 'WFCHECK_CLIENT_KEY',
  /** The passphrase of an encrypted client key: from the environment only, never a command line. */
  clientKeyPassphrase: 'WFCHECK_CLIENT_KEY_PASSPHRASE',
  /** `1`: the target's certificate is not checked at all (every report says so); --insecure. */
  insecure: 'WFCHECK_INSECURE',

  // Load run (k6 `__ENV`; `npm run load` passes them on).
  profile: 'PROFILE',
  scenarios: 'SCENARIOS',
  duration: 'DURATION',
  vusScale: 'VUS_SCALE',
  loadDataFile: 'LOAD_DATA_FILE',
  reportDir: 'REPORT_DIR',
  segmentLabel: 'SEGMENT_LABEL',
  contractSample: 'CONTRACT_CHECK_SAMPLE',
  contractMemo: 'CONTRACT_CHECK_MEMO',
  /** Offload mode: the Node check sink's address, set by the runner when it starts one. */
  contractSink: 'CONTRACT_CHECK_SINK',
  contractBatch: 'CONTRACT_CHECK_BATCH',
  loadPollIntervalMs: 'POLL_INTERVAL_MS',
  workflowTimeoutMs: 'WORKFLOW_TIMEOUT_MS',
  rateLimitRetries: 'RATE_LIMIT_RETRIES',
  requestTimeout: 'REQUEST_TIMEOUT',
  thinkTimeS: 'THINK_TIME_S',
  // The load run's gates (load/k6/lib/thresholds.ts sloFromEnv).
  sloLatencyScale: 'SLO_LATENCY_SCALE',
  sloMaxFailedRate: 'SLO_MAX_FAILED_RATE',
  sloMinCompletionRate: 'SLO_MIN_COMPLETION_RATE',
  sloWorkflowP95Ms: 'SLO_WORKFLOW_P95_MS',

  // Benchmarks of the reference target.
  benchSeconds: 'BENCH_SECONDS',
  benchConnections: 'BENCH_CONNECTIONS',
  benchExecutions: 'BENCH_EXECUTIONS',
} as const;

export type EnvLike = Readonly<Record<string, string | undefined>>;

/**
 * Every setting the k6 scripts read (load/k6/lib/config.ts, their one reader), and so every name the Node
 * side may hand to k6 (load/node/k6-env.ts, its one writer): a name missing here can be neither.
 */
export const K6_SCRIPT_ENV = [
  ENV.baseUrl,
  ENV.apiKey,
  ENV.seed,
  ENV.profile,
  ENV.scenarios,
  ENV.duration,
  ENV.vusScale,
  ENV.loadDataFile,
  ENV.reportDir,
  ENV.segmentLabel,
  ENV.contractSample,
  ENV.contractMemo,
  ENV.contractSink,
  ENV.contractBatch,
  ENV.loadPollIntervalMs,
  ENV.workflowTimeoutMs,
  ENV.rateLimitRetries,
  ENV.requestTimeout,
  ENV.thinkTimeS,
  ENV.sloLatencyScale,
  ENV.sloMaxFailedRate,
  ENV.sloMinCompletionRate,
  ENV.sloWorkflowP95Ms,
  ENV.allowOverwrite,
  ENV.overwriteCanvasId,
  ENV.abortCanvasId,
] as const;

export type K6ScriptName = (typeof K6_SCRIPT_ENV)[number];

/** Values of k6 script settings, by name. */
export type K6ScriptValues = Partial<Record<K6ScriptName, string>>;

/** The k6 script settings an environment holds (unset ones left out): nothing else reaches the k6 reader. */
export function k6ScriptSettingsOf(env: EnvLike): K6ScriptValues {
  const out: K6ScriptValues = {};
  for (const name of K6_SCRIPT_ENV) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** A setting that cannot be used as given; the message names where it came from. Commands exit 2 on it. */
/** A command refused with a message that says what to do (no stack): a folder in use, a setting refused, … */
export class Refusal extends Error {}

export class SettingError extends Refusal {
  constructor(message: string) {
    super(message);
    this.name = 'SettingError';
  }
}

/** The value, trimmed; undefined when absent or blank (an empty variable counts as unset). */
export function text(value: string | undefined): string | undefined {
  const t = value?.trim();
  return t ? t : undefined;
}

/** A comma-separated list, blanks dropped. */
export function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** On/off: 1|true|yes|on or 0|false|no|off (any case); anything else is refused rather than read as off. */
export function flag(value: string | undefined, name: string, fallback = false): boolean {
  const t = text(value);
  if (t === undefined) return fallback;
  if (/^(1|true|yes|on)$/i.test(t)) return true;
  if (/^(0|false|no|off)$/i.test(t)) return false;
  throw new SettingError(`${name} must be 1, true, yes or on (or 0, false, no, off), got "${value}"`);
}

/** An integer written in plain digits, at least `min`; `what` names the kind in the error. */
function integer(value: string | undefined, name: string, min: number, what: string): number | undefined {
  const t = text(value);
  if (t === undefined) return undefined;
  const n = Number(t);
  if (!/^\d+$/.test(t) || !Number.isSafeInteger(n) || n < min)
    throw new SettingError(`${name} must be ${what}, got "${value}"`);
  return n;
}

/** A whole number ≥ 0 (seeds, retry counts); `fallback` when unset. */
export function wholeNumber(value: string | undefined, name: string): number | undefined;
export function wholeNumber(value: string | undefined, name: string, fallback: number): number;
export function wholeNumber(value: string | undefined, name: string, fallback?: number): number | undefined {
  return integer(value, name, 0, 'a non-negative integer') ?? fallback;
}

/** A whole number ≥ 1 (counts, milliseconds, bytes); `fallback` when unset. */
export function positiveInt(value: string | undefined, name: string, fallback: number): number;
export function positiveInt(value: string | undefined, name: string): number | undefined;
export function positiveInt(value: string | undefined, name: string, fallback?: number): number | undefined {
  return integer(value, name, 1, 'a positive integer') ?? fallback;
}

/** A budget of executions, requests and time, as `WFCHECK_TRIAL_BUDGET` writes it; the parts given only. */
export interface BudgetParts {
  executions?: number;
  requests?: number;
  ms?: number;
}

/** `executions=60,requests=600,seconds=60`, any of the three, in any order; undefined when unset. */
export function budgetParts(value: string | undefined, name: string): BudgetParts | undefined {
  const t = text(value);
  if (t === undefined) return undefined;
  const out: BudgetParts = {};
  for (const part of list(t)) {
    const m = /^(executions|requests|seconds)\s*=\s*(\S+)$/.exec(part);
    if (!m) throw new SettingError(`${name} takes executions=N,requests=N,seconds=N (any of them), got "${value}"`);
    const n = positiveInt(m[2], `${name} ${m[1]}`)!;
    if (m[1] === 'seconds') out.ms = n * 1000;
    else out[m[1] as 'executions' | 'requests'] = n;
  }
  return out;
}

export interface NumberRange {
  /** Lowest value allowed. */
  min?: number;
  /** Highest value allowed. */
  max?: number;
  /** Zero is refused (durations, scales). */
  positive?: boolean;
}

function rangeText(r: NumberRange): string {
  if (r.min !== undefined && r.max !== undefined) return `a number from ${r.min} to ${r.max}`;
  if (r.positive) return 'a positive number';
  if (r.min === 0) return 'a non-negative number';
  if (r.min !== undefined) return `a number ≥ ${r.min}`;
  if (r.max !== undefined) return `a number ≤ ${r.max}`;
  return 'a number';
}

/** A finite decimal number within `range`; `fallback` when unset. */
export function number(value: string | undefined, name: string, fallback: number, range?: NumberRange): number;
export function number(
  value: string | undefined,
  name: string,
  fallback?: undefined,
  range?: NumberRange,
): number | undefined;
export function number(
  value: string | undefined,
  name: string,
  fallback?: number,
  range: NumberRange = {},
): number | undefined {
  const t = text(value);
  if (t === undefined) return fallback;
  const n = Number(t);
  const ok =
    Number.isFinite(n) &&
    (range.min === undefined || n >= range.min) &&
    (range.max === undefined || n <= range.max) &&
    (!range.positive || n > 0);
  if (!ok) throw new SettingError(`${name} must be ${rangeText(range)}, got "${value}"`);
  return n;
}

/** One of the listed words; `fallback` when unset. */
export function oneOf<const T extends string>(
  value: string | undefined,
  name: string,
  choices: readonly T[],
  fallback: T,
): T {
  const t = text(value);
  if (t === undefined) return fallback;
  if (!(choices as readonly string[]).includes(t))
    throw new SettingError(`${name} must be one of ${choices.join(', ')}, got "${value}"`);
  return t as T;
}

/** An http(s) URL whose path ends in /v1 (the specification's {base_url}); trailing slashes are dropped. */
export function baseUrl(value: string | undefined, name: string = ENV.baseUrl): string {
  const t = text(value);
  if (t === undefined)
    throw new SettingError(`${name} is not set (an http(s) URL ending in /v1, e.g. https://api.example.com/v1)`);
  const url = t.replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i.test(url))
    throw new SettingError(
      `${name} must be an http(s) URL ending in /v1 (e.g. https://api.example.com/v1), got "${value}"`,
    );
  if (!/\/v1$/.test(url)) throw new SettingError(`${name} must end in /v1, got "${value}"`);
  return url;
}

/** Longest implementation name or version kept: a label for a column, not a description. */
export const MAX_LABEL_LENGTH = 64;

/**
 * A short label (an implementation's name or version): trimmed, at most MAX_LABEL_LENGTH characters,
 * printable (no control characters, which would break a file listing or a table cell); undefined when unset.
 */
export function label(value: string | undefined, name: string): string | undefined {
  const t = text(value);
  if (t === undefined) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (t.length > MAX_LABEL_LENGTH || /[\u0000-\u001f\u007f]/.test(t))
    throw new SettingError(
      `${name} must be a label of at most ${MAX_LABEL_LENGTH} printable characters, got "${(value ?? '').slice(0, 80)}"`,
    );
  return t;
}
