/**
 * Text for generated inputs: characters from every Unicode plane, in an order that makes shrinking
 * converge on the same minimal character whatever the seed.
 *
 * A character is drawn as an index into a line of eight classes, simplest first (a–z, then other ASCII
 * letters and digits, space and punctuation, Latin letters with diacritics, the rest below U+0800, the
 * rest of the BMP, outside the BMP, control characters). Each class gets the same share of draws, and
 * shrinking lowers the index: a failure caused by "any non-ASCII character" always shrinks to "À", one
 * caused by "outside the BMP" to U+10000, one caused by "a space" to " ". The same minimal input on
 * every night is what lets a failure be recognised as the same finding.
 *
 * The classes a failure is named by (CHAR_CLASSES, NUMBER_CLASSES below) are coarser and disjoint: they
 * describe what was sent, whichever draw produced it, and each has a representative that probing
 * (classes.ts) sends in place of a failing value.
 *
 * Long texts are written `{ $repeat, times }`, so a minimal input of 100 001 characters reads as one line.
 */
import fc from 'fast-check';

/** A text as generated: literal, or a unit repeated (long texts). */
export type Text = string | Repeat;

export interface Repeat {
  $repeat: string;
  times: number;
  /** Words written before and after the run: a run inside prose, where a text splitter meets it. */
  around?: readonly [string, string];
}

/** Code-point ranges of each class, inclusive, in the order shrinking walks them. Surrogates are left out: they cannot be encoded. */
const CLASSES: readonly (readonly [number, number])[][] = [
  [[0x61, 0x7a]],
  [
    [0x41, 0x5a],
    [0x30, 0x39],
  ],
  [
    [0x20, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  [[0xc0, 0x24f]],
  [
    [0xa0, 0xbf],
    [0x250, 0x7ff],
  ],
  [
    [0x800, 0xd7ff],
    [0xe000, 0xffff],
  ],
  [[0x10000, 0x10ffff]],
  [
    [0x00, 0x1f],
    [0x7f, 0x9f],
  ],
];

const CLASS_BITS = 16;
const CLASS_WIDTH = 1 << CLASS_BITS;
const SIZES = CLASSES.map((ranges) => ranges.reduce((n, [lo, hi]) => n + hi - lo + 1, 0));

/** The code point at an index of the line (monotone: a lower index is a simpler or equal character). */
export function codePointAt(index: number): number {
  const cls = Math.min(CLASSES.length - 1, index >>> CLASS_BITS);
  let element = Math.floor(((index & (CLASS_WIDTH - 1)) * SIZES[cls]!) / CLASS_WIDTH);
  for (const [lo, hi] of CLASSES[cls]!) {
    const size = hi - lo + 1;
    if (element < size) return lo + element;
    element -= size;
  }
  throw new Error(`no code point at index ${index}`);
}

/** One character of any plane, each class equally likely; shrinks towards "a". */
export const anyChar: fc.Arbitrary<string> = fc
  .noBias(fc.integer({ min: 0, max: CLASSES.length * CLASS_WIDTH - 1 }))
  .map((i) => String.fromCodePoint(codePointAt(i)));

/** Printable ASCII without space: what a header value (a key, a scheme) can carry. */
export const tokenChar: fc.Arbitrary<string> = fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c));

/**
 * One of `list`, shrinking through it in order: a failure on the sixth member shrinks to the first member
 * that fails alike (fc.constantFrom shrinks straight to the first, and keeps the member it had otherwise).
 */
export function inOrder<T>(list: readonly T[]): fc.Arbitrary<T> {
  return fc.nat(list.length - 1).map((i) => list[i]!);
}

export function anyString(constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> {
  return fc.string({ unit: anyChar, size: 'small', ...constraints });
}

/** A unit of one to three characters repeated `times` times. */
export function repeated(minTimes: number, maxTimes: number, unit = anyString({ minLength: 1, maxLength: 3 })) {
  return fc.record({ $repeat: unit, times: fc.integer({ min: minTimes, max: maxTimes }) }) as fc.Arbitrary<Repeat>;
}

/**
 * A text of any plane: mostly short, sometimes long (up to `maxLong` characters as a repeated unit).
 * Shrinks towards the short form: a failure that does not need the length loses it.
 */
export function anyText(maxLong: number, maxShort = 24): fc.Arbitrary<Text> {
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: anyString({ maxLength: maxShort }), weight: 8 },
    { arbitrary: repeated(1, maxLong), weight: 2 },
  );
}

export function isRepeat(value: unknown): value is Repeat {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Repeat).$repeat === 'string' &&
    typeof (value as Repeat).times === 'number'
  );
}

