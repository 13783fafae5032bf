/**
 * Keeps the mutation score true in CI: a representative subset of the catalogue
 * (fixtures/faults/catalogue.ts) runs through `runMutation`, each mutant against a fresh reference
 * target behind the mutating proxy, in focused mode (only the tests citing the mutant's clauses).
 *
 * Subset: one bug per category (envelope/schema, status codes, auth, isolation, state machine,
 * pagination, upload, generate, limits, latency/intermittent errors) plus 0-based pages, every
 * successful POST answered 201, a keyword ignored, one compound entry (several deviations at once),
 * should-level deviations (a payload limit stricter than 100KB, the key echoed in error bodies), and the legal variants that probe
 * the open points most likely to draw a false alarm (abort outcome ×2, order values, maximum page
 * size, extra fields, plain-text error bodies, 413 for E2005, file type values, rate limiting with
 * 429; string variables refusing objects, undeclared variables ignored, a 401 and a 413 sent on the
 * headers with the connection closed unread), plus the control, and a search answered as a bare array (an entry naming `stillRuns`: it
 * and the control run the full suite, which must still exercise the suites search does not concern).
 * Every entry must reach its outcome with no collateral and report exactly the findings it declares: one
 * deviation, one finding.
 *
 * Apart from the subset, in a run of their own: one habit repeated over every operation (a numeric traceId;
 * 403 for every 401, 201 for every successful POST and success as a string, at once) must be one finding
 * each, and a target leaving out every optional field none. The full table — every mutant, every test — is
 * `npm run mutation` (about ten minutes on 2 cores); its result is in the project's report.
 */
import { expect, test } from '@playwright/test';
import { hasRequirement } from '../contracts/requirements.ts';
import { kindOf, mutantById, MUTANTS } from '../fixtures/faults/catalogue.ts';
import { INPUT_CRASHES, INPUT_LEGAL } from '../fixtures/faults/input-crashes.ts';
import {
  DEFAULT_MUTATION_SEED,
  expectedFindingsOf,
  findingsCounted,
  GOOD_OUTCOME,
  judgeEntry,
  mutationTable,
  withExplore,
  type ExploreSeen,
  type MutantResult,
  runMutation,
  type MutationReport,
} from './mutation.ts';

const runFocused = (ids: string[]): Promise<MutationReport> =>
  runMutation({
    mutants: ids.map(mutantById),
    seed: DEFAULT_MUTATION_SEED,
    parallel: 2,
    workers: 2,
    timeoutS: 120,
    maxFailures: 0,
    focus: true,
    keepRuns: false,
    // No input-crash entry is among them: the generative mode's own proof is explore/.
    explore: 'none',
    log: () => undefined,
  });

const SUBSET = [
  'control-passthrough',
  // bugs, one per category
  'exec-status-renamed',
  'unknown-execution-500',
  'auth-invalid-key-accepted',
  'isolation-execution-leak',
  'files-before-finish',
  'page-size-off-by-one',
  'page-zero-based',
  'upload-one-key-for-many',
  'generate-400-plain-envelope',
  'content-limit-ignored',
  'intermittent-503',
  'post-201',
  'keyword-ignored',
  'search-bare-array',
  // several deviations at once
  'compound-status-habits',
  // should-level
  'limit-too-strict',
  'key-echoed-in-errors',
  'abort-outcome-runs-on',
  // legal variants
  'abort-outcome-finish',
  'order-reversed',
  'max-page-size-10',
  'extra-fields',
  'plain-text-401-404',
  'payload-413-e2005',
  'file-type-extension',
  'rate-limited-429',
  // legal variants of implementations written from the specification alone
  'typed-variables-refuse-other-kinds',
  'undeclared-variables-ignored',
  'unkeyed-refused-early',
  'payload-limit-early',
];

