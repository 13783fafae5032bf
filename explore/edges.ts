/**
 * Values at the edges of what a parameter allows, beside the ordinary ones of arbitraries.ts: numbers no
 * double holds (twenty digits, thousands of digits, `1e300`, `-0`), arrays nested thousands of levels
 * deep within the payload limit, texts as long as a request line carries, and the header variants of
 * headers.ts. Each shrinks along one integer (digits, depth, length) or to its plainest form, so a failure
 * bound to a threshold shrinks to the threshold itself: the same minimal input under any seed.
 */
import fc from 'fast-check';
import type { OperationId } from '../contracts/check.ts';
import { headerVariantsFor } from './headers.ts';
import type { ExploreInput, Nest, RawNumber } from './model.ts';
import { repeated, textOf, type Repeat, type Text } from './text.ts';

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
 * The input with, now and then, one header variant its operation can carry; shrinking drops it first, so
 * a failure that does not need it loses it.
 */
export function withHeaderVariants(op: OperationId, arb: fc.Arbitrary<ExploreInput>): fc.Arbitrary<ExploreInput> {
  const header = fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constant(undefined), weight: 3 },
    { arbitrary: fc.constantFrom(...headerVariantsFor(op)), weight: 1 },
  );
  return fc.tuple(arb, header).map(([input, h]) => (h === undefined ? input : { ...input, header: h }));
}
