/**
 * One verdict from the shards of a sharded run (`wfcheck report merge`): the shards' evidence is put
 * together and judged by the same report builder as an unsharded run, their blob reports become one
 * Playwright HTML report and one JUnit file, and the merged verdict is what the history records.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { inheritedEnvironment } from '../../core/settings/child-environment.ts';
import type { OptionValues } from '../../core/settings/command.ts';
import { readMergeOutDir } from '../../core/settings/run-config.ts';
import { SettingError } from '../../core/settings/rules.ts';
import { commandLine } from '../../core/settings/invocation.ts';
import { pathFromWorkDir, WORK_DIR } from '../../core/settings/roots.ts';
import { recordAndCompare, type ConformanceHistory } from '../../core/history-store/conformance.ts';
import { historyPath } from '../../core/history-store/store.ts';
import { readEvidence } from '../../core/evidence/records.ts';
import { conformanceConsole } from '../report/index.ts';
import { verdictOfRun } from './report-of-run.ts';
import type { ConformanceReport, RunMeta } from '../../core/findings/build-report.ts';
import { historyRecord } from '../../core/findings/history-record.ts';
import { readShardMeta } from './run-history.ts';
import { PLAYWRIGHT_CLI } from './playwright.ts';
import {
  openConformanceFolder,
  outputPaths,
  prepareOutputs,
  publishRunnerOutputs,
  writeReportFiles,
  type OutputPaths,
} from './outputs.ts';

export interface MergeOutcome {
  report: ConformanceReport;
  paths: OutputPaths;
  history?: ConformanceHistory;
  /** What went wrong merging the Playwright reports (the verdict does not depend on them). */
  problems: string[];
}

/** Copies each shard's files of one kind into `to`, prefixed with the shard's number so names never collide. */
function gather(froms: string[], to: string, keep: (name: string) => boolean): number {
  mkdirSync(to, { recursive: true });
  let n = 0;
  froms.forEach((from, i) => {
    if (!existsSync(from)) return;
    for (const name of readdirSync(from).filter(keep)) {
      copyFileSync(join(from, name), join(to, `shard${i + 1}-${name}`));
      n++;
    }
  });
  return n;
}

/** The merged run's metadata: the first shard's, over the span of all of them; the command is the merge's own. */
function mergedMeta(shards: ConformanceReport[], dirs: string[], outDir: string): RunMeta {
  const metas = shards.map((s) => s.meta);
  const incomplete = metas.map((m, i) => (m.incomplete ? `shard ${dirs[i]}: ${m.incomplete}` : '')).filter(Boolean);
  const seeds = new Set(metas.map((m) => m.seed));
  if (seeds.size > 1)
    incomplete.push(`the shards ran with different seeds (${[...seeds].join(', ')}): they are not one run`);
  return {
    ...metas[0],
    startedAt: metas.map((m) => m.startedAt).sort()[0],
    wallTimeMs: Math.max(...metas.map((m) => m.wallTimeMs ?? 0)),
    incomplete: incomplete.length ? incomplete.join('; ') : undefined,
    runnerExitCode: metas.some((m) => m.runnerExitCode === null)
      ? null
      : Math.max(...metas.map((m) => m.runnerExitCode ?? 0)),
    command: commandLine('report merge', [...dirs.map(pathFromWorkDir), '--out', pathFromWorkDir(outDir)]),
  };
}

/** A shard's evidence: in its run's place, or at its top for a shard of a harness that kept it there. */
function shardEvidence(dir: string, shard: ConformanceReport): string {
  const id = shard.meta.runId;
  return id && /^[\w.-]+$/.test(id) ? join(dir, 'runs', id, 'evidence') : join(dir, 'evidence');
}