/** The subset runs once per worker; the tests below read its report. */
let subsetRun: Promise<MutationReport> | undefined;
const subsetReport = (): Promise<MutationReport> => (subsetRun ??= runFocused(SUBSET));

test('the CI subset: bugs killed by their clause, no collateral, legal variants clean, findings exact', {
  tag: '@conformance-run',
}, async () => {
  test.setTimeout(8 * 60_000);
  const mutants = SUBSET.map(mutantById);
  const categories = new Set(
    mutants.filter((m) => kindOf(m) === 'bug' && m.category !== 'compound').map((m) => m.category),
  );
  expect(categories.size, 'one bug per category').toBe(10);

  const report = await subsetReport();
  const table = mutationTable(report);
  console.log(table);

  for (const r of report.results) {
    const say = `${r.id}: ${r.outcome}${r.note ? ` (${r.note})` : ''}; failed ${r.failed.join(', ') || 'none'}`;
    expect.soft(r.testsRun, `${r.id}: the focused run started no test`).toBeGreaterThan(0);
    expect.soft(r.proxyErrors, `${r.id}: the mutant itself threw`).toEqual([]);
    expect.soft(r.collateral, `${r.id}: flagged beyond its clauses`).toEqual([]);
    expect.soft(r.outcome, say).toBe(GOOD_OUTCOME[r.kind]);
    expect.soft(r.findingsReported, `${r.id}: findings ${toldOf(r)}`).toBe(r.findingsExpected);
  }
  expect(report.ok, table).toBe(true);
});

/** What the report told for an entry, finding by finding. */
const toldOf = (r: MutationReport['results'][number]): string =>
  r.findings
    .map((f) => `${f.strength}${f.waived ? ' (waived)' : ''} ${f.signature} [${f.clauses.join(', ')}]`)
    .join('; ') || 'none';

/**
 * Defects the catalogue once revealed in the suite, kept as regressions (their mutants are in the subset).
 */
const REGRESSIONS: [string, string, string[]][] = [
  [
    'page-zero-based',
    'a 0-based target answers page=1 with the second page; discovery must notice (page=1 lacks the first items) instead of finding no workflow and skipping the paging test',
    ['SEARCH-PAGE-1-BASED'],
  ],
  [
    'search-bare-array',
    'a search answered without the envelope is read as the list it is: discovery finds the workflows, the other suites still run, and only SEARCH-200-ENVELOPE fails',
    ['SEARCH-200-ENVELOPE'],
  ],
  [
    'rate-limited-429',
    'a 429 with Retry-After (rate limits are not shown, §8) is waited out and retried, never failed',
    [],
  ],
  [
    'limit-too-strict',
    'LIMIT-WITHIN-ACCEPTED probes just under both readings of the limits, so a 64 KB cutoff is seen',
    ['LIMIT-WITHIN-ACCEPTED'],
  ],
  [
    'typed-variables-refuse-other-kinds',
    'a string variable refusing an object or an array (400) is one reading of §4.1: recorded, never failed',
    [],
  ],
  [
    'undeclared-variables-ignored',
    'content over 100k characters is judged where the run takes it (a declared variable), not under a name a server may ignore',
    [],
  ],
  [
    'unkeyed-refused-early',
    'a 401 sent on the headers, the body left unread and the connection closed, is read as the answer it is',
    [],
  ],
];

for (const [id, defect, by] of REGRESSIONS) {
  test(`regression: ${id} — ${defect}`, { tag: '@conformance-run' }, async () => {
    test.setTimeout(8 * 60_000);
    const r = (await subsetReport()).results.find((x) => x.id === id)!;
    expect(
      r.outcome,
      `${id}: ${r.outcome}; failed ${r.failed.join(', ') || 'none'}; warned ${r.warned.join(', ') || 'none'}; not exercised ${r.stillRunsMissing.join(', ') || 'none'}`,
    ).toBe(GOOD_OUTCOME[r.kind]);
    for (const clause of by) expect(r.expectedHit).toContain(clause);
  });
}

