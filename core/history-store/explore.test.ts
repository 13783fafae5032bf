/**
 * Generative runs in the run history (migration v4): a history of an older version gains their tables
 * and keeps its runs; each finding of a run is new or seen before on the same target (by fingerprint,
 * whatever the seed), the previous run's findings it no longer has are listed, nothing of a key is
 * kept, and a database that cannot be used leaves the classification "not known", never a failed run.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { registerSecret } from '../settings/redact.ts';
import {
  classifyExploreFindings,
  historyOfExploreRun,
  recordAndClassifyExplore,
  type ClassifyInput,
} from './explore.ts';
import { migrate, SCHEMA_VERSION, schemaVersion } from './migrations.ts';
import {
  exploreFindingRowsOf,
  fingerprintTimeline,
  recentExploreRuns,
  recentRuns,
  verdictRowsOf,
  type Sighting,
} from './queries.ts';
import type { ExploreFindingOutcome, ExploreRunRecord } from './records.ts';
import { openHistory, recordExploreRun, withHistory } from './store.ts';

let dir: string;
test.beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wfcheck-explore-history-'));
});
test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

const finding = (fingerprint: string, o: Partial<ExploreFindingOutcome> = {}): ExploreFindingOutcome => ({
  fingerprint,
  operation: 'searchWorkflows',
  clause: 'SEARCH-HTTP-STATUS-LISTED',
  level: 'must',
  message: `500 for ${fingerprint}`,
  minimalInput: { query: { pageSize: '1001' } },
  curl: `curl -sS -H "Authorization: Bearer \${API_KEY}" "\${BASE_URL}/workflows/search?pageSize=1001" # ${fingerprint}`,
  ...o,
});

let clock = Date.parse('2026-03-01T02:17:00Z');
function exploreRun(findings: ExploreFindingOutcome[], o: Partial<ExploreRunRecord> = {}): ExploreRunRecord {
  clock += 24 * 3600_000;
  return {
    startedAt: new Date(clock).toISOString(),
    seed: clock % 1000,
    seedGiven: false,
    harnessVersion: '0.1.0',
    target: 'reference:t',
    budgetS: 60,
    requestsPerOperation: 160,
    operations: ['searchWorkflows', 'runWorkflow'],
    requests: 700,
    wallMs: 4300,
    exitCode: findings.some((f) => f.level === 'must') ? 1 : 0,
    footprint: { executionsStarted: 13, canvasesCreated: 5, canvasOverwrites: 65, filesUploaded: 0 },
    incomplete: [],
    findings,
    ...o,
  };
}

test('a history of schema version 3 is migrated: its runs kept, generative runs recorded beside them', () => {
  const path = join(dir, 'v3.sqlite');
  const old = new Database(path);
  migrate(old, 3);
  old.exec(`INSERT INTO runs (kind, started_at, seed, harness_version, target, wall_ms, exit_code, findings)
            VALUES ('conformance', '2026-01-01T00:00:00Z', 7, '0.0.9', 'reference:t', 900, 1, 1);
            INSERT INTO requirement_verdicts (run_id, requirement_id, verdict, raw_verdict, waived, evidence)
            VALUES (1, 'A-1', 'fail', 'fail', 0, 3);`);
  expect(schemaVersion(old)).toBe(3);
  old.close();

  expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(4);
  const db = openHistory(path).db!;
  try {
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
      (t) => t.name,
    );
    expect(tables).toEqual(expect.arrayContaining(['explore_runs', 'explore_findings', 'runs', 'findings']));
    const columns = (table: string) =>
      (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
    expect(columns('explore_runs')).toEqual([
      'id',
      'started_at',
      'seed',
      'seed_given',
      'target',
      'harness_version',
      'budget_s',
      'requests_per_operation',
      'operations',
      'requests',
      'wall_ms',
      'exit_code',
      'executions_started',
      'canvases_created',
      'canvas_overwrites',
      'files_uploaded',
      'incomplete',
      // Version 5: the implementation a run is recorded under, and its version.
      'name',
      'target_version',
    ]);
    expect(columns('explore_findings')).toEqual([
      'run_id',
      'fingerprint',
      'operation',
      'clause',
      'level',
      'message',
      'minimal_input',
      'curl',
    ]);
    // The older runs are untouched, and the generative runs are not among them.
    expect(recentRuns(db, 'reference:t', 'conformance', 10).map((r) => [r.id, r.seed, r.findings])).toEqual([
      [1, 7, 1],
    ]);
    expect(verdictRowsOf(db, 1).get('A-1')?.verdict).toBe('fail');
    const id = recordExploreRun(db, exploreRun([finding('aaaa')]));
    expect(recentExploreRuns(db, 'reference:t', 10).map((r) => [r.id, r.mustFindings, r.operations])).toEqual([
      [id, 1, ['searchWorkflows', 'runWorkflow']],
    ]);
    expect(recentRuns(db, 'reference:t', 'conformance', 10)).toHaveLength(1);
  } finally {
    db.close();
  }
});

const sighting = (firstSeen: string, firstRunId: number, lastRunId: number, runs: number): Sighting => ({
  firstSeen,
  firstRunId,
  lastSeen: firstSeen,
  lastRunId,
  runs,
});
const row = (fingerprint: string, operation = 'searchWorkflows') => ({
  fingerprint,
  operation,
  clause: `${operation}-CLAUSE`,
  level: 'must',
  message: `m ${fingerprint}`,
});

test('each finding is new or seen before, and the previous run’s findings not found again are gone', () => {
  const NOW = '2026-04-10T02:17:00.000Z';
  const base = { runId: 9, startedAt: NOW, explored: ['searchWorkflows', 'runWorkflow'] };
  const cases: {
    what: string;
    input: Omit<ClassifyInput, 'runId' | 'startedAt' | 'explored'> & { explored?: string[] };
    seen: Record<string, string>;
    gone: [string, boolean][];
  }[] = [
    {
      what: 'the first run of a target: every finding new, nothing gone',
      input: { findings: [{ fingerprint: 'A' }, { fingerprint: 'B' }], earlier: new Map() },
      seen: { A: 'new 1 run first 2026-04-10T02:17:00.000Z #9', B: 'new 1 run first 2026-04-10T02:17:00.000Z #9' },
      gone: [],
    },
    {
      what: 'found by the previous run: seen before, counting this run',
      input: {
        findings: [{ fingerprint: 'A' }],
        earlier: new Map([['A', sighting('2026-04-01T02:17:00Z', 3, 8, 4)]]),
        previous: { id: 8, findings: [row('A')] },
      },
      seen: { A: 'seen-before 5 runs first 2026-04-01T02:17:00Z #3 in previous' },
      gone: [],
    },
    {
      what: 'back after a run without it: seen before, not in the previous run',
      input: {
        findings: [{ fingerprint: 'A' }],
        earlier: new Map([['A', sighting('2026-04-01T02:17:00Z', 3, 5, 2)]]),
        previous: { id: 8, findings: [] },
      },
      seen: { A: 'seen-before 3 runs first 2026-04-01T02:17:00Z #3' },
      gone: [],
    },
    {
      what: 'a new finding beside a known one; the previous run’s other finding gone',
      input: {
        findings: [{ fingerprint: 'A' }, { fingerprint: 'N' }],
        earlier: new Map([['A', sighting('2026-04-09T02:17:00Z', 8, 8, 1)]]),
        previous: { id: 8, findings: [row('A'), row('G')] },
      },
      seen: {
        A: 'seen-before 2 runs first 2026-04-09T02:17:00Z #8 in previous',
        N: 'new 1 run first 2026-04-10T02:17:00.000Z #9',
      },
      gone: [['G', true]],
    },
    {
      what: 'a clean run after findings: all gone; one of an operation not explored is not looked for',
      input: {
        findings: [],
        explored: ['searchWorkflows'],
        earlier: new Map(),
        previous: { id: 8, findings: [row('A'), row('R', 'runWorkflow')] },
      },
      seen: {},
      gone: [
        ['A', true],
        ['R', false],
      ],
    },
  ];
  for (const c of cases) {
    const got = classifyExploreFindings({ ...base, ...c.input, explored: c.input.explored ?? base.explored });
    const said = Object.fromEntries(
      Object.entries(got.seen).map(([fp, s]) => [
        fp,
        `${s.status} ${s.runs} run${s.runs > 1 ? 's' : ''} first ${s.firstSeen} #${s.firstRunId}${s.inPreviousRun ? ' in previous' : ''}`,
      ]),
    );
    expect(said, c.what).toEqual(c.seen);
    expect(
      got.gone.map((g) => [g.fingerprint, g.explored]),
      c.what,
    ).toEqual(c.gone);
  }
});

test('recorded night after night: the same fingerprint is seen before, under any seed, only on its own target', () => {
  const path = join(dir, 'nights.sqlite');
  const n1 = exploreRun([finding('A'), finding('W', { level: 'should' })]);
  const first = recordAndClassifyExplore(path, n1);
  expect(first.skipped).toBeUndefined();
  expect(first.previous).toBeUndefined();
  expect(first.seen.A).toMatchObject({ status: 'new', runs: 1, firstSeen: n1.startedAt, firstRunId: first.runId });

  // Another target's runs are never compared with this one's.
  const other = recordAndClassifyExplore(path, exploreRun([finding('A')], { target: 'other' }));
  expect(other.seen.A.status).toBe('new');

  const second = recordAndClassifyExplore(path, exploreRun([finding('A'), finding('B')], { seed: 999 }));
  expect(second.previous?.runId).toBe(first.runId);
  expect(second.seen.A).toMatchObject({
    status: 'seen-before',
    firstSeen: n1.startedAt,
    firstRunId: first.runId,
    runs: 2,
    inPreviousRun: true,
  });
  expect(second.seen.B.status).toBe('new');
  expect(second.gone.map((g) => g.fingerprint)).toEqual(['W']);

  const third = recordAndClassifyExplore(path, exploreRun([finding('A')]));
  expect(third.seen.A.runs).toBe(3);
  expect(third.gone.map((g) => [g.fingerprint, g.clause, g.explored])).toEqual([
    ['B', 'SEARCH-HTTP-STATUS-LISTED', true],
  ]);

  // What `wfcheck history --explore --to` says of an older run is what its report said.
  const { value } = withHistory(path, (db) => ({
    again: historyOfExploreRun(db, second.runId!),
    timeline: fingerprintTimeline(db, 'reference:t', 'B', 10).map((t) => [t.run.id, Boolean(t.finding)]),
  }));
  expect(value?.again).toEqual(second);
  expect(value?.timeline).toEqual([
    [first.runId, false],
    [second.runId, true],
    [third.runId, false],
  ]);
});

test('minimal inputs and reproducers are kept redacted', () => {
  const key = `wfk_CANARY_HISTORY_${Date.now().toString(36)}`;
  registerSecret(key, 'API_KEY');
  const path = join(dir, 'redacted.sqlite');
  const h = recordAndClassifyExplore(
    path,
    exploreRun([
      finding('K', {
        minimalInput: { headers: { authorization: `Bearer ${key}` } },
        curl: `curl -H "Authorization: Bearer ${key}" "\${BASE_URL}/workflows/search"`,
        message: `the key ${key} was echoed`,
      }),
    ]),
  );
  expect(h.skipped).toBeUndefined();
  const { value } = withHistory(path, (db) => exploreFindingRowsOf(db, h.runId!));
  expect(value?.[0]).toMatchObject({
    minimalInput: { headers: { authorization: 'Bearer ${API_KEY}' } },
    curl: 'curl -H "Authorization: Bearer ${API_KEY}" "${BASE_URL}/workflows/search"',
  });
  for (const file of readdirSync(dir).filter((f) => f.startsWith('redacted.sqlite')))
    expect(readFileSync(join(dir, file)).includes(key), file).toBe(false);
});

test('a corrupt or locked history leaves every finding "not known" and the run unharmed', () => {
  const garbage = join(dir, 'garbage.sqlite');
  writeFileSync(garbage, 'this is not a database\n'.repeat(300));
  const corrupt = recordAndClassifyExplore(garbage, exploreRun([finding('A')]));
  expect(corrupt).toEqual({ seen: {}, gone: [], skipped: expect.stringMatching(/cannot be used .*not a database/) });

  const path = join(dir, 'locked.sqlite');
  openHistory(path).db!.close();
  const holder = new Database(path);
  holder.exec('BEGIN EXCLUSIVE');
  try {
    expect(recordAndClassifyExplore(path, exploreRun([finding('A')])).skipped).toMatch(/locked|busy/i);
  } finally {
    holder.exec('ROLLBACK');
    holder.close();
  }
  // Nothing half-written: the next run is the first of the target.
  expect(recordAndClassifyExplore(path, exploreRun([finding('A')])).seen.A.status).toBe('new');
});