/** `playwright merge-reports` over the shards' blob reports into the merge's place: one HTML report and one JUnit file. */
function mergePlaywrightReports(dirs: string[], outDir: string): string[] {
  const blobs = join(outDir, 'blob-report');
  if (
    gather(
      dirs.map((d) => join(d, 'blob-report')),
      blobs,
      (n) => n.endsWith('.zip'),
    ) === 0
  )
    return ['no shard has a blob report (run the shards with --shard i/n)'];
  const env = {
    ...inheritedEnvironment(),
    PLAYWRIGHT_HTML_OUTPUT_DIR: join(outDir, 'html'),
    PLAYWRIGHT_HTML_OPEN: 'never',
    PLAYWRIGHT_JUNIT_OUTPUT_FILE: join(outDir, 'junit.xml'),
  };
  const res = spawnSync(process.execPath, [PLAYWRIGHT_CLI, 'merge-reports', '--reporter=html,junit', blobs], {
    cwd: WORK_DIR,
    env,
    encoding: 'utf8',
  });
  return res.status === 0
    ? []
    : [`playwright merge-reports exited ${res.status}: ${(res.stderr || res.stdout || '').trim().slice(-600)}`];
}

export function mergeShards(
  dirs: string[],
  outDir: string,
  warn: (line: string) => void,
  historyFile = historyPath(),
): MergeOutcome {
  const missing = dirs.filter((d) => !existsSync(join(d, 'report.json')));
  if (missing.length) throw new Error(`not a shard's output (no report.json): ${missing.join(', ')}`);
  const shards = dirs.map((d) => JSON.parse(readFileSync(join(d, 'report.json'), 'utf8')) as ConformanceReport);
  const folder = openConformanceFolder(
    outDir,
    'report merge',
    `the shards ${dirs.map(pathFromWorkDir).join(', ')}`,
    warn,
  );
  try {
    const place = prepareOutputs(folder);
    const evidence = join(place, 'evidence');
    gather(
      dirs.map((d, i) => shardEvidence(d, shards[i]!)),
      evidence,
      (n) => n.endsWith('.jsonl'),
    );
    const { records, unreadableLines } = readEvidence(evidence);
    const meta = { ...mergedMeta(shards, dirs, outDir), runId: folder.runId };
    const report = verdictOfRun({ records, unreadableLines }, meta, shards[0].waivers.source, true);
    const problems = mergePlaywrightReports(dirs, place);
    rmSync(join(place, 'blob-report'), { recursive: true, force: true });
    const target = readShardMeta(dirs[0])?.target;
    let history: ConformanceHistory | undefined;
    if (!target)
      warn('the shards name no target (shard.json missing): the merged verdict is not recorded in the history');
    else {
      history = recordAndCompare(historyFile, historyRecord(report, target, [evidence], 'merge'));
      if (history.skipped) warn(`${history.skipped}; the report is complete without it`);
    }
    folder.scrub();
    writeReportFiles(report, folder, history);
    publishRunnerOutputs(folder);
    folder.finish();
    return { report, paths: outputPaths(folder), history, problems };
  } finally {
    folder.release();
  }
}

export const REPORT_MERGE_OPTIONS = { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

/**
 * `wfcheck report merge` (scripts/report-merge.ts parses its command line): the shard folders
 * `positionals` merged into --out, the verdict printed; the exit code as a conformance run's.
 */
export function runReportMerge(values: OptionValues<typeof REPORT_MERGE_OPTIONS>, positionals: string[]): number {
  if (positionals.length === 0) throw new SettingError('name the shard directories to merge');
  const shards = positionals.map((d) => resolve(d));
  const out = readMergeOutDir(values.out);
  // The merge clears the outputs its folder's manifest names: a shard's own would lose the evidence it merges.
  if (shards.includes(out))
    throw new SettingError(`--out ${relative(process.cwd(), out) || '.'} is one of the shards: name another folder`);
  const { report, paths, problems } = mergeShards(shards, out, (line) => console.error(`report merge: ${line}`));
  for (const p of problems) console.error(`report merge: ${p}`);
  console.log(conformanceConsole(report, paths));
  return report.exitCode;
}
