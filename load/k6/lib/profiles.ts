/**
 * Named load profiles, in one module (after grafana/quickpizza's `load-options`).
 *
 * Pure TypeScript with no k6 imports: the k6 entry turns a profile into
 * `options.scenarios`, and the Node side (distributed runs, benchmarks) reads
 * the same definitions, so there is exactly one place where load shapes live.
 *
 * Every profile is short by default so a release gate does not take an hour;
 * `DURATION` stretches or shrinks it and `VUS_SCALE` multiplies the VU counts.
 */

export type ScenarioName = 'lifecycle' | 'generate' | 'readMix' | 'uploads' | 'statusRead';

export const SCENARIO_NAMES: readonly ScenarioName[] = ['lifecycle', 'generate', 'readMix', 'uploads', 'statusRead'];

/** How the VU count evolves over the run, relative to the profile's peak. */
type Shape =
  | { kind: 'constant' }
  /** Ramp up, hold, ramp down: fractions of the duration for each phase. */
  | { kind: 'ramp'; up: number; hold: number; down: number }
  /** A short baseline, a sudden jump to the peak, a brief hold, then a drop. */
  | { kind: 'spike'; baselineShare: number };

/**
 * What the lifecycle and generate scenarios do, besides how many VUs run them: the product's flow is
 * upload → run with the file key as a file variable → poll → output, some executions are aborted
 * mid-run, and generate (which creates or overwrites a canvas each call) runs at a low, bounded rate.
 */
export interface WorkflowMix {
  /** Share of lifecycle iterations that upload a file and pass its key as a file variable. */
  fileShare: number;
  /** Share of lifecycle iterations that abort their execution mid-run. */
  abortShare: number;
  /** Generate calls per minute (a constant arrival rate, whatever the VU shape). */
  generatePerMinute: number;
}

export interface ProfileDefinition {
  description: string;
  defaultDuration: string;
  shape: Shape;
  /** Peak VUs per scenario. */
  vus: Record<ScenarioName, number>;
  /** Pause between iterations of the read and upload scenarios (seconds). */
  thinkTimeS: number;
  mix: WorkflowMix;
  /** Scenarios run when `SCENARIOS` is not given. */
  defaultScenarios: readonly ScenarioName[];
}

const USER_SCENARIOS: readonly ScenarioName[] = ['lifecycle', 'generate', 'readMix', 'uploads'];

/**
 * The one table of load profiles: every name a run, its help, its docs and its checks know comes from
 * its keys (PROFILE_NAMES), in this order.
 */
export const LOAD_PROFILES = {
  smoke: {
    description: 'one VU per scenario: proves the scripts and the gates work',
    defaultDuration: '15s',
    shape: { kind: 'constant' },
    vus: { lifecycle: 1, generate: 1, readMix: 1, uploads: 1, statusRead: 1 },
    thinkTimeS: 0.2,
    mix: { fileShare: 0.5, abortShare: 0.25, generatePerMinute: 12 },
    defaultScenarios: USER_SCENARIOS,
  },
  average: {
    description: 'typical production traffic: ramp up, hold, ramp down',
    defaultDuration: '1m',
    shape: { kind: 'ramp', up: 0.2, hold: 0.6, down: 0.2 },
    vus: { lifecycle: 5, generate: 1, readMix: 10, uploads: 2, statusRead: 10 },
    thinkTimeS: 0.5,
    mix: { fileShare: 0.3, abortShare: 0.1, generatePerMinute: 6 },
    defaultScenarios: USER_SCENARIOS,
  },
  stress: {
    description: 'well above average load, to see how the service degrades',
    defaultDuration: '2m',
    shape: { kind: 'ramp', up: 0.25, hold: 0.6, down: 0.15 },
    vus: { lifecycle: 15, generate: 1, readMix: 40, uploads: 6, statusRead: 40 },
    thinkTimeS: 0.2,
    mix: { fileShare: 0.3, abortShare: 0.1, generatePerMinute: 12 },
    defaultScenarios: USER_SCENARIOS,
  },
  spike: {
    description: 'a sudden burst from a small baseline and back',
    defaultDuration: '1m',
    shape: { kind: 'spike', baselineShare: 0.1 },
    vus: { lifecycle: 20, generate: 1, readMix: 60, uploads: 8, statusRead: 60 },
    thinkTimeS: 0.1,
    mix: { fileShare: 0.3, abortShare: 0.1, generatePerMinute: 12 },
    defaultScenarios: USER_SCENARIOS,
  },
  soak: {
    description: 'average load held for a long time (short by default; set DURATION=2h for a real soak)',
    defaultDuration: '5m',
    shape: { kind: 'ramp', up: 0.05, hold: 0.9, down: 0.05 },
    vus: { lifecycle: 5, generate: 1, readMix: 10, uploads: 2, statusRead: 10 },
    thinkTimeS: 0.5,
    mix: { fileShare: 0.3, abortShare: 0.1, generatePerMinute: 2 },
    defaultScenarios: USER_SCENARIOS,
  },
  throughput: {
    description: 'constant VUs without think time, for measuring the load generator itself',
    defaultDuration: '10s',
    shape: { kind: 'constant' },
    vus: { lifecycle: 4, generate: 1, readMix: 10, uploads: 2, statusRead: 10 },
    thinkTimeS: 0,
    mix: { fileShare: 0.3, abortShare: 0.1, generatePerMinute: 6 },
    defaultScenarios: ['statusRead'],
  },
} satisfies Readonly<Record<string, ProfileDefinition>>;

