/**
 * `wfcheck load` (scripts/load.ts parses its command line): the run's folder opened, the seeded data
 * written, then the data alone, a k6 archive or one k6 run against the target, the contract findings
 * on its traffic, the gates' verdict and the comparison with a baseline.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { OptionValues } from '../../core/settings/command.ts';
import { pathFromWorkDir } from '../../core/settings/roots.ts';
import { ENV, number } from '../../core/settings/rules.ts';
import { describeTarget, type ReferenceBooter, resolveTarget } from '../../core/settings/target.ts';
import { targetNamed } from '../../core/settings/target-settings.ts';
import { useConnection } from '../../core/connection/connection.ts';
import { tlsFailureLine, tlsFailureOf } from '../../core/connection/tls-failure.ts';
import { REPORT_FORMATS } from '../../core/report/formats.ts';
import { readK6ScriptSettings, readLoadRunSettings, type LoadRunSettings } from '../settings.ts';
import { PROFILE_CHOICE } from '../k6/lib/profiles.ts';
import type { RunReport } from '../k6/lib/run-report.ts';
import { buildArchive } from './archive.ts';
import { compareReports, DEFAULT_COMPARE, renderComparison } from './compare.ts';
import { ensureK6 } from './ensure-k6.ts';
import { runShape } from './k6-env.ts';
import { recordLoadHistory } from './load-history.ts';
import { prepareRunData } from './prepare-data.ts';
import { K6_EXIT, runK6, type K6RunResult } from './run-k6.ts';
import { LOAD_REPORT_FILES } from './report-files.ts';
import { openRunFolder } from './run-dir.ts';
import { type LOAD_OPTIONS, loadReplayCommand } from './run-options.ts';
import { clausesInExamples, describeClauses } from './violations.ts';
import { k8sTlsSteps } from './k6-tls.ts';
import { checkWay } from './preflight.ts';

type LoadValues = OptionValues<typeof LOAD_OPTIONS>;

const rel = pathFromWorkDir;

/** The load run of the command line `values`; the exit code (0 gates met, 1 breached or regressed, 2 no verdict). */
export async function runLoad(values: LoadValues, booter: ReferenceBooter | undefined): Promise<number> {
  // Read before anything runs (an unknown profile, a bad tolerance): not only after a long run.
  const settings = readLoadRunSettings(values, PROFILE_CHOICE);
  const connection = useConnection(settings.connection);
  const tolerance = number(values.tolerance, '--tolerance', undefined, { min: 0 });
  const folder = openRunFolder(settings, {
    mode: 'load',
    command: 'load',
    name: settings.profile,
    target: targetNamed(settings.target),
  });
  try {
    return await loadInto(folder.dir, values, settings, { tolerance, connection, booter });
  } finally {
    // The manifest then names each file the run wrote, however it ended: the next run clears exactly those.
    folder.finish();
  }
}

/** The run, writing into its folder `dir`. */
async function loadInto(
  dir: string,
  values: LoadValues,
  settings: LoadRunSettings,
  given: {
    tolerance: number | undefined;
    connection: ReturnType<typeof useConnection>;
    booter: ReferenceBooter | undefined;
  },
): Promise<number> {
  const dataFile = prepareRunData(dir, settings.seed);
  console.error(`seed ${settings.seed} (replay: ${loadReplayCommand('load', settings)}); reports in ${rel(dir)}/`);
  if (values['prepare-only']) {
    console.log(dataFile);
    return 0;
  }
  const k6 = await ensureK6();
  if (values['k6-archive']) {
    const out = join(dir, 'wfcheck-load.tar');
    buildArchive({ ...runShape(settings), k6, out, dataFile });
    console.log(out);
    console.error(
      `k6 archive written; next: kubectl create configmap wfcheck-load --from-file=wfcheck-load.tar=${rel(out)} (see load/k8s/README.md)`,
    );
    for (const line of k8sTlsSteps(given.connection, dir)) console.error(line);
    return 0;
  }
  const dashboard = !values['no-dashboard'];
  // Offload by default: it keeps the generator near the bare k6 loop's rate (`npm run bench:load`); in the
  // VU a check costs k6's interpreter tens of µs per response. `vu` remains for runs without this process.
  const contractMode = values['contract-mode'] ?? 'offload';
  if (contractMode !== 'vu' && contractMode !== 'offload')
    throw new Error(`--contract-mode must be vu or offload, got "${contractMode}"`);
  const result = await runAgainstTarget(settings, given.booter, { k6, dir, dataFile, dashboard, contractMode });
  // Findings first: the responses of a run that stopped early (the one that stopped it included) were checked too.
  if (result.violationCount > 0) {
    console.error(
      `contract findings on load traffic (examples, redacted: ${rel(result.violationsFile)}, ${result.violationCount} logged responses):`,
    );
    for (const line of describeClauses(clausesInExamples(result.violationsFile))) console.error(`  ${line}`);
  }
  const unjudged = runWithoutVerdict(result, dir);
  if (unjudged !== undefined) return unjudged;
  console.error(
    `reports: ${rel(dir)}/{${[...LOAD_REPORT_FILES, ...(dashboard ? ['dashboard.html'] : []), 'trend.html'].join(',')}}`,
  );
  const breached = result.exitCode === K6_EXIT.thresholdsFailed || !result.report!.passed;
  const regressed = compareWithBaseline(result.report!, dir, { ...values, tolerance: given.tolerance });
  return breached || regressed ? 1 : 0;
}

