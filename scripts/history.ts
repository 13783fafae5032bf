/**
 * npm run history -- [--from RUN --to RUN] [--target FINGERPRINT] [--requirement ID] [--runs N] [--db FILE]
 *
 * What changed between two conformance runs of the run history (default: the
 * last two runs of the target of the latest run): newly failing, newly passing,
 * newly blocked or not run, waivers that started passing, and requirements
 * that flip. --requirement prints that requirement's verdict in each of the
 * last N runs (default 30) instead. --list lists the last N runs.
 * The history is WFCHECK_HISTORY (default reports/history.sqlite) unless --db.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../foundation/environment/command.ts';
import { positiveInt, SettingError } from '../foundation/environment/rules.ts';
import { runChange } from '../foundation/history/diff.ts';
import { latestTarget, recentRuns, requirementTimeline } from '../foundation/history/queries.ts';
import { historyPath, withHistory } from '../foundation/history/store.ts';
import { changeText } from '../scenarios/verdict/history-view.ts';

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

function main(): number {
  const values = readCommandLine();
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const path = values.db ?? historyPath();
  const runs = positiveInt(values.runs, '--runs', 30);
  const { value, skipped } = withHistory(path, (db) => {
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
