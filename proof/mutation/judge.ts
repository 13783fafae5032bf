/**
 * How the table judges an entry: what its run flagged and blocked (read from the run's report), against
 * the clauses the entry breaks or warns on — killed, warned, clean, or what went wrong — the findings it
 * counts against the deviations injected, what the generative mode made of it, and the table's score.
 */
import {
  expectedOf,
  kindOf,
  matchesAny,
  mutantById,
  type Mutant,
  type MutantKind,
} from '../../fixtures/faults/catalogue.ts';
import type { ExploreReport } from '../../explore/report/explore-report.ts';
import { idsWhere, verdictsOf } from '../../core/history-store/verdicts.ts';
import type { ConformanceReport } from '../../core/findings/build-report.ts';
import {
  GOOD_OUTCOME,
  SINGLE_OPERATION_FAULTS,
  type BlockedClause,
  type CaughtBy,
  type ExploreSeen,
  type ReportedFinding,
  type MutantResult,
  type MutationScore,
  type EntryOutcome,
} from './types.ts';

/** What a run flagged and blocked, read from its report. */
export interface RunVerdicts {
  failed: string[];
  warned: string[];
  blocked: BlockedClause[];
  notRun: number;
  /** Clauses judged on evidence of their own (neither "not run" nor blocked); unknown when absent. */
  exercised?: string[];
}

export function readVerdicts(report: ConformanceReport | undefined): RunVerdicts {
  const verdicts = verdictsOf(report);
  const requirements = (report?.requirements ?? []) as (ConformanceReport['requirements'][number] & {
    blockedBy?: string | string[];
  })[];
  // `blocked` arrives with the core's root-cause work; older reports simply have none.
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
export function findingsCounted(m: Mutant, findings: readonly Pick<ReportedFinding, 'strength' | 'waived'>[]): number {
  const kind = kindOf(m);
  const warnings =
    kind !== 'bug' || (m.parts ?? []).some((id) => kindOf(mutantById(id)) === 'should') ? ['warning'] : [];
  return findings.filter((f) => !f.waived && (f.strength === 'failure' || warnings.includes(f.strength))).length;
}

/** The run's findings, as far as the table needs them; undefined when the run wrote no report. */
export function findingsSeen(report: ConformanceReport | undefined): ReportedFinding[] | undefined {
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

export type Judgement = Pick<
  MutantResult,
  'outcome' | 'expected' | 'expectedHit' | 'collateral' | 'partsMissed' | 'stillRunsMissing' | 'note'
>;

/** The entry's verdict, then whether the suites it must not starve were exercised (a good verdict alone is not enough). */
export function judgeEntry(m: Mutant, v: RunVerdicts, exitCode: number | null, hung: boolean): Judgement {
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

/** The outcomes by which the suites caught an entry's deviation. */
export const SUITES_CAUGHT: readonly EntryOutcome[] = [
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

/** The table's score: per kind of entry, how many reached their outcome, and what went wrong with the rest. */
export function score(results: MutantResult[]): MutationScore {
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
