/**
 * One conformance run, as `wfcheck conformance` carries it out: its output folder taken (locked, the
 * previous run's outputs cleared; outputs.ts), the target resolved (booted when BASE_URL is unset), one
 * probe request, the suites under Playwright writing into the run's own place, then the verdict built
 * once from that run's evidence alone and written as report.json / report.md / report.html / summary.md,
 * and the files the run wrote scrubbed of keys. The command line and the console summary stay in
 * scripts/conformance.ts.
 */
import { join } from 'node:path';
import { inheritedEnvironment } from '../../core/settings/child-environment.ts';
import { CONFORMANCE_OUT_DIR, type ConformanceSettings } from '../../core/settings/run-config.ts';
import { commandLine } from '../../core/settings/invocation.ts';
import { pathFromWorkDir } from '../../core/settings/roots.ts';
import { redactSecrets, registerSecret } from '../../core/settings/redact.ts';
import { ENV } from '../../core/settings/rules.ts';
import type { OutputFolder } from '../../core/outputs/output-folder.ts';
import { type ReferenceBooter, resolveTarget, type Target } from '../../core/settings/target.ts';
import { targetNamed, targetShown } from '../../core/settings/target-settings.ts';
import { useConnection } from '../../core/connection/connection.ts';
import { connectionReplayArgs } from '../../core/settings/connection-settings.ts';
import type { ConnectionFacts } from '../../core/connection/connection-facts.ts';
import { readEvidence, type EvidenceRecord } from '../../core/evidence/records.ts';
import type { ConformanceReport, RunMeta } from '../../core/findings/build-report.ts';
import { harnessVersion } from '../../core/history-store/records.ts';
import { recordRunHistory, shardOf } from './run-history.ts';
import { verdictOfRun } from './report-of-run.ts';
import {
  openConformanceFolder,
  outputPaths,
  prepareOutputs,
  publishRunnerOutputs,
  runPlace,
  writeReportFiles,
  type OutputPaths,
} from './outputs.ts';
import { playwrightArgs, playwrightErrors, runnerEnv, runPlaywright, type RunnerResult } from './playwright.ts';
import { describeProbeFault, probeTarget, type Unreachable } from './probe.ts';
import { checkTheWay } from './connection.ts';

/** Progress lines: `info` to stdout, `error` to stderr (the command adds its name). */
export interface RunLog {
  info(line: string): void;
  error(line: string): void;
}

export interface ConformanceOutcome {
  report: ConformanceReport;
  paths: OutputPaths;
  /** Artifacts a key had to be removed from. */
  scrubbed: string[];
}

/** What happened between boot and verdict: either the probe found the target unreachable, or the runner ran. */
interface Exercise {
  unreachable?: Unreachable;
  runner?: RunnerResult;
  /** What the connection check saw of the way to the target. */
  connection?: ConnectionFacts;
}

export async function runConformanceSuite(
  settings: ConformanceSettings,
  log: RunLog,
  booter: ReferenceBooter | undefined,
  baseEnv: NodeJS.ProcessEnv = inheritedEnvironment(),
): Promise<ConformanceOutcome> {
  const started = Date.now();
  // The way to the target (trust, client certificate, proxy) for this process; the workers get it as variables.
  useConnection(settings.connection);
  const folder = openConformanceFolder(settings.outDir, 'conformance', targetNamed(settings.target), log.info);
  try {
    const place = prepareOutputs(folder);
    log.info(
      `seed ${settings.seed}${settings.seedGiven ? ' (given)' : ` (fresh; replay: ${replayCommand(settings)})`}`,
    );
    const { target, bootMs } = await startTarget(settings, log, booter);
    folder.describe({ target: targetShown(target) });
    const env = runnerEnv(baseEnv, target, settings, place);
    const exercise = await exerciseTarget(target, env, settings, log, folder);
    const report = buildRunReport(settings, target, exercise, { started, bootMs }, folder);
    const history = recordRunHistory(report, target, folder, settings.extra, log.error);
    // Scrubbed while still in the run's place; the verdict before Playwright's reports, so that a run cut
    // short in between leaves a true verdict without them, never Playwright's JUnit without the verdict.
    const scrubbed = folder.scrub();
    writeReportFiles(report, folder, history, shardOf(settings.extra));
    const moved = publishRunnerOutputs(folder, scrubbed);
    folder.finish();
    return { report, paths: outputPaths(folder), scrubbed: moved };
  } finally {
    folder.release();
  }
}

async function startTarget(
  settings: ConformanceSettings,
  log: RunLog,
  booter: ReferenceBooter | undefined,
): Promise<{ target: Target; bootMs: number }> {
  const bootStart = Date.now();
  const target = await resolveTarget(settings.target, booter);
  const bootMs = Date.now() - bootStart;
  registerSecret(target.apiKey, ENV.apiKey);
  registerSecret(target.apiKeyB, ENV.apiKeyB);
  const how =
    target.kind === 'reference'
      ? `reference target (${target.how}), booted in ${(bootMs / 1000).toFixed(1)} s`
      : target.how;
  log.info(`target ${target.baseUrl} — ${how}`);
  log.info(
    `tenants: A (API_KEY)${target.apiKeyB ? ', B (API_KEY_B) — isolation tests enabled' : ' only — isolation tests will be "not run" (set API_KEY_B)'}`,
  );
  return { target, bootMs };
}