export function textOf(t: Text): string {
  if (typeof t === 'string') return t;
  const run = t.$repeat.repeat(t.times);
  return t.around ? `${t.around[0]}${run}${t.around[1]}` : run;
}

/** Characters as a reader counts them (code points), not UTF-16 units. */
export function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
}

/**
 * Classes of characters a failure can be about, disjoint, named by what breaks on them: ASCII letters and
 * digits have none. Each has a representative: the character the generative mode puts in place of a
 * failing input's characters to learn which classes fail alike (classes.ts).
 */
export const CHAR_CLASSES = {
  space: ' ',
  punct: '!',
  control: '\u0001',
  'c1-control': '\u0080',
  'two-byte': 'À',
  'three-byte': '中',
  'four-byte': '\u{10000}',
} as const;

export type CharClass = keyof typeof CHAR_CLASSES;

/** The class of a code point: control (C0 and DEL), C1 control, ASCII space or punctuation, or its UTF-8 width. */
export function charClassOf(c: number): CharClass | undefined {
  // A lone surrogate is no character: a broken encoding (encodings.ts), named `lone-surrogate` where it stands.
  if (isSurrogate(c)) return undefined;
  if (c < 0x20 || c === 0x7f) return 'control';
  if (c === 0x20) return 'space';
  if (c < 0x7f) return /[A-Za-z0-9]/.test(String.fromCharCode(c)) ? undefined : 'punct';
  if (c <= 0x9f) return 'c1-control';
  if (c <= 0x7ff) return 'two-byte';
  return c <= 0xffff ? 'three-byte' : 'four-byte';
}

/** `s` with every character of a class (not a letter or digit) replaced by `by`: same length, same plain part. */
export function withClassReplaced(s: string, by: string): string {
  let out = '';
  for (const ch of s) out += charClassOf(ch.codePointAt(0)!) ? by : ch;
  return out;
}

/** A code point of the surrogate range: in a string only when unpaired (`for…of` joins a pair into one). */
export const isSurrogate = (c: number) => c >= 0xd800 && c <= 0xdfff;

/**
 * The widths a text is measured against: the common ones of storage columns and buffers (VARCHAR(64),
 * (100), (128), (200), (255), (256), (500), (512), (1000), (1024), a 4 KB page, an 8 KB header line) and
 * §8's 100k: a crash bound to a width shrinks to the first length past it, and a later text past it is
 * the same finding.
 */
export const WIDTHS = [64, 100, 128, 200, 255, 256, 500, 512, 1000, 1024, 4096, 8192] as const;

const LENGTHS = [0, 16, 32, ...WIDTHS, 100_000] as const;

/** The feature of an empty text: tried, never part of a shape (everything irrelevant shrinks to empty). */
export const EMPTY = 'len=0';

/**
 * The shape of a text, as feature names under `path`: which lengths it passes and which classes of
 * character it holds. Shrinking only removes features, so the features of a minimal input are found
 * again in every larger input failing for the same cause.
 */
export function textFeatures(path: string, s: string, out: Set<string>): void {
  out.add(path);
  if (s === '') out.add(`${path}:${EMPTY}`);
  const n = codePoints(s);
  for (const l of LENGTHS) if (n > l) out.add(`${path}:len>${l}`);
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    const cls = charClassOf(c);
    if (cls) out.add(`${path}:${cls}`);
    else if (isSurrogate(c)) out.add(`${path}:lone-surrogate`);
  }
}

/**
 * Magnitudes a number can pass, at the classic limits: 16 bits signed and unsigned, 32 bits signed and
 * unsigned, a double's integers (2^53), 64 bits signed and unsigned. Compared exactly (a double rounds
 * 2^63-1 up to 2^63).
 */
const MAGNITUDES: readonly [bigint, string][] = [
  [1n, '1'],
  [100n, '100'],
  [1000n, '1000'],
  [32_767n, '32767'],
  [65_535n, '65535'],
  [2n ** 31n - 1n, '2^31-1'],
  [2n ** 32n - 1n, '2^32-1'],
  [2n ** 53n, '2^53'],
  [2n ** 63n - 1n, '2^63-1'],
  [2n ** 64n - 1n, '2^64-1'],
];

const DIGITS = [16, 1000] as const;

/**
 * Classes of numbers a failure can be about, each with a representative as written on the wire: sign,
 * fraction, exponent form (and at the edges of a double: beyond its largest, below its smallest, an
 * exponent no 32-bit integer holds), magnitude, and how many digits are written (beyond what a double
 * holds; by the thousand).
 */
