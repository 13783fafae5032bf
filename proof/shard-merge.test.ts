/**
 * Sharding does not change the verdict: on the same seed, the merged verdict of a 3-shard run
 * (`npm run conformance -- --shard i/3`, then `npm run report:merge`) equals the unsharded run's,
 * requirement by requirement. Counts of exchanges may differ (each shard boots its own target and
 * probes it once); verdicts may not. The merge also yields one Playwright HTML report and one JUnit file.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { verdictsOf } from '../core/history-store/verdicts.ts';
import { mergeShards } from '../scenarios/run/merge.ts';
import type { ConformanceReport } from '../core/findings/build-report.ts';
import { REPO_ROOT, scratchOutDir } from './conformance-run.ts';

const SEED = 4242;

/** `npm run conformance` against its own in-process reference target, as a CI shard job runs it. */
function conformance(outDir: string, history: string, args: string[] = []): Promise<number | null> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WFCHECK_TARGET_BOOT: 'inprocess',
    WFCHECK_HISTORY: history,
    FORCE_COLOR: '0',
  };
  for (const name of ['BASE_URL', 'API_KEY', 'API_KEY_B', 'SEED']) delete env[name];
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(REPO_ROOT, 'scripts', 'conformance.ts'),
      '--seed',
      String(SEED),
      '--workers',
      '2',
      '--out',
      outDir,
      ...args,
    ],
    { cwd: REPO_ROOT, env, stdio: 'ignore' },
  );
  return new Promise((done) => child.on('close', done));
}

test('the merged verdict of a 3-shard run equals the unsharded run, requirement by requirement', {
  tag: '@conformance-run',
}, async () => {
  test.setTimeout(900_000);
  const scratch = scratchOutDir(`shard-merge-${process.pid}-0`);
  const history = join(scratch, 'history.sqlite');
  try {
    const whole = join(scratch, 'whole');
    await conformance(whole, history);
    const shards = [1, 2, 3].map((i) => join(scratch, `shard-${i}`));
    for (const [i, dir] of shards.entries()) await conformance(dir, history, ['--shard', `${i + 1}/3`]);
    for (const dir of shards) {
      expect(existsSync(join(dir, 'blob-report')), `${dir} has a blob report`).toBe(true);
      expect(existsSync(join(dir, 'shard.json')), `${dir} names its target`).toBe(true);
    }

    const merged = mergeShards(shards, join(scratch, 'merged'), () => undefined, history);
    const unsharded = JSON.parse(readFileSync(join(whole, 'report.json'), 'utf8')) as ConformanceReport;
    expect(merged.problems).toEqual([]);
    expect(verdictsOf(merged.report)).toEqual(verdictsOf(unsharded));
    expect(merged.report.summary.tests.total).toBe(unsharded.summary.tests.total);
    for (const file of ['report.json', 'report.md', 'report.html', 'junit.xml', join('html', 'index.html')])
      expect(existsSync(join(scratch, 'merged', file)), file).toBe(true);
    // Shards are not recorded on their own: the history holds the unsharded run and the merged one, compared.
    expect(merged.history?.change?.from?.id).toBe(1);
    expect(merged.history?.change?.newlyFailing).toEqual([]);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
