/**
 * The matrix read from the run history: every implementation with a conformance run (by name, or by
 * target where none was given), its last runs, all their verdicts in one query, and the evidence and
 * findings behind its latest run.
 */
import type Database from 'better-sqlite3';
import { REQUIREMENTS } from '../contracts/requirements.ts';
import {
  evidenceOfRun,
  implementations,
  openPointsOfRuns,
  runsOfImplementation,
  verdictRowsOfRuns,
} from '../core/history-store/implementations.ts';
import { capacityTrend } from '../core/history-store/capacity.ts';
import { findingRowsOf } from '../core/history-store/queries.ts';
import { harnessVersion } from '../core/history-store/records.ts';
import { buildMatrix, type Clause, type ColumnInput, type Matrix } from './model.ts';
import { specSections } from './sections.ts';

export interface LoadOptions {
  /** Runs per implementation the history of a cell and the score trend show; default 30. */
  runs?: number;
  /** Only these implementations (names, or `target:<fingerprint>` for unnamed ones), in this order. */
  only?: readonly string[];
  catalogue?: readonly Clause[];
  now?: Date;
}

export const DEFAULT_RUNS = 30;

export function loadMatrix(db: Database.Database, options: LoadOptions = {}): Matrix {
  const runs = options.runs ?? DEFAULT_RUNS;
  let refs = implementations(db);
  if (options.only) {
    const key = (r: (typeof refs)[number]) => r.name ?? `target:${r.target}`;
    const missing = options.only.filter((k) => !refs.some((r) => key(r) === k));
    if (missing.length) throw new Error(`no conformance run of ${missing.join(', ')} in the history`);
    refs = options.only.map((k) => refs.find((r) => key(r) === k)!);
  }
  const runsOf = refs.map((ref) => runsOfImplementation(db, ref, runs));
  const verdicts = verdictRowsOfRuns(
    db,
    runsOf.flatMap((rs) => rs.map((r) => r.id)),
  );
  const columns: ColumnInput[] = refs.map((ref, i) => {
    const own = runsOf[i]!;
    const latest = own[own.length - 1]!;
    const previous = own.length > 1 ? own[own.length - 2] : undefined;
    return {
      name: ref.name,
      target: ref.target,
      runs: own,
      verdicts,
      evidence: evidenceOfRun(db, latest.id),
      latestFindings: findingRowsOf(db, latest.id),
      capacity: capacityTrend(db, ref.name !== null ? { name: ref.name } : { target: ref.target! }, runs),
      openPoints: openPointsOfRuns(
        db,
        own.map((r) => r.id),
      ),
      ...(previous ? { previousFindings: findingRowsOf(db, previous.id) } : {}),
    };
  });
  return buildMatrix({
    catalogue: options.catalogue ?? REQUIREMENTS,
    sections: specSections(),
    columns,
    generatedAt: (options.now ?? new Date()).toISOString(),
    harnessVersion: harnessVersion(),
  });
}
