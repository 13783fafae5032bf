/**
 * What a catalogue entry is: a realistic implementation bug, or a legal variation, applied by the
 * mutating proxy (../proxy.ts) in front of the reference target.
 *
 * Three kinds:
 * - bug (`breaks`)    — breaks `must` clauses: a correct harness fails the run, naming one of them.
 * - should (`warns`)  — breaks only `should` clauses: a correct harness warns (and does not fail).
 * - legal (`legal`)   — changes only behaviour the specification leaves open ("not shown"), optional
 *                       fields, or what a careful implementer could read otherwise: a correct harness
 *                       neither fails nor warns; a failure or a warning here is a false alarm, a
 *                       defect of the harness.
 *
 * - harness-limit (`harnessLimit`) — a condition the specification does not make a deviation but that
 *                       meets a limit of the harness (a latency beyond its request deadline): the
 *                       clauses it hits are "not run", nothing may fail or warn.
 *
 * `breaks`/`warns` entries are requirement IDs from contracts/requirements.ts; `*` inside an entry
 * matches a run of characters (`*-HTTP-STATUS-LISTED`). Every entry names its clauses: there is no
 * "any failure" wildcard, so a failure elsewhere shows as collateral.
 *
 * Compound entries (`compose`) combine several single entries, as real implementations deviate in
 * several ways at once; they expect the union of their parts' clauses, and each part must be seen.
 */
import type { MutantBehaviour } from '../proxy.ts';

export type Category =
  | 'envelope-schema'
  | 'status-codes'
  | 'auth'
  | 'isolation'
  | 'state-machine'
  | 'pagination'
  | 'upload'
  | 'generate'
  | 'limits'
  | 'latency-errors'
  | 'compound';

export interface Mutant extends MutantBehaviour {
  id: string;
  category: Category;
  description: string;
  /** must clauses the bug breaks (a correct harness kills it with one of them). */
  breaks?: string[];
  /** should clauses the bug breaks (a correct harness warns). */
  warns?: string[];
  /** Behaviour the specification leaves open: must not fail the run. */
  legal?: true;
  /** Not a deviation, but beyond a limit of the harness (its request deadline): "not run", never failed. */
  harnessLimit?: true;
  /**
   * The generative mode (`wfcheck explore`) runs against it too by default, besides the suites: legal
   * variants of real implementations, which both modes must leave clean.
   */
  explored?: true;
  /** Ids of the single entries a compound entry combines (see `compose`). */
  parts?: string[];
  /**
   * Clauses whose tests exercise this mutant, for focused runs (only the tests citing them run).
   * Default: `breaks`, else `warns`. Needed where those clauses are checked on every response
   * rather than cited by a test title, and for legal variants.
   */
  probes?: string[];
  /**
   * Clauses the mutated run must still exercise (judged, not "not run" nor blocked): the suites
   * this deviation does not concern go on testing. An entry with it always runs the full suite.
   */
  stillRuns?: string[];
  /**
   * How many deviations the entry injects: the findings a correct report counts (one per deviation,
   * however many operations and clauses show it). Default: none for legal variants and harness limits,
   * the sum over the parts for a compound entry, else one.
   */
  findings?: number;
}

/** Clauses a focused run of the mutant selects tests by. */
export function probesOf(m: Mutant): string[] {
  return m.probes ?? (expectedOf(m).length ? expectedOf(m) : []);
}

export type MutantKind = 'bug' | 'should' | 'legal' | 'harness-limit';

export function kindOf(m: Mutant): MutantKind {
  if (m.harnessLimit) return 'harness-limit';
  return m.legal ? 'legal' : m.breaks?.length ? 'bug' : 'should';
}

/** Clauses the entry is expected to flag: the must clauses it breaks and the should clauses it warns. */
export function expectedOf(m: Mutant): string[] {
  return [...(m.breaks ?? []), ...(m.warns ?? [])];
}

/** True when `id` matches one of the patterns (`*` matches a run of characters inside an ID). */
export function matchesAny(id: string, patterns: readonly string[]): boolean {
  return patterns.some((p) =>
    new RegExp(
      `^${p
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    ).test(id),
  );
}

/** The entry of `from` with this id; an unknown id is a mistake in the caller, so it throws with the known ones. */
export function findMutant(from: readonly Mutant[], id: string): Mutant {
  const m = from.find((x) => x.id === id);
  if (!m) throw new Error(`unknown mutant ${id}; known: ${from.map((x) => x.id).join(', ')}`);
  return m;
}