/** The probe, then (when the target answered) the suites; the target is stopped either way. */
async function exerciseTarget(
  target: Target,
  env: NodeJS.ProcessEnv,
  settings: ConformanceSettings,
  log: RunLog,
  folder: OutputFolder,
): Promise<Exercise> {
  try {
    const place = runPlace(folder);
    const way = await checkTheWay(target.baseUrl, place, {
      strict: settings.strict,
      timeoutMs: settings.requestTimeoutMs,
      log: log.info,
      warn: log.error,
    });
    const connection = way.facts ? { connection: way.facts } : {};
    const unreachable = way.failure
      ? { kind: way.failure.kind, message: way.failure.line }
      : await probeTarget(env, join(place, 'evidence'), settings.strict);
    if (unreachable) {
      log.error(`${redactSecrets(describeProbeFault(unreachable))}; no test is run`);
      return { unreachable, ...connection };
    }
    const hardDeadlineMs = settings.runTimeoutS * 1000 + 30_000;
    const runner = await runPlaywright(playwrightArgs(settings, place), env, hardDeadlineMs, log.error, (pid) =>
      // A run killed outright leaves its test runner for a moment: the next run waits for that group to end.
      folder.describe({ groups: [pid] }),
    );
    return { runner, ...connection };
  } finally {
    await target.stop().catch((err) => log.error(`stopping the target failed: ${(err as Error).message}`));
  }
}

/** Why the run cannot vouch for every requirement it did not reach; undefined when it completed. */
function incompleteReason(
  exercise: Exercise,
  records: EvidenceRecord[],
  pwErrors: string[],
  runTimeoutS: number,
): string | undefined {
  const { runner, unreachable } = exercise;
  if (unreachable) return `${describeProbeFault(unreachable)}; no test was run`;
  if (!runner) return 'the test runner did not start; no test was run';
  const deadlineHit =
    runner.killedAtDeadline || pwErrors.some((e) => /timed out waiting .*for the (entire )?test (suite|run)/i.test(e));
  if (deadlineHit) return `the run deadline (${runTimeoutS} s) was reached before every test ran`;
  if (runner.interrupted) return 'the run was interrupted';
  if (!records.some((r) => r.kind === 'test-begin')) {
    return `no test ran (runner exit ${runner.exitCode}): ${pwErrors.join(' ') || runner.stderrTail.trim().split('\n').slice(-5).join(' ')}`;
  }
  if (runner.exitCode === null) return 'the test runner was killed';
  return undefined;
}

/** The command that replays this run, as the user started it (`wfcheck conformance …` or `npm run conformance -- …`). */
function replayCommand(settings: ConformanceSettings): string {
  const { seed, strict, waivers, grep, outDir } = settings;
  return commandLine('conformance', [
    '--seed',
    seed,
    ...(strict ? ['--strict'] : []),
    ...(waivers ? ['--waivers', waivers] : []),
    ...(grep ? ['--grep', grep] : []),
    ...(outDir === CONFORMANCE_OUT_DIR ? [] : ['--out', pathFromWorkDir(outDir)]),
    ...connectionReplayArgs(settings.connection),
  ]);
}

/** The verdict, built once the run is over so that it carries the whole wall time. */
function buildRunReport(
  settings: ConformanceSettings,
  target: Target,
  exercise: Exercise,
  times: { started: number; bootMs: number },
  folder: OutputFolder,
): ConformanceReport {
  const place = runPlace(folder);
  const { records, unreadableLines } = readEvidence(join(place, 'evidence'));
  const meta: RunMeta = {
    runId: folder.runId,
    seed: settings.seed,
    baseUrl: target.baseUrl,
    targetKind: target.kind,
    targetHow: target.how,
    strict: settings.strict,
    startedAt: new Date(times.started).toISOString(),
    bootMs: target.kind === 'reference' ? times.bootMs : undefined,
    incomplete: incompleteReason(
      exercise,
      records,
      playwrightErrors(join(place, 'playwright.json')),
      settings.runTimeoutS,
    ),
    runnerExitCode: exercise.runner ? exercise.runner.exitCode : null,
    command: replayCommand(settings),
    ...(settings.implementation ? { implementation: settings.implementation } : {}),
    harnessVersion: harnessVersion(),
    ...(exercise.connection ? { connection: exercise.connection } : {}),
  };
  meta.wallTimeMs = Date.now() - times.started;
  return verdictOfRun({ records, unreadableLines }, meta, settings.waivers);
}
