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
import { resolve } from 'node:path';
import { K6_ENTRY } from './run-k6.ts';

export interface ArchiveOptions { k6: string; out: string; dataFile: string; profile: string; seed: number; scenarios?: string; duration?: string }

export const PLACEHOLDER_BASE_URL = 'http://set-base-url-at-run-time.invalid/v1';

export function buildArchive(o: ArchiveOptions): void {
  const baked: Record<string, string> = {
    BASE_URL: PLACEHOLDER_BASE_URL,
    API_KEY: 'set-api-key-at-run-time',
    PROFILE: o.profile,
    SEED: String(o.seed),
    LOAD_DATA_FILE: resolve(o.dataFile),
    REPORT_DIR: '/tmp',
  };
  if (o.scenarios) baked.SCENARIOS = o.scenarios;
  if (o.duration) baked.DURATION = o.duration;
  const args = ['archive', '--quiet', '-O', o.out, ...Object.entries(baked).flatMap(([k, v]) => ['-e', `${k}=${v}`]), K6_ENTRY];
  // Only the baked values reach the init code: the caller's environment (which may hold a real key) is not passed.
  execFileSync(o.k6, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', K6_NO_USAGE_REPORT: 'true' } });
}
