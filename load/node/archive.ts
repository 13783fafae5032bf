/**
 * Packs the suite into a single k6 archive (script, modules, contract bundle
 * and seeded data) for runners that only receive one file, such as the
 * k6-operator's TestRun pods.
 *
 * Settings are baked in with `-e`; BASE_URL and API_KEY get placeholders only:
 * a runner's own environment overrides baked values, so the key is supplied
 * at run time (from a Kubernetes Secret) and never stored in the archive.
 */
import { execFileSync } from 'node:child_process';
import { inheritedEnvironment } from '../../core/settings/child-environment.ts';
import { k6ScriptEnv, type K6ScriptSettings } from './k6-env.ts';
import { K6_ENTRY } from './run-k6.ts';

export interface ArchiveOptions extends Omit<K6ScriptSettings, 'baseUrl' | 'apiKey' | 'reportDir' | 'segmentLabel'> {
  k6: string;
  out: string;
}

export const PLACEHOLDER_BASE_URL = 'http://set-base-url-at-run-time.invalid/v1';

export function buildArchive(o: ArchiveOptions): void {
  const baked = k6ScriptEnv({
    ...o,
    baseUrl: PLACEHOLDER_BASE_URL,
    apiKey: 'set-api-key-at-run-time',
    reportDir: '/tmp',
  });
  const args = [
    'archive',
    '--quiet',
    '-O',
    o.out,
    ...Object.entries(baked).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
    K6_ENTRY,
  ];
  // Only the baked values reach the init code: the caller's environment (which may hold a real key) is not passed.
  execFileSync(o.k6, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      PATH: '',
      HOME: '/tmp',
      ...inheritedEnvironment({ only: ['PATH', 'HOME'] }),
      K6_NO_USAGE_REPORT: 'true',
    },
  });
}
