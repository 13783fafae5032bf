/**
 * Where implementations split, from fixed answers: each value with the implementations holding it, the
 * points sorted by how split they are, what a client must tolerate stated once per split point, who
 * stands alone or in the minority, an implementation's changed answer shown across its versions, and
 * two runs of one implementation under one name never splitting with each other.
 */
import { expect, test } from '@playwright/test';
import type { OpenPointOutcome } from '../core/history-store/records.ts';
import { openPointsOf, type PointColumn } from './open-points.ts';
import { openPointsTable } from './open-points-text.ts';

const answer = (point: string, value: string, sentence = `${point}: ${value}`): OpenPointOutcome => ({
  point,
  requirementId: 'X',
  value,
  count: 1,
  sentence,
});

/** A column whose runs answered as given, oldest first (`version` per run, default one version). */
function column(name: string, runs: OpenPointOutcome[][], versions?: string[]): PointColumn {
  const base = name.length * 100;
  return {
    key: name,
    label: name,
    slug: name,
    runs: runs.map((_, i) => ({
      runId: base + i,
      startedAt: `2026-01-0${i + 1}T02:00:00Z`,
      version: versions?.[i] ?? '1.0',
    })),
    answers: new Map(runs.map((r, i) => [base + i, r])),
  };
}

const E2005 = (v: string) => answer('limit-status-E2005', v);
const RUN = (v: string) => answer('run-status', v);
const ABORT = (v: string) => answer('abort-of-ended', v);
const SIZE = (v: string) => answer('pagesize-default', v);

const COLUMNS = [
  column('reference', [[E2005('400'), RUN('init'), ABORT('200'), SIZE('20')]]),
  column('go', [[E2005('400'), RUN('init'), ABORT('200'), SIZE('all the account holds')]]),
  column('python', [[E2005('413'), RUN('executing'), ABORT('200'), SIZE('all the account holds')]]),
  column('spring', [[E2005('413'), RUN('executing'), ABORT('200'), SIZE('20')]]),
  column('nest', [[E2005('413'), RUN('init'), ABORT('200'), SIZE('10')]]),
  column('php', [[E2005('413'), answer('run-status', 'other: running'), SIZE('7')]]),
];

test('each value with the implementations that hold it, most split first, the tolerate set once per split point', () => {
  const { rows } = openPointsOf(COLUMNS);
  expect(rows.map((r) => r.point)).toEqual(['pagesize-default', 'run-status', 'limit-status-E2005', 'abort-of-ended']);
  const e2005 = rows.find((r) => r.point === 'limit-status-E2005')!;
  expect(e2005.values.map((v) => [v.value, v.holders.map((h) => h.key)])).toEqual([
    ['413', ['python', 'spring', 'nest', 'php']],
    ['400', ['reference', 'go']],
  ]);
  expect(e2005).toMatchObject({ split: true, answered: 6, silent: [], tolerate: ['400', '413'] });
  // Tolerate in the vocabulary's order, a value outside it last.
  expect(rows.find((r) => r.point === 'run-status')!.tolerate).toEqual(['init', 'executing', 'other: running']);
  expect(rows.find((r) => r.point === 'pagesize-default')!.tolerate).toEqual([
    '7',
    '10',
    '20',
    'all the account holds',
  ]);
  // A point everyone answers alike is no split and has nothing to tolerate; who did not answer is named.
  const abort = rows.find((r) => r.point === 'abort-of-ended')!;
  expect(abort).toMatchObject({ split: false, tolerate: [], answered: 5, silent: ['php'] });
  expect(abort.words).toContain('Transitions: not shown');
});

test('who stands alone or in the minority, on split points only', () => {
  const { standing } = openPointsOf(COLUMNS);
  const of = (key: string) => standing[COLUMNS.findIndex((c) => c.key === key)]!;
  // Most isolated first; equally isolated, most split point first.
  expect(of('php').map((s) => [s.point, s.kind, s.values])).toEqual([
    ['pagesize-default', 'alone', ['7']],
    ['run-status', 'alone', ['other: running']],
  ]);
  expect(of('go').map((s) => [s.point, s.kind])).toEqual([
    ['pagesize-default', 'minority'],
    ['limit-status-E2005', 'minority'],
  ]);
  // Half of them is no minority (run-status: init), the majority never is (E2005: 413).
  expect(of('nest').map((s) => [s.point, s.kind])).toEqual([['pagesize-default', 'alone']]);
  expect(of('spring').map((s) => s.point)).toEqual(['pagesize-default', 'run-status']);
  expect(of('reference').map((s) => s.point)).toEqual(['pagesize-default', 'limit-status-E2005']);
});

test('one implementation run twice under one name never splits with itself; a changed answer is shown with its versions', () => {
  const twice = column('go', [
    [E2005('400'), RUN('init')],
    [RUN('init'), E2005('400')],
  ]);
  const alone = openPointsOf([twice]);
  expect(alone.rows.every((r) => !r.split && r.changes.length === 0)).toBe(true);
  const upgraded = column(
    'go',
    [[E2005('400')], [answer('run-status', 'init')], [E2005('413')]],
    ['1.0', '1.1', '2.0'],
  );
  const [row] = openPointsOf([upgraded]).rows.filter((r) => r.point === 'limit-status-E2005');
  // A run that did not answer the point (a role missing that night) is no change.
  expect(row!.split).toBe(false);
  expect(row!.changes).toEqual([
    expect.objectContaining({
      key: 'go',
      from: ['400'],
      to: ['413'],
      sameVersion: false,
      before: expect.objectContaining({ version: '1.0' }),
      after: expect.objectContaining({ version: '2.0' }),
    }),
  ]);
  // Mixed answers: one implementation holding two values is under both, marked, and tolerated as both.
  const mixed = openPointsOf([
    column('a', [[answer('error-body-shape', 'envelope (§2.1)'), answer('error-body-shape', 'not JSON')]]),
    column('b', [[answer('error-body-shape', 'envelope (§2.1)')]]),
  ]).rows[0]!;
  expect(mixed.values.map((v) => [v.value, v.holders.map((h) => `${h.key}${h.also.length ? '*' : ''}`)])).toEqual([
    ['envelope (§2.1)', ['a*', 'b']],
    ['not JSON', ['a*']],
  ]);
  expect(mixed.tolerate).toEqual(['envelope (§2.1)', 'not JSON']);
});

test('the command line shows the same table', () => {
  const text = openPointsTable(openPointsOf(COLUMNS), COLUMNS.length);
  expect(text).toContain('open points: 3 of 4 answered are split across 6 implementation(s)');
  expect(text).toMatch(
    /limit-status-E2005\s+413\s+python, spring, nest, php\n\s+400\s+reference, go\n\s+a client must tolerate: 400 or 413/,
  );
  expect(text).toMatch(/abort-of-ended\s+200 \(5 of 6\)/);
});
