/**
 * One generative run as a command does it: take its output folder (locked for the run, the previous
 * run's outputs cleared, nothing of the user's touched), resolve the target (BASE_URL + API_KEY, or the
 * reference target booted hermetically), explore it, record it in the run history (each finding then new
 * or seen before on this target), write the report into the folder, and say what was found. The exit
 * code is the report's: 0 clean, 1 findings, 2 incomplete; the history never changes it.
 */
import { relative } from 'node:path';
import { OPERATION_IDS, operationInfo, type OperationId } from '../contracts/check.ts';
import { type ExploreArgs, type ExploreSettings, readExploreSettings } from './settings.ts';
import type { Implementation } from '../core/settings/history-settings.ts';
import { commandLine } from '../core/settings/invocation.ts';
import { SettingError } from '../core/settings/rules.ts';
import { openOutputFolder, type OutputFolder } from '../core/outputs/output-folder.ts';
import { describeTarget, type ReferenceBooter, resolveTarget } from '../core/settings/target.ts';
import { targetNamed, targetShown } from '../core/settings/target-settings.ts';
import { checkConnection } from '../core/connection/connection-check.ts';
import { connectionLine, insecureLine, NODE_CLIENT_SPEAKS } from '../core/connection/connection-facts.ts';
import { useConnection } from '../core/connection/connection.ts';
import { connectionReplayArgs } from '../core/settings/connection-settings.ts';
import { recordAndClassifyExplore } from '../core/history-store/explore.ts';
import { harnessVersion, targetFingerprint, type ExploreRunRecord } from '../core/history-store/records.ts';
import { historyPath } from '../core/history-store/store.ts';
import { explore, type ExploreOptions } from './explore.ts';
import { deviationsHeadline, withRunHistory, type ExploreReport } from './report/explore-report.ts';
import { EXPLORE_NAMES, exploreConsole, writeExploreReport } from './report/report-view.ts';

export interface ExploreLog {
  info(line: string): void;
  error(line: string): void;
}

/** Operation ids (or their clause prefixes, e.g. SEARCH) named by --only; an unknown name is refused. */
export function operationsNamed(names: readonly string[]): OperationId[] {
  return names.map((name) => {
    const found = OPERATION_IDS.find(
      (op) => op.toLowerCase() === name.toLowerCase() || operationInfo(op).prefix === name.toUpperCase(),
    );
    if (!found) throw new SettingError(`--only: unknown operation "${name}"; known: ${OPERATION_IDS.join(', ')}`);
    return found;
  });
}

/** What the settings of a run ask of the exploration: its seed, budget and caps. */
export function exploreOptionsOf(settings: ExploreSettings): ExploreOptions {
  return {
    seed: settings.seed,
    seedGiven: settings.seedGiven,
    budgetS: settings.budgetS,
    requestsPerOperation: settings.requestsPerOperation,
    operations: operationsNamed(settings.only),
    maxExecutions: settings.maxExecutions,
    maxCanvasesCreated: settings.maxCanvasesCreated,
    allowOverwrite: settings.allowOverwrite,
    overwriteCanvasId: settings.overwriteCanvasId,
    canvasIds: settings.canvasIds,
    requestTimeoutMs: settings.requestTimeoutMs,
  };
}

/** The run as the history keeps it; `target` is targetFingerprint(), never the key. */
export function exploreRecord(r: ExploreReport, target: string, implementation?: Implementation): ExploreRunRecord {
  const fp = r.footprint;
  return {
    ...(implementation ? { name: implementation.name } : {}),
    ...(implementation?.version ? { targetVersion: implementation.version } : {}),
    startedAt: r.startedAt,
    seed: r.seed,
    seedGiven: r.seedGiven,
    harnessVersion: harnessVersion(),
    target,
    budgetS: r.budget.seconds,
    requestsPerOperation: r.budget.requestsPerOperation,
    operations: r.operations.map((o) => o.operation),
    requests: fp.requests.explore + fp.requests.setup + fp.requests.cleanup,
    wallMs: r.wallMs,
    exitCode: r.exitCode,
    footprint: {
      executionsStarted: fp.executionsStarted,
      canvasesCreated: fp.canvasesCreated,
      canvasOverwrites: fp.canvasOverwrites,
      filesUploaded: fp.filesUploaded,
    },
    incomplete: r.incomplete,
    findings: r.findings.map((f) => ({
      fingerprint: f.fingerprint,
      operation: f.operation,
      clause: f.clause,
      level: f.level,
      message: f.message,
      minimalInput: f.minimalInput,
      curl: f.curl,
    })),
  };
}

