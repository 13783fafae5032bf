/**
 * Values at the edges of what a parameter allows, beside the ordinary ones of arbitraries.ts: numbers no
 * double holds (twenty digits, thousands of digits, `1e300`, `-0`), arrays nested thousands of levels
 * deep within the payload limit, texts as long as a request line carries, and the header variants of
 * headers.ts. Each shrinks along one integer (digits, depth, length) or to its plainest form, so a failure
 * bound to a threshold shrinks to the threshold itself: the same minimal input under any seed.
 */
import fc from 'fast-check';
import type { OperationId } from '../../contracts/check.ts';
import { headerVariantsFor } from './headers.ts';
import type { ExploreInput, Nest, RawNumber } from './model.ts';
import { inOrder, LIMIT_EXPONENTS, repeated, textOf, type Repeat, type Text } from './text.ts';

/**
 * Whole numbers of 16 digits and more (beyond 2^53 already), numbers in exponent form (`6.8e+89`, `1E-7`,
 * `1e400` beyond a double) and negative zero, written as they are sent. `maxDigits` keeps them within
 * what the parameter can carry (a request line, the payload limit).
 */
export function rawNumber(maxDigits: number): fc.Arbitrary<RawNumber> {
  const digits = fc
    .record({ digits: fc.integer({ min: 16, max: maxDigits }), negative: fc.boolean() })
    .map(({ digits, negative }) => `${negative ? '-' : ''}${'9'.repeat(digits)}`);
  const exponent = fc
    .record({
      mantissa: fc.integer({ min: 1, max: 9 }),
      fraction: fc.option(fc.integer({ min: 1, max: 99 }), { nil: undefined }),
      exponent: fc.integer({ min: -400, max: 400 }),
      mark: fc.constantFrom('e', 'E', 'e+'),
    })
    .map(({ mantissa, fraction, exponent, mark }) => {
      const e = exponent < 0 ? `${mark[0]}${exponent}` : `${mark}${exponent}`;
      return `${mantissa}${fraction === undefined ? '' : `.${fraction}`}${e}`;
    });
  return fc
    .oneof(
      { withCrossShrink: true },
      { arbitrary: digits, weight: 3 },
      { arbitrary: exponent, weight: 2 },
      { arbitrary: fc.constantFrom('-0', '-0.0', '-0e0'), weight: 1 },
    )
    .map(($number) => ({ $number }));
}

/**
 * Whole numbers at and beside each classic limit (2^15, 2^16, 2^31, 2^32, 2^53, 2^63, 2^64; one less, the
 * limit, one more; either sign), written exactly: where a 16-, 32- or 64-bit reader, signed or unsigned,
 * overflows, or a double stops holding integers. Shrinks towards 2^15 − 1.
 */
export const boundaryInteger: fc.Arbitrary<RawNumber> = fc
  .record({
    limit: fc.nat(LIMIT_EXPONENTS.length - 1),
    side: fc.integer({ min: -1, max: 1 }),
    negative: fc.boolean(),
  })
  .map(({ limit, side, negative }) => {
    const v = 2n ** BigInt(LIMIT_EXPONENTS[limit]!) + BigInt(side);
    return { $number: `${negative ? '-' : ''}${v}` };
  });

/**
 * Numbers in exponent form at the edges of a double (its largest, just past it, below its smallest) and
 * with an exponent no 32- or 64-bit integer holds; the plainest first.
 */
export const EXPONENT_EDGES = [
  '1e308',
  '1.7976931348623157e308',
  '1e309',
  '-1e309',
  '1e-400',
  '1e99999999999',
  '1e-99999999999',
  '1e99999999999999999999',
] as const;

export const exponentEdge: fc.Arbitrary<RawNumber> = inOrder(EXPONENT_EDGES).map(($number) => ({ $number }));

/** A number at an edge: at or beside a classic limit, or in exponent form at the edge of a double. */
export const edgeNumber: fc.Arbitrary<RawNumber> = fc.oneof({ withCrossShrink: true }, boundaryInteger, exponentEdge);

/** Page sizes a server's maximum likely admits, smallest first: the pair is sent as the server will read it. */
const PAGE_SIZES = [10, 20, 50, 100, 1000] as const;

/**
 * A page and a page size whose offset, (page − 1) × pageSize, lands just below or just past a classic
 * limit while the page itself stays small: what overflows a server that multiplies in 32 bits after
 * checking each number alone. Shrinks to the smallest limit, the smallest page size, just below.
 */
export const pagingPair: fc.Arbitrary<{ page: RawNumber; pageSize: number }> = fc
  .record({
    limit: fc.nat(LIMIT_EXPONENTS.length - 1),
    size: fc.nat(PAGE_SIZES.length - 1),
    past: fc.boolean(),
  })
  .map(({ limit, size, past }) => {
    const pageSize = PAGE_SIZES[size]!;
    const below = 2n ** BigInt(LIMIT_EXPONENTS[limit]!) / BigInt(pageSize);
    return { page: { $number: String(below + (past ? 2n : 1n)) }, pageSize };
  });

/** §8: 100KB. Arrays nested this deep are 98,000 bytes of brackets: a body holding one stays within it. */
export const DEEPEST = 49_000;

/** Arrays nested from one level (`[]`) to DEEPEST. */
export const nest: fc.Arbitrary<Nest> = fc.integer({ min: 1, max: DEEPEST }).map(($nest) => ({ $nest }));

/**
 * A repeated text cut to `octets` once encoded in a URL, as a path segment or as a query value (which
 * escapes `!'()*` too); units of four-byte characters take twelve octets each.
 */
function fitUrl(t: Repeat, octets: number): Repeat {
  const unit = Math.max(
    encodeURIComponent(t.$repeat).length,
    new URLSearchParams({ q: t.$repeat }).toString().length - 2,
  );
  return { ...t, times: Math.max(1, Math.min(t.times, Math.floor(octets / unit))) };
}

/**
 * A long text for a request line, at most `octets` once encoded: RFC 9110 asks every server for 8000
 * octets of request line, and what goes beyond is answered by the HTTP stack (414, 431), not by the
 * operation, so the texts of one request share 6000-odd octets.
 */
export const longUrlText = (octets: number): fc.Arbitrary<Text> => repeated(1, octets).map((t) => fitUrl(t, octets));

/** A long name (a variable name, a field name): a unit repeated up to `maxTimes` times, as a string. */
export const longName = (maxTimes: number): fc.Arbitrary<string> => repeated(1, maxTimes).map(textOf);

/**
 * The input with, now and then, one header variant its operation can carry, a broken framing of its body
 * as often as all the other variants together; shrinking drops it first, so a failure that does not need
 * it loses it.
 */
export function withHeaderVariants(op: OperationId, arb: fc.Arbitrary<ExploreInput>): fc.Arbitrary<ExploreInput> {
  const variants = headerVariantsFor(op);
  const framings = variants.filter((v) => v.startsWith('framing='));
  const others = variants.filter((v) => !v.startsWith('framing='));
  const header = fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constant(undefined), weight: 6 },
    { arbitrary: fc.constantFrom(...others), weight: 2 },
    ...(framings.length ? [{ arbitrary: fc.constantFrom(...framings), weight: 2 }] : []),
  );
  return fc.tuple(arb, header).map(([input, h]) => (h === undefined ? input : { ...input, header: h }));
}