export type ProfileName = keyof typeof LOAD_PROFILES;

export const PROFILE_NAMES = Object.keys(LOAD_PROFILES) as readonly ProfileName[];

/** The profile a run without --profile (PROFILE) runs: the cheapest that still proves the scripts and gates. */
export const DEFAULT_PROFILE: ProfileName = 'smoke';

/** The names a load run may be given and the one it runs without (the settings readers' validation). */
export const PROFILE_CHOICE = { names: PROFILE_NAMES, fallback: DEFAULT_PROFILE } as const;

export function isProfileName(name: string): name is ProfileName {
  return (PROFILE_NAMES as readonly string[]).includes(name);
}

export function profileByName(name: string): ProfileDefinition {
  if (!isProfileName(name)) throw new Error(`unknown load profile "${name}"; known: ${PROFILE_NAMES.join(', ')}`);
  return LOAD_PROFILES[name];
}

/** The profiles as a help text lists them: each with its description and duration, the default marked. */
export function profileLines(): string[] {
  return PROFILE_NAMES.map((name) => {
    const p = LOAD_PROFILES[name];
    return `${name}${name === DEFAULT_PROFILE ? ' (default)' : ''}: ${p.description}; ${p.defaultDuration} unless --duration`;
  });
}

export function parseScenarioList(list: string | undefined, profile: ProfileDefinition): ScenarioName[] {
  if (!list) return [...profile.defaultScenarios];
  const names = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of names) {
    if (!(SCENARIO_NAMES as readonly string[]).includes(n))
      throw new Error(`unknown scenario "${n}"; known: ${SCENARIO_NAMES.join(', ')}`);
  }
  return names as ScenarioName[];
}

/** The mix of a profile in one line, printed at the start of a run. */
export function describeMix(profile: ProfileDefinition, scenarios: readonly ScenarioName[], vusScale = 1): string {
  const vus = scenarios
    .filter((s) => s !== 'generate')
    .map((s) => `${s} ${Math.max(1, Math.round(profile.vus[s] * vusScale))} VUs`);
  const parts = [...vus];
  if (scenarios.includes('lifecycle'))
    parts.push(
      `lifecycle: ${pct(profile.mix.fileShare)} with an uploaded file variable, ${pct(profile.mix.abortShare)} aborted mid-run`,
    );
  if (scenarios.includes('generate')) parts.push(`generate ${profile.mix.generatePerMinute}/min`);
  parts.push(`think time ${profile.thinkTimeS}s`);
  return parts.join('; ');
}

const pct = (share: number) => `${Math.round(share * 100)}%`;