/** The command that explores the same inputs again: the seed, with the budget and operations when not the defaults. */
function replayCommand(s: ExploreSettings): string {
  return commandLine('explore', [
    '--seed',
    s.seed,
    ...(s.budgetS === 60 ? [] : ['--budget-s', s.budgetS]),
    ...(s.only.length ? ['--only', s.only.join(',')] : []),
    ...connectionReplayArgs(s.connection),
  ]);
}

/** `wfcheck explore` (scripts/explore.ts parses its command line): the run of the options `args`, said on the console. */
export function runExploreCommand(args: ExploreArgs, booter: ReferenceBooter | undefined): Promise<number> {
  return runExplore(
    readExploreSettings(args),
    {
      info: (line) => console.log(`explore: ${line}`),
      error: (line) => console.error(`explore: ${line}`),
    },
    booter,
  );
}

/**
 * Explores the target of `settings`, records the run in the history at `historyFile` (default
 * WFCHECK_HISTORY, else reports/history.sqlite) and writes the report; returns the exit code.
 */
export async function runExplore(
  settings: ExploreSettings,
  log: ExploreLog,
  booter: ReferenceBooter | undefined,
  historyFile: string = historyPath(),
): Promise<number> {
  const operations = operationsNamed(settings.only);
  // The way to the target (trust, client certificate, proxy) for this process.
  useConnection(settings.connection);
  const folder = openOutputFolder(settings.outDir, {
    mode: 'explore',
    command: 'explore',
    names: EXPLORE_NAMES,
    target: targetNamed(settings.target),
    log: log.info,
  });
  try {
    return await exploreInto(folder, settings, operations, log, booter, historyFile);
  } finally {
    folder.release();
  }
}

async function exploreInto(
  folder: OutputFolder,
  settings: ExploreSettings,
  operations: OperationId[],
  log: ExploreLog,
  booter: ReferenceBooter | undefined,
  historyFile: string,
): Promise<number> {
  const target = await resolveTarget(settings.target, booter);
  try {
    folder.describe({ target: targetShown(target) });
    log.info(describeTarget(target));
    // The way to the target first: a certificate not trusted, a client certificate missing or a proxy
    // refusing is said in one line with its fix, before any input is sent.
    const way = await checkConnection(target.baseUrl, settings.requestTimeoutMs);
    if (way.failure) {
      log.error(`the target cannot be reached (${way.failure.kind}: ${way.failure.line}); nothing is explored`);
      return 2;
    }
    if (way.facts) log.info(`connection: ${connectionLine(way.facts, NODE_CLIENT_SPEAKS)}`);
    const insecure = way.facts && insecureLine(way.facts);
    if (insecure) log.error(insecure);
    log.info(
      `seed ${settings.seed}${settings.seedGiven ? '' : ` (fresh; replay: ${replayCommand(settings)})`}, budget ${settings.budgetS} s`,
    );
    const { report: explored, bodies } = await explore(
      { baseUrl: target.baseUrl, apiKey: target.apiKey, apiKeyB: target.apiKeyB, kind: target.kind, how: target.how },
      { ...exploreOptionsOf(settings), operations, log: log.info },
    );
    const history = recordAndClassifyExplore(
      historyFile,
      exploreRecord(explored, targetFingerprint(target.baseUrl, target.apiKey, target.kind), settings.implementation),
    );
    if (history.skipped) log.error(`${history.skipped}; the report is complete without it`);
    const report = { ...withRunHistory(explored, history), ...(way.facts ? { connection: way.facts } : {}) };
    const paths = writeExploreReport(report, folder, bodies);
    folder.finish();
    const h = report.history;
    log.info(
      `${deviationsHeadline(report)} in ${(report.wallMs / 1000).toFixed(1)} s; ` +
        `exit ${report.exitCode}` +
        (h && !h.skipped
          ? `; history run #${h.runId}: ${h.findings.new} new, ${h.findings.seenBefore} seen before`
          : ''),
    );
    for (const line of exploreConsole(report).split('\n')) log.info(line);
    log.info(
      `report: ${relative(process.cwd(), paths.markdown)} and ${relative(process.cwd(), paths.json)} (job summary: ${relative(process.cwd(), paths.jobSummary)})`,
    );
    return report.exitCode;
  } finally {
    await target.stop();
  }
}
