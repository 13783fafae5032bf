/**
 * What the mutation table is made of: its entries, the outcome each kind of entry must reach, what a run
 * against one entry yields (MutantResult), the options of a table run and the table itself
 * (MutationReport, with its score).
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MUTANTS, type Mutant, type MutantKind } from '../../fixtures/faults/catalogue.ts';
import { INPUT_ENTRIES } from '../../fixtures/faults/input-crashes.ts';
import type { Finding } from '../../core/findings/build-report.ts';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const MUTATION_OUT = join(ROOT, 'reports', 'mutation');
export const CONTROL_ID = 'control-passthrough';
/** A fixed default seed: the table is reproducible run to run (override with --seed). */
export const DEFAULT_MUTATION_SEED = 20260101;

export type EntryOutcome =
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

/** Every entry the table can run: the catalogue, and the input-crash entries that prove the generative mode. */
export const ENTRIES: readonly Mutant[] = [...MUTANTS, ...INPUT_ENTRIES];

/**
 * Entries the generative mode (explore/) also runs against: the input-crash entries and the
 * control (default), every entry, or none. The suites run against every entry regardless.
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

/**
 * The entries of the single-operation faults (one operation hangs, drips or never reads as terminal): the
 * totals give each one's wall time, which must stay about that of a healthy run.
 */
export const SINGLE_OPERATION_FAULTS = [
  'status-hangs',
  'output-drips',
  'status-unknown-value',
  'detail-drips',
  'never-ends',
];

/** A finding of the run's report, as far as the table needs it. */
export interface ReportedFinding {
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
  outcome: EntryOutcome;
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
  findings: ReportedFinding[];
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

/** The outcome each kind of entry must reach for the table to pass. */
export const GOOD_OUTCOME: Record<MutantKind, EntryOutcome> = {
  bug: 'killed',
  should: 'warned',
  legal: 'clean',
  'harness-limit': 'clean',
};