/** Entries whose point is the count of findings, with the count each declares. */
const FINDINGS_ENTRIES: [string, number][] = [
  ['trace-id-number', 1],
  ['compound-every-operation', 3],
  ['every-optional-field-absent', 0],
];

let findingsRun: Promise<MutationReport> | undefined;
const findingsReport = (): Promise<MutationReport> => (findingsRun ??= runFocused(FINDINGS_ENTRIES.map(([id]) => id)));

for (const [id, count] of FINDINGS_ENTRIES) {
  test(`findings: ${id} is told as exactly ${count} finding(s), nothing collateral`, {
    tag: '@conformance-run',
  }, async () => {
    test.setTimeout(5 * 60_000);
    expect(mutantById(id).findings, 'the count the entry declares').toBe(count);
    const r = (await findingsReport()).results.find((x) => x.id === id)!;
    const say = `${id}: ${r.outcome}${r.note ? ` (${r.note})` : ''}; findings ${toldOf(r)}`;
    expect.soft(r.testsRun, `${id}: the focused run started no test`).toBeGreaterThan(0);
    expect.soft(r.collateral, say).toEqual([]);
    expect.soft(r.findingsReported, say).toBe(count);
    expect(r.outcome, say).toBe(GOOD_OUTCOME[r.kind]);
    expect(r.exact, say).toBe(true);
  });
}

