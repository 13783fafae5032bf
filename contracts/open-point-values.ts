/**
 * How a recorded value becomes an answer to an open point (contracts/open-points.ts holds the points):
 * the point reads the value into its vocabulary, and what it cannot read, or reads to a word outside it,
 * is kept verbatim as `other: …` — never dropped. Verbatim text is made stable first: durations, byte
 * counts, ids and timestamps differ from one run to the next while the behaviour does not, so they are
 * replaced by placeholders, and a list of values is read the same in any order.
 *
 * Pure, and imported by the recorder of clause results, the report and the matrix alike: one reading of
 * a value everywhere.
 */
import { errorCode } from './error-codes.ts';

/** A value of a vocabulary: a word, or a family of values (a status code, a count, a §7 code). */
export type Term = string | { readonly shown: string; readonly test: (value: string) => boolean };

/** A value outside a point's vocabulary, kept verbatim behind this prefix. */
export const OTHER = 'other: ';

/** Any HTTP status, as its three digits. */
export const STATUS: Term = { shown: '<status>', test: (v) => /^[1-5]\d\d$/.test(v) };

/** A whole number. */
export const COUNT: Term = { shown: '<n>', test: (v) => /^\d+$/.test(v) };

/** A code of the §7 table. */
export const CODE: Term = { shown: '<§7 code>', test: (v) => errorCode(v) !== undefined };

/** A status with the §7 code it carried ("400 with E0003"). */
export const STATUS_WITH_CODE: Term = {
  shown: '<status> with <§7 code>',
  test: (v) => {
    const m = /^([1-5]\d\d) with (\S+)$/.exec(v);
    return !!m && errorCode(m[2]!) !== undefined;
  },
};

/** A value as text: a string as it is, anything else as JSON. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text;
}

/** The HTTP status a recorded answer names ("HTTP 413 (E2005)", "accepted (HTTP 200)", "400"). */
export function statusIn(raw: string): string | undefined {
  return /\bHTTP ([1-5]\d\d)\b/.exec(raw)?.[1] ?? /^([1-5]\d\d)\b/.exec(raw)?.[1];
}

/** The errCode a recorded answer names ("HTTP 400 (E2005)", "JSON with errCode E0004"). */
export function codeIn(raw: string): string | undefined {
  return /errCode ([A-Za-z0-9_.-]+)/.exec(raw)?.[1] ?? /^HTTP [1-5]\d\d \(([A-Za-z0-9_.-]+)\)$/.exec(raw)?.[1];
}

/** Accepted (any 2xx) or the status of the refusal. */
export function acceptedOrStatus(raw: string): string | undefined {
  const status = statusIn(raw);
  if (!status) return /^accepted\b/.test(raw) ? 'accepted' : undefined;
  return status.startsWith('2') ? 'accepted' : status;
}

// ---- readers the points share ------------------------------------------------------------------------

/** A recorded status sequence ("init → executing → finish") read as forward only, or not. */
export function sequenceOrder(ranks: Readonly<Record<string, number>>) {
  return (raw: string): string | undefined => {
    const seq = raw.split(' → ');
    if (seq.some((s) => ranks[s] === undefined)) return undefined;
    for (let i = 1; i < seq.length; i++) {
      const [a, b] = [ranks[seq[i - 1]!]!, ranks[seq[i]!]!];
      if (b < a) return 'moves back';
      if (a === b && seq[i] !== seq[i - 1]) return 'leaves a terminal status';
    }
    return 'forward only';
  };
}

/** What an answer to a page-size probe served: items, no item, or the refusal's status. */
export function servedRead(raw: string): string | undefined {
  const status = statusIn(raw);
  if (!status?.startsWith('2')) return status;
  return /\b0 items\b/.test(raw) ? 'served, empty' : 'served';
}

/** The errCode of an error body: a §7 code, `none`, or the code given (kept as other). */
export function errCodeRead(raw: string): string | undefined {
  if (/^non-JSON body/.test(raw)) return 'not JSON';
  return codeIn(raw) ?? 'none';
}

/** The first of `ranked` (worst first) among a run's values: one answer however many records gave it. */
export function worst(ranked: readonly string[]) {
  return (values: readonly string[]): string[] => {
    const found = ranked.find((r) => values.includes(r));
    return found ? [found] : [...new Set(values)].sort();
  };
}

const VOLATILE: readonly [RegExp, string][] = [
  // Timestamps, then ids: a UUID, a long run of hex or of letters and digits mixed (keys are redacted already).
  [/\b\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?/g, '<time>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>'],
  [/\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{16,}\b/g, '<id>'],
  [/\b[0-9a-f]{12,}\b/gi, '<id>'],
  // Durations and sizes: what a busy machine or a seeded body changes.
  [/\b\d+(\.\d+)? ?(ms|s|seconds?|milliseconds?)\b/g, '<t>'],
  [/\b\d+(\.\d+)?-byte\b/g, '<n>-byte'],
  [/\b\d+(\.\d+)? ?(bytes|B|KiB|KB|MiB|MB)\b/g, '<n> $2'],
];

/**
 * Text as an answer keeps it: volatile parts (times, ids, durations, sizes) replaced, the items of a
 * comma-separated list in one order, and cut to a length a table can show.
 */
export function stableText(raw: string): string {
  let text = raw.replace(/\s+/g, ' ').trim();
  for (const [pattern, by] of VOLATILE) text = text.replace(pattern, by);
  if (/^[^,()]+(, [^,()]+)+$/.test(text))
    text = text
      .split(', ')
      .sort((a, b) => a.localeCompare(b))
      .join(', ');
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** Whether a value belongs to a vocabulary. */
export function inVocabulary(vocabulary: readonly Term[], value: string): boolean {
  return vocabulary.some((t) => (typeof t === 'string' ? t === value : t.test(value)));
}

/** The vocabulary as it is shown: its words, and the families in their placeholder form. */
export function shownVocabulary(vocabulary: readonly Term[]): string[] {
  return vocabulary.map((t) => (typeof t === 'string' ? t : t.shown));
}

/**
 * A value read into a vocabulary: the word `read` gives when it is one of the vocabulary, else the
 * value kept as `other: …` — the word `read` gave, or the raw text when it gave none — made stable.
 */
export function classify(vocabulary: readonly Term[], read: string | undefined, raw: string): string {
  if (read !== undefined && inVocabulary(vocabulary, read)) return read;
  return `${OTHER}${stableText(read ?? raw)}`;
}

/** Whether a value is outside its point's vocabulary (kept verbatim). */
export const isOther = (value: string): boolean => value.startsWith(OTHER);

/**
 * Values in the order they are shown: the vocabulary's order, families after words, `other: …` last;
 * equal places by text. Used wherever a set of answers is listed, so that order never makes a difference.
 */
export function compareValues(vocabulary: readonly Term[]): (a: string, b: string) => number {
  const rank = (v: string) => {
    if (isOther(v)) return vocabulary.length + 1;
    const i = vocabulary.findIndex((t) => (typeof t === 'string' ? t === v : t.test(v)));
    return i < 0 ? vocabulary.length : i;
  };
  return (a, b) => rank(a) - rank(b) || a.localeCompare(b, 'en', { numeric: true });
}
