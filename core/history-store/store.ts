/**
 * The run history: an embedded SQLite database (better-sqlite3) at WFCHECK_HISTORY, default
 * reports/history.sqlite. Every run is written in one transaction, in WAL mode, so a run killed while
 * writing leaves the database as it was before it. Several runs may write at once (a matrix of jobs on
 * one runner): each write transaction takes the database when it begins (BEGIN IMMEDIATE) and waits its
 * turn behind the others, so none is lost and none reads a state another changed under it.
 *
 * The history is an extra: a corrupt, locked or unwritable database must never cost a run its own
 * report. `openHistory` and `withHistory` therefore answer a reason instead of throwing, and the
 * caller prints it and goes on.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { readHistoryPath } from '../settings/history-settings.ts';
import { containsSecret, redactSecrets } from '../settings/redact.ts';
import { SettingError, type EnvLike } from '../settings/rules.ts';
import { migrate } from './migrations.ts';
import {
  failingFindings,
  type ConformanceRunRecord,
  type ExploreRunRecord,
  type LoadRunRecord,
  type RunOrigin,
} from './records.ts';

/**
 * How long a writer waits for another one holding the database before giving up on the history: runs
 * hold it for milliseconds each, so this is many writers' worth, and still a bounded cost when one holds
 * it for good.
 */
const BUSY_TIMEOUT_MS = 5000;

/** The history's file: WFCHECK_HISTORY, else reports/history.sqlite (read by config.ts readHistoryPath). */
export function historyPath(env?: EnvLike): string {
  return readHistoryPath(env);
}

export type Opened = { db: Database.Database; skipped?: undefined } | { db?: undefined; skipped: string };

/** Opens (creating and migrating when needed) the history, or says why it cannot be used. */
export function openHistory(path: string = historyPath()): Opened {
  let db: Database.Database | undefined;
  try {
    mkdirSync(dirname(path), { recursive: true });
    db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
    enableWal(db);
    db.pragma('foreign_keys = ON');
    migrate(db);
    return { db };
  } catch (err) {
    db?.close();
    return { skipped: `the run history at ${path} cannot be used (${(err as Error).message})` };
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Switches a new database to WAL. Two runs creating the history at once may both try; the switch needs
 * the database alone for a moment and is not always queued behind the other, so it is tried again.
 */
function enableWal(db: Database.Database): void {
  const until = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      if (!/locked|busy/i.test((err as Error).message) || Date.now() > until) throw err;
      sleepSync(25);
    }
  }
}

/** Runs `use` on the open history and closes it; a failure of the database becomes the reason it was skipped. */
export function withHistory<T>(path: string, use: (db: Database.Database) => T): { value?: T; skipped?: string } {
  const opened = openHistory(path);
  if (!opened.db) return { skipped: opened.skipped };
  try {
    return { value: use(opened.db) };
  } catch (err) {
    // A refused command line (a run id not in the history) is the caller's to report, not the database's fault.
    if (err instanceof SettingError) throw err;
    return { skipped: `the run history at ${path} could not be updated (${(err as Error).message})` };
  } finally {
    opened.db.close();
  }
}

function insertRun(
  db: Database.Database,
  kind: 'conformance' | 'load',
  r: ConformanceRunRecord | LoadRunRecord,
  findings: number | null = null,
  origin: RunOrigin = 'run',
): number {
  const info = db
    .prepare(
      `INSERT INTO runs (kind, started_at, seed, harness_version, target, wall_ms, exit_code, findings, name, target_version, origin)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      kind,
      r.startedAt,
      r.seed,
      r.harnessVersion,
      r.target,
      r.wallMs ?? null,
      r.exitCode ?? null,
      findings,
      r.name === undefined ? null : safeText(r.name, 'name'),
      r.targetVersion === undefined ? null : safeText(r.targetVersion, 'version'),
      origin,
    );
  return Number(info.lastInsertRowid);
}

/** The rows of one conformance run, without a transaction of its own (recordConformanceRun adds it). */
export function writeConformanceRows(db: Database.Database, r: ConformanceRunRecord): number {
  const id = insertRun(db, 'conformance', r, r.findings ? failingFindings(r.findings) : null, r.origin);
  const verdict = db.prepare(
    'INSERT INTO requirement_verdicts (run_id, requirement_id, verdict, raw_verdict, waived, blocked_by, evidence) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  for (const q of r.requirements)
    verdict.run(id, q.id, q.verdict, q.rawVerdict, q.waived ? 1 : 0, q.blockedBy ?? null, q.evidence);
  const test = db.prepare('INSERT INTO test_durations (run_id, title, status, duration_ms) VALUES (?, ?, ?, ?)');
  for (const t of r.tests) test.run(id, t.title, t.status, Math.round(t.durationMs));
  const finding = db.prepare(
    'INSERT INTO findings (run_id, finding_id, signature, strength, severity, waived, behaviour, clauses) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  for (const f of r.findings ?? [])
    finding.run(
      id,
      f.id,
      f.signature,
      f.strength,
      f.severity,
      f.waived ? 1 : 0,
      safeText(f.behaviour, `finding ${f.id}`),
      f.clauses.join(' '),
    );
  writeEvidenceRows(db, id, r.requirements);
  writeOpenPointRows(db, id, r.openPoints ?? []);
  return id;
}

/** The run's answers to the open points, redacted (and refused if a key is still in them). */
function writeOpenPointRows(
  db: Database.Database,
  runId: number,
  values: NonNullable<ConformanceRunRecord['openPoints']>,
) {
  // A value given twice (a report edited by hand) is kept once: the first, as the run listed it.
  const row = db.prepare(
    `INSERT OR IGNORE INTO open_point_values (run_id, point, requirement_id, value, count, sentence, example)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const v of values)
    row.run(
      runId,
      v.point,
      v.requirementId,
      safeText(v.value, `answer to ${v.point}`),
      v.count,
      safeText(v.sentence, `sentence of ${v.point}`),
      v.example === undefined ? null : safeText(JSON.stringify(v.example), `evidence of ${v.point}`),
    );
}