/** The judging itself, on made-up verdicts: fast, no run needed. */
test.describe('judging one entry', () => {
  const verdicts = (failed: string[], warned: string[] = [], blocked: { id: string; by: string[] }[] = []) => ({
    failed,
    warned,
    blocked,
    notRun: 0,
  });

  test('a bug is killed by its clause; a second flagged clause is collateral, not a kill', () => {
    const m = mutantById('post-201');
    expect(judgeEntry(m, verdicts(['RUN-HTTP-STATUS-LISTED']), 1, false).outcome).toBe('killed');
    const withCollateral = judgeEntry(m, verdicts(['RUN-HTTP-STATUS-LISTED', 'RUN-RETURNS-EXECUTION-ID']), 1, false);
    expect(withCollateral.outcome).toBe('killed-with-collateral');
    expect(withCollateral.collateral).toEqual(['RUN-RETURNS-EXECUTION-ID']);
    expect(judgeEntry(m, verdicts(['RUN-RETURNS-EXECUTION-ID']), 1, false).outcome).toBe('killed-unrelated');
    expect(judgeEntry(m, verdicts([]), 0, false).outcome).toBe('survived');
  });

  test('a warning the bug declares is expected, not collateral', () => {
    const r = judgeEntry(
      mutantById('not-found-as-200'),
      verdicts(['STATUS-404-UNKNOWN-EXECUTION'], ['ENVELOPE-SUCCESS-TRUE-ON-200']),
      1,
      false,
    );
    expect([r.outcome, r.collateral]).toEqual(['killed', []]);
  });

  test('a compound entry needs a trace of every part; a clause blocked by an expected one counts', () => {
    const m = mutantById('compound-search-and-errors');
    const partial = judgeEntry(
      m,
      verdicts(['SEARCH-200-DATA'], ['ENVELOPE-STACK-DEV-ONLY', 'JSON-CONTENT-TYPE']),
      1,
      false,
    );
    expect([partial.outcome, partial.partsMissed]).toEqual(['part-missed', ['page-zero-based']]);
    const blocked = judgeEntry(
      m,
      verdicts(
        ['SEARCH-200-DATA'],
        ['ENVELOPE-STACK-DEV-ONLY', 'JSON-CONTENT-TYPE'],
        [{ id: 'SEARCH-PAGE-1-BASED', by: ['SEARCH-200-DATA'] }],
      ),
      1,
      false,
    );
    expect(blocked.outcome).toBe('killed');
  });

  test('an entry naming stillRuns is starved when one of them was not exercised, however right its flags', () => {
    const bug = mutantById('search-bare-array');
    const all = bug.stillRuns!;
    expect(judgeEntry(bug, { ...verdicts(['SEARCH-200-ENVELOPE']), exercised: all }, 1, false).outcome).toBe('killed');
    const starved = judgeEntry(
      bug,
      { ...verdicts(['SEARCH-200-ENVELOPE']), exercised: all.filter((id) => id !== 'STATE-TERMINAL') },
      1,
      false,
    );
    expect([starved.outcome, starved.stillRunsMissing]).toEqual(['starved', ['STATE-TERMINAL']]);
    // A wrong verdict stays what it is: starving comes on top of it, in the note.
    expect(judgeEntry(bug, { ...verdicts([]), exercised: [] }, 0, false).outcome).toBe('survived');
    const legal = mutantById('max-page-size-20');
    expect(judgeEntry(legal, { ...verdicts([]), exercised: legal.stillRuns }, 0, false).outcome).toBe('clean');
    expect(judgeEntry(legal, { ...verdicts([]), exercised: [] }, 0, false).outcome).toBe('starved');
  });

  test('a legal variant or a harness limit is clean only when nothing is flagged', () => {
    expect(judgeEntry(mutantById('order-ignored'), verdicts([], ['SEARCH-PAGES-STABLE']), 0, false).outcome).toBe(
      'false-alarm',
    );
    expect(judgeEntry(mutantById('order-ignored'), verdicts([]), 0, false).outcome).toBe('clean');
    // A latency beyond the request deadline leaves clauses "not run": an incomplete run (exit 2) is its point.
    expect(judgeEntry(mutantById('latency-spikes'), verdicts([]), 2, false).outcome).toBe('clean');
    expect(judgeEntry(mutantById('latency-spikes'), verdicts(['STATUS-HTTP-STATUS-LISTED']), 1, false).outcome).toBe(
      'false-alarm',
    );
  });

  test('an entry expects the findings it declares, else one, none when legal, the sum of its parts', () => {
    expect(expectedFindingsOf(mutantById('compound-every-operation'))).toBe(3);
    expect(expectedFindingsOf(mutantById('post-201'))).toBe(1);
    expect(expectedFindingsOf(mutantById('extra-fields'))).toBe(0);
    expect(expectedFindingsOf(mutantById('latency-spikes'))).toBe(0);
    const compound = mutantById('compound-search-and-errors');
    expect(expectedFindingsOf({ ...compound, findings: undefined })).toBe(compound.parts!.length);
  });

  test("a bug's declared warning is no finding of its own; a should entry's is; a legal one counts all", () => {
    const told = (...fs: [string, boolean?][]) =>
      fs.map(([strength, waived]) => ({ strength: strength as 'failure' | 'warning', waived: waived ?? false }));
    const failureAndWarning = told(['failure'], ['warning']);
    expect(findingsCounted(mutantById('not-found-as-200'), failureAndWarning)).toBe(1);
    expect(findingsCounted(mutantById('stack-in-errors'), failureAndWarning)).toBe(2);
    // A compound entry with a should-level part counts that part's warning.
    expect(findingsCounted(mutantById('compound-search-and-errors'), failureAndWarning)).toBe(2);
    expect(findingsCounted(mutantById('compound-status-habits'), failureAndWarning)).toBe(1);
    expect(findingsCounted(mutantById('every-optional-field-absent'), told(['warning']))).toBe(1);
    expect(findingsCounted(mutantById('post-201'), told(['failure', true], ['failure']))).toBe(1);
  });

  test('no entry expects "anything": every clause it names is in the catalogue', () => {
    for (const m of MUTANTS)
      for (const p of [...(m.breaks ?? []), ...(m.warns ?? [])]) {
        expect(p, m.id).not.toBe('*');
        expect(p.includes('*') || hasRequirement(p), `${m.id}: ${p}`).toBe(true);
      }
  });
});

