/**
 * npm run load:distributed — one load test split into execution segments
 * across N local k6 processes; their samples are merged and the suite's
 * thresholds are evaluated on the merged data (k6 alone would judge each
 * instance on its own share).
 *
 *   npm run load:distributed -- [--instances N] [--profile P] [--scenarios …]
 *                               [--duration D] [--vus-scale N] [--seed N] [--run NAME]
 *
 * Target as for `npm run load` (BASE_URL/API_KEY, else the reference target).
 * Reports: reports/load/<run>/ (summary.*, junit.xml of the merged verdict;
 * segment-<i>/ with each instance's log, summary and samples).
 * Exit: 0 all gates met on the merged data; 1 a gate breached; 2 the run failed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { RUN_SHAPE_OPTIONS } from '../load/node/run-options.ts';
import { ensureK6 } from '../load/node/ensure-k6.ts';
import { parseSeed, randomSeed } from '../fixtures/data/index.ts';
import { parseScenarioList, profileByName } from '../load/lib/profiles.ts';
import { buildThresholds, sloFromEnv } from '../load/lib/thresholds.ts';
import { SCENARIO_OPERATIONS } from '../load/lib/operations.ts';
import { renderText, reportFiles } from '../load/lib/report.ts';
import { writeLoadData } from '../load/node/prepare-data.ts';
import { K6_EXIT, runK6 } from '../load/node/run-k6.ts';
import { acquireTarget } from '../load/node/target.ts';
import { runDir } from '../load/node/run-dir.ts';
import { evaluateMerged, mergeK6Json } from '../load/node/merge.ts';

const { values: args } = parseArgs({
  options: {
    instances: { type: 'string', default: '2' },
    ...RUN_SHAPE_OPTIONS,
  },
});

/** `0,1/3,2/3,1` and the i-th segment `i/N:(i+1)/N`, in k6's rational notation. */
export function segments(n: number): { sequence: string; parts: string[] } {
  const point = (i: number) => (i === 0 ? '0' : i === n ? '1' : `${i}/${n}`);
  return {
    sequence: Array.from({ length: n + 1 }, (_, i) => point(i)).join(','),
    parts: Array.from({ length: n }, (_, i) => `${point(i)}:${point(i + 1)}`),
  };
}

async function main(): Promise<number> {
  const n = Number(args.instances);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new Error(`--instances must be an integer from 1 to 64, got ${args.instances}`);
  const profileName = args.profile!;
  const profile = profileByName(profileName);
  const scenarios = parseScenarioList(args.scenarios, profile);
  const seed = parseSeed(args.seed) ?? randomSeed();
  const dir = runDir(args.run, `${profileName}-x${n}`);
  const dataFile = join(dir, 'load-data.json');
  mkdirSync(dir, { recursive: true });
  writeLoadData(dataFile, seed);
  console.error(`seed ${seed} (replay with SEED=${seed}); ${n} k6 processes; reports in ${relative(process.cwd(), dir)}/`);

  const k6 = await ensureK6();
  const target = await acquireTarget();
  const { sequence, parts } = segments(n);
  const env: Record<string, string> = {};
  if (args['vus-scale']) env.VUS_SCALE = args['vus-scale'];
  let results;
  try {
    results = await Promise.all(parts.map((segment, i) => {
      const segDir = join(dir, `segment-${i + 1}`);
      return runK6({
        k6, baseUrl: target.baseUrl, apiKey: target.apiKey, profile: profileName, seed, dataFile,
        reportDir: segDir, scenarios: scenarios.join(','), duration: args.duration, env,
        segment: { segment, sequence, label: `${i + 1}/${n}` },
        jsonOut: join(segDir, 'samples.ndjson'),
        // Each instance would judge only its own share; the verdict comes from the merged data below.
        extraArgs: ['--no-thresholds'],
        quiet: true,
      }).then((r) => {
        console.error(`instance ${i + 1}/${n} (segment ${segment}) finished: exit ${r.exitCode}, log ${relative(process.cwd(), join(segDir, 'k6.log'))}`);
        return r;
      });
    }));
  } finally {
    await target.stop();
  }
  const broken = results.map((r, i) => ({ r, i })).filter(({ r }) => r.exitCode !== K6_EXIT.ok && r.exitCode !== K6_EXIT.thresholdsFailed);
  if (broken.length > 0) {
    for (const { r, i } of broken) console.error(`k6 instance ${i + 1}/${n} exited with code ${r.exitCode} (see ${relative(process.cwd(), join(dir, `segment-${i + 1}`, 'k6.log'))})`);
    return 2;
  }
  const thresholds = buildThresholds(scenarios.flatMap((s) => [...SCENARIO_OPERATIONS[s]]), scenarios.includes('lifecycle'), sloFromEnv(process.env));
  console.error(`merging samples of ${n} instances…`);
  const merged = await mergeK6Json(parts.map((_, i) => join(dir, `segment-${i + 1}`, 'samples.ndjson')), thresholds);
  const report = evaluateMerged(merged, thresholds, {
    profile: profileName, scenarios, seed, baseUrl: target.baseUrl,
    contractSample: Number(process.env.CONTRACT_CHECK_SAMPLE ?? 1), evaluation: `merged ${n} segments (${merged.samples} samples)`,
  });
  for (const [file, content] of Object.entries(reportFiles(dir, report))) writeFileSync(file, content);
  process.stdout.write(renderText(report));
  return report.passed ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: Error) => { console.error(`load:distributed failed: ${err.message}`); process.exit(2); },
);
