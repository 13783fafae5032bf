/**
 * Everything a k6 run of load/k6/main.ts gets through its environment, written in one place for every way
 * the suite is started: a k6 child process (run-k6.ts) and a k6 archive (archive.ts).
 *
 * The script's settings use the names of K6_SCRIPT_ENV (core/settings/rules.ts), the list its
 * one reader, load/k6/lib/config.ts, reads from `__ENV`: each name is spelled once, for writer and reader.
 */
import { join, resolve } from 'node:path';
import type { LoadRunSettings } from '../settings.ts';
import { ENV, K6_SCRIPT_ENV, type K6ScriptValues } from '../../core/settings/rules.ts';
import { durationSeconds, profileByName } from '../k6/lib/profiles.ts';
import { dashboardPeriod } from './run-dir.ts';

export interface K6ScriptSettings {
  baseUrl: string;
  apiKey: string;
  profile: string;
  seed: number;
  /** The seeded data file (prepare-data.ts); made absolute, as k6 resolves relative paths against the script. */
  dataFile: string;
  /** Where the script writes its summaries; made absolute. */
  reportDir: string;
  scenarios?: string;
  duration?: string;
  vusScale?: number;
  contractSample?: number;
  /** The execution segment's label in a distributed run. */
  segmentLabel?: string;
  /** Offloaded checks: the address of the Node checker (node-checker.ts) the VUs send their responses to. */
  nodeCheckerUrl?: string;
  /**
   * Settings passed on as given (the command's environment's, SLO_*, THINK_TIME_S, …, and a caller's
   * own); the ones above take their place where both are given.
   */
  passOn?: K6ScriptValues;
}

const SCRIPT_NAMES: ReadonlySet<string> = new Set(K6_SCRIPT_ENV);

export function k6ScriptEnv(s: K6ScriptSettings): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(s.passOn ?? {})) {
    // A name the script does not read would be passed for nothing: a misspelling, or a setting without its reader.
    if (!SCRIPT_NAMES.has(name)) throw new Error(`${name} is not a setting of the k6 scripts (K6_SCRIPT_ENV)`);
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, {
    [ENV.baseUrl]: s.baseUrl,
    [ENV.apiKey]: s.apiKey,
    [ENV.profile]: s.profile,
    [ENV.seed]: String(s.seed),
    [ENV.loadDataFile]: resolve(s.dataFile),
    [ENV.reportDir]: resolve(s.reportDir),
  });
  const optional: [string, string | number | undefined][] = [
    [ENV.scenarios, s.scenarios],
    [ENV.duration, s.duration],
    [ENV.vusScale, s.vusScale],
    [ENV.contractSample, s.contractSample],
    [ENV.segmentLabel, s.segmentLabel],
    [ENV.contractSink, s.nodeCheckerUrl],
  ];
  for (const [name, value] of optional) if (value !== undefined && value !== '') env[name] = String(value);
  return env;
}

/** k6's own options for a run (not the script's): no usage report, and the web dashboard's HTML export when asked. */
export function k6RunnerEnv(o: {
  reportDir: string;
  dashboard?: boolean;
  profile: string;
  duration?: string;
}): Record<string, string> {
  const env: Record<string, string> = { K6_NO_USAGE_REPORT: 'true' };
  if (o.dashboard) {
    env.K6_WEB_DASHBOARD = 'true';
    // No listening port: nothing waits for a browser, and parallel runs cannot collide.
    env.K6_WEB_DASHBOARD_PORT = '-1';
    env.K6_WEB_DASHBOARD_EXPORT = join(resolve(o.reportDir), 'dashboard.html');
    env.K6_WEB_DASHBOARD_PERIOD = dashboardPeriod(
      durationSeconds(o.duration || profileByName(o.profile).defaultDuration),
    );
  }
  return env;
}

export type RunShape = Pick<
  K6ScriptSettings,
  'profile' | 'seed' | 'scenarios' | 'duration' | 'vusScale' | 'contractSample'
>;

/** What shapes the run (as opposed to where it goes and where it writes), from a command's settings. */
export function runShape(s: LoadRunSettings): RunShape {
  return {
    profile: s.profile,
    seed: s.seed,
    scenarios: s.scenarios,
    duration: s.duration,
    vusScale: s.vusScale,
    contractSample: s.contractSample,
  };
}
