/**
 * The verdicts of a run by requirement, and how the verdicts of runs differ. Every comparison of runs
 * (the history, flakiness, one long-lived target, slow workflows) goes through here, so that a
 * requirement one run has no verdict for reads the same everywhere: ABSENT.
 *
 * The history may not depend on the conformance layer: a run is read through the requirement rows a
 * conformance report, a history record and the history's own rows all carry.
 */

/** The verdict of a requirement a run has no entry for. */
export const ABSENT = 'absent';

/** One requirement's row, as a conformance report, a history record or a history query has it. */
export interface RequirementVerdict {
  id: string;
  /** After waivers. */
  verdict: string;
  /** Before waivers; rows without it read as their verdict. */
  rawVerdict?: string;
}

/** A run as far as its verdicts go. */
export interface ReportLike {
  requirements: readonly RequirementVerdict[];
}

/** Verdict by requirement ID, in the order the run lists them. */
export type Verdicts = Record<string, string>;

/** A run's verdicts as they are compared: plain, or rows carrying one (the history's) keyed by ID. */
export type VerdictSource = Readonly<Verdicts> | ReadonlyMap<string, { verdict: string }>;

export interface VerdictDifference {
  id: string;
  /** ABSENT when the earlier run has no verdict for it. */
  before: string;
  /** ABSENT when the later run has no verdict for it. */
  after: string;
}

/** One requirement's verdict in each of several runs, oldest first. */
export interface VerdictSeries {
  id: string;
  verdicts: string[];
}

/**
 * Verdict by ID of a run (none when the run wrote no report): after waivers, or with `rawVerdict`
 * before them (what the target did, whatever the waivers forgive).
 */
export function verdictsOf(report: ReportLike | undefined, which: 'verdict' | 'rawVerdict' = 'verdict'): Verdicts {
  return Object.fromEntries((report?.requirements ?? []).map((r) => [r.id, r[which] ?? r.verdict]));
}

/** The IDs whose verdict is `wanted` (or satisfies it), in the run's order. */
export function idsWhere(verdicts: Readonly<Verdicts>, wanted: string | ((verdict: string) => boolean)): string[] {
  const holds = typeof wanted === 'string' ? (v: string) => v === wanted : wanted;
  return Object.entries(verdicts)
    .filter(([, v]) => holds(v))
    .map(([id]) => id);
}

const isMap = (run: VerdictSource): run is ReadonlyMap<string, { verdict: string }> => run instanceof Map;

function idsIn(run: VerdictSource): string[] {
  return isMap(run) ? [...run.keys()] : Object.keys(run);
}

/** The verdict of `id` in a run; ABSENT when the run has none. */
export function verdictIn(run: VerdictSource | undefined, id: string): string {
  if (!run) return ABSENT;
  if (isMap(run)) return run.get(id)?.verdict ?? ABSENT;
  return Object.hasOwn(run, id) ? run[id] : ABSENT;
}

/** Every requirement whose verdict differs between two runs, by ID. */
export function compareVerdicts(before: VerdictSource, after: VerdictSource): VerdictDifference[] {
  return [...new Set([...idsIn(before), ...idsIn(after)])]
    .sort()
    .map((id) => ({ id, before: verdictIn(before, id), after: verdictIn(after, id) }))
    .filter((d) => d.before !== d.after);
}

/** Each requirement's verdict over the runs (oldest first): the given IDs in their order, else every ID of any run, by ID. */
export function verdictSeries(runs: readonly VerdictSource[], ids?: readonly string[]): VerdictSeries[] {
  const all = ids ?? [...new Set(runs.flatMap(idsIn))].sort();
  return all.map((id) => ({ id, verdicts: runs.map((r) => verdictIn(r, id)) }));
}

/** Blocked and not run both mean "not judged": moving between them says nothing about the target. */
const UNJUDGED = new Set(['blocked', 'not-run']);

/** Whether a verdict leaves the requirement unjudged (blocked or not run). */
export const isUnjudged = (verdict: string): boolean => UNJUDGED.has(verdict);

/** How often a series of verdicts changes, moves between the two unjudged verdicts not counted. */
export function changesIn(verdicts: readonly string[]): number {
  const judged = verdicts.map((v) => (isUnjudged(v) ? 'unjudged' : v));
  return judged.filter((v, i) => i > 0 && v !== judged[i - 1]).length;
}

/** Requirements whose verdict changed more than once over the runs (oldest first): a flip, not a fix or a regression. */
export function flipsOver(runs: readonly VerdictSource[]): VerdictSeries[] {
  return verdictSeries(runs).filter((s) => changesIn(s.verdicts) > 1);
}
