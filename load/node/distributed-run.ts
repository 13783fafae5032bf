/**
 * `wfcheck load distributed` (scripts/load-distributed.ts parses its command line): one load test split
 * into execution segments across N local k6 processes against one target, their samples merged and the
 * suite's thresholds judged on the merged data.
 */
import { join } from 'node:path';
import type { OptionValues } from '../../core/settings/command.ts';
import { pathFromWorkDir } from '../../core/settings/roots.ts';
import { positiveInt, SettingError } from '../../core/settings/rules.ts';
import { describeTarget, type ReferenceBooter, resolveTarget, type Target } from '../../core/settings/target.ts';
import { targetNamed } from '../../core/settings/target-settings.ts';
import type { ConnectionFacts } from '../../core/connection/connection-facts.ts';
import { useConnection } from '../../core/connection/connection.ts';
import { readK6ScriptSettings, readLoadRunSettings, type LoadRunSettings } from '../settings.ts';
import { SCENARIO_OPERATIONS } from '../k6/lib/operations.ts';
import { parseScenarioList, PROFILE_CHOICE, profileByName, type ScenarioName } from '../k6/lib/profiles.ts';
import { loadReportText, type RunReport } from '../k6/lib/run-report.ts';
import { buildThresholds, sloFromEnv } from '../k6/lib/thresholds.ts';
import { loadConnection } from './connection-view.ts';
import { checkWay } from './preflight.ts';
import { ensureK6 } from './ensure-k6.ts';
import { runShape, type RunShape } from './k6-env.ts';
import { evaluateMerged, executionSegments, mergeK6Json } from './merge.ts';
import { prepareRunData } from './prepare-data.ts';
import { K6_EXIT, runK6, type K6RunResult } from './run-k6.ts';
import { writeLoadReport } from './report-files.ts';
import { openRunFolder } from './run-dir.ts';
import { type DISTRIBUTED_OPTIONS, loadReplayCommand } from './run-options.ts';

type DistributedValues = OptionValues<typeof DISTRIBUTED_OPTIONS>;

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

/** The distributed run of the command line `values`; the exit code (0 gates met on the merged data, 1 breached, 2 failed). */
export async function runDistributed(values: DistributedValues, booter: ReferenceBooter | undefined): Promise<number> {
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
    return await distributedInto(folder.dir, settings, { instances, scenarios, booter });
  } finally {
    folder.finish();
  }
}

/** The run, its segments and their merged verdict written into its folder `dir`. */
async function distributedInto(
  dir: string,
  settings: LoadRunSettings,
  {
    instances,
    scenarios,
    booter,
  }: { instances: number; scenarios: ScenarioName[]; booter: ReferenceBooter | undefined },
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
  const target = await resolveTarget(settings.target, booter);
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
