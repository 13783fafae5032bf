/**
 * Mutation testing of the conformance suite (`npm run mutation`, scripts/mutation.ts): proves it
 * catches real bugs and raises no false alarm.
 *
 * For each mutant of doubles/faults/catalogue.ts it starts a fresh reference target (in process),
 * puts the mutating proxy in front of it, runs the conformance run against the proxy exactly as a
 * user would against a third-party target (BASE_URL, API_KEY, API_KEY_B), and reads the report:
 *
 * - bug (breaks must clauses): killed when the run fails; "by" lists the failing requirement IDs and
 *   says whether one of the clauses the bug breaks is among them (a kill only by unrelated clauses
 *   is flagged).
 * - should (breaks should clauses): warned when one of its clauses is a warning.
 * - legal (only behaviour the spec leaves open): clean when the run passes; a failure is a false alarm.
 *
 * A bug's run stops after --max-failures failed tests (default 6; 0 runs every test): by then the
 * kill is established, and "by" lists the IDs failed up to that point. Legal variants always run in full.
 *
 * --focus runs, per mutant, only the tests citing its probe clauses (the CI subset uses it).
 *
 * An entry naming `stillRuns` (clauses of suites its deviation does not concern) always runs the full
 * suite, uncut, and is a defect ("starved") when one of those clauses ends "not run" or blocked: a
 * deviation that keeps unrelated suites from testing costs more than its one failure.
 *
 * Findings: each entry declares how many deviations it injects (`findings`, by default one per single
 * entry, the sum of the parts for a compound one, none for legal variants and harness limits). The run's
 * report counts its findings (one per deviation, however many operations and clauses show it); an entry
 * is exact when the count reported (unwaived failures, and warnings where the entry or one of its parts is
 * should-level; every failure and warning for legal variants and harness limits) equals the declared one
 * and nothing is collateral. A count above the declared one is one deviation told as several; below, two
 * told as one.
 *
 * Writes reports/mutation/report.json and report.md (and each run's report under runs/<id>/).
 * The control run (the unmodified target behind the proxy) must be clean, or no result means anything.
 */
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  expectedOf,
  kindOf,
  matchesAny,
  mutantById,
  MUTANTS,
  probesOf,
  type Mutant,
  type MutantKind,
} from '../doubles/faults/catalogue.ts';
import { INPUT_ENTRIES } from '../doubles/faults/input-crashes.ts';
import { startMutatingProxy } from '../doubles/faults/proxy.ts';
import { idsWhere, verdictsOf } from '../foundation/history/verdicts.ts';
import { REFERENCE_BEHIND_PROXY_ENV, runConformance, scratchOutDir } from './conformance-run.ts';
import { exploreBehind } from './explore-behind.ts';
import { startTarget } from '../target/server.ts';
import type { ExploreReport } from '../explore/report.ts';
import type { ConformanceReport, Finding } from '../engine/verdict/report.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const MUTATION_OUT = join(ROOT, 'reports', 'mutation');
export const CONTROL_ID = 'control-passthrough';
/** A fixed default seed: the table is reproducible run to run (override with --seed). */
export const DEFAULT_MUTATION_SEED = 20260101;

export type Outcome =
  | 'killed'
  | 'killed-with-collateral'
  | 'killed-unrelated'
  | 'part-missed'
  | 'survived'
  | 'warned'
  | 'warned-with-collateral'
  | 'missed'
  | 'clean'
  | 'false-alarm'
  | 'incomplete'
  /** Flagged as expected, but clauses the entry names in `stillRuns` were not exercised. */
  | 'starved';

/**
 * The entries of the single-operation faults (one operation hangs, drips or never reads as terminal): the
 * totals give each one's wall time, which must stay about that of a healthy run.
 */
/** Every entry the table can run: the catalogue, and the input-crash entries that prove the generative mode. */
export const ENTRIES: readonly Mutant[] = [...MUTANTS, ...INPUT_ENTRIES];

/**
 * Entries the generative mode (explore/) also runs against: the input-crash entries, the entries marked
 * `explored` and the control (default), every entry, or none. The suites run against every entry regardless.
 */
export type ExploreScope = 'inputs' | 'all' | 'none';

/** Which mode flagged an entry's deviation: the scripted suites, the generative mode, both or neither. */
export type CaughtBy = 'suites' | 'explore' | 'both' | 'neither';

/** What the generative mode made of an entry. */
export interface ExploreSeen {
  /** Must-level deviations (findings grouped across operations), and should-level ones. */
  deviations: number;
  warnings: number;
  /** A deviation shows one of the clauses the entry breaks or warns on. */
  caught: boolean;
  /** Clauses of deviations the entry does not break: a false alarm of the generative mode. */
  collateral: string[];
  /** Per finding: the operation and its minimal input, as the report shows it. */
  minimal: string[];
  requests: number;
  wallMs: number;
  incomplete: string[];
}

export const SINGLE_OPERATION_FAULTS = ['status-hangs', 'output-drips', 'status-unknown-value'];

/** A finding of the run's report, as far as the table needs it. */
export interface FindingSeen {
  id: string;
  strength: Finding['strength'];
  waived: boolean;
  signature: string;
  clauses: string[];
  operations: string[];
}

