/**
 * The implementation matrix as data: one row per requirement of the catalogue (grouped by the section of
 * the specification it comes from), one column per implementation of the history, each cell the verdict
 * of that implementation's latest run with what the history says behind it (the finding's title, the
 * evidence, the verdicts of its earlier runs). Per column: the score (musts met / musts exercised) run
 * by run, and what changed since the previous run. Across all: the interop line (requirements every
 * implementation meets) and the requirements no implementation meets.
 *
 * Pure: the history's rows in, the matrix out (load.ts reads the rows; the pages render the matrix).
 */
import { classifyChanges, findingChanges, type VerdictChange } from '../core/history-store/diff.ts';
import type { CapacityPoint } from '../core/history-store/capacity.ts';
import type { VerdictEvidence } from '../core/history-store/implementations.ts';
import type { FindingOutcome } from '../core/history-store/records.ts';
import type { RunRow, VerdictRow } from '../core/history-store/queries.ts';
import type { EvidenceExample, OpenPointOutcome } from '../core/history-store/records.ts';
import { openPointsOf, type OpenPoints } from './open-points.ts';
import { ABSENT } from '../core/history-store/verdicts.ts';
import { compareSections, sectionOf, type Section } from './sections.ts';

export type Level = 'must' | 'should' | 'observe';

/** A clause of the catalogue, as far as the matrix needs it. */
export interface Clause {
  id: string;
  section: string;
  level: Level;
  text: string;
  security?: boolean;
}

/** One implementation's rows of the history. */
export interface ColumnInput {
  /** The implementation's name; null: runs recorded without one, grouped by `target`. */
  name: string | null;
  target: string | null;
  /** Its last runs, oldest first (at least one). */
  runs: RunRow[];
  /** Verdict rows by run id. */
  verdicts: ReadonlyMap<number, ReadonlyMap<string, VerdictRow>>;
  /** Notes and evidence of the latest run, by requirement id. */
  evidence: ReadonlyMap<string, VerdictEvidence>;
  /** Findings of the latest run and of the one before it (absent: the run recorded none). */
  latestFindings?: FindingOutcome[];
  previousFindings?: FindingOutcome[];
  /** Its capacity searches, oldest first (absent: none recorded). */
  capacity?: readonly CapacityPoint[];
  /** Answers to the open points by run id (absent: none recorded). */
  openPoints?: ReadonlyMap<number, readonly OpenPointOutcome[]>;
}

export interface MatrixInput {
  catalogue: readonly Clause[];
  sections: ReadonlyMap<string, Section>;
  columns: readonly ColumnInput[];
  generatedAt: string;
  harnessVersion: string;
}

export interface Score {
  /** Must clauses the run passed. */
  met: number;
  /** Must clauses the run judged on evidence (pass, fail, warn; waived ones failed). */
  exercised: number;
}

export interface RunSummary {
  runId: number;
  startedAt: string;
  seed: number;
  harnessVersion: string;
  version: string | null;
  origin: string;
  exitCode: number | null;
  wallMs: number | null;
  /** Unwaived failing findings; null when the run recorded none. */
  findings: number | null;
  score: Score;
}

export interface Changes {
  previous?: RunSummary;
  newlyFailing: VerdictChange[];
  newlyPassing: VerdictChange[];
  newlyBlockedOrNotRun: VerdictChange[];
  waiversNowPassing: string[];
  newFindings: FindingOutcome[];
  goneFindings: FindingOutcome[];
}

export interface Column {
  /** Unique among the columns: the name, or `target:<fingerprint>`. */
  key: string;
  label: string;
  name: string | null;
  /** File name of its page (without .html): lowercase letters, digits and dashes. */
  slug: string;
  runs: RunSummary[];
  latest: RunSummary;
  changes: Changes;
  /** Findings of the latest run, in their order. */
  findings: FindingOutcome[];
  /** Its capacity searches, oldest first. */
  capacity: CapacityPoint[];
}

export interface Cell {
  /** The latest run's verdict, or ABSENT when that run has none for the requirement. */
  verdict: string;
  rawVerdict: string;
  /** The finding's title (its behaviour) for a failure or warning; else what the note says. */
  title?: string;
  findingId?: string;
  note?: string;
  blockedBy?: string;
  evidence?: EvidenceExample;
  checks: number;
  /** The verdict in each run of the column, oldest first (ABSENT where a run has none). */
  history: string[];
  /** Since when the verdict is what it is: the first run of the current streak, and how many runs it spans. */
  since?: { startedAt: string; runs: number };
}

