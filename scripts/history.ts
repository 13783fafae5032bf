/**
 * usage: wfcheck history [--from RUN --to RUN] [--target FINGERPRINT] [--requirement ID] [--runs N] [--db FILE]
 *        wfcheck history --explore [--to RUN | --list | --fingerprint FP] [--target FINGERPRINT] [--runs N] [--db FILE]
 *
 * What changed between two conformance runs of the run history (default: the
 * last two runs of the target of the latest run): newly failing, newly passing,
 * newly blocked or not run, waivers that started passing, and requirements
 * that flip. --requirement prints that requirement's verdict in each of the
 * last N runs (default 30) instead. --list lists the last N runs.
 * --explore reads the generative runs (wfcheck explore) instead, run ids being theirs: the findings of
 * the latest run (or --to RUN), each new or seen before (first seen, in how many runs), and the previous
 * run's findings it no longer has; --list lists the last N of them; --fingerprint FP says in which of
 * the last N runs that finding was found.
 * The history is WFCHECK_HISTORY (default reports/history.sqlite) unless --db.
 * It prints and writes no file: --out does not apply.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { refuseOut, runCommand, usageFromSource } from '../core/settings/command.ts';
import { positiveInt, SettingError } from '../core/settings/rules.ts';
import { runChange } from '../core/history-store/diff.ts';
import { historyOfExploreRun } from '../core/history-store/explore.ts';
import {
  exploreFindingRowsOf,
  exploreRunById,
  fingerprintTimeline,
  latestExploreTarget,
  latestTarget,
  recentExploreRuns,
  recentRuns,
  requirementTimeline,
} from '../core/history-store/queries.ts';
import { historyPath, withHistory } from '../core/history-store/store.ts';
import { exploreChangeText, exploreRunsText, fingerprintTimelineText } from '../explore/report/history-text.ts';
import { changeText } from '../core/report/history-view.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

function readCommandLine() {
  const { values } = parseArgs({
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      target: { type: 'string' },
      requirement: { type: 'string' },
      runs: { type: 'string' },
      db: { type: 'string' },
      list: { type: 'boolean' },
      explore: { type: 'boolean' },
      fingerprint: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  return values;
}

type Db = Parameters<typeof recentRuns>[0];

function timeline(db: Db, target: string, id: string, runs: number): string {
  const rows = requirementTimeline(db, target, id, runs);
  return [
    `${id} over the last ${rows.length} run(s) of target ${target}:`,
    ...rows.map(
      ({ run, verdict }) =>
        `  #${run.id}  ${run.startedAt}  seed ${run.seed}  ${verdict ? `${verdict.verdict}${verdict.waived ? ' (waived)' : ''}${verdict.blockedBy ? ` (blocked by ${verdict.blockedBy})` : ''}, ${verdict.evidence} check(s)` : 'absent'}`,
    ),
  ].join('\n');
}

function listing(db: Db, target: string, runs: number): string {
  return (
    recentRuns(db, target, 'conformance', runs)
      .map(
        (r) =>
          `#${r.id}  ${r.startedAt}  seed ${r.seed}  harness ${r.harnessVersion}  exit ${r.exitCode ?? '?'}  ${r.wallMs ?? '?'} ms`,
      )
      .join('\n') || 'no conformance run recorded for this target'
  );
}

function change(db: Db, target: string, values: { from?: string; to?: string }): string {
  const run = (v: string | undefined, name: string) => (v === undefined ? undefined : positiveInt(v, name));
  const last = recentRuns(db, target, 'conformance', 2);
  const to = run(values.to, '--to') ?? last.at(-1)?.id;
  if (to === undefined) return 'no conformance run recorded for this target';
  const c = runChange(
    db,
    to,
    run(values.from, '--from') ?? (values.to === undefined && last.length === 2 ? last[0].id : undefined),
  );
  if (!c) throw new SettingError(`no run #${to} in the history`);
  return changeText(c);
}

type Values = ReturnType<typeof readCommandLine>;

/** The generative runs of a target: the latest (or --to) with its findings classified, the list, or one fingerprint. */
function explored(db: Db, values: Values, runs: number): string {
  for (const refused of ['from', 'requirement'] as const)
    if (values[refused] !== undefined)
      throw new SettingError(`--${refused} is not an option of --explore (--to RUN, --list, --fingerprint FP)`);
  const to = values.to === undefined ? undefined : positiveInt(values.to, '--to');
  const target = values.target ?? (to !== undefined ? exploreRunById(db, to)?.target : latestExploreTarget(db));
  if (to !== undefined && !target) throw new SettingError(`no explore run #${to} in the history`);
  if (!target) return 'the history holds no explore run yet';
  if (values.list) return exploreRunsText(recentExploreRuns(db, target, runs));
  if (values.fingerprint)
    return fingerprintTimelineText(
      values.fingerprint,
      target,
      fingerprintTimeline(db, target, values.fingerprint, runs),
    );
  const id = to ?? recentExploreRuns(db, target, 1).at(-1)?.id;
  if (id === undefined) return 'no explore run recorded for this target';
  const run = exploreRunById(db, id);
  const h = historyOfExploreRun(db, id);
  if (!run || !h) throw new SettingError(`no explore run #${id} in the history`);
  return exploreChangeText(run, exploreFindingRowsOf(db, id), h);
}

function main(): number {
  const values = readCommandLine();
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  refuseOut(values.out, 'history', 'it prints what the run history holds: --db FILE or WFCHECK_HISTORY');
  const path = values.db ?? historyPath();
  const runs = positiveInt(values.runs, '--runs', 30);
  const { value, skipped } = withHistory(path, (db) => {
    if (values.explore) return explored(db, values, runs);
    if (values.fingerprint !== undefined) throw new SettingError('--fingerprint is an option of --explore');
    const target = values.target ?? latestTarget(db, 'conformance');
    if (!target) return 'the history holds no conformance run yet';
    if (values.requirement) return timeline(db, target, values.requirement, runs);
    if (values.list) return listing(db, target, runs);
    return change(db, target, values);
  });
  if (skipped) {
    console.error(`history: ${skipped}`);
    return 2;
  }
  console.log(value);
  return 0;
}

runCommand('history', main, { usage: USAGE });
