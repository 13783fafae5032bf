/**
 * Where implementations split: the points the specification leaves open (contracts/open-points.ts),
 * one row per point, each value with the implementations whose latest run holds it, sorted by how split
 * the point is; for a split point the answers a client must tolerate to work with every implementation
 * seen; per implementation the points where it stands alone or in the minority; and where an
 * implementation's own answer changed from one of its runs to the next (a new version, or a point that
 * is not stable on it).
 *
 * An implementation is a column: one name, however many runs and targets, so it never splits with
 * itself. Pure: the columns' rows of the history in, the rows out.
 */
import { compareValues, shownVocabulary } from '../contracts/open-point-values.ts';
import { OPEN_POINTS, openPoint } from '../contracts/open-points.ts';
import { hasRequirement, requirement } from '../contracts/requirements.ts';
import type { EvidenceExample, OpenPointOutcome } from '../core/history-store/records.ts';

/** What the model needs of a column: its identity and its runs' answers. */
export interface PointColumn {
  key: string;
  label: string;
  slug: string;
  /** Its runs, oldest first (the last is the latest). */
  runs: readonly { runId: number; startedAt: string; version: string | null }[];
  /** Answers by run id; a run without an entry recorded none (made before they were kept). */
  answers: ReadonlyMap<number, readonly OpenPointOutcome[]>;
}

export interface Holder {
  key: string;
  label: string;
  slug: string;
  /** Records of its latest run that gave the value. */
  count: number;
  sentence: string;
  /** The exchange the value was read from, redacted. */
  example?: EvidenceExample;
  /** Its other values of the point, when it gave several. */
  also: string[];
}

export interface ValueRow {
  value: string;
  holders: Holder[];
}

export interface RunRef {
  runId: number;
  startedAt: string;
  version: string | null;
}

/** An implementation's answer to a point that differs from its answer in the run before. */
export interface AnswerChange {
  key: string;
  label: string;
  slug: string;
  from: string[];
  to: string[];
  before: RunRef;
  after: RunRef;
  /** Both runs were of one version: the point is not stable on it (or the account changed). */
  sameVersion: boolean;
}

export interface OpenPointRow {
  point: string;
  clause: string;
  question: string;
  /** The specification's words that leave it open. */
  words: string;
  vocabulary: string[];
  /** For a should clause: the other reading its words allow. */
  otherReading?: string;
  /** Most holders first. */
  values: ValueRow[];
  /** Implementations whose latest run answered it. */
  answered: number;
  /** Labels of the implementations whose latest run did not. */
  silent: string[];
  split: boolean;
  /** For a split point: every value seen, which a client working with all of them must accept. */
  tolerate: string[];
  changes: AnswerChange[];
}

/** A point where an implementation's answer is held by few others. */
export interface Standing {
  point: string;
  question: string;
  /** Its values that few hold. */
  values: string[];
  /** How many implementations hold the rarest of them, itself included. */
  holders: number;
  answered: number;
  kind: 'alone' | 'minority';
}

export interface OpenPoints {
  rows: OpenPointRow[];
  /** Points of the table no implementation's latest run answered. */
  unanswered: { point: string; question: string }[];
  /** Per column (in the columns' order): where it stands apart, most isolated first. */
  standing: Standing[][];
}

/** A run's values by point. */
function byPoint(rows: readonly OpenPointOutcome[]): Map<string, OpenPointOutcome[]> {
  const out = new Map<string, OpenPointOutcome[]>();
  for (const r of rows) out.set(r.point, [...(out.get(r.point) ?? []), r]);
  return out;
}

const orderOf = (point: string) => {
  const p = openPoint(point);
  return p ? compareValues(p.vocabulary) : (a: string, b: string) => a.localeCompare(b);
};

/** Each change of a column's answer to `point` between consecutive runs that answered it. */
function changesOf(col: PointColumn, point: string): AnswerChange[] {
  const answered = col.runs.flatMap((run) => {
    const rows = col.answers.get(run.runId)?.filter((r) => r.point === point) ?? [];
    return rows.length ? [{ run, values: rows.map((r) => r.value).sort(orderOf(point)) }] : [];
  });
  const out: AnswerChange[] = [];
  for (let i = 1; i < answered.length; i++) {
    const [a, b] = [answered[i - 1]!, answered[i]!];
    if (a.values.join('\n') === b.values.join('\n')) continue;
    out.push({
      key: col.key,
      label: col.label,
      slug: col.slug,
      from: a.values,
      to: b.values,
      before: a.run,
      after: b.run,
      sameVersion: a.run.version === b.run.version,
    });
  }
  return out;
}