export interface Row {
  id: string;
  /** '' for a requirement the catalogue of this harness does not have. */
  level: Level | '';
  text: string;
  security: boolean;
  section: Section;
  cells: Cell[];
  /** The latest verdicts are not all the same. */
  differs: boolean;
  /** Some implementation fails it. */
  failing: boolean;
}

export interface Group {
  section: Section;
  rows: Row[];
}

export interface Interop {
  /** Must and should clauses of the catalogue. */
  total: number;
  /** Of them, those every implementation passes (none when there is no implementation). */
  metByAll: string[];
  mustTotal: number;
  mustMetByAll: number;
  /** Judged by some implementation, passed by none. */
  metByNone: string[];
  /** Judged by no implementation (not run, blocked or observed everywhere). */
  judgedByNone: string[];
}

export interface Matrix {
  generatedAt: string;
  harnessVersion: string;
  columns: Column[];
  groups: Group[];
  interop: Interop;
  /** Where implementations split on the points the specification leaves open. */
  openPoints: OpenPoints;
}

/** One letter per verdict: a cell's history in a tooltip and in matrix.json. */
export const LETTER: Readonly<Record<string, string>> = {
  pass: 'P',
  fail: 'F',
  warn: 'W',
  'not-run': 'N',
  observed: 'O',
  waived: 'X',
  blocked: 'B',
  [ABSENT]: '-',
};

const JUDGED = new Set(['pass', 'fail', 'warn']);

/** Musts met and exercised by one run's verdicts. */
export function scoreOf(verdicts: ReadonlyMap<string, VerdictRow>, levels: ReadonlyMap<string, Level>): Score {
  let met = 0;
  let exercised = 0;
  for (const v of verdicts.values()) {
    if (levels.get(v.id) !== 'must') continue;
    if (JUDGED.has(v.rawVerdict)) exercised++;
    if (v.verdict === 'pass') met++;
  }
  return { met, exercised };
}

function summaryOf(run: RunRow, verdicts: ReadonlyMap<string, VerdictRow>, levels: ReadonlyMap<string, Level>) {
  return {
    runId: run.id,
    startedAt: run.startedAt,
    seed: run.seed,
    harnessVersion: run.harnessVersion,
    version: run.targetVersion,
    origin: run.origin ?? 'run',
    exitCode: run.exitCode,
    wallMs: run.wallMs,
    findings: run.findings,
    score: scoreOf(verdicts, levels),
  };
}

/** File names for the columns' pages, unique however the names are spelled. */
export function slugsFor(keys: readonly string[]): string[] {
  const used = new Set<string>();
  return keys.map((key) => {
    const base =
      key
        .toLowerCase()
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 40) || 'implementation';
    let slug = base;
    for (let n = 2; used.has(slug); n++) slug = `${base}-${n}`;
    used.add(slug);
    return slug;
  });
}

const EMPTY: ReadonlyMap<string, VerdictRow> = new Map();

function columnOf(input: ColumnInput, slug: string, levels: ReadonlyMap<string, Level>): Column {
  const runs = input.runs.map((r) => summaryOf(r, input.verdicts.get(r.id) ?? EMPTY, levels));
  const latest = runs[runs.length - 1]!;
  const previous = runs.length > 1 ? runs[runs.length - 2] : undefined;
  const before = previous ? input.verdicts.get(previous.runId) : undefined;
  const after = input.verdicts.get(latest.runId) ?? EMPTY;
  const key = input.name ?? `target:${input.target}`;
  return {
    key,
    label: input.name ?? `(unnamed) ${input.target}`,
    name: input.name,
    slug,
    runs,
    capacity: [...(input.capacity ?? [])],
    latest,
    changes: {
      ...(previous ? { previous } : {}),
      ...classifyChanges(before ? new Map(before) : undefined, new Map(after)),
      ...findingChanges(
        previous && previous.findings !== null ? input.previousFindings : undefined,
        latest.findings !== null ? input.latestFindings : undefined,
      ),
    },
    findings: input.latestFindings ?? [],
  };
}

/** The finding of the latest run a verdict belongs to: the one whose clauses include it, of the matching kind. */
function findingFor(id: string, verdict: string, findings: readonly FindingOutcome[]): FindingOutcome | undefined {
  const mine = findings.filter((f) => f.clauses.includes(id));
  const wanted = verdict === 'waived' ? (f: FindingOutcome) => f.waived : (f: FindingOutcome) => !f.waived;
  const strength = verdict === 'warn' ? 'warning' : 'failure';
  return mine.find((f) => wanted(f) && f.strength === strength) ?? mine.find(wanted) ?? mine[0];
}