/** Each requirement's note and evidence, redacted (and refused if a key is still in them). */
function writeEvidenceRows(db: Database.Database, runId: number, requirements: ConformanceRunRecord['requirements']) {
  const row = db.prepare(
    'INSERT INTO requirement_evidence (run_id, requirement_id, note, example) VALUES (?, ?, ?, ?)',
  );
  for (const q of requirements) {
    if (q.note === undefined && q.example === undefined) continue;
    row.run(
      runId,
      q.id,
      q.note === undefined ? null : safeText(q.note, `note of ${q.id}`),
      q.example === undefined ? null : safeText(JSON.stringify(q.example), `evidence of ${q.id}`),
    );
  }
}

/** Records a conformance run in one transaction; returns its run id. */
export function recordConformanceRun(db: Database.Database, r: ConformanceRunRecord): number {
  return db.transaction(() => writeConformanceRows(db, r)).immediate();
}

/** Records a load run in one transaction; returns its run id. */
export function recordLoadRun(db: Database.Database, r: LoadRunRecord): number {
  const write = db.transaction((): number => {
    const id = insertRun(db, 'load', r);
    db.prepare(
      'INSERT INTO load_runs (run_id, profile, passed, requests, throughput_rps, failed_rate) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(id, r.profile, r.passed ? 1 : 0, r.requests ?? null, r.throughputRps ?? null, r.failedRate ?? null);
    const op = db.prepare(
      'INSERT INTO load_operations (run_id, operation, requests, avg_ms, p95_ms, p99_ms, max_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    for (const o of r.operations)
      op.run(id, o.operation, o.requests ?? null, o.avgMs ?? null, o.p95Ms ?? null, o.p99Ms ?? null, o.maxMs ?? null);
    return id;
  });
  return write.immediate();
}

/** A text as the history may keep it: keys replaced by their names, and refused if one is still there. */
function safeText(text: string, what: string): string {
  const out = redactSecrets(text);
  if (containsSecret(out)) throw new Error(`a key would be written to the history (${what})`);
  return out;
}

/**
 * Records a generative run and its findings in one transaction; returns its run id (of explore_runs).
 * The minimal inputs and reproducers are redacted here too: the history keeps no key whoever calls it.
 */
export function recordExploreRun(db: Database.Database, r: ExploreRunRecord): number {
  const write = db.transaction((): number => {
    const info = db
      .prepare(
        `INSERT INTO explore_runs (started_at, seed, seed_given, target, harness_version, budget_s,
           requests_per_operation, operations, requests, wall_ms, exit_code, executions_started,
           canvases_created, canvas_overwrites, files_uploaded, incomplete, name, target_version)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        r.startedAt,
        r.seed,
        r.seedGiven ? 1 : 0,
        r.target,
        r.harnessVersion,
        r.budgetS,
        r.requestsPerOperation,
        r.operations.join(' '),
        r.requests,
        Math.round(r.wallMs),
        r.exitCode,
        r.footprint.executionsStarted,
        r.footprint.canvasesCreated,
        r.footprint.canvasOverwrites,
        r.footprint.filesUploaded,
        safeText(r.incomplete.join('\n'), 'incomplete'),
        r.name === undefined ? null : safeText(r.name, 'name'),
        r.targetVersion === undefined ? null : safeText(r.targetVersion, 'version'),
      );
    const id = Number(info.lastInsertRowid);
    // A fingerprint is reported once per run; should one come twice, the first (the run's order) is kept.
    const finding = db.prepare(
      `INSERT OR IGNORE INTO explore_findings (run_id, fingerprint, operation, clause, level, message, minimal_input, curl)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const f of r.findings)
      finding.run(
        id,
        f.fingerprint,
        f.operation,
        f.clause,
        f.level,
        safeText(f.message, `message of ${f.fingerprint}`),
        safeText(JSON.stringify(f.minimalInput ?? null), `minimal input of ${f.fingerprint}`),
        safeText(f.curl, `reproducer of ${f.fingerprint}`),
      );
    return id;
  });
  return write.immediate();
}
