/**
 * Packs the capacity entry into one k6 archive holding a found rate (CAPACITY_RATE) for runners that get a
 * single file, such as the k6-operator's pods (load/k8s/capacity-testrun.yaml), as load/node/archive.ts
 * packs the suite. The contract checks run in the VU there (no Node process beside the pods), setup()
 * discovers the workflows itself, and BASE_URL and API_KEY are placeholders: the runner's environment
 * supplies them. The rate and how long it is held shape the scenarios, which k6 fixes in the archive.
 */
import { execFileSync } from 'node:child_process';
import { inheritedEnvironment } from '../../../core/settings/child-environment.ts';
import { CAPACITY_K6_ENV } from '../settings.ts';
import { PLACEHOLDER_BASE_URL } from '../../node/archive.ts';
import { CAPACITY_ENTRY } from './process.ts';
import { k6ScriptEnv } from '../../node/k6-env.ts';

export interface CapacityArchive {
  k6: string;
  out: string;
  dataFile: string;
  seed: number;
  /** The load profile whose lifecycle mix is walked. */
  profile: string;
  /** Lifecycles per second to hold. */
  rate: number;
  /** Seconds to hold it, after a 10 s warm-up. */
  holdS: number;
}

export function buildCapacityArchive(o: CapacityArchive): void {
  const baked = {
    ...k6ScriptEnv({
      baseUrl: PLACEHOLDER_BASE_URL,
      apiKey: 'set-api-key-at-run-time',
      reportDir: '/tmp',
      profile: o.profile,
      seed: o.seed,
      dataFile: o.dataFile,
      scenarios: 'lifecycle,readMix',
      // Arrivals pace the read mix: a think time would only hold VUs.
      passOn: { THINK_TIME_S: '0' },
    }),
    [CAPACITY_K6_ENV.rate]: String(o.rate),
    [CAPACITY_K6_ENV.steadyS]: String(o.holdS),
  };
  const args = ['archive', '--quiet', '-O', o.out, ...Object.entries(baked).flatMap(([k, v]) => ['-e', `${k}=${v}`])];
  // The runner image's k6 has no Node beside it: the checks run in the VU.
  args.push(CAPACITY_ENTRY);
  // Only the baked values reach the init code: the caller's environment (which may hold a real key) is not passed.
  execFileSync(o.k6, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { PATH: '', HOME: '/tmp', ...inheritedEnvironment({ only: ['PATH', 'HOME'] }), K6_NO_USAGE_REPORT: 'true' },
  });
}