function cellOf(id: string, input: ColumnInput): Cell {
  const history = input.runs.map((r) => input.verdicts.get(r.id)?.get(id)?.verdict ?? ABSENT);
  const latestRun = input.runs[input.runs.length - 1]!;
  const row = input.verdicts.get(latestRun.id)?.get(id);
  const verdict = row?.verdict ?? ABSENT;
  let first = history.length - 1;
  while (first > 0 && history[first - 1] === verdict) first--;
  const ev = input.evidence.get(id);
  const finding =
    verdict === 'fail' || verdict === 'warn' || verdict === 'waived'
      ? findingFor(id, verdict, input.latestFindings ?? [])
      : undefined;
  const blockedBy = row?.blockedBy ?? undefined;
  const title = finding?.behaviour ?? (verdict === 'blocked' && blockedBy ? `blocked by ${blockedBy}` : ev?.note);
  return {
    verdict,
    rawVerdict: row?.rawVerdict ?? verdict,
    ...(title ? { title } : {}),
    ...(finding ? { findingId: finding.id } : {}),
    ...(ev?.note ? { note: ev.note } : {}),
    ...(blockedBy ? { blockedBy } : {}),
    ...(ev?.example ? { evidence: ev.example } : {}),
    checks: row?.evidence ?? 0,
    history,
    ...(row ? { since: { startedAt: input.runs[first]!.startedAt, runs: history.length - first } } : {}),
  };
}

function interopOf(rows: readonly Row[], columns: number): Interop {
  const graded = rows.filter((r) => r.level === 'must' || r.level === 'should');
  const metByAll = columns ? graded.filter((r) => r.cells.every((c) => c.verdict === 'pass')) : [];
  const judged = (r: Row) => r.cells.some((c) => JUDGED.has(c.rawVerdict));
  return {
    total: graded.length,
    metByAll: metByAll.map((r) => r.id),
    mustTotal: graded.filter((r) => r.level === 'must').length,
    mustMetByAll: metByAll.filter((r) => r.level === 'must').length,
    metByNone: graded.filter((r) => judged(r) && !r.cells.some((c) => c.verdict === 'pass')).map((r) => r.id),
    judgedByNone: graded.filter((r) => !judged(r)).map((r) => r.id),
  };
}

const OTHER: Section = { id: 'other', title: "Not in this harness's catalogue", top: 'other' };

export function buildMatrix(input: MatrixInput): Matrix {
  const levels = new Map(input.catalogue.map((c) => [c.id, c.level]));
  const slugs = slugsFor(input.columns.map((c) => c.name ?? `target-${c.target}`));
  const columns = input.columns.map((c, i) => columnOf(c, slugs[i]!, levels));
  // Requirements a latest run judged that this catalogue lacks (an older or newer harness) keep their row.
  const known = new Set(levels.keys());
  const extra = [
    ...new Set(input.columns.flatMap((c) => [...(c.verdicts.get(c.runs[c.runs.length - 1]!.id)?.keys() ?? [])])),
  ]
    .filter((id) => !known.has(id))
    .sort();
  const clauses = [
    ...input.catalogue.map((c) => ({ ...c, at: sectionOf(c.section, input.sections) })),
    ...extra.map((id) => ({ id, level: '' as const, text: '', security: false, at: OTHER })),
  ];
  const rows: Row[] = clauses.map((c) => {
    const cells = input.columns.map((col) => cellOf(c.id, col));
    return {
      id: c.id,
      level: c.level,
      text: c.text,
      security: Boolean(c.security),
      section: c.at,
      cells,
      differs: new Set(cells.map((x) => x.verdict)).size > 1,
      failing: cells.some((x) => x.verdict === 'fail'),
    };
  });
  const groups = new Map<string, Group>();
  for (const row of rows) {
    const g = groups.get(row.section.id) ?? { section: row.section, rows: [] };
    g.rows.push(row);
    groups.set(row.section.id, g);
  }
  return {
    generatedAt: input.generatedAt,
    harnessVersion: input.harnessVersion,
    columns,
    groups: [...groups.values()].sort((a, b) =>
      a.section === OTHER ? 1 : b.section === OTHER ? -1 : compareSections(a.section.id, b.section.id),
    ),
    interop: interopOf(rows, columns.length),
    openPoints: openPointsOf(
      columns.map((c, i) => ({
        key: c.key,
        label: c.label,
        slug: c.slug,
        runs: c.runs.map((r) => ({ runId: r.runId, startedAt: r.startedAt, version: r.version })),
        answers: input.columns[i]!.openPoints ?? new Map(),
      })),
    ),
  };
}