/** How split a row is, for sorting: more values first, then the smaller the largest group, then more answers. */
function compareSplit(a: OpenPointRow, b: OpenPointRow): number {
  const largest = (r: OpenPointRow) => Math.max(...r.values.map((v) => v.holders.length)) / r.answered;
  return (
    Number(b.split) - Number(a.split) ||
    b.values.length - a.values.length ||
    largest(a) - largest(b) ||
    b.answered - a.answered ||
    tableIndex(a.point) - tableIndex(b.point)
  );
}

const tableIndex = (point: string) => {
  const i = OPEN_POINTS.findIndex((p) => p.id === point);
  return i < 0 ? OPEN_POINTS.length : i;
};

function rowOf(point: string, columns: readonly PointColumn[], latest: readonly Map<string, OpenPointOutcome[]>[]) {
  const p = openPoint(point);
  const order = orderOf(point);
  const holders = new Map<string, Holder[]>();
  const silent: string[] = [];
  columns.forEach((col, i) => {
    const mine = latest[i]!.get(point) ?? [];
    if (!mine.length) {
      silent.push(col.label);
      return;
    }
    const values = mine.map((r) => r.value);
    for (const r of mine) {
      const holder = {
        key: col.key,
        label: col.label,
        slug: col.slug,
        count: r.count,
        sentence: r.sentence,
        ...(r.example ? { example: r.example } : {}),
      };
      holders.set(r.value, [
        ...(holders.get(r.value) ?? []),
        { ...holder, also: values.filter((v) => v !== r.value).sort(order) },
      ]);
    }
  });
  const values = [...holders.entries()]
    .map(([value, hs]) => ({ value, holders: hs }))
    .sort((a, b) => b.holders.length - a.holders.length || order(a.value, b.value));
  const split = values.length > 1;
  const clause = p?.clause ?? latest.flatMap((m) => m.get(point) ?? [])[0]?.requirementId ?? '';
  const otherReading = hasRequirement(clause) ? requirement(clause).otherReading : undefined;
  return {
    point,
    clause,
    question: p?.question ?? `${point} (a point this harness does not know)`,
    words: p?.words ?? '',
    vocabulary: p ? shownVocabulary(p.vocabulary) : [],
    ...(otherReading && p && 'checked' in p.from ? { otherReading } : {}),
    values,
    answered: columns.length - silent.length,
    silent,
    split,
    tolerate: split ? values.map((v) => v.value).sort(order) : [],
    changes: columns.flatMap((col) => changesOf(col, point)),
  };
}

/** Where column `i` stands apart: its values held by a single implementation, or by fewer than half. */
function standingOf(rows: readonly OpenPointRow[], key: string): Standing[] {
  const out: Standing[] = [];
  for (const row of rows) {
    if (!row.split) continue;
    const mine = row.values.filter((v) => v.holders.some((h) => h.key === key));
    const rare = mine.filter((v) => v.holders.length === 1 || v.holders.length < row.answered / 2);
    if (!rare.length) continue;
    const holders = Math.min(...rare.map((v) => v.holders.length));
    out.push({
      point: row.point,
      question: row.question,
      values: rare.map((v) => v.value),
      holders,
      answered: row.answered,
      kind: holders === 1 ? 'alone' : 'minority',
    });
  }
  return out.sort((a, b) => a.holders / a.answered - b.holders / b.answered);
}

export function openPointsOf(columns: readonly PointColumn[]): OpenPoints {
  const latest = columns.map((c) => byPoint(c.answers.get(c.runs[c.runs.length - 1]?.runId ?? -1) ?? []));
  const seen = new Set(latest.flatMap((m) => [...m.keys()]));
  const ids = [...seen].sort((a, b) => tableIndex(a) - tableIndex(b) || a.localeCompare(b));
  const rows = ids.map((id) => rowOf(id, columns, latest)).sort(compareSplit);
  return {
    rows,
    unanswered: OPEN_POINTS.filter((p) => !seen.has(p.id)).map((p) => ({ point: p.id, question: p.question })),
    standing: columns.map((c) => standingOf(rows, c.key)),
  };
}