/** The target resolved (booted when BASE_URL is unset) for one k6 run, and stopped after it. */
async function runAgainstTarget(
  settings: LoadRunSettings,
  booter: ReferenceBooter | undefined,
  run: { k6: string; dir: string; dataFile: string; dashboard: boolean; contractMode: 'vu' | 'offload' },
): Promise<K6RunResult> {
  const target = await resolveTarget(settings.target, booter);
  console.error(describeTarget(target));
  try {
    const connection = await checkWay(target.baseUrl, (line) => console.error(line));
    const { k6, dir, dataFile, dashboard, contractMode } = run;
    // Generate may overwrite one canvas on the reference target (its data is thrown away with it).
    const env =
      target.kind === 'reference' && readK6ScriptSettings()[ENV.allowOverwrite] === undefined
        ? { WFCHECK_ALLOW_OVERWRITE: '1' }
        : undefined;
    const result = await runK6({
      ...runShape(settings),
      k6,
      baseUrl: target.baseUrl,
      apiKey: target.apiKey,
      reportDir: dir,
      dataFile,
      dashboard,
      contractMode,
      env,
      connection,
    });
    if (result.report)
      recordLoadHistory(result.report, target, dir, result.exitCode, (line) => console.error(`load: ${line}`));
    return result;
  } finally {
    await target.stop();
  }
}

/** Exit 2 with the reason when the run never produced a verdict on the target; undefined when it did. */
function runWithoutVerdict(result: K6RunResult, dir: string): number | undefined {
  if (result.exitCode === K6_EXIT.scriptAborted && result.abortReason) {
    // The run never measured the target: its gate table says nothing, the reason says everything.
    console.error(`details: ${rel(join(dir, 'k6.log'))}`);
    // k6's own TLS message (x509: …, remote error: tls: …) read by the table every mode names failures with.
    const tls = tlsFailureOf(result.abortReason);
    console.error(`load run aborted: ${result.abortReason}${tls ? ` — ${tlsFailureLine(tls)}` : ''}`);
    return 2;
  }
  if (!result.report) {
    console.error(`k6 exited with code ${result.exitCode} without a report (see ${rel(join(dir, 'k6.log'))})`);
    if (result.scriptError) console.error(`load run could not start: ${result.scriptError}`);
    return 2;
  }
  if (result.exitCode !== K6_EXIT.ok && result.exitCode !== K6_EXIT.thresholdsFailed) {
    console.error(
      `k6 exited with code ${result.exitCode} (${result.exitCode === K6_EXIT.scriptAborted ? 'the test aborted itself, see the log above' : 'see k6.log'})`,
    );
    return 2;
  }
  return undefined;
}

/** Saves the run as a baseline and/or compares it with one; true when a metric regressed. */
function compareWithBaseline(
  report: RunReport,
  dir: string,
  o: { baseline?: string; tolerance?: number; 'save-baseline'?: string },
): boolean {
  const save = o['save-baseline'];
  if (save) {
    mkdirSync(dirname(save), { recursive: true });
    copyFileSync(join(dir, REPORT_FORMATS.json.file), save);
    console.error(`baseline saved to ${save}`);
  }
  if (!o.baseline) return false;
  const options = { ...DEFAULT_COMPARE, ...(o.tolerance !== undefined ? { tolerance: o.tolerance / 100 } : {}) };
  const baseline = JSON.parse(readFileSync(o.baseline, 'utf8')) as RunReport;
  const { rows, warnings } = compareReports(baseline, report, options);
  console.log(renderComparison(rows, warnings, options));
  return rows.some((r) => r.regression);
}
