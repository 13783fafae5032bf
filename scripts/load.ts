/**
 * npm run load — runs the k6 load suite against a target and gates on the SLOs.
 *
 *   npm run load -- [--profile smoke|average|stress|spike|soak|throughput]
 *                   [--scenarios lifecycle,readMix,uploads,statusRead] [--duration 30s]
 *                   [--vus-scale N] [--seed N] [--run NAME] [--no-dashboard]
 *                   [--contract-sample 0..1] [--baseline FILE [--tolerance PCT]]
 *                   [--save-baseline FILE] [--prepare-only] [--k6-archive]
 *
 * --k6-archive packs script, modules and seeded data into one k6 archive
 * (reports/load/<run>/wfcheck-load.tar) for load/k8s/testrun.yaml.
 *
 * Target: BASE_URL + API_KEY from the environment, else the reference target
 * (booted as for conformance). Reports: reports/load/<run>/ (summary.txt,
 * summary.json, junit.xml, dashboard.html, violations.ndjson, k6.log).
 * Exit: 0 all gates met; 1 a gate breached (or a regression against the
 * baseline); 2 the run could not be carried out.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { RUN_SHAPE_OPTIONS } from '../load/node/run-options.ts';
import { ensureK6 } from '../load/node/ensure-k6.ts';
import { parseSeed, randomSeed } from '../fixtures/data/index.ts';
import { profileByName } from '../load/lib/profiles.ts';
import type { RunReport } from '../load/lib/report.ts';
import { writeLoadData } from '../load/node/prepare-data.ts';
import { K6_EXIT, runK6 } from '../load/node/run-k6.ts';
import { acquireTarget } from '../load/node/target.ts';
import { REPO_ROOT, runDir } from '../load/node/run-dir.ts';
import { compareReports, DEFAULT_COMPARE, renderComparison } from '../load/node/compare.ts';
import { buildArchive } from '../load/node/archive.ts';

const { values: args } = parseArgs({
  options: {
    ...RUN_SHAPE_OPTIONS,
    'no-dashboard': { type: 'boolean', default: false },
    'contract-sample': { type: 'string', default: process.env.CONTRACT_CHECK_SAMPLE },
    baseline: { type: 'string' },
    tolerance: { type: 'string' },
    'save-baseline': { type: 'string' },
    'prepare-only': { type: 'boolean', default: false },
    'k6-archive': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});

function usage(): string {
  const source = readFileSync(new URL(import.meta.url), 'utf8');
  return source.slice(source.indexOf('/**') + 3, source.indexOf('*/')).split('\n').map((l) => l.replace(/^ \* ?/, '')).join('\n').trim();
}

async function main(): Promise<number> {
  if (args.help) { console.log(usage()); return 0; }
  const profile = args.profile!;
  profileByName(profile); // fails early with the list of known profiles
  const seed = parseSeed(args.seed) ?? randomSeed();
  const dir = runDir(args.run, profile);
  const dataFile = join(dir, 'load-data.json');
  mkdirSync(dir, { recursive: true });
  writeLoadData(dataFile, seed);
  console.error(`seed ${seed} (replay with SEED=${seed}); reports in ${relative(REPO_ROOT, dir)}/`);
  if (args['prepare-only']) {
    console.log(dataFile);
    return 0;
  }
  const k6 = await ensureK6();
  if (args['k6-archive']) {
    const out = join(dir, 'wfcheck-load.tar');
    buildArchive({ k6, out, dataFile, profile, seed, scenarios: args.scenarios, duration: args.duration });
    console.log(out);
    console.error(`k6 archive written; next: kubectl create configmap wfcheck-load --from-file=wfcheck-load.tar=${relative(process.cwd(), out)} (see load/k8s/README.md)`);
    return 0;
  }
  const target = await acquireTarget();
  let result;
  try {
    const env: Record<string, string> = {};
    if (args['vus-scale']) env.VUS_SCALE = args['vus-scale'];
    if (args['contract-sample']) env.CONTRACT_CHECK_SAMPLE = args['contract-sample'];
    result = await runK6({
      k6, baseUrl: target.baseUrl, apiKey: target.apiKey, profile, seed, reportDir: dir, dataFile,
      scenarios: args.scenarios, duration: args.duration, dashboard: !args['no-dashboard'], env,
    });
  } finally {
    await target.stop();
  }
  const rel = (p: string) => relative(process.cwd(), p) || '.';
  if (result.exitCode === K6_EXIT.scriptAborted && result.abortReason) {
    // The run never measured the target: its gate table says nothing, the reason says everything.
    console.error(`details: ${rel(join(dir, 'k6.log'))}`);
    console.error(`load run aborted: ${result.abortReason}`);
    return 2;
  }
  if (!result.report) {
    console.error(`k6 exited with code ${result.exitCode} without a report (see ${rel(join(dir, 'k6.log'))})`);
    if (result.scriptError) console.error(`load run could not start: ${result.scriptError}`);
    return 2;
  }
  if (result.violationCount > 0) console.error(`contract findings on load traffic: ${rel(result.violationsFile)} (${result.violationCount} logged responses)`);
  console.error(`reports: ${rel(dir)}/{summary.txt,summary.json,junit.xml${args['no-dashboard'] ? '' : ',dashboard.html'}}`);
  let failed = result.exitCode === K6_EXIT.thresholdsFailed || !result.report.passed;
  if (result.exitCode !== K6_EXIT.ok && result.exitCode !== K6_EXIT.thresholdsFailed) {
    console.error(`k6 exited with code ${result.exitCode} (${result.exitCode === K6_EXIT.scriptAborted ? 'the test aborted itself, see the log above' : 'see k6.log'})`);
    return 2;
  }
  if (args['save-baseline']) {
    mkdirSync(dirname(args['save-baseline']), { recursive: true });
    copyFileSync(join(dir, 'summary.json'), args['save-baseline']);
    console.error(`baseline saved to ${args['save-baseline']}`);
  }
  if (args.baseline) {
    const options = { ...DEFAULT_COMPARE, ...(args.tolerance ? { tolerance: Number(args.tolerance) / 100 } : {}) };
    const baseline = JSON.parse(readFileSync(args.baseline, 'utf8')) as RunReport;
    const { rows, warnings } = compareReports(baseline, result.report, options);
    console.log(renderComparison(rows, warnings, options));
    if (rows.some((r) => r.regression)) failed = true;
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: Error) => { console.error(`load run failed: ${err.message}`); process.exit(2); },
);
