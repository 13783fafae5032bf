/**
 * usage: wfcheck load distributed [--instances N] [--profile NAME] [--scenarios …] [--duration D]
 *     [--vus-scale N] [--seed N] [--out DIR | --run NAME]
 *
 * One load test split into execution segments across N local k6 processes; their samples are merged
 * and the suite's thresholds are evaluated on the merged data (k6 alone would judge each instance on
 * its own share).
 *
 * Target as for wfcheck load (BASE_URL/API_KEY, else the reference target).
 * --out DIR is the run's folder (default reports/load/<run>, <run> being --run NAME or the time, the
 * profile and -x<N>): report.json, report.txt and report.junit.xml of the merged verdict; segment-<i>/
 * with each instance's log, report and samples.
 * Exit: 0 all gates met on the merged data; 1 a gate breached; 2 the run failed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readK6ScriptSettings, readLoadRunSettings, type LoadRunSettings } from '../load/settings.ts';
import { pathFromWorkDir } from '../core/settings/roots.ts';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { positiveInt, SettingError } from '../core/settings/rules.ts';
import { referenceBooter } from '../fixtures/reference/boot/booter.ts';
import { describeTarget, resolveTarget, type Target } from '../core/settings/target.ts';
import { targetNamed } from '../core/settings/target-settings.ts';
import { CONNECTION_OPTIONS, CONNECTION_USAGE } from '../core/settings/connection-settings.ts';
import type { ConnectionFacts } from '../core/connection/connection-facts.ts';
import { useConnection } from '../core/connection/connection.ts';
import { loadConnection } from '../load/node/connection-view.ts';
import { checkWay } from '../load/node/preflight.ts';
import { SCENARIO_OPERATIONS } from '../load/k6/lib/operations.ts';
import { parseScenarioList, PROFILE_CHOICE, profileByName, type ScenarioName } from '../load/k6/lib/profiles.ts';
import { loadReportText, type RunReport } from '../load/k6/lib/report.ts';
import { buildThresholds, sloFromEnv } from '../load/k6/lib/thresholds.ts';
import { ensureK6 } from '../load/node/ensure-k6.ts';
import { runShape, type RunShape } from '../load/node/k6-env.ts';
import { evaluateMerged, executionSegments, mergeK6Json } from '../load/node/merge.ts';
import { prepareRunData } from '../load/node/prepare-data.ts';
import { K6_EXIT, runK6, type K6RunResult } from '../load/node/run-k6.ts';
import { writeLoadReport } from '../load/node/report-files.ts';
import { openRunFolder } from '../load/node/run-dir.ts';
import { loadReplayCommand, RUN_SHAPE_OPTIONS, withProfiles } from '../load/node/run-options.ts';

const USAGE = `${withProfiles(usageFromSource(readFileSync(new URL(import.meta.url), 'utf8')))}

${CONNECTION_USAGE}`;
const MAX_INSTANCES = 64;
const rel = pathFromWorkDir;

/** One distributed run: its shape, where it writes, and how many k6 processes share it. */
interface Plan {
  shape: RunShape;
  scenarios: ScenarioName[];
  instances: number;
  dir: string;
  dataFile: string;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { instances: { type: 'string' }, ...RUN_SHAPE_OPTIONS, ...CONNECTION_OPTIONS },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const settings = readLoadRunSettings(values, PROFILE_CHOICE);
  // Every segment reaches the target the same way: the roots, --insecure and the client certificate.
  useConnection(settings.connection);
  const instances = positiveInt(values.instances, '--instances', 2);
  if (instances > MAX_INSTANCES)
    throw new SettingError(`--instances must be an integer from 1 to ${MAX_INSTANCES}, got ${values.instances}`);
  const scenarios = parseScenarioList(settings.scenarios, profileByName(settings.profile));
  const folder = openRunFolder(settings, {
    mode: 'load',
    command: 'load distributed',
    name: `${settings.profile}-x${instances}`,
    target: targetNamed(settings.target),
  });
  try {
    return await distributedInto(folder.dir, settings, instances, scenarios);
  } finally {
    folder.finish();
  }
}

