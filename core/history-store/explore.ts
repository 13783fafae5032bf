/**
 * The history of generative runs (`wfcheck explore`) as their report shows it: record the run, then say
 * of each finding whether an earlier run of the same target found it (its fingerprint — operation,
 * clause and shape of the minimal input — is the same from one night to the next, whatever the seed),
 * and which findings of the previous run this one no longer has.
 */
import type Database from 'better-sqlite3';
import {
  exploreFindingRowsOf,
  exploreRunById,
  recentExploreRuns,
  sightingsBefore,
  type ExploreRunRow,
  type Sighting,
} from './queries.ts';
import type { ExploreFindingOutcome, ExploreRunRecord } from './records.ts';
import { recordExploreRun, withHistory } from './store.ts';

/** What the history says of one finding of a run. */
export interface FindingSeen {
  /** new: no earlier run of this target found it; seen-before: one did. */
  status: 'new' | 'seen-before';
  /** Start of the earliest run of this target that found it (this run's when new). */
  firstSeen: string;
  /** That run's id in the history, when known. */
  firstRunId?: number;
  /** Runs of this target that found it, this one included. */
  runs: number;
  /** The previous run of this target found it too (false: new, or back after a run without it). */
  inPreviousRun: boolean;
}

/** A finding of the previous run that this run does not have. */
export interface GoneFinding {
  fingerprint: string;
  operation: string;
  clause: string;
  level: string;
  message: string;
  /**
   * This run explored the finding's operation: false means it was not looked for (another --only), so
   * its absence says nothing about the target.
   */
  explored: boolean;
}

/** The run the comparison was made with. */
export interface PreviousExploreRun {
  runId: number;
  startedAt: string;
  seed: number;
  exitCode: number;
}

export interface ExploreHistory {
  /** This run's id in the history (explore_runs). */
  runId?: number;
  /** The previous generative run of the same target; absent for the first. */
  previous?: PreviousExploreRun;
  /** By fingerprint, for each finding of this run; empty when the history was skipped (not known). */
  seen: Record<string, FindingSeen>;
  gone: GoneFinding[];
  /** Why the history was not used for this run (the run's own report is complete without it). */
  skipped?: string;
}

export interface ClassifyInput {
  runId?: number;
  startedAt: string;
  findings: readonly { fingerprint: string }[];
  /** The operations this run explored. */
  explored: readonly string[];
  /** Earlier runs of the target that found each fingerprint (sightingsBefore). */
  earlier: ReadonlyMap<string, Sighting>;
  /** The previous run of the target and its findings; absent for the first run. */
  previous?: { id: number; findings: readonly Omit<ExploreFindingOutcome, 'minimalInput' | 'curl'>[] };
}

/** Each finding new or seen before, and the previous run's findings this run no longer has. Pure. */
export function classifyExploreFindings(input: ClassifyInput): Pick<ExploreHistory, 'seen' | 'gone'> {
  const seen: Record<string, FindingSeen> = {};
  for (const { fingerprint } of input.findings) {
    const e = input.earlier.get(fingerprint);
    seen[fingerprint] = e
      ? {
          status: 'seen-before',
          firstSeen: e.firstSeen,
          firstRunId: e.firstRunId,
          runs: e.runs + 1,
          inPreviousRun: input.previous !== undefined && e.lastRunId === input.previous.id,
        }
      : {
          status: 'new',
          firstSeen: input.startedAt,
          ...(input.runId !== undefined ? { firstRunId: input.runId } : {}),
          runs: 1,
          inPreviousRun: false,
        };
  }
  const has = new Set(input.findings.map((f) => f.fingerprint));
  const explored = new Set(input.explored);
  const gone = (input.previous?.findings ?? [])
    .filter((f) => !has.has(f.fingerprint))
    .map((f) => ({
      fingerprint: f.fingerprint,
      operation: f.operation,
      clause: f.clause,
      level: f.level,
      message: f.message,
      explored: explored.has(f.operation),
    }));
  return { seen, gone };
}

const previousOf = (r: ExploreRunRow): PreviousExploreRun => ({
  runId: r.id,
  startedAt: r.startedAt,
  seed: r.seed,
  exitCode: r.exitCode,
});

/** What the history says about recorded generative run `runId`, against the run of its target before it. */
export function historyOfExploreRun(db: Database.Database, runId: number): ExploreHistory | undefined {
  const run = exploreRunById(db, runId);
  if (!run) return undefined;
  const findings = exploreFindingRowsOf(db, runId);
  const previous = recentExploreRuns(db, run.target, 2, runId).find((r) => r.id !== runId);
  return {
    runId,
    ...(previous ? { previous: previousOf(previous) } : {}),
    ...classifyExploreFindings({
      runId,
      startedAt: run.startedAt,
      findings,
      explored: run.operations,
      earlier: sightingsBefore(
        db,
        run.target,
        findings.map((f) => f.fingerprint),
        runId,
      ),
      previous: previous && { id: previous.id, findings: exploreFindingRowsOf(db, previous.id) },
    }),
  };
}

/**
 * Records the run and classifies its findings. A history that cannot be used (corrupt, locked, newer)
 * gives the reason instead, and no finding is classified: whether it is new is then not known.
 */
export function recordAndClassifyExplore(path: string, record: ExploreRunRecord): ExploreHistory {
  const { value, skipped } = withHistory(path, (db) => historyOfExploreRun(db, recordExploreRun(db, record)));
  return (
    value ?? { seen: {}, gone: [], skipped: skipped ?? 'the run was not found in the history after it was recorded' }
  );
}
