/**
 * The matrix as data: columns per implementation with their score run by run and what changed since
 * the previous run; cells with the latest verdict, the finding's title, the history and since when;
 * rows grouped by section in reading order; the interop line and the requirements nobody meets.
 */
import { expect, test } from '@playwright/test';
import type { FindingOutcome } from '../core/history-store/records.ts';
import type { RunRow, VerdictRow } from '../core/history-store/queries.ts';
import { buildMatrix, scoreOf, slugsFor, type Clause, type ColumnInput } from './model.ts';
import { compareSections, sectionOf, specSections } from './sections.ts';

const CATALOGUE: Clause[] = [
  { id: 'RUN-M', section: '4.1', level: 'must', text: 'run must' },
  { id: 'ENV-M', section: '2.1, 4.1', level: 'must', text: 'envelope must' },
  { id: 'SEARCH-S', section: '4.5', level: 'should', text: 'search should' },
  { id: 'STATE-O', section: '3', level: 'observe', text: 'not shown' },
  { id: 'AUTH-M', section: '5.3', level: 'must', text: 'auth must', security: true },
];
const SECTIONS = specSections();

let nextId = 1;
function runRow(o: Partial<RunRow> = {}): RunRow {
  const id = nextId++;
  return {
    id,
    kind: 'conformance',
    startedAt: `2026-01-0${id}T02:00:00.000Z`,
    seed: 100 + id,
    harnessVersion: '0.1.0',
    target: 't',
    wallMs: 1000,
    exitCode: 0,
    findings: 0,
    name: null,
    targetVersion: null,
    origin: null,
    ...o,
  };
}
const rows = (verdicts: Record<string, string>) =>
  new Map(
    Object.entries(verdicts).map(([id, v]): [string, VerdictRow] => [
      id,
      {
        id,
        verdict: v,
        rawVerdict: v === 'waived' ? 'fail' : v,
        waived: v === 'waived',
        blockedBy: v === 'blocked' ? 'AUTH-M' : null,
        evidence: 2,
      },
    ]),
  );
const finding = (
  id: string,
  clauses: string[],
  behaviour: string,
  o: Partial<FindingOutcome> = {},
): FindingOutcome => ({
  id,
  signature: `sig:${behaviour}`,
  strength: 'failure',
  severity: 'deviation',
  waived: false,
  behaviour,
  clauses,
  ...o,
});

function column(
  name: string | null,
  nights: Record<string, string>[],
  o: Partial<ColumnInput> = {},
  run: Partial<RunRow> = {},
): ColumnInput {
  const runs = nights.map((_, n) => runRow({ name, targetVersion: `1.${n}`, ...run }));
  return {
    name,
    target: name === null ? 'reference:abc' : null,
    runs,
    verdicts: new Map(runs.map((r, i) => [r.id, rows(nights[i]!)])),
    evidence: new Map(),
    ...o,
  };
}

const ALL_PASS = { 'RUN-M': 'pass', 'ENV-M': 'pass', 'SEARCH-S': 'pass', 'STATE-O': 'observed', 'AUTH-M': 'pass' };

function matrix() {
  const alpha = column(
    'alpha',
    [
      { ...ALL_PASS, 'RUN-M': 'pass', 'SEARCH-S': 'warn' },
      { ...ALL_PASS, 'RUN-M': 'fail', 'SEARCH-S': 'warn' },
      { ...ALL_PASS, 'RUN-M': 'fail', 'SEARCH-S': 'pass', 'AUTH-M': 'blocked' },
    ],
    {
      latestFindings: [finding('F1', ['RUN-M'], 'answers 201 to run')],
      previousFindings: [finding('F1', ['RUN-M'], 'answers 201 to run'), finding('F2', ['SEARCH-S'], 'ignores order')],
      evidence: new Map([['RUN-M', { note: 'status 201', example: { message: 'status 201', status: 201 } }]]),
    },
  );
  const beta = column('beta', [
    { ...ALL_PASS, 'ENV-M': 'fail' },
    { ...ALL_PASS, 'ENV-M': 'pass', 'RUN-M': 'not-run' },
  ]);
  const unnamed = column(null, [{ ...ALL_PASS, 'RUN-M': 'waived', 'SEARCH-S': 'not-run' }], {
    latestFindings: [finding('F1', ['RUN-M'], 'waived 201', { waived: true })],
  });
  return buildMatrix({
    catalogue: CATALOGUE,
    sections: SECTIONS,
    columns: [alpha, beta, unnamed],
    generatedAt: '2026-01-10T00:00:00.000Z',
    harnessVersion: '0.1.0',
  });
}

test('rows are grouped by the section they come from, in reading order', () => {
  const m = matrix();
  expect(m.groups.map((g) => [g.section.id, g.rows.map((r) => r.id)])).toEqual([
    ['2.1', ['ENV-M']],
    ['3', ['STATE-O']],
    ['4.1', ['RUN-M']],
    ['4.5', ['SEARCH-S']],
    ['5', ['AUTH-M']],
  ]);
  expect(m.groups[2]!.section.title).toBe('POST /openapi/workflow/{canvasId}/run');
  expect(sectionOf('5.4', SECTIONS)).toMatchObject({ id: '5', title: 'Authentication', top: '5' });
  expect(sectionOf('intro', SECTIONS).title).toBe('Introduction');
  expect(['4.10', '10', '4.2', 'intro', '2'].sort(compareSections)).toEqual(['intro', '2', '4.2', '4.10', '10']);
});

