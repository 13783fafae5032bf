/**
 * Every clause is decided in one place, the core's judges, and proved there by the fault catalogue:
 * (a) the suites (scenarios/) judge no clause — no clause ID appears in their code but in the titles that
 *     cite it, and they record nothing on the verdict themselves;
 * (b) every must and should clause has exactly one judge declaring it (core/judging/registry.ts;
 *     the contract checks' covers() are the contract judge's declaration);
 * (c) every must and should clause has an entry of the fault catalogue that breaks it (a must) or warns
 *     of it (a should), so the mutation run (`npm run mutation`) shows its judge killing a realistic bug.
 * Each check is shown failing on an offender too.
 */
import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { hasRequirement, REQUIREMENTS, type ClauseId, type Requirement } from '../contracts/requirements.ts';
import { matchesAny, MUTANTS, type Mutant } from '../fixtures/faults/catalogue.ts';
import { EDGE_ENTRIES } from '../fixtures/faults/edge-crashes.ts';
import { INPUT_ENTRIES } from '../fixtures/faults/input-crashes.ts';
import type { Declaration } from '../core/judging/judge.ts';
import { JUDGES } from '../core/judging/registry.ts';
import { PACKAGE_ROOT } from '../core/settings/roots.ts';

// ---- (a) the suites judge nothing ------------------------------------------------------------------------

/** What records a clause's result on a verdict. */
const RECORDING = new Set(['check', 'observe', 'notRun', 'blocked', 'must', 'should', 'contract']);
/** Stops the fixture records for the clauses a failed test cites and never reached (by their titles, no ID). */
const FIXTURE_STOPS = new Set(['notRun', 'blocked']);

/** A test's title: the first argument of `test(…)`, where clause IDs are cited as `[ID]`. */
function inTitle(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node; at; at = at.parent) {
    const call: ts.Node | undefined = at.parent;
    if (call && ts.isCallExpression(call) && call.arguments[0] === at)
      return /^test(\.describe)?$/.test(call.expression.getText());
  }
  return false;
}

/** The text of a string or template part, or undefined for any other node. */
function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) return node.text;
  return undefined;
}