test.describe('judging an entry over both modes (the suites and the generative mode)', () => {
  const crash = INPUT_CRASHES.find((m) => m.id === 'crash-page-size-large')!;
  const legal = INPUT_LEGAL.find((m) => m.id === 'legal-page-size-over-max-400')!;
  /** The suites' result as runOne makes it, from their flags and finding count. */
  const suites = (m: typeof crash, failed: string[], findingsReported: number): MutantResult => {
    const j = judgeEntry(m, { failed, warned: [], blocked: [], notRun: 0 }, failed.length ? 1 : 0, false);
    return {
      id: m.id,
      category: m.category,
      kind: kindOf(m),
      description: m.description,
      ...j,
      failed,
      warned: [],
      blocked: [],
      notRun: 0,
      stillRuns: [],
      findingsExpected: expectedFindingsOf(m),
      findingsReported,
      exact: findingsReported === expectedFindingsOf(m) && j.collateral.length === 0,
      findings: [],
      exitCode: failed.length ? 1 : 0,
      wallMs: 1,
      hung: false,
      testsRun: 1,
      proxyRequests: 1,
      proxyErrors: [],
    };
  };
  const explored = (deviations: number, caught: boolean, collateral: string[] = []): ExploreSeen => ({
    deviations,
    warnings: 0,
    caught,
    collateral,
    minimal: [],
    requests: 700,
    wallMs: 3000,
    incomplete: [],
  });
  const SEARCH = 'SEARCH-HTTP-STATUS-LISTED';

  test('a deviation is caught by the suites alone, the generative mode alone, both, or neither', () => {
    const table: [string[], number, ExploreSeen, string, string, boolean][] = [
      [[SEARCH], 1, explored(0, false), 'suites', 'killed', true],
      [[], 0, explored(1, true), 'explore', 'killed', true],
      [[SEARCH], 1, explored(1, true), 'both', 'killed', true],
      [[], 0, explored(0, false), 'neither', 'survived', false],
      // One deviation told twice by the generative mode is not exact, however caught.
      [[], 0, explored(2, true), 'explore', 'killed', false],
      [[SEARCH], 1, explored(2, true), 'both', 'killed', false],
      // What the generative mode flags beyond the entry's clauses is collateral, as in the suites.
      [[SEARCH], 1, explored(1, false, ['RUN-HTTP-STATUS-LISTED']), 'suites', 'killed', false],
    ];
    for (const [failed, reported, e, caughtBy, outcome, exact] of table) {
      const r = withExplore(suites(crash, failed, reported), e);
      expect([r.caughtBy, r.outcome, r.exact], JSON.stringify({ failed, e })).toEqual([caughtBy, outcome, exact]);
    }
  });

  test('a legal entry is clean only when both modes are; a generative finding is a false alarm', () => {
    const clean = withExplore(suites(legal, [], 0), explored(0, false));
    expect([clean.outcome, clean.exact, clean.caughtBy]).toEqual(['clean', true, undefined]);
    const flagged = withExplore(suites(legal, [], 0), explored(1, false, [SEARCH]));
    expect([flagged.outcome, flagged.exact, flagged.collateral]).toEqual(['false-alarm', false, [`explore:${SEARCH}`]]);
    const incomplete = withExplore(suites(legal, [], 0), { ...explored(0, false), incomplete: ['time budget spent'] });
    expect(incomplete.outcome).toBe('incomplete');
    // A harness limit's point is answers the deadline cuts off: an incomplete exploration is clean there.
    const limit = mutantById('latency-spikes');
    const cut = withExplore(suites(limit as typeof legal, [], 0), {
      ...explored(0, false),
      incomplete: ['searchWorkflows (allowed): time budget spent after 14 inputs'],
    });
    expect([cut.outcome, cut.exact]).toEqual(['clean', true]);
  });
});
