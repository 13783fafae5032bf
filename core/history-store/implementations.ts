/**
 * The history read by implementation: the conformance runs of one named implementation (whatever
 * target or key it was reached through, night after night), or of one target where no name was given.
 * The implementation matrix reads its columns, their runs, the verdicts of all of them at once and the
 * evidence behind the latest ones through here.
 */
import type Database from 'better-sqlite3';
import { RUN_COLUMNS, type RunRow, type VerdictRow } from './queries.ts';
import type { EvidenceExample, OpenPointOutcome } from './records.ts';

/** An implementation as the history knows it: by its name, or by its target where it was never named. */
export interface ImplementationRef {
  /** Null: runs recorded without a name, grouped by their target. */
  name: string | null;
  /** The target of unnamed runs; null for a named implementation (its runs may span several targets). */
  target: string | null;
  runs: number;
  latestRunId: number;
}

/** Every implementation with a conformance run, named ones first (by name), then unnamed targets. */
export function implementations(db: Database.Database): ImplementationRef[] {
  return db
    .prepare(
      `SELECT name, CASE WHEN name IS NULL THEN target END AS target, COUNT(*) AS runs, MAX(id) AS latestRunId
       FROM runs WHERE kind = 'conformance'
       GROUP BY name, CASE WHEN name IS NULL THEN target END
       ORDER BY name IS NULL, name, target`,
    )
    .all() as ImplementationRef[];
}

/** The last `limit` conformance runs of an implementation, oldest first. */
export function runsOfImplementation(db: Database.Database, ref: ImplementationRef, limit: number): RunRow[] {
  const rows = (
    ref.name !== null
      ? db
          .prepare(`SELECT ${RUN_COLUMNS} FROM runs WHERE kind = 'conformance' AND name = ? ORDER BY id DESC LIMIT ?`)
          .all(ref.name, limit)
      : db
          .prepare(
            `SELECT ${RUN_COLUMNS} FROM runs WHERE kind = 'conformance' AND name IS NULL AND target = ? ORDER BY id DESC LIMIT ?`,
          )
          .all(ref.target, limit)
  ) as RunRow[];
  return rows.reverse();
}

/** The verdict rows of many runs in one query: run id → requirement id → row. */
export function verdictRowsOfRuns(
  db: Database.Database,
  runIds: readonly number[],
): Map<number, Map<string, VerdictRow>> {
  const out = new Map<number, Map<string, VerdictRow>>(runIds.map((id) => [id, new Map()]));
  const rows = db
    .prepare(
      `SELECT run_id AS runId, requirement_id AS id, verdict, raw_verdict AS rawVerdict, waived, blocked_by AS blockedBy, evidence
       FROM requirement_verdicts WHERE run_id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(runIds)) as (Omit<VerdictRow, 'waived'> & { runId: number; waived: number })[];
  for (const { runId, ...r } of rows)
    out.get(runId)?.set(r.id, { ...r, waived: r.waived === 1, rawVerdict: r.rawVerdict ?? r.verdict });
  return out;
}

/** What the history keeps behind one verdict of a run. */
export interface VerdictEvidence {
  note?: string;
  example?: EvidenceExample;
}

/** The notes and evidence recorded for a run, by requirement id (empty for runs recorded before they were kept). */
export function evidenceOfRun(db: Database.Database, runId: number): Map<string, VerdictEvidence> {
  const rows = db
    .prepare('SELECT requirement_id AS id, note, example FROM requirement_evidence WHERE run_id = ?')
    .all(runId) as { id: string; note: string | null; example: string | null }[];
  return new Map(
    rows.map((r) => [
      r.id,
      {
        ...(r.note !== null ? { note: r.note } : {}),
        ...(r.example !== null ? { example: JSON.parse(r.example) as EvidenceExample } : {}),
      },
    ]),
  );
}

/** The run of an implementation with this start and seed, when the history already holds it (an import made twice). */
export function sameRun(db: Database.Database, name: string, startedAt: string, seed: number): number | undefined {
  return (
    db
      .prepare("SELECT id FROM runs WHERE kind = 'conformance' AND name = ? AND started_at = ? AND seed = ?")
      .get(name, startedAt, seed) as { id: number } | undefined
  )?.id;
}

/** The answers to the open points of many runs in one query: run id → its values, by point then value. */
export function openPointsOfRuns(db: Database.Database, runIds: readonly number[]): Map<number, OpenPointOutcome[]> {
  const out = new Map<number, OpenPointOutcome[]>(runIds.map((id) => [id, []]));
  const rows = db
    .prepare(
      `SELECT run_id AS runId, point, requirement_id AS requirementId, value, count, sentence, example
       FROM open_point_values WHERE run_id IN (SELECT value FROM json_each(?)) ORDER BY run_id, point, value`,
    )
    .all(JSON.stringify(runIds)) as (Omit<OpenPointOutcome, 'example'> & { runId: number; example: string | null })[];
  for (const { runId, example, ...r } of rows)
    out.get(runId)?.push({ ...r, ...(example !== null ? { example: JSON.parse(example) as EvidenceExample } : {}) });
  return out;
}