/** A clause the run could not judge because another one deviated first. */
export interface BlockedClause {
  id: string;
  by: string[];
  reason?: string;
}

export interface MutantResult {
  id: string;
  category: string;
  kind: MutantKind;
  description: string;
  /** Clauses the entry is expected to flag (breaks + warns; `*` patterns expanded against what was flagged). */
  expected: string[];
  outcome: Outcome;
  /** Failing (must) requirement IDs in the run's report. */
  failed: string[];
  /** Warning (should) requirement IDs. */
  warned: string[];
  /** Of the flagged (failed + warned) clauses: the expected ones. */
  expectedHit: string[];
  /** Flagged but not expected: a second verdict for one deviation, or a false alarm. */
  collateral: string[];
  /** Clauses the run recorded as blocked, with the clause that blocked them. */
  blocked: BlockedClause[];
  /** Compound entries: parts none of whose clauses was flagged (or blocked by an expected clause). */
  partsMissed: string[];
  /** Clauses "not run" in the run (harness deadline, missing setup). */
  notRun: number;
  /** The entry's `stillRuns` clauses, and those of them the run did not exercise (not run, or blocked). */
  stillRuns: string[];
  stillRunsMissing: string[];
  /** Deviations the entry injects (its declared `findings`, or the default; see expectedFindingsOf). */
  findingsExpected: number;
  /** Findings the report counts for the entry (see findingsCounted); absent when the run wrote none. */
  findingsReported?: number;
  /** Reported findings equal the expected ones, and no clause is collateral. */
  exact: boolean;
  /** Every finding of the run (waived and uncounted ones too), to see what was told as what. */
  findings: FindingSeen[];
  exitCode: number | null;
  wallMs: number;
  hung: boolean;
  /** Tests the run started (0 means the focus selected nothing, or the run never began). */
  testsRun: number;
  proxyRequests: number;
  proxyErrors: string[];
  note?: string;
  /** The generative mode's run against the same entry, when it ran (see ExploreScope). */
  explore?: ExploreSeen;
  /** For an entry with a deviation that both modes ran against: which caught it. */
  caughtBy?: CaughtBy;
}

export interface MutationOptions {
  mutants: readonly Mutant[];
  seed: number;
  parallel: number;
  workers: number;
  timeoutS: number;
  log?: (line: string) => void;
  /**
   * A bug's run stops after this many failed tests (Playwright --max-failures); 0 (the default) runs
   * every test. A cut run cannot show collateral in the tests it never ran, so the report says so.
   */
  maxFailures: number;
  /**
   * Focused runs: each mutant runs only the tests whose titles cite its probe clauses (probesOf),
   * the control runs the union of them. Fast (CI); a full run checks every test against every mutant.
   */
  focus?: boolean;
  /** Extra arguments for each conformance run (after `--`, e.g. Playwright's --grep-invert). */
  extraArgs?: string[];
  /** Keep each run's report under reports/mutation/runs/<id>/ (default true). */
  keepRuns?: boolean;
  /** Which entries the generative mode also runs against (default 'inputs'). */
  explore?: ExploreScope;
}

export interface MutationScore {
  bugs: number;
  killed: number;
  should: number;
  warned: number;
  legal: number;
  clean: number;
  /** Entries with collateral, and the collateral clauses summed over them. */
  collateralEntries: number;
  collateralClauses: number;
  /** Bugs not killed by their clause (survived, killed only by other clauses, a compound part missed, incomplete). */
  survived: number;
  /** Should-level entries not warned. */
  missed: number;
  /** Legal variants and harness limits that flagged something or did not complete. */
  falseAlarms: number;
  /** Entries whose `stillRuns` clauses were not all exercised. */
  starved: number;
  /** Entries, and of them those whose findings are exact. */
  entries: number;
  exact: number;
  /** Wall time in ms of each single-operation fault entry that ran. */
  singleOperationWallMs: Record<string, number>;
  /** Over the entries with a deviation that both modes ran against: how many each mode caught. */
  caughtBy: Record<CaughtBy, number>;
  /** The generative mode's requests (through the proxy) and wall time, summed over the entries it ran against. */
  exploreRequests: number;
  exploreWallMs: number;
}

export interface MutationReport {
  seed: number;
  startedAt: string;
  wallMs: number;
  parallel: number;
  workers: number;
  maxFailures: number;
  focus: boolean;
  explore: ExploreScope;
  results: MutantResult[];
  score: MutationScore;
  ok: boolean;
}

/** What a run flagged and blocked, read from its report. */
interface RunVerdicts {
  failed: string[];
  warned: string[];
  blocked: BlockedClause[];
  notRun: number;
  /** Clauses judged on evidence of their own (neither "not run" nor blocked); unknown when absent. */
  exercised?: string[];
}