export const NUMBER_CLASSES: Readonly<Record<string, string>> = {
  zero: '0',
  negative: '-1',
  'negative-zero': '-0',
  fraction: '1.5',
  exponent: '1e1',
  'overflows-double': '1e309',
  'underflows-double': '1e-400',
  '|exponent|>2^31-1': '1e99999999999',
  ...Object.fromEntries(MAGNITUDES.map(([m, name]) => [`|x|>${name}`, (m + 1n).toString()])),
  'digits>16': '9'.repeat(20),
  'digits>1000': '9'.repeat(3000),
};

/** A number that has none of the classes but being positive: what a failing number is replaced by to see whether it matters. */
export const PLAIN_NUMBER = '1';

/** The classic limits a number can stand at or beside (2^15 … 2^64). */
export const LIMIT_EXPONENTS = [15, 16, 31, 32, 53, 63, 64] as const;

/**
 * Whether a number is at an edge: a whole number at or beside a classic limit (±1), or in exponent form
 * beyond a double, below its smallest, or with an exponent no 32-bit integer holds.
 */
export function atEdge(raw: string): boolean {
  const t = raw.trim();
  if (/^[+-]?\d+$/.test(t)) {
    if (t.length > 24) return false;
    const v = BigInt(t.replace(/^[+-]/, ''));
    return LIMIT_EXPONENTS.some((e) => v >= 2n ** BigInt(e) - 1n && v <= 2n ** BigInt(e) + 1n);
  }
  const edges = new Set<string>();
  exponentFeatures('', t, Number(t), edges);
  return edges.size > 1;
}

/**
 * |x| exactly for a whole number written in digits (a double rounds 2^63 − 1 up), undefined for any other
 * writing; one of more than 24 digits is past every magnitude (read as such: parsing 20,000 digits costs).
 */
function magnitude(raw: string): bigint | undefined {
  const t = raw.trim().replace(/^[+-]/, '');
  if (!/^\d+$/.test(t)) return undefined;
  return t.replace(/^0+/, '').length > 24 ? 10n ** 25n : BigInt(t);
}

/** The features of a number written in exponent form at the edges of a double and of an integer exponent. */
function exponentFeatures(path: string, raw: string, x: number, out: Set<string>): void {
  // Unambiguous, so 20,000 digits without an exponent are one pass, not a backtracking search.
  const m = /[eE]/.test(raw) ? /^\s*[+-]?(\d+(?:\.\d*)?|\.\d+)[eE]([+-]?\d+)\s*$/.exec(raw) : null;
  if (!m) return;
  out.add(`${path}:exponent`);
  if (!Number.isFinite(x)) out.add(`${path}:overflows-double`);
  if (x === 0 && /[1-9]/.test(m[1]!)) out.add(`${path}:underflows-double`);
  if (BigInt(m[2]!.replace(/^\+/, '')) > 2n ** 31n - 1n || BigInt(m[2]!) < -(2n ** 31n))
    out.add(`${path}:|exponent|>2^31-1`);
}

/**
 * The shape of a number as written (JSON number text, or a query value that reads as one): sign, whether
 * it is whole, exponent form and its edges, which magnitudes it passes, how many digits it writes.
 */
export function numberTextFeatures(path: string, raw: string, out: Set<string>): void {
  out.add(path);
  const x = Number(raw);
  if (/^-0*(\.0*)?([eE][+-]?\d+)?$/.test(raw.trim())) out.add(`${path}:negative-zero`);
  else if (x === 0) out.add(`${path}:zero`);
  else out.add(x < 0 ? `${path}:negative` : `${path}:positive`);
  if (Number.isFinite(x) && !Number.isInteger(x)) out.add(`${path}:fraction`);
  if (/[eE]/.test(raw)) out.add(`${path}:exponent`);
  exponentFeatures(path, raw, x, out);
  const exact = magnitude(raw);
  for (const [m, name] of MAGNITUDES)
    if (exact !== undefined ? exact > m : Math.abs(x) > Number(m)) out.add(`${path}:|x|>${name}`);
  const digits = (raw.split(/[eE]/)[0]!.match(/\d/g) ?? []).length;
  for (const d of DIGITS) if (digits > d) out.add(`${path}:digits>${d}`);
}

const DEPTHS = [16, 100, 1000, 10_000] as const;

/** The depth features of a nested value. */
export function depthFeatures(path: string, depth: number, out: Set<string>): void {
  for (const d of DEPTHS) if (depth > d) out.add(`${path}:depth>${d}`);
}