const CLAUSE_LIKE = /(?<![A-Z0-9-])[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+(?![A-Z0-9-])/g;

/**
 * Where a suite's source judges a clause: a clause ID in its code (a citation `[ID]` in a test title is
 * none), or a result recorded on a verdict. One line per offence: `file:line what`.
 */
export function judgedInSuite(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const at = (node: ts.Node) => `${file}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
  const visit = (node: ts.Node): void => {
    const text = literalText(node);
    if (text !== undefined) {
      const cited = inTitle(node);
      for (const m of text.matchAll(CLAUSE_LIKE)) {
        const citation = text[m.index - 1] === '[' && text[m.index + m[0].length] === ']';
        if (hasRequirement(m[0]) && !(cited && citation)) found.push(`${at(node)} names ${m[0]}`);
      }
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const fixtureStop = file.endsWith('scenarios/suite.ts') && FIXTURE_STOPS.has(method);
      if (RECORDING.has(method) && /verdict$/i.test(node.expression.expression.getText()) && !fixtureStop)
        found.push(`${at(node)} records ${node.expression.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** The suites and their Playwright fixtures: scenarios/ but the run that starts them and its report views (run/, report/). */
const NOT_SUITES = new Set([join(PACKAGE_ROOT, 'scenarios/run'), join(PACKAGE_ROOT, 'scenarios/report')]);

function suiteFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return NOT_SUITES.has(path) ? [] : suiteFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

test('(a) no clause is judged in scenarios/: clause IDs only cited in test titles, no result recorded there', () => {
  const dir = join(PACKAGE_ROOT, 'scenarios');
  const files = suiteFiles(dir);
  expect(files.length).toBeGreaterThan(8);
  const offences = files.flatMap((f) => judgedInSuite(relative(PACKAGE_ROOT, f), readFileSync(f, 'utf8')));
  expect(offences, 'judge these in core/judging/ and call the judge from the suite').toEqual([]);
});

test('(a) the parse finds a clause judged in a suite, and lets a cited one be', () => {
  const suite = [
    "test('pages are 1-based [SEARCH-PAGE-1-BASED]', async ({ verdict }) => {",
    "  verdict.check('SEARCH-PAGE-1-BASED', true, { message: 'm' });",
    "  stopAll(verdict, ['SEARCH-PAGES-STABLE'], stop);",
    '  const t = `[${id}] not a clause: NOT-A-CLAUSE`;',
    '});',
  ].join('\n');
  expect(judgedInSuite('x.spec.ts', suite)).toEqual([
    'x.spec.ts:2 records verdict.check',
    'x.spec.ts:2 names SEARCH-PAGE-1-BASED',
    'x.spec.ts:3 names SEARCH-PAGES-STABLE',
  ]);
  // A title citing a clause outside brackets is a mention, not a citation: flagged as well.
  expect(judgedInSuite('y.spec.ts', "test('SEARCH-PAGE-1-BASED holds', () => {});")).toEqual([
    'y.spec.ts:1 names SEARCH-PAGE-1-BASED',
  ]);
});

// ---- (b) one judge per clause ----------------------------------------------------------------------------

const judgedLevels = (r: Requirement) => r.level === 'must' || r.level === 'should';

/** Each must and should clause whose judges are not exactly one, with the judges that declare it. */
export function judgesNotOne(judges: readonly Declaration[], clauses: readonly Requirement[]): string[] {
  return clauses.filter(judgedLevels).flatMap((r) => {
    const by = judges.filter((j) => j.clauses.includes(r.id)).map((j) => j.name);
    return by.length === 1 ? [] : [`${r.id}: ${by.length ? by.join(' and ') : 'no judge'}`];
  });
}

test('(b) every must and should clause has exactly one judge declaring it', () => {
  expect(judgesNotOne(JUDGES, REQUIREMENTS)).toEqual([]);
  for (const j of JUDGES) {
    expect(j.clauses.length, j.name).toBeGreaterThan(0);
    for (const id of j.clauses) expect(hasRequirement(id), `${j.name}: ${id}`).toBe(true);
  }
  expect(new Set(JUDGES.map((j) => j.name)).size, 'judges are told apart by their names').toBe(JUDGES.length);
});

test('(b) a clause two judges declare, or none, is found', () => {
  const [first, second] = REQUIREMENTS.filter(judgedLevels);
  const judges: Declaration[] = [
    { name: 'one', clauses: [first.id] },
    { name: 'other', clauses: [first.id] },
  ];
  expect(judgesNotOne(judges, [first, second])).toEqual([`${first.id}: one and other`, `${second.id}: no judge`]);
});

// ---- (c) a fault for every clause ------------------------------------------------------------------------

/**
 * Clauses no fault can show, and why: a conformance run never reaches what they are about. Each is judged
 * by its judge all the same (as not run, with this reason).
 */
const NO_FAULT_CAN_SHOW: Partial<Record<ClauseId, string>> = {
  'LIMIT-UNUSED-FILE-RETENTION':
    'an upload no run used is cleaned up about a day later: never within a run, so its judge records it not run',
};

/**
 * Clauses about a layer under HTTP, which the fault catalogue's proxy (an HTTP server rewriting answers)
 * cannot break, each with the test that shows its judge firing and staying quiet on a real connection.
 */
const PROVED_BY_A_TEST_OF_ITS_OWN: Partial<Record<ClauseId, { test: string; why: string }>> = {
  'TLS-CERT-NOT-EXPIRING': {
    test: 'core/judging/certificate.test.ts',
    why: "a certificate is the TLS layer's: the test serves one expiring within the horizon and one beyond it",
  },
};

/** Every entry of the fault catalogue: the categories, the input crashes and the edge crashes. */
const ENTRIES: readonly Mutant[] = [
  ...new Map([...MUTANTS, ...INPUT_ENTRIES, ...EDGE_ENTRIES].map((m) => [m.id, m])).values(),
];

/** Each must clause no entry breaks, and each should clause no entry breaks or warns of. */
export function clausesNoFaultShows(entries: readonly Mutant[], clauses: readonly Requirement[]): ClauseId[] {
  const breaks = entries.flatMap((m) => m.breaks ?? []);
  const warns = entries.flatMap((m) => m.warns ?? []);
  return clauses
    .filter(judgedLevels)
    .filter((r) => !matchesAny(r.id, r.level === 'must' ? breaks : [...breaks, ...warns]))
    .map((r) => r.id);
}

test('(c) every must and should clause is broken by an entry of the fault catalogue', () => {
  const missing = clausesNoFaultShows(ENTRIES, REQUIREMENTS).filter(
    (id) => !NO_FAULT_CAN_SHOW[id] && !PROVED_BY_A_TEST_OF_ITS_OWN[id],
  );
  expect(missing, 'add a realistic bug to fixtures/faults/catalogue/ that breaks each').toEqual([]);
  // A clause proved by a test of its own names a test that exists and cites the clause.
  for (const [id, { test: file }] of Object.entries(PROVED_BY_A_TEST_OF_ITS_OWN)) {
    expect(readFileSync(join(PACKAGE_ROOT, file), 'utf8'), `${file} proves ${id}`).toContain(id);
    expect(clausesNoFaultShows(ENTRIES, REQUIREMENTS), `${id} is broken by an entry now`).toContain(id);
  }
  // An exemption stands only while no fault can show the clause and the clause is still a must or should one.
  for (const id of Object.keys(NO_FAULT_CAN_SHOW) as ClauseId[]) {
    expect(clausesNoFaultShows(ENTRIES, REQUIREMENTS), `${id} is broken by an entry now`).toContain(id);
    expect(judgedLevels(REQUIREMENTS.find((r) => r.id === id)!), id).toBe(true);
  }
});

test('(c) a clause no entry breaks is found, and a should one a warning covers is not', () => {
  const must = REQUIREMENTS.find((r) => r.level === 'must')!;
  const should = REQUIREMENTS.find((r) => r.level === 'should')!;
  const entry = (over: Partial<Mutant>): Mutant => ({ id: 'e', category: 'limits', description: 'd', ...over });
  expect(clausesNoFaultShows([], [must, should])).toEqual([must.id, should.id]);
  expect(clausesNoFaultShows([entry({ warns: [should.id] })], [must, should])).toEqual([must.id]);
  // A warning is no kill of a must clause; a pattern breaks every clause it matches.
  expect(clausesNoFaultShows([entry({ warns: [must.id] })], [must])).toEqual([must.id]);
  expect(clausesNoFaultShows([entry({ breaks: [`${must.id.split('-')[0]}-*`] })], [must])).toEqual([]);
});
