/**
 * `wfcheck history import`: a conformance report made elsewhere is recorded under an implementation's
 * name with its verdicts, findings and evidence; anything that is not a wfcheck conformance report is
 * refused before anything is written; the same report twice is one run; and no key reaches the history,
 * neither one this process knows nor one it was never given.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { registerSecret } from '../core/settings/redact.ts';
import { evidenceOfRun, implementations, openPointsOfRuns } from '../core/history-store/implementations.ts';
import { findingRowsOf, runById, verdictRowsOf } from '../core/history-store/queries.ts';
import { withHistory } from '../core/history-store/store.ts';
import { syntheticReport } from '../proof/demo/synthetic-matrix.ts';
import { importReport, readReportFile, reportProblem } from './import.ts';

let dir: string;
test.beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wfcheck-import-'));
});
test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, value: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
};

/** Every text the history holds, table by table: where a key would show if one had been stored. */
function everything(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    return tables.map((t) => JSON.stringify(db.prepare(`SELECT * FROM "${t.name}"`).all())).join('\n');
  } finally {
    db.close();
  }
}

test('a report is recorded under its name: verdicts, findings and the evidence behind them', () => {
  const report = syntheticReport({
    seed: 77,
    startedAt: '2026-03-01T02:00:00.000Z',
    failing: ['SEARCH-200-ENVELOPE', 'RUN-200-ENVELOPE'],
    implementation: { name: 'vendor-a', version: '4.2' },
  });
  const file = write('report.json', report);
  const history = join(dir, 'h.sqlite');
  const first = importReport(file, { historyFile: history });
  expect(first).toMatchObject({ name: 'vendor-a', version: '4.2', runId: 1, duplicate: false, seed: 77, scrubbed: 0 });

  const { value } = withHistory(history, (db) => ({
    run: runById(db, 1),
    verdicts: verdictRowsOf(db, 1),
    findings: findingRowsOf(db, 1),
    evidence: evidenceOfRun(db, 1),
    implementations: implementations(db),
    openPoints: openPointsOfRuns(db, [1]).get(1),
  }));
  expect(value!.run).toMatchObject({
    name: 'vendor-a',
    targetVersion: '4.2',
    origin: 'import',
    seed: 77,
    startedAt: '2026-03-01T02:00:00.000Z',
    harnessVersion: '0.1.0',
    exitCode: 1,
  });
  // The target is named by a hash of its base URL, as the runs made here are.
  expect(value!.run!.target).toMatch(/^imported:[0-9a-f]{16}$/);
  expect(value!.verdicts.size).toBe(report.requirements.length);
  expect(value!.verdicts.get('SEARCH-200-ENVELOPE')?.verdict).toBe('fail');
  expect(value!.findings.flatMap((f) => f.clauses).sort()).toEqual(['RUN-200-ENVELOPE', 'SEARCH-200-ENVELOPE']);
  expect(value!.evidence.get('SEARCH-200-ENVELOPE')).toMatchObject({
    note: 'SEARCH-200-ENVELOPE: success is not a boolean',
    example: { expected: 'type boolean', actual: '"yes"', operation: 'searchWorkflows', status: 200 },
  });
  expect(value!.evidence.get('SEARCH-200-ENVELOPE')?.example?.curl).toContain('Bearer ${API_KEY}');
  // Its answers to the open points come along, as the report gave them.
  expect(report.openPoints.length).toBeGreaterThan(0);
  expect(value!.openPoints!.map((p) => [p.point, p.value]).sort()).toEqual(
    report.openPoints.flatMap((p) => p.values.map((v) => [p.point, v.value])).sort(),
  );

  // The same report again is the same run; another name makes it another implementation's.
  expect(importReport(file, { historyFile: history })).toMatchObject({ runId: 1, duplicate: true });
  expect(importReport(file, { historyFile: history, name: 'vendor-b' })).toMatchObject({
    name: 'vendor-b',
    runId: 2,
    duplicate: false,
  });
  const { value: after } = withHistory(history, (db) => implementations(db).map((i) => [i.name, i.runs]));
  expect(after).toEqual([
    ['vendor-a', 1],
    ['vendor-b', 1],
  ]);
});

