/**
 * Mutation testing of the conformance suite (`npm run mutation`, scripts/mutation.ts): proves it
 * catches real bugs and raises no false alarm.
 *
 * For each mutant of fixtures/faults/catalogue.ts it starts a fresh reference target (in process),
 * puts the mutating proxy in front of it, runs the conformance run against the proxy exactly as a
 * user would against a third-party target (BASE_URL, API_KEY, API_KEY_B), and reads the report:
 *
 * - bug (breaks must clauses): killed when the run fails; "by" lists the failing requirement IDs and
 *   says whether one of the clauses the bug breaks is among them (a kill only by unrelated clauses
 *   is flagged).
 * - should (breaks should clauses): warned when one of its clauses is a warning.
 * - legal (only behaviour the spec leaves open): clean when the run passes; a failure is a false alarm.
 *
 * Every run goes in full by default (--max-failures 0). With --max-failures N, a bug's run stops after N
 * failed tests: the kill is established by then and "by" lists the IDs failed up to that point, but
 * collateral in the tests never run is not seen (the table says so). Legal variants always run in full.
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
 *
 * The work is split by job under mutation/: types.ts (what the table is made of), judge.ts (an entry's
 * outcome and the score), run.ts (running the entries), render.ts (the table as people read it) and
 * command.ts (the command's options and what it prints).
 */
export {
  expectedFindingsOf,
  exploreSeen,
  findingsCounted,
  judgeEntry,
  score,
  SUITES_CAUGHT,
  withExplore,
  type RunVerdicts,
} from './mutation/judge.ts';
export { mutationMarkdown, mutationTable, progressLine, totalsLine, writeMutationReport } from './mutation/render.ts';
export { explores, grepFor, runMutation, selectMutants } from './mutation/mutant-run.ts';
export {
  CONTROL_ID,
  DEFAULT_MUTATION_SEED,
  ENTRIES,
  GOOD_OUTCOME,
  MUTATION_OUT,
  SINGLE_OPERATION_FAULTS,
  type BlockedClause,
  type CaughtBy,
  type ExploreScope,
  type ExploreSeen,
  type ReportedFinding,
  type MutantResult,
  type MutationOptions,
  type MutationReport,
  type MutationScore,
  type EntryOutcome,
} from './mutation/types.ts';