function readVerdicts(report: ConformanceReport | undefined): RunVerdicts {
  const verdicts = verdictsOf(report);
  const requirements = (report?.requirements ?? []) as (ConformanceReport['requirements'][number] & {
    blockedBy?: string | string[];
  })[];
  // `blocked` arrives with the engine's root-cause work; older reports simply have none.
  const blocked = requirements
    .filter((r) => verdicts[r.id] === 'blocked')
    .map((r) => ({
      id: r.id,
      by: r.blockedBy === undefined ? [] : [r.blockedBy].flat(),
      reason: r.notRunReasons?.[0],
    }));
  return {
    failed: idsWhere(verdicts, 'fail'),
    warned: idsWhere(verdicts, 'warn'),
    blocked,
    notRun: idsWhere(verdicts, 'not-run').length,
    exercised: idsWhere(verdicts, (v) => v !== 'not-run' && v !== 'blocked'),
  };
}

/** Deviations an entry injects: declared, or none (legal, harness limit), the parts' sum (compound), one. */
export function expectedFindingsOf(m: Mutant): number {
  if (m.findings !== undefined) return m.findings;
  const kind = kindOf(m);
  if (kind === 'legal' || kind === 'harness-limit') return 0;
  return m.parts ? m.parts.reduce((n, id) => n + expectedFindingsOf(mutantById(id)), 0) : 1;
}

/**
 * The findings that count for the entry: unwaived failures, and unwaived warnings where a should-level
 * deviation is injected (a bug's declared warning is the same deviation seen by a should clause, not a
 * deviation of its own). A legal variant or a harness limit counts both: it must report none of either.
 */
export function findingsCounted(m: Mutant, findings: readonly Pick<FindingSeen, 'strength' | 'waived'>[]): number {
  const kind = kindOf(m);
  const warnings =
    kind !== 'bug' || (m.parts ?? []).some((id) => kindOf(mutantById(id)) === 'should') ? ['warning'] : [];
  return findings.filter((f) => !f.waived && (f.strength === 'failure' || warnings.includes(f.strength))).length;
}

function findingsSeen(report: ConformanceReport | undefined): FindingSeen[] | undefined {
  return report?.findings?.map((f) => ({
    id: f.id,
    strength: f.strength,
    waived: f.waived,
    signature: f.signature,
    clauses: f.clauses,
    operations: f.operations,
  }));
}

/** The expected clauses as IDs: literal IDs as declared, `*` patterns by the flagged IDs they match. */
function expandExpected(patterns: string[], flagged: string[]): string[] {
  const literal = patterns.filter((p) => !p.includes('*'));
  const wild = patterns.filter((p) => p.includes('*'));
  return [...new Set([...literal, ...flagged.filter((id) => matchesAny(id, wild))])];
}

/** Parts of a compound entry that left no trace: none of their clauses flagged, nor blocked by an expected clause. */
function missedParts(m: Mutant, flagged: string[], blocked: BlockedClause[], expected: string[]): string[] {
  const traced = new Set([
    ...flagged,
    ...blocked.filter((b) => b.by.some((by) => expected.includes(by))).map((b) => b.id),
  ]);
  return (m.parts ?? []).filter(
    (id) => !expectedOf(mutantById(id)).some((p) => [...traced].some((t) => matchesAny(t, [p]))),
  );
}

type Judgement = Pick<
  MutantResult,
  'outcome' | 'expected' | 'expectedHit' | 'collateral' | 'partsMissed' | 'stillRunsMissing' | 'note'
>;

/** The entry's verdict, then whether the suites it must not starve were exercised (a good verdict alone is not enough). */
export function judge(m: Mutant, v: RunVerdicts, exitCode: number | null, hung: boolean): Judgement {
  const j = judgeFlags(m, v, exitCode, hung);
  const exercised = new Set(v.exercised ?? []);
  const stillRunsMissing = (m.stillRuns ?? []).filter((id) => !exercised.has(id));
  if (stillRunsMissing.length === 0) return { ...j, stillRunsMissing };
  const note = `not exercised: ${stillRunsMissing.join(', ')}${j.note ? `; ${j.note}` : ''}`;
  return { ...j, stillRunsMissing, outcome: j.outcome === GOOD_OUTCOME[kindOf(m)] ? 'starved' : j.outcome, note };
}

function judgeFlags(
  m: Mutant,
  v: RunVerdicts,
  exitCode: number | null,
  hung: boolean,
): Omit<Judgement, 'stillRunsMissing'> {
  const kind = kindOf(m);
  const flagged = [...v.failed, ...v.warned];
  const expected = expandExpected(expectedOf(m), flagged);
  const expectedHit = flagged.filter((id) => expected.includes(id));
  const collateral = flagged.filter((id) => !expected.includes(id));
  const partsMissed = missedParts(m, flagged, v.blocked, expected);
  const base = { expected, expectedHit, collateral, partsMissed };
  if (kind === 'legal' || kind === 'harness-limit') {
    if (flagged.length > 0) return { ...base, outcome: 'false-alarm' };
    // A harness limit leaves clauses "not run", which may end the run incomplete (exit 2): that is its point.
    const completeEnough = kind === 'harness-limit' ? exitCode === 0 || exitCode === 2 : exitCode === 0;
    if (!completeEnough || hung)
      return {
        ...base,
        outcome: 'incomplete',
        note: hung ? 'the run did not end within its bound' : `exit ${exitCode}`,
      };
    return { ...base, outcome: 'clean' };
  }
  if (kind === 'should') {
    if (expectedHit.length === 0)
      return { ...base, outcome: 'missed', note: `expected a warning on ${expected.join(', ')}` };
    return { ...base, outcome: collateral.length ? 'warned-with-collateral' : 'warned' };
  }
  const killedBy = v.failed.filter((id) => expected.includes(id) && (m.breaks ?? []).some((p) => matchesAny(id, [p])));
  if (killedBy.length === 0) {
    if (v.failed.length > 0)
      return { ...base, outcome: 'killed-unrelated', note: `expected one of ${(m.breaks ?? []).join(', ')}` };
    return { ...base, outcome: 'survived', note: exitCode === 2 ? 'run incomplete without a failure' : undefined };
  }
  if (collateral.length > 0) return { ...base, outcome: 'killed-with-collateral' };
  if (partsMissed.length > 0)
    return { ...base, outcome: 'part-missed', note: `no clause of ${partsMissed.join(', ')} flagged` };
  return { ...base, outcome: 'killed' };
}