test('a key is never stored: neither a key this process knows nor a credential it was never given', () => {
  const known = 'wfk_known_key_of_this_shell_91c2';
  const foreign = 'sk_live_vendor_secret_0a1b2c3d4e5f';
  registerSecret(known, 'API_KEY');
  const report = syntheticReport({
    seed: 5,
    startedAt: '2026-03-02T02:00:00.000Z',
    failing: ['SEARCH-200-ENVELOPE'],
    implementation: { name: 'leaky' },
    credential: foreign,
    baseUrl: `https://user:${foreign}@vendor.example/v1`,
  });
  const text = JSON.stringify(report).replaceAll('SEARCH-200-ENVELOPE: success is not a boolean', `echoed ${known}`);
  const history = join(dir, 'h.sqlite');
  const outcome = importReport(write('report.json', text), { historyFile: history });
  expect(outcome.scrubbed).toBeGreaterThan(0);
  const stored = everything(history);
  expect(stored).not.toContain(foreign);
  expect(stored).not.toContain(known);
  expect(stored).toContain("Authorization: Bearer ***'");
  expect(stored).toContain('echoed ${API_KEY}');
});

test('a file that is not a wfcheck conformance report is refused, and nothing is written', () => {
  const good = syntheticReport({ seed: 1, startedAt: '2026-03-03T00:00:00.000Z', implementation: { name: 'x' } });
  const cases: [string, unknown, RegExp][] = [
    ['not json', '{"meta": {"seed": 1', /it is not JSON/],
    ['another json', { name: 'package', version: '1.0.0' }, /it has no meta/],
    ['an array', [good], /it is not a JSON object/],
    ['an explore report', { kind: 'wfcheck-explore', seed: 1, findings: [] }, /report of an exploration/],
    ['no requirements', { ...good, requirements: [] }, /lists no requirement verdicts/],
    [
      'a verdict of its own',
      { ...good, requirements: [{ ...good.requirements[0], verdict: 'great' }, ...good.requirements.slice(1)] },
      /requirements\[0\]\.verdict is not a verdict/,
    ],
    [
      'an id that is markup',
      { ...good, requirements: [{ ...good.requirements[0], id: '<script>' }] },
      /requirements\[0\]\.id is not a requirement id/,
    ],
    ['a finding without clauses', { ...good, findings: [{ id: 'F1', signature: 's' }] }, /findings\[0\]\.severity/],
    ['no seed', { ...good, meta: { ...good.meta, seed: 'seven' } }, /meta\.seed is not a seed/],
    ['open points that are no list', { ...good, openPoints: 'all agree' }, /its openPoints is not a list/],
    ['an open point without a point', { ...good, openPoints: [{ values: [] }] }, /openPoints\[0\] names no point/],
    [
      'an open point value without its sentence',
      { ...good, openPoints: [{ point: 'p', requirementId: 'X', values: [{ value: '400', count: 1 }] }] },
      /openPoints\[0\]\.values\[0\] is not a value/,
    ],
  ];
  const history = join(dir, 'h.sqlite');
  for (const [what, value, message] of cases) {
    const file = write(`${what.replace(/ /g, '-')}.json`, value);
    expect(() => readReportFile(file), what).toThrow(message);
    expect(() => importReport(file, { historyFile: history }), what).toThrow(/is not a wfcheck conformance report/);
  }
  expect(reportProblem(good)).toBeUndefined();
  const unnamed = write('unnamed.json', { ...good, meta: { ...good.meta, implementation: undefined } });
  expect(() => importReport(unnamed, { historyFile: history })).toThrow(/names no implementation/);
  // Nothing was written for any of them (the history was not even created).
  expect(() => readFileSync(history)).toThrow();
});
