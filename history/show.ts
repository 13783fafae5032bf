/**
 * `wfcheck history` (scripts/history.ts parses its command line): what the run history holds of the
 * conformance runs — what changed between two runs, one requirement run by run, the list of runs — and,
 * with --explore, of the generative runs, read by explore's own reading handed in by the command.
 */
import { refuseOut, type OptionValues } from '../core/settings/command.ts';
import { positiveInt, SettingError } from '../core/settings/rules.ts';
import { runChange } from '../core/history-store/diff.ts';
import { latestTarget, recentRuns, requirementTimeline } from '../core/history-store/queries.ts';
import { historyPath, withHistory } from '../core/history-store/store.ts';
import { changeText } from '../core/report/history-view.ts';

export const HISTORY_OPTIONS = {
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
} as const;

type Values = OptionValues<typeof HISTORY_OPTIONS>;
type Db = Parameters<typeof recentRuns>[0];

/** What --explore prints, from the history's generative runs (explore's reading: a mode imports no other). */
export type ExploreHistoryText = (db: Db, values: Values, runs: number) => string;

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

/** The history's answer to the command line `values`, printed; the exit code (2: the history could not be read). */
export function showHistory(values: Values, explored: ExploreHistoryText): number {
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