/** Parses k6-style durations ("90s", "1m30s", "2h", "500ms") to seconds. */
export function durationSeconds(text: string): number {
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  let total = 0;
  let consumed = 0;
  for (const m of text.matchAll(re)) {
    const n = Number(m[1]);
    total += m[2] === 'ms' ? n / 1000 : m[2] === 's' ? n : m[2] === 'm' ? n * 60 : n * 3600;
    consumed += m[0].length;
  }
  if (consumed !== text.length || consumed === 0)
    throw new Error(`invalid duration "${text}" (use e.g. 30s, 2m, 1h30m)`);
  return total;
}

const secs = (s: number) => `${Math.max(1, Math.round(s))}s`;

/** Executor configuration for one scenario (the subset of k6's scenario options used here). */
export type ExecutorConfig =
  | { executor: 'constant-vus'; vus: number; duration: string }
  | {
      executor: 'ramping-vus';
      startVUs: number;
      stages: { duration: string; target: number }[];
      gracefulRampDown: string;
    }
  | {
      executor: 'constant-arrival-rate';
      rate: number;
      timeUnit: string;
      duration: string;
      preAllocatedVUs: number;
      maxVUs: number;
    };

export function executorFor(
  profile: ProfileDefinition,
  scenario: ScenarioName,
  duration: string,
  vusScale = 1,
): ExecutorConfig {
  const peak = Math.max(1, Math.round(profile.vus[scenario] * vusScale));
  const total = durationSeconds(duration);
  const shape = profile.shape;
  if (scenario === 'generate') {
    // A bounded rate, not a VU count: every call creates or overwrites a canvas on the target.
    return {
      executor: 'constant-arrival-rate',
      rate: profile.mix.generatePerMinute,
      timeUnit: '1m',
      duration: secs(total),
      preAllocatedVUs: 1,
      maxVUs: peak,
    };
  }
  switch (shape.kind) {
    case 'constant':
      return { executor: 'constant-vus', vus: peak, duration: secs(total) };
    case 'ramp':
      return {
        executor: 'ramping-vus',
        startVUs: 0,
        gracefulRampDown: '30s',
        stages: [
          { duration: secs(total * shape.up), target: peak },
          { duration: secs(total * shape.hold), target: peak },
          { duration: secs(total * shape.down), target: 0 },
        ],
      };
    case 'spike': {
      const base = Math.max(1, Math.round(peak * shape.baselineShare));
      return {
        executor: 'ramping-vus',
        startVUs: base,
        gracefulRampDown: '30s',
        stages: [
          { duration: secs(total * 0.3), target: base },
          { duration: secs(total * 0.1), target: peak },
          { duration: secs(total * 0.3), target: peak },
          { duration: secs(total * 0.1), target: base },
          { duration: secs(total * 0.2), target: 0 },
        ],
      };
    }
  }
}

/** The last stretch of a scenario in which a VU's iteration may be its last (k6's clock and ours agree to a few ms). */
const END_MARGIN_MS = 100;

/**
 * When a VU of this executor may be stopped as soon as its current iteration ends, as spans in ms from the
 * scenario's start: wherever the VU count falls (until the stage's end plus the graceful ramp-down), and
 * at the end. An arrival-rate VU may sit idle until the end after any iteration, so every moment counts.
 * Work a VU buffers (load/k6/lib/contract.ts) is flushed at the end of every iteration in these spans.
 */
export function stopWindows(executor: ExecutorConfig): [number, number][] {
  switch (executor.executor) {
    case 'constant-arrival-rate':
      return [[0, Infinity]];
    case 'constant-vus':
      return [[durationSeconds(executor.duration) * 1000 - END_MARGIN_MS, Infinity]];
    case 'ramping-vus': {
      const windows: [number, number][] = [];
      const grace = durationSeconds(executor.gracefulRampDown) * 1000;
      let at = 0;
      let level = executor.startVUs;
      for (const stage of executor.stages) {
        const end = at + durationSeconds(stage.duration) * 1000;
        if (stage.target < level) windows.push([at, end + grace]);
        at = end;
        level = stage.target;
      }
      windows.push([at - END_MARGIN_MS, Infinity]);
      return windows;
    }
  }
}
