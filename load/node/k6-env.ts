/**
 * The settings a k6 run of load/main.ts reads from `__ENV` (load/lib/config.ts), built in one place
 * for every way the suite is started: a k6 child process (run-k6.ts) and a k6 archive (archive.ts).
 */
import { resolve } from 'node:path';
import type { LoadRunSettings } from '../../foundation/environment/config.ts';
import { ENV } from '../../foundation/environment/rules.ts';

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
}

export function k6ScriptEnv(s: K6ScriptSettings): Record<string, string> {
  const env: Record<string, string> = {
    [ENV.baseUrl]: s.baseUrl,
    [ENV.apiKey]: s.apiKey,
    [ENV.profile]: s.profile,
    [ENV.seed]: String(s.seed),
    [ENV.loadDataFile]: resolve(s.dataFile),
    [ENV.reportDir]: resolve(s.reportDir),
  };
  const optional: [string, string | number | undefined][] = [
    [ENV.scenarios, s.scenarios],
    [ENV.duration, s.duration],
    [ENV.vusScale, s.vusScale],
    [ENV.contractSample, s.contractSample],
    [ENV.segmentLabel, s.segmentLabel],
  ];
  for (const [name, value] of optional) if (value !== undefined && value !== '') env[name] = String(value);
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
