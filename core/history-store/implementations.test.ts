/**
 * Named implementations in one history: a history written before names existed is migrated and keeps
 * its runs (unnamed, still its target's); runs recorded under a name are that implementation's whatever
 * target or key they were reached through; the evidence behind each verdict is kept redacted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { registerSecret } from '../settings/redact.ts';
import {
  evidenceOfRun,
  implementations,
  openPointsOfRuns,
  runsOfImplementation,
  sameRun,
  verdictRowsOfRuns,
} from './implementations.ts';
import { migrate, SCHEMA_VERSION, schemaVersion } from './migrations.ts';
import { recentRuns, verdictRowsOf } from './queries.ts';
import type { ConformanceRunRecord } from './records.ts';
import { openHistory, recordConformanceRun, recordExploreRun, withHistory } from './store.ts';

let dir: string;
test.beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wfcheck-implementations-'));
});
test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

const KEY = 'wfk_named_history_canary_5f3e9a';
registerSecret(KEY, 'API_KEY');

function run(
  target: string,
  verdicts: Record<string, string>,
  extra: Partial<ConformanceRunRecord> = {},
): ConformanceRunRecord {
  return {
    startedAt: new Date().toISOString(),
    seed: 1,
    harnessVersion: '0.1.0',
    target,
    exitCode: 0,
    requirements: Object.entries(verdicts).map(([id, verdict]) => ({
      id,
      verdict,
      rawVerdict: verdict,
      waived: false,
      evidence: 1,
    })),
    tests: [],
    ...extra,
  };
}

test('a history of schema version 4 is migrated: its runs kept unnamed, named runs recorded beside them', () => {
  const path = join(dir, 'v4.sqlite');
  const old = new Database(path);
  migrate(old, 4);
  old.exec(`INSERT INTO runs (kind, started_at, seed, harness_version, target, wall_ms, exit_code, findings)
            VALUES ('conformance', '2026-01-01T00:00:00Z', 7, '0.0.9', 'reference:t', 900, 1, 1);
            INSERT INTO requirement_verdicts (run_id, requirement_id, verdict, raw_verdict, waived, evidence)
            VALUES (1, 'A-1', 'fail', 'fail', 0, 3);`);
  expect(schemaVersion(old)).toBe(4);
  old.close();

  // Migrated to the latest version (later ones, such as capacity searches, add tables of their own).
  expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(5);
  const db = openHistory(path).db!;
  try {
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    const [before] = recentRuns(db, 'reference:t', 'conformance', 10);
    expect(before).toMatchObject({ id: 1, seed: 7, name: null, targetVersion: null, origin: null });
    expect(verdictRowsOf(db, 1).get('A-1')?.verdict).toBe('fail');
    expect(evidenceOfRun(db, 1).size).toBe(0);

    recordConformanceRun(db, run('other:t', { 'A-1': 'pass' }, { name: 'vendor-a', targetVersion: '2.1' }));
    expect(implementations(db)).toEqual([
      { name: 'vendor-a', target: null, runs: 1, latestRunId: 2 },
      { name: null, target: 'reference:t', runs: 1, latestRunId: 1 },
    ]);
    // An explore run takes a name too.
    const explored = recordExploreRun(db, {
      startedAt: '2026-01-02T00:00:00Z',
      seed: 3,
      seedGiven: true,
      harnessVersion: '0.1.0',
      target: 'other:t',
      name: 'vendor-a',
      targetVersion: '2.1',
      wallMs: 1,
      exitCode: 0,
      budgetS: 1,
      requestsPerOperation: 1,
      operations: [],
      requests: 0,
      footprint: { executionsStarted: 0, canvasesCreated: 0, canvasOverwrites: 0, filesUploaded: 0 },
      incomplete: [],
      findings: [],
    });
    expect(db.prepare('SELECT name, target_version AS v FROM explore_runs WHERE id = ?').get(explored)).toEqual({
      name: 'vendor-a',
      v: '2.1',
    });
  } finally {
    db.close();
  }
});

test("an implementation's runs are its name's, whatever target each night reached it through", () => {
  const { value } = withHistory(join(dir, 'h.sqlite'), (db) => {
    // Fresh keys every night make a fresh target fingerprint every night: the name holds them together.
    const ids = ['k1', 'k2', 'k3'].map((key, night) =>
      recordConformanceRun(
        db,
        run(`t:${key}`, { 'A-1': night === 1 ? 'fail' : 'pass', 'B-2': 'pass' }, { name: 'go', seed: night }),
      ),
    );
    recordConformanceRun(db, run('t:k9', { 'A-1': 'pass' }, { name: 'python' }));
    const go = implementations(db).find((i) => i.name === 'go')!;
    const runs = runsOfImplementation(db, go, 2);
    const bulk = verdictRowsOfRuns(db, ids);
    return { go, runs, bulk, single: ids.map((id) => verdictRowsOf(db, id)) };
  });
  expect(value!.go).toMatchObject({ runs: 3, latestRunId: 3 });
  expect(value!.runs.map((r) => [r.id, r.seed, r.name])).toEqual([
    [2, 1, 'go'],
    [3, 2, 'go'],
  ]);
  expect([...value!.bulk.values()]).toEqual(value!.single);
});

test('the evidence behind a verdict is kept redacted, and an import is found again by its start and seed', () => {
  const { value } = withHistory(join(dir, 'h.sqlite'), (db) => {
    const id = recordConformanceRun(
      db,
      run(
        'external:x',
        { 'A-1': 'fail', 'B-2': 'not-run', 'C-3': 'pass' },
        { name: 'vendor-b', startedAt: '2026-02-01T00:00:00.000Z', seed: 42, origin: 'import' },
      ),
    );
    const withEvidence = (db.prepare('SELECT COUNT(*) AS n FROM requirement_evidence').get() as { n: number }).n;
    return { id, withEvidence, same: sameRun(db, 'vendor-b', '2026-02-01T00:00:00.000Z', 42) };
  });
  expect(value).toEqual({ id: 1, withEvidence: 0, same: 1 });

  const { value: evidence } = withHistory(join(dir, 'h.sqlite'), (db) => {
    const r = run('external:x', { 'A-1': 'fail', 'B-2': 'not-run' }, { name: 'vendor-b' });
    r.requirements[0]!.note = `the key ${KEY} came back in the error`;
    r.requirements[0]!.example = {
      message: 'echoed',
      curl: `curl -H 'Authorization: Bearer ${KEY}' https://x/v1/openapi/workflows`,
      response: `HTTP 401\n\n{"errMsg":"bad key ${KEY}"}`,
    };
    r.requirements[1]!.note = 'no suite exercised this requirement in this run';
    return evidenceOfRun(db, recordConformanceRun(db, r));
  });
  expect(JSON.stringify([...evidence!])).not.toContain(KEY);
  expect(evidence!.get('A-1')).toEqual({
    note: 'the key ${API_KEY} came back in the error',
    example: {
      message: 'echoed',
      curl: "curl -H 'Authorization: Bearer ${API_KEY}' https://x/v1/openapi/workflows",
      response: 'HTTP 401\n\n{"errMsg":"bad key ${API_KEY}"}',
    },
  });
  expect(evidence!.get('B-2')).toEqual({ note: 'no suite exercised this requirement in this run' });
});

test('the answers to the open points are kept per run and value, redacted; a history of version 6 gains them', () => {
  const path = join(dir, 'v6.sqlite');
  const old = new Database(path);
  migrate(old, 6);
  old.exec(`INSERT INTO runs (kind, started_at, seed, harness_version, target, name)
            VALUES ('conformance', '2026-01-01T00:00:00Z', 7, '0.0.9', 'external:x', 'vendor-b');`);
  old.close();
  const { value } = withHistory(path, (db) => {
    const r = run('external:x', { 'LIMIT-OPERATIONS': 'observed' }, { name: 'vendor-b' });
    r.openPoints = [
      {
        point: 'limit-status-E2005',
        requirementId: 'LIMIT-OPERATIONS',
        value: '413',
        count: 2,
        sentence: 'run over 100KB: HTTP 413 (E2005)',
      },
      {
        point: 'errcode-401',
        requirementId: 'ERROR-BODY-SHAPE',
        value: 'other: UNAUTHORIZED',
        count: 5,
        sentence: `runWorkflow 401: the key ${KEY} refused`,
        example: { message: 'x', curl: `curl -H 'Authorization: Bearer ${KEY}' https://x/v1` },
      },
    ];
    const id = recordConformanceRun(db, r);
    return { version: schemaVersion(db), answers: openPointsOfRuns(db, [1, id]) };
  });
  expect(value!.version).toBe(SCHEMA_VERSION);
  // The run recorded before answers were kept has none: not known, never "not answered".
  expect(value!.answers.get(1)).toEqual([]);
  expect(JSON.stringify([...value!.answers])).not.toContain(KEY);
  expect(value!.answers.get(2)).toEqual([
    {
      point: 'errcode-401',
      requirementId: 'ERROR-BODY-SHAPE',
      value: 'other: UNAUTHORIZED',
      count: 5,
      sentence: 'runWorkflow 401: the key ${API_KEY} refused',
      example: { message: 'x', curl: "curl -H 'Authorization: Bearer ${API_KEY}' https://x/v1" },
    },
    {
      point: 'limit-status-E2005',
      requirementId: 'LIMIT-OPERATIONS',
      value: '413',
      count: 2,
      sentence: 'run over 100KB: HTTP 413 (E2005)',
    },
  ]);
});
