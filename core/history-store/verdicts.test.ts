/**
 * The one reading of a run's verdicts and of how runs differ: every comparison of runs relies on it,
 * above all on a requirement missing from a run reading as ABSENT on either side.
 */
import { expect, test } from '@playwright/test';
import {
  ABSENT,
  changesIn,
  compareVerdicts,
  flipsOver,
  idsWhere,
  verdictSeries,
  verdictsOf,
  type VerdictDifference,
  type VerdictSource,
} from './verdicts.ts';

const row = (verdict: string) => ({ verdict });

const comparisons: { name: string; before: VerdictSource; after: VerdictSource; expected: VerdictDifference[] }[] = [
  { name: 'identical runs', before: { A: 'pass', B: 'fail' }, after: { A: 'pass', B: 'fail' }, expected: [] },
  {
    name: 'a changed verdict',
    before: { A: 'pass', B: 'fail' },
    after: { A: 'pass', B: 'pass' },
    expected: [{ id: 'B', before: 'fail', after: 'pass' }],
  },
  {
    name: 'a requirement only the later run has',
    before: { A: 'pass' },
    after: { A: 'pass', B: 'warn' },
    expected: [{ id: 'B', before: ABSENT, after: 'warn' }],
  },
  {
    name: 'a requirement only the earlier run has',
    before: { A: 'pass', B: 'warn' },
    after: { A: 'pass' },
    expected: [{ id: 'B', before: 'warn', after: ABSENT }],
  },
  {
    name: 'a run without a report',
    before: {},
    after: { B: 'pass', A: 'fail' },
    expected: [
      { id: 'A', before: ABSENT, after: 'fail' },
      { id: 'B', before: ABSENT, after: 'pass' },
    ],
  },
  {
    name: 'history rows, compared by their verdict',
    before: new Map([
      ['A', row('pass')],
      ['B', row('not-run')],
    ]),
    after: new Map([
      ['A', row('fail')],
      ['B', row('not-run')],
    ]),
    expected: [{ id: 'A', before: 'pass', after: 'fail' }],
  },
  {
    name: 'an ID that is also a property of every object',
    before: {},
    after: { constructor: 'pass' },
    expected: [{ id: 'constructor', before: ABSENT, after: 'pass' }],
  },
];

for (const c of comparisons)
  test(`compareVerdicts: ${c.name}`, () => {
    expect(compareVerdicts(c.before, c.after)).toEqual(c.expected);
  });

const report = {
  requirements: [
    { id: 'Z', verdict: 'waived', rawVerdict: 'fail' },
    { id: 'A', verdict: 'pass', rawVerdict: 'pass' },
    { id: 'M', verdict: 'not-run' },
  ],
};

const projections: { name: string; actual: () => unknown; expected: unknown }[] = [
  {
    name: 'after waivers, in the run order',
    actual: () => verdictsOf(report),
    expected: { Z: 'waived', A: 'pass', M: 'not-run' },
  },
  {
    name: 'before waivers; a row without a raw verdict reads as its verdict',
    actual: () => verdictsOf(report, 'rawVerdict'),
    expected: { Z: 'fail', A: 'pass', M: 'not-run' },
  },
  { name: 'no report, no verdicts', actual: () => verdictsOf(undefined), expected: {} },
  { name: 'IDs of one verdict', actual: () => idsWhere(verdictsOf(report), 'pass'), expected: ['A'] },
  {
    name: 'IDs satisfying a test, in the run order',
    actual: () => idsWhere(verdictsOf(report), (v) => v !== 'not-run'),
    expected: ['Z', 'A'],
  },
];

for (const p of projections)
  test(`verdictsOf / idsWhere: ${p.name}`, () => {
    expect(p.actual()).toEqual(p.expected);
  });

const series: { name: string; runs: VerdictSource[]; ids?: string[]; expected: unknown }[] = [
  {
    name: 'every ID of any run, by ID, absent where a run lacks it',
    runs: [{ B: 'pass' }, { A: 'fail', B: 'pass' }],
    expected: [
      { id: 'A', verdicts: [ABSENT, 'fail'] },
      { id: 'B', verdicts: ['pass', 'pass'] },
    ],
  },
  {
    name: 'the given IDs, in their order',
    runs: [{ A: 'pass' }, {}],
    ids: ['C', 'A'],
    expected: [
      { id: 'C', verdicts: [ABSENT, ABSENT] },
      { id: 'A', verdicts: ['pass', ABSENT] },
    ],
  },
];

for (const s of series)
  test(`verdictSeries: ${s.name}`, () => {
    expect(verdictSeries(s.runs, s.ids)).toEqual(s.expected);
  });

const changes: { verdicts: string[]; expected: number }[] = [
  { verdicts: [], expected: 0 },
  { verdicts: ['pass'], expected: 0 },
  { verdicts: ['pass', 'pass', 'fail'], expected: 1 },
  { verdicts: ['pass', 'fail', 'pass'], expected: 2 },
  // Blocked and not run are both "not judged": moving between them is no change.
  { verdicts: ['blocked', 'not-run', 'blocked'], expected: 0 },
  { verdicts: ['pass', ABSENT, 'pass'], expected: 2 },
];

for (const c of changes)
  test(`changesIn: ${c.verdicts.join(' → ') || 'no runs'} changes ${c.expected} time(s)`, () => {
    expect(changesIn(c.verdicts)).toBe(c.expected);
  });

test('flipsOver: only what changed more than once, absence included', () => {
  expect(flipsOver([{ X: 'pass', Y: 'pass' }, { X: 'fail' }, { X: 'pass', Y: 'pass' }])).toEqual([
    { id: 'X', verdicts: ['pass', 'fail', 'pass'] },
    { id: 'Y', verdicts: ['pass', ABSENT, 'pass'] },
  ]);
});