/** The run, its segments and their merged verdict written into its folder `dir`. */
async function distributedInto(
  dir: string,
  settings: LoadRunSettings,
  instances: number,
  scenarios: ScenarioName[],
): Promise<number> {
  const plan: Plan = {
    shape: { ...runShape(settings), scenarios: scenarios.join(',') },
    scenarios,
    instances,
    dir,
    dataFile: prepareRunData(dir, settings.seed),
  };
  console.error(
    `seed ${settings.seed} (replay: ${loadReplayCommand('load distributed', settings, ['--instances', instances])}); ` +
      `${instances} k6 processes; reports in ${rel(dir)}/`,
  );

  const k6 = await ensureK6();
  const target = await resolveTarget(settings.target, referenceBooter);
  console.error(describeTarget(target));
  let results: K6RunResult[];
  let connection: ConnectionFacts | undefined;
  try {
    connection = await checkWay(target.baseUrl, (line) => console.error(line));
    results = await runSegments(k6, target, plan);
  } finally {
    await target.stop();
  }
  const broken = results
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => r.exitCode !== K6_EXIT.ok && r.exitCode !== K6_EXIT.thresholdsFailed);
  for (const { r, i } of broken)
    console.error(
      `k6 instance ${i + 1}/${instances} exited with code ${r.exitCode} (see ${rel(join(segmentDir(plan, i), 'k6.log'))})`,
    );
  if (broken.length > 0) return 2;
  const report = await judgeMerged(plan, target.baseUrl);
  const way = loadConnection(connection, results.find((r) => r.wire)?.wire);
  if (way) report.meta.connection = way;
  writeLoadReport(dir, report);
  process.stdout.write(loadReportText(report));
  return report.passed ? 0 : 1;
}

const segmentDir = (plan: Plan, i: number) => join(plan.dir, `segment-${i + 1}`);

/** One k6 process per execution segment, all at once, against the same target and data. */
function runSegments(k6: string, target: Target, plan: Plan): Promise<K6RunResult[]> {
  const { sequence, parts } = executionSegments(plan.instances);
  return Promise.all(
    parts.map(async (segment, i) => {
      const dir = segmentDir(plan, i);
      const r = await runK6({
        ...plan.shape,
        k6,
        baseUrl: target.baseUrl,
        apiKey: target.apiKey,
        dataFile: plan.dataFile,
        reportDir: dir,
        segment: { segment, sequence, label: `${i + 1}/${plan.instances}` },
        jsonOut: join(dir, 'samples.ndjson'),
        // Each instance would judge only its own share; the verdict comes from the merged data.
        extraArgs: ['--no-thresholds'],
        quiet: true,
      });
      console.error(
        `instance ${i + 1}/${plan.instances} (segment ${segment}) finished: exit ${r.exitCode}, log ${rel(join(dir, 'k6.log'))}`,
      );
      return r;
    }),
  );
}

/** The suite's thresholds evaluated on the samples of every instance together. */
async function judgeMerged(plan: Plan, baseUrl: string): Promise<RunReport> {
  const { scenarios, instances } = plan;
  const thresholds = buildThresholds(
    scenarios.flatMap((s) => [...SCENARIO_OPERATIONS[s]]),
    scenarios.includes('lifecycle'),
    sloFromEnv(readK6ScriptSettings()),
  );
  console.error(`merging samples of ${instances} instances…`);
  const merged = await mergeK6Json(
    Array.from({ length: instances }, (_, i) => join(segmentDir(plan, i), 'samples.ndjson')),
    thresholds,
  );
  return evaluateMerged(merged, thresholds, {
    profile: plan.shape.profile,
    scenarios,
    seed: plan.shape.seed,
    baseUrl,
    contractSample: plan.shape.contractSample ?? 1,
    evaluation: `merged ${instances} segments (${merged.samples} samples)`,
  });
}

runCommand('load distributed', main, { usage: USAGE, failure: (err) => `load distributed failed: ${err.message}` });