/** Playwright --grep for tests citing any of the clauses (`*` patterns allowed). */
export function grepFor(ids: readonly string[]): string {
  return ids.map((id) => `\\[${id.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[A-Z0-9-]*')}\\]`).join('|');
}

async function runOne(m: Mutant, slot: number, o: MutationOptions, focusIds?: string[]): Promise<MutantResult> {
  const target = await startTarget({});
  const [a, b] = target.tenants;
  const proxy = await startMutatingProxy(target.baseUrl, { A: a.apiKey, B: b?.apiKey }, m);
  const runDir = join(MUTATION_OUT, 'runs', m.id);
  // Only this mutant's previous run is cleared: another mutation run may be keeping its own runs here.
  if (o.keepRuns !== false) rmSync(runDir, { recursive: true, force: true });
  // Each run writes into its own scratch dir (parallel runs share no path); the verdict is kept below.
  const outDir = scratchOutDir(`mutation-${process.pid}-${slot}`);
  // A run cut short would leave the suites `stillRuns` names unrun by the cut itself.
  const cut = kindOf(m) === 'bug' && o.maxFailures > 0 && !m.stillRuns;
  try {
    const run = await runConformance({
      outDir,
      baseUrl: proxy.baseUrl,
      apiKey: a.apiKey,
      apiKeyB: b?.apiKey,
      seed: o.seed,
      timeoutS: o.timeoutS,
      workers: o.workers,
      args: [
        ...(focusIds?.length ? ['--grep', grepFor(focusIds)] : []),
        '--',
        ...(cut ? [`--max-failures=${o.maxFailures}`] : []),
        ...(o.extraArgs ?? []),
      ],
      // A request deadline well under the default keeps the harness-limit entry (latency) short.
      env: { ...REFERENCE_BEHIND_PROXY_ENV, WFCHECK_REQUEST_TIMEOUT_MS: '5000' },
      logFile: o.keepRuns === false ? undefined : join(runDir, 'conformance.log'),
    });
    if (o.keepRuns !== false && existsSync(run.reportDir)) {
      for (const f of ['report.json', 'report.md'])
        if (existsSync(join(run.reportDir, f))) cpSync(join(run.reportDir, f), join(runDir, f));
    }
    const verdicts = readVerdicts(run.report);
    const judged: Judgement = run.report
      ? judge(m, verdicts, run.exitCode, run.hung)
      : {
          ...judge(m, verdicts, run.exitCode, run.hung),
          outcome: 'incomplete',
          note: `no report written (exit ${run.exitCode}): ${run.output.trim().split('\n').slice(-3).join(' | ')}`,
        };
    if (cut && judged.note === undefined)
      judged.note = `run cut after ${o.maxFailures} failed tests: collateral in unfinished tests is not seen`;
    const findings = findingsSeen(run.report);
    const findingsExpected = expectedFindingsOf(m);
    const findingsReported = findings && findingsCounted(m, findings);
    const suites: MutantResult = {
      id: m.id,
      category: m.category,
      kind: kindOf(m),
      description: m.description,
      ...judged,
      failed: verdicts.failed,
      warned: verdicts.warned,
      blocked: verdicts.blocked,
      notRun: verdicts.notRun,
      stillRuns: m.stillRuns ?? [],
      stillRunsMissing: judged.stillRunsMissing,
      findingsExpected,
      ...(findingsReported === undefined ? {} : { findingsReported }),
      exact: findingsReported === findingsExpected && judged.collateral.length === 0,
      findings: findings ?? [],
      exitCode: run.exitCode,
      wallMs: run.wallMs,
      hung: run.hung,
      testsRun: run.report?.summary.tests.total ?? 0,
      proxyRequests: proxy.requests(),
      proxyErrors: proxy.errors().slice(0, 5),
    };
    return explores(m, o.explore ?? 'inputs') ? withExplore(suites, await exploreEntry(m, o.seed)) : suites;
  } finally {
    await proxy.close();
    await target.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** Whether the generative mode runs against the entry as well as the suites. */
export function explores(m: Mutant, scope: ExploreScope): boolean {
  if (scope === 'all') return true;
  return scope === 'inputs' && (m.id === CONTROL_ID || INPUT_ENTRIES.includes(m) || m.explored === true);
}

/** The generative mode against a fresh target behind the entry, with the defaults a nightly run gets. */
async function exploreEntry(m: Mutant, seed: number): Promise<ExploreSeen> {
  const { report, proxyRequests } = await exploreBehind(m.id === CONTROL_ID ? undefined : m, seed);
  return exploreSeen(m, report, proxyRequests);
}

/** The table's reading of a generative report: deviations, whether one is the entry's, and what is collateral. */
export function exploreSeen(
  m: Mutant,
  report: Pick<ExploreReport, 'deviations' | 'findings' | 'footprint' | 'wallMs' | 'incomplete'>,
  requests?: number,
): ExploreSeen {
  const legal = kindOf(m) === 'legal' || kindOf(m) === 'harness-limit';
  const expected = legal ? [] : expectedOf(m);
  const ours = (clauses: string[]) => clauses.some((c) => matchesAny(c, expected));
  const fp = report.footprint.requests;
  return {
    deviations: report.deviations.filter((d) => d.level === 'must').length,
    warnings: report.deviations.filter((d) => d.level !== 'must').length,
    caught: report.deviations.some((d) => ours(d.clauses)),
    collateral: [...new Set(report.deviations.filter((d) => !ours(d.clauses)).flatMap((d) => d.clauses))],
    minimal: report.findings.map((f) => `${f.operation}: ${JSON.stringify(f.minimalInput)}`),
    requests: requests ?? fp.explore + fp.setup + fp.cleanup,
    wallMs: report.wallMs,
    incomplete: report.incomplete,
  };
}

const SUITES_CAUGHT: readonly Outcome[] = [
  'killed',
  'killed-with-collateral',
  'part-missed',
  'warned',
  'warned-with-collateral',
];

/**
 * The entry judged over both modes. A deviation is caught when either mode shows it by one of its
 * clauses. The suites count exactly the deviations injected when they caught it, none otherwise; the
 * generative mode, which is not meant to reach every deviation (isolation, state machines), counts no
 * more than were injected — one deviation told as several is what it must not do — and at least one when
 * it alone caught it. A legal variant must be clean in both. What the generative mode flags beyond the
 * entry's clauses is collateral, as in the suites.
 */
export function withExplore(r: MutantResult, e: ExploreSeen): MutantResult {
  const collateral = [...r.collateral, ...e.collateral.map((c) => `explore:${c}`)];
  const exploreNote = e.incomplete.length ? `generative mode incomplete: ${e.incomplete.join('; ')}` : undefined;
  const note = [r.note, exploreNote].filter(Boolean).join('; ') || undefined;
  if (r.kind === 'legal' || r.kind === 'harness-limit') {
    const flagged = e.deviations + e.warnings > 0;
    // A harness limit (answers slower than the deadline) leaves the exploration incomplete: that is its point.
    const incomplete = e.incomplete.length > 0 && r.kind === 'legal' && r.outcome === 'clean';
    const outcome = flagged ? 'false-alarm' : incomplete ? 'incomplete' : r.outcome;
    return { ...r, explore: e, collateral, outcome, exact: r.exact && !flagged, ...(note ? { note } : {}) };
  }
  const bySuites = SUITES_CAUGHT.includes(r.outcome);
  const caughtBy: CaughtBy = bySuites ? (e.caught ? 'both' : 'suites') : e.caught ? 'explore' : 'neither';
  const exploreCount = r.kind === 'should' ? e.warnings : e.deviations;
  const suitesCount = r.findingsReported === (bySuites ? r.findingsExpected : 0);
  const exploreCountOk = e.caught
    ? exploreCount <= r.findingsExpected && exploreCount >= (bySuites ? 0 : 1)
    : exploreCount === 0;
  const exact = (bySuites || e.caught) && collateral.length === 0 && suitesCount && exploreCountOk;
  const rescued = !bySuites && e.caught && (r.outcome === 'survived' || r.outcome === 'missed');
  return {
    ...r,
    explore: e,
    caughtBy,
    collateral,
    exact,
    ...(rescued ? { outcome: GOOD_OUTCOME[r.kind], note: 'caught by the generative mode alone' } : {}),
    ...(!rescued && note ? { note } : {}),
  };
}

/** The outcome each kind of entry must reach for the table to pass. */
export const GOOD_OUTCOME: Record<MutantKind, Outcome> = {
  bug: 'killed',
  should: 'warned',
  legal: 'clean',
  'harness-limit': 'clean',
};

function score(results: MutantResult[]): MutationScore {
  const of = (...kinds: MutantKind[]) => results.filter((r) => kinds.includes(r.kind));
  const good = (rs: MutantResult[]) => rs.filter((r) => r.outcome === GOOD_OUTCOME[r.kind]).length;
  const bugs = of('bug');
  const should = of('should');
  const legal = of('legal', 'harness-limit');
  const withCollateral = results.filter(
    (r) => r.kind !== 'legal' && r.kind !== 'harness-limit' && r.collateral.length > 0,
  );
  const starved = results.filter((r) => r.outcome === 'starved');
  return {
    bugs: bugs.length,
    killed: good(bugs),
    should: should.length,
    warned: good(should),
    legal: legal.length,
    clean: good(legal),
    collateralEntries: withCollateral.length,
    collateralClauses: withCollateral.reduce((n, r) => n + r.collateral.length, 0),
    survived: bugs.filter((r) => !['killed', 'killed-with-collateral', 'starved'].includes(r.outcome)).length,
    missed: should.filter((r) => r.outcome === 'missed').length,
    falseAlarms: legal.filter((r) => r.outcome !== 'clean' && r.outcome !== 'starved').length,
    starved: starved.length,
    entries: results.length,
    exact: results.filter((r) => r.exact).length,
    caughtBy: {
      suites: results.filter((r) => r.caughtBy === 'suites').length,
      explore: results.filter((r) => r.caughtBy === 'explore').length,
      both: results.filter((r) => r.caughtBy === 'both').length,
      neither: results.filter((r) => r.caughtBy === 'neither').length,
    },
    exploreRequests: results.reduce((n, r) => n + (r.explore?.requests ?? 0), 0),
    exploreWallMs: results.reduce((n, r) => n + (r.explore?.wallMs ?? 0), 0),
    singleOperationWallMs: Object.fromEntries(
      results.filter((r) => SINGLE_OPERATION_FAULTS.includes(r.id)).map((r) => [r.id, r.wallMs]),
    ),
  };
}

/** Runs the given mutants (the control first when it is among them) and returns the report. */
export async function runMutation(o: MutationOptions): Promise<MutationReport> {
  const log = o.log ?? ((l: string) => console.log(l));
  const started = Date.now();
  const slots = Array.from({ length: Math.max(1, Math.min(o.parallel, o.mutants.length)) }, (_, i) => i);
  const queue = [...o.mutants].sort((x, y) => (x.id === CONTROL_ID ? -1 : y.id === CONTROL_ID ? 1 : 0));
  const results: MutantResult[] = [];
  // An entry that must not starve other suites runs in full, and so does the control it is compared with.
  const anyFull = o.mutants.some((x) => x.id !== CONTROL_ID && x.stillRuns);
  const focusOf = (m: Mutant): string[] | undefined => {
    if (!o.focus || m.stillRuns) return undefined;
    if (m.id !== CONTROL_ID) return probesOf(m);
    return anyFull ? undefined : [...new Set(o.mutants.flatMap((x) => (x.id === CONTROL_ID ? [] : probesOf(x))))];
  };
  const worker = async (slot: number) => {
    for (let m = queue.shift(); m; m = queue.shift()) {
      const focusIds = focusOf(m);
      const r = await runOne(m, slot, o, focusIds);
      results.push(r);
      log(progressLine(r, results.length, o.mutants.length));
    }
  };
  await Promise.all(slots.map(worker));
  const order = new Map(o.mutants.map((m, i) => [m.id, i]));
  results.sort((x, y) => order.get(x.id)! - order.get(y.id)!);
  return {
    seed: o.seed,
    startedAt: new Date(started).toISOString(),
    wallMs: Date.now() - started,
    parallel: slots.length,
    workers: o.workers,
    maxFailures: o.maxFailures,
    focus: o.focus ?? false,
    explore: o.explore ?? 'inputs',
    results,
    score: score(results),
    ok: results.every((r) => r.outcome === GOOD_OUTCOME[r.kind] && r.exact),
  };
}

function progressLine(r: MutantResult, done: number, total: number): string {
  const hit = r.expectedHit.length
    ? `by ${r.expectedHit.join(', ')}`
    : r.failed.length
      ? `failed: ${r.failed.join(', ')}`
      : '';
  const collateral = r.collateral.length ? `  COLLATERAL ${r.collateral.join(', ')}` : '';
  const wall = `${(r.wallMs / 1000).toFixed(1).padStart(6)} s`;
  const head = `[${done}/${total}] ${r.id.padEnd(36)} ${r.outcome.padEnd(22)} findings ${findingsText(r).padEnd(9)}`;
  return `${head} ${wall}  ${hit}${collateral}${r.note ? `  (${r.note})` : ''}`;
}

/**
 * Findings reported against expected ("1/1"); with the generative mode, the suites' and its own ("suites 0,
 * explore 1/1"); marked when not exact (another count, or collateral).
 */
const findingsText = (r: MutantResult) => `${reportedText(r)}/${r.findingsExpected}${r.exact ? '' : ' ≠'}`;

/** The findings reported: the suites' count, and with the generative mode its own beside it. */
function reportedText(r: MutantResult): string {
  const suites = `${r.findingsReported ?? '—'}`;
  if (!r.explore) return suites;
  const explore = r.kind === 'should' ? r.explore.warnings : r.explore.deviations + r.explore.warnings;
  return `suites ${suites}, explore ${explore}`;
}

/** Wall time of each single-operation fault entry that ran. */
const singleOperationText = (s: MutationScore) =>
  Object.entries(s.singleOperationWallMs)
    .map(([id, ms]) => `${id} ${(ms / 1000).toFixed(1)} s`)
    .join(', ');

const ICON: Record<Outcome, string> = {
  killed: 'killed',
  'killed-with-collateral': 'KILLED WITH COLLATERAL',
  'killed-unrelated': 'KILLED BY OTHER CLAUSES',
  'part-missed': 'PART MISSED',
  survived: 'SURVIVED',
  warned: 'warned',
  'warned-with-collateral': 'WARNED WITH COLLATERAL',
  missed: 'NOT WARNED',
  clean: 'clean',
  'false-alarm': 'FALSE ALARM',
  incomplete: 'INCOMPLETE',
  starved: 'STARVED OTHER SUITES',
};

const blockedText = (b: BlockedClause[]) => b.map((x) => `${x.id} ← ${x.by.join('+') || '?'}`).join(', ');
/** The stillRuns check of an entry: how many of its clauses were exercised, and which were not. */
const stillRunsText = (x: MutantResult) =>
  x.stillRuns.length === 0
    ? ''
    : x.stillRunsMissing.length
      ? `${x.stillRuns.length - x.stillRunsMissing.length}/${x.stillRuns.length}, NOT ${x.stillRunsMissing.join(', ')}`
      : `${x.stillRuns.length}/${x.stillRuns.length}`;

/** Which mode caught the entry; for entries only the suites ran against, said so. */
function caughtText(x: MutantResult): string {
  if (x.caughtBy) return x.caughtBy;
  if (x.kind === 'legal' || x.kind === 'harness-limit')
    return x.explore ? (x.outcome === 'clean' ? 'clean in both' : 'flagged') : '';
  return SUITES_CAUGHT.includes(x.outcome) ? 'suites (only)' : 'neither';
}

/** The generative mode's run: deviations, requests and wall time; "—" where it did not run. */
function exploreText(x: MutantResult): string {
  const e = x.explore;
  if (!e) return '—';
  const warnings = e.warnings ? ` + ${e.warnings} warn` : '';
  return `${e.deviations} dev${warnings}, ${e.requests} req, ${(e.wallMs / 1000).toFixed(1)} s`;
}

/** Over the entries both modes ran against: which mode caught what, and what the generative mode cost. */
function modesText(s: MutationScore): string | undefined {
  const c = s.caughtBy;
  const both = c.suites + c.explore + c.both + c.neither;
  if (both === 0 && s.exploreRequests === 0) return undefined;
  return (
    `of ${both} deviation entr${both === 1 ? 'y' : 'ies'} run in both modes: caught by the suites alone ${c.suites}, ` +
    `by the generative mode alone ${c.explore}, by both ${c.both}, by neither ${c.neither}; ` +
    `generative mode ${s.exploreRequests} requests in ${(s.exploreWallMs / 1000).toFixed(1)} s`
  );
}

export function totalsLine(r: MutationReport): string {
  const s = r.score;
  const single = singleOperationText(s);
  const modes = modesText(s);
  return [
    `findings exact ${s.exact}/${s.entries}`,
    `bugs killed ${s.killed}/${s.bugs}`,
    `should-level warned ${s.warned}/${s.should}`,
    `collateral ${s.collateralEntries} entr${s.collateralEntries === 1 ? 'y' : 'ies'} / ${s.collateralClauses} clause(s)`,
    `legal and harness-limit clean ${s.clean}/${s.legal}`,
    `survived ${s.survived}, not warned ${s.missed}, false alarms ${s.falseAlarms}, starved ${s.starved}`,
    ...(single ? [`single-operation faults ${single}`] : []),
    ...(modes ? [modes] : []),
    `wall time ${(r.wallMs / 1000).toFixed(1)} s`,
  ].join('; ');
}

export function renderTable(r: MutationReport): string {
  const rows = r.results.map((x) => [
    x.id,
    x.kind,
    ICON[x.outcome],
    findingsText(x),
    caughtText(x),
    exploreText(x),
    x.expectedHit.join(', ') || (x.failed.length ? `(failed ${x.failed.join(', ')})` : ''),
    x.collateral.join(', '),
    blockedText(x.blocked),
    stillRunsText(x),
    `${(x.wallMs / 1000).toFixed(1)}`,
  ]);
  const head = [
    'mutant',
    'kind',
    'result',
    'findings rep/exp',
    'caught by',
    'generative mode',
    'expected, flagged',
    'collateral',
    'blocked ← by',
    'still runs',
    'suites s',
  ];
  const widths = head.map((h, i) => Math.min(60, Math.max(h.length, ...rows.map((row) => row[i].length))));
  const line = (cells: string[]) =>
    cells.map((c, i) => (c.length > widths[i] ? `${c.slice(0, widths[i] - 1)}…` : c.padEnd(widths[i]))).join('  ');
  return [
    line(head),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map(line),
    '',
    totalsLine(r),
    `seed ${r.seed}; ${r.parallel} run(s) in parallel, ${r.workers} workers each${r.focus ? '; focused runs' : ''}${r.maxFailures > 0 ? `; bug runs cut after ${r.maxFailures} failures (collateral may be hidden)` : ''}`,
    ...inexactLines(r),
    r.ok
      ? 'RESULT: every bug killed by its clause without collateral, should-level deviations warned, ' +
        'legal variants clean, every count of findings exact'
      : 'RESULT: FAIL — see the rows in capitals and the findings marked ≠',
  ].join('\n');
}

/** Per entry whose findings are not exact: what the report told, finding by finding. */
function inexactLines(r: MutationReport): string[] {
  const inexact = r.results.filter((x) => !x.exact);
  if (inexact.length === 0) return [];
  return [
    '',
    'Findings not exact:',
    ...inexact.flatMap((x) => {
      const collateral = x.collateral.length ? `; collateral ${x.collateral.join(', ')}` : '';
      return [
        `  ${x.id}: ${x.findingsReported ?? 'no report'} reported, ${x.findingsExpected} expected${collateral}`,
        ...x.findings.map((f) => {
          const strength = `${f.strength}${f.waived ? ' (waived)' : ''}`;
          const where = `${f.clauses.join(', ')} (${f.operations.length} operation(s))`;
          return `    ${f.id} ${strength} ${f.signature} — ${where}`;
        }),
      ];
    }),
  ];
}

const MD_HEAD = [
  'mutant',
  'kind',
  'category',
  'result',
  'findings expected',
  'findings reported',
  'caught by',
  'generative mode',
  'expected',
  'flagged',
  'collateral',
  'blocked ← by',
  'still runs',
  'suites s',
  'description',
];

export function renderMarkdown(r: MutationReport): string {
  const cell = (t: string) => t.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const row = (x: MutantResult) =>
    [
      x.id,
      x.kind,
      x.category,
      ICON[x.outcome],
      String(x.findingsExpected),
      `${reportedText(x)}${x.exact ? '' : ' ≠'}`,
      caughtText(x),
      exploreText(x),
      x.expected.join(', '),
      [...x.failed, ...x.warned].join(', '),
      x.collateral.join(', '),
      blockedText(x.blocked),
      stillRunsText(x),
      (x.wallMs / 1000).toFixed(1),
      `${x.description}${x.note ? ` *(${x.note})*` : ''}`,
    ]
      .map(cell)
      .join(' | ');
  return `${[
    '# wfcheck mutation report',
    '',
    `**${r.ok ? 'PASS' : 'FAIL'}** — ${totalsLine(r)}.`,
    '',
    `Seed ${r.seed}; started ${r.startedAt}; ${r.parallel} run(s) in parallel with ${r.workers} worker(s) each${r.focus ? '; focused runs' : ''}${r.maxFailures > 0 ? `; bug runs cut after ${r.maxFailures} failures, so collateral in unfinished tests is not seen` : '; every run in full'}.`,
    '',
    "Caught by: which mode flagged the entry's deviation by one of its clauses — the scripted suites, the " +
      'generative mode (`wfcheck explore`, run against the input-crash entries and the control by default, every ' +
      'entry with `--explore all`), both or neither; "suites (only)" where the generative mode did not run. ' +
      'Generative mode: its deviations (findings grouped across operations), requests and wall time.',
    '',
    'Findings: the deviations the entry injects, and the findings the run reported for it (unwaived failures, ' +
      'and warnings where a should-level deviation is injected; for legal variants and harness limits every ' +
      'failure and warning). ≠ marks an entry whose count differs or that has collateral. ' +
      'Collateral: clauses flagged (fail or warn) that the entry does not break — a second verdict for one deviation, or a false alarm. Blocked: clauses that could not be judged because the named clause deviated first. Still runs: of the clauses the entry must not starve (suites its deviation does not concern), how many the run exercised.',
    '',
    `| ${MD_HEAD.join(' | ')} |`,
    `|${MD_HEAD.map(() => '---').join('|')}|`,
    ...r.results.map((x) => `| ${row(x)} |`),
    ...(inexactLines(r).length ? ['', '```text', ...inexactLines(r).slice(1), '```'] : []),
    ...minimalInputLines(r),
  ].join('\n')}\n`;
}

/** The minimal inputs the generative mode reported, per entry it flagged. */
function minimalInputLines(r: MutationReport): string[] {
  const flagged = r.results.filter((x) => x.explore?.minimal.length);
  if (flagged.length === 0) return [];
  return [
    '',
    '## Minimal inputs found by the generative mode',
    '',
    ...flagged.flatMap((x) => [`- **${x.id}**`, ...x.explore!.minimal.map((m) => `  - \`${m.slice(0, 300)}\``)]),
  ];
}

export function writeMutationReport(r: MutationReport): { json: string; md: string } {
  mkdirSync(MUTATION_OUT, { recursive: true });
  const json = join(MUTATION_OUT, 'report.json');
  const md = join(MUTATION_OUT, 'report.md');
  writeFileSync(json, JSON.stringify(r, null, 2));
  writeFileSync(md, renderMarkdown(r));
  return { json, md };
}

/** The mutants named by id, category and kind (comma-separated lists; unset: all), always with the control. */
export function selectMutants(values: { only?: string; category?: string; kind?: string }): Mutant[] {
  const list = (v?: string) =>
    v
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : undefined;
  const only = list(values.only);
  const categories = list(values.category);
  const kinds = list(values.kind);
  for (const id of only ?? [])
    if (!ENTRIES.some((m) => m.id === id)) throw new Error(`unknown mutant ${id} (npm run mutation -- --list)`);
  const chosen = ENTRIES.filter(
    (m) =>
      (!only || only.includes(m.id)) &&
      (!categories || categories.includes(m.category)) &&
      (!kinds || kinds.includes(kindOf(m))),
  );
  const control = ENTRIES.find((m) => m.id === CONTROL_ID)!;
  return chosen.includes(control) ? chosen : [control, ...chosen];
}
