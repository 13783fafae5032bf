/**
 * Capacity searches in the run history: each is a load run (profile `capacity`, the figures of each
 * operation at the rate found) with its capacity beside it (load_capacity), recorded under the
 * implementation's name and version when given, and read back per target, per implementation, and as the
 * latest capacity of every implementation and version (the trend page and the implementation matrix).
 */
import type Database from 'better-sqlite3';
import type { LoadRunRecord } from './records.ts';
import { recordLoadRun } from './store.ts';

/** The profile name a capacity search's load_runs row carries. */
export const CAPACITY_PROFILE = 'capacity';

export interface CapacityRecord {
  /** Null: no rate held every gate. */
  lifecyclesPerS: number | null;
  requestsPerS: number | null;
  confirmed: boolean;
  /** The lowest rate above it that broke a gate, and that gate in words; null when none broke. */
  kneeRate: number | null;
  kneeGate: string | null;
  generatorCeilingRps: number | null;
  /** The capacity reached the generator's ceiling: it may be the generator's limit, not the target's. */
  generatorReached: boolean;
  steps: number;
  /** The load profile whose lifecycle mix was driven. */
  mixProfile: string;
}

/** Records a capacity search in one transaction; returns its run id. */
export function recordCapacityRun(db: Database.Database, load: LoadRunRecord, c: CapacityRecord): number {
  const write = db.transaction((): number => {
    const id = recordLoadRun(db, { ...load, profile: CAPACITY_PROFILE });
    db.prepare(
      `INSERT INTO load_capacity (run_id, lifecycles_per_s, requests_per_s, confirmed, knee_rate, knee_gate,
         generator_ceiling_rps, generator_reached, steps, mix_profile) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      c.lifecyclesPerS,
      c.requestsPerS,
      c.confirmed ? 1 : 0,
      c.kneeRate,
      c.kneeGate,
      c.generatorCeilingRps,
      c.generatorReached ? 1 : 0,
      c.steps,
      c.mixProfile,
    );
    return id;
  });
  return write.immediate();
}

/** One capacity search as the trend page and the matrix show it. */
export interface CapacityPoint {
  runId: number;
  startedAt: string;
  target: string;
  name: string | null;
  version: string | null;
  lifecyclesPerS: number | null;
  requestsPerS: number | null;
  confirmed: boolean;
  kneeRate: number | null;
  kneeGate: string | null;
  generatorReached: boolean;
}

const POINT_SELECT = `SELECT r.id AS runId, r.started_at AS startedAt, r.target, r.name, r.target_version AS version,
  c.lifecycles_per_s AS lifecyclesPerS, c.requests_per_s AS requestsPerS, c.confirmed, c.knee_rate AS kneeRate,
  c.knee_gate AS kneeGate, c.generator_reached AS generatorReached
  FROM load_capacity c JOIN runs r ON r.id = c.run_id`;

type PointRow = Omit<CapacityPoint, 'confirmed' | 'generatorReached'> & { confirmed: number; generatorReached: number };

const pointOf = (r: PointRow): CapacityPoint => ({
  ...r,
  confirmed: r.confirmed === 1,
  generatorReached: r.generatorReached === 1,
});

/**
 * The last `limit` capacity searches of an implementation (by name, whatever target reached it) or, for
 * runs without a name, of a target; oldest first.
 */
export function capacityTrend(
  db: Database.Database,
  of: { name: string } | { target: string },
  limit: number,
): CapacityPoint[] {
  const rows = (
    'name' in of
      ? db.prepare(`${POINT_SELECT} WHERE r.name = ? ORDER BY r.id DESC LIMIT ?`).all(of.name, limit)
      : db
          .prepare(`${POINT_SELECT} WHERE r.name IS NULL AND r.target = ? ORDER BY r.id DESC LIMIT ?`)
          .all(of.target, limit)
  ) as PointRow[];
  return rows.reverse().map(pointOf);
}

/** The latest capacity search of every named implementation and version, by name then version's first run. */
export function capacityByVersion(db: Database.Database): CapacityPoint[] {
  const rows = db
    .prepare(
      `${POINT_SELECT} WHERE r.id IN (SELECT MAX(r2.id) FROM load_capacity c2 JOIN runs r2 ON r2.id = c2.run_id
         WHERE r2.name IS NOT NULL GROUP BY r2.name, r2.target_version)
       ORDER BY r.name, r.id`,
    )
    .all() as PointRow[];
  return rows.map(pointOf);
}