test('each column: its runs with the score of each, and what changed since the previous run', () => {
  const [alpha, beta, unnamed] = matrix().columns;
  expect(alpha!.label).toBe('alpha');
  expect(unnamed!).toMatchObject({ key: 'target:reference:abc', label: '(unnamed) reference:abc', name: null });
  // Musts: RUN-M, ENV-M, AUTH-M. Night 3: RUN-M fails, AUTH-M blocked: 1 met of 2 exercised.
  expect(alpha!.runs.map((r) => [r.version, r.score])).toEqual([
    ['1.0', { met: 3, exercised: 3 }],
    ['1.1', { met: 2, exercised: 3 }],
    ['1.2', { met: 1, exercised: 2 }],
  ]);
  // A waived must was exercised (it failed) and is not met.
  expect(unnamed!.latest.score).toEqual({ met: 2, exercised: 3 });
  expect(alpha!.changes.previous?.version).toBe('1.1');
  expect(alpha!.changes.newlyFailing).toEqual([]);
  expect(alpha!.changes.newlyPassing.map((c) => [c.id, c.from, c.to])).toEqual([['SEARCH-S', 'warn', 'pass']]);
  expect(alpha!.changes.newlyBlockedOrNotRun.map((c) => [c.id, c.to, c.blockedBy])).toEqual([
    ['AUTH-M', 'blocked', 'AUTH-M'],
  ]);
  expect(alpha!.changes.goneFindings.map((f) => f.behaviour)).toEqual(['ignores order']);
  expect(beta!.changes.newlyPassing.map((c) => c.id)).toEqual(['ENV-M']);
  expect(beta!.changes.newlyBlockedOrNotRun.map((c) => c.id)).toEqual(['RUN-M']);
  expect(unnamed!.changes.previous).toBeUndefined();
});

test("a cell: the latest verdict, its finding's title, the evidence, the history and since when", () => {
  const m = matrix();
  const run = m.groups[2]!.rows[0]!;
  const [a, b, u] = run.cells;
  expect(a).toMatchObject({
    verdict: 'fail',
    title: 'answers 201 to run',
    findingId: 'F1',
    note: 'status 201',
    evidence: { status: 201 },
    history: ['pass', 'fail', 'fail'],
    since: { startedAt: m.columns[0]!.runs[1]!.startedAt, runs: 2 },
  });
  expect(b).toMatchObject({ verdict: 'not-run', history: ['pass', 'not-run'] });
  // A waived verdict takes the waived finding's title.
  expect(u).toMatchObject({ verdict: 'waived', rawVerdict: 'fail', title: 'waived 201' });
  const auth = m.groups[4]!.rows[0]!.cells[0]!;
  expect(auth).toMatchObject({ verdict: 'blocked', title: 'blocked by AUTH-M', blockedBy: 'AUTH-M' });
  expect(run).toMatchObject({ differs: true, failing: true });
  const state = m.groups[1]!.rows[0]!;
  expect(state).toMatchObject({ differs: false, failing: false });
});

test('the interop line: met by every implementation; met by none; judged by none', () => {
  const { interop } = matrix();
  // Must and should clauses: RUN-M, ENV-M, SEARCH-S, AUTH-M. All pass only ENV-M (beta fixed it).
  expect(interop).toEqual({
    total: 4,
    metByAll: ['ENV-M'],
    mustTotal: 3,
    mustMetByAll: 1,
    // RUN-M: alpha fails, beta did not run it, the unnamed one has it waived: judged, passed by none.
    metByNone: ['RUN-M'],
    judgedByNone: [],
  });
  const empty = buildMatrix({
    catalogue: CATALOGUE,
    sections: SECTIONS,
    columns: [],
    generatedAt: '',
    harnessVersion: '',
  });
  expect(empty.interop.metByAll).toEqual([]);
  expect(empty.interop.judgedByNone).toHaveLength(4);
});

test('a requirement the catalogue lacks keeps its row; slugs are unique however names are spelled', () => {
  const m = buildMatrix({
    catalogue: CATALOGUE,
    sections: SECTIONS,
    columns: [column('Vendor A', [{ ...ALL_PASS, 'OLD-CLAUSE': 'fail' }]), column('vendor-a', [ALL_PASS])],
    generatedAt: '',
    harnessVersion: '',
  });
  expect(m.groups.at(-1)!.rows.map((r) => [r.id, r.level])).toEqual([['OLD-CLAUSE', '']]);
  expect(m.columns.map((c) => c.slug)).toEqual(['vendor-a', 'vendor-a-2']);
  expect(slugsFor(['<b>"x"</b>', '', 'Ünïcode name'])).toEqual(['b-x-b', 'implementation', 'unicode-name']);
  expect(scoreOf(rows({ 'RUN-M': 'pass', 'STATE-O': 'observed' }), new Map([['RUN-M', 'must' as const]]))).toEqual({
    met: 1,
    exercised: 1,
  });
});
