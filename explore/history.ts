/**
 * What `wfcheck history --explore` answers from the run history: the latest generative run of a target
 * (or --to RUN) with its findings each new or seen before, the list of runs, or one fingerprint across
 * runs. The history command hands it in.
 */
import { positiveInt, SettingError } from '../core/settings/rules.ts';
import { historyOfExploreRun } from '../core/history-store/explore.ts';
import {
  exploreFindingRowsOf,
  exploreRunById,
  fingerprintTimeline,
  latestExploreTarget,
  recentExploreRuns,
} from '../core/history-store/queries.ts';
import { exploreChangeText, exploreRunsText, fingerprintTimelineText } from './report/history-text.ts';

type Db = Parameters<typeof exploreRunById>[0];

/** The options of `wfcheck history` this reading answers, or refuses. */
export interface ExploreHistoryQuery {
  from?: string;
  to?: string;
  target?: string;
  requirement?: string;
  list?: boolean;
  fingerprint?: string;
}

/** The generative runs of a target: the latest (or --to) with its findings classified, the list, or one fingerprint. */
export function exploreHistoryText(db: Db, values: ExploreHistoryQuery, runs: number): string {
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
