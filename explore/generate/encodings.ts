/**
 * Broken encodings, where a decoder meets them: percent-escapes that do not decode as UTF-8 in a URL (every
 * query value, every path id) and ill-formed escapes in a JSON string (lone surrogates, which a JSON text may
 * carry but no UTF-8 can; escapes that are no escape at all). Each is sent as written, never re-encoded.
 *
 * Each list starts with the plainest member, so a failure shrinks to it whichever member reached it: `%FF`,
 * `\udc00`. The class a failure is named by is what the decoder meets (`not-utf8`, `lone-surrogate`,
 * `bad-escape`), whichever parameter carried it: a decoder breaks on a class of bytes, not on a name.
 */
import type fc from 'fast-check';
import type { JsonEscape, Percent } from './model.ts';
import { inOrder } from './text.ts';

/**
 * Escapes whose bytes are no UTF-8: a lone 0xFF, an overlong `/`, a lone continuation byte, an encoded
 * surrogate, a sequence cut short, a five-byte form, 0xFE.
 */
export const NOT_UTF8 = ['%FF', '%C0%AF', '%80', '%ED%A0%80', '%E0%80', '%F8%88%80%80%80', '%FE'] as const;

/** Lone surrogates (a JSON text may carry them, UTF-8 cannot), then escapes that are none. */
export const ILL_FORMED_ESCAPES = [
  '\\udc00',
  '\\ud800',
  '\\ud800\\ud800',
  '\\udc00\\ud800',
  'a\\udfff',
  '\\ud83d!',
  '\\uZZZZ',
  '\\u12',
  '\\x41',
] as const;

export const percentEscape: fc.Arbitrary<Percent> = inOrder(NOT_UTF8).map(($percent) => ({ $percent }));

export const jsonEscape: fc.Arbitrary<JsonEscape> = inOrder(ILL_FORMED_ESCAPES).map(($escape) => ({ $escape }));

export function isPercent(v: unknown): v is Percent {
  return typeof v === 'object' && v !== null && typeof (v as Percent).$percent === 'string';
}

export function isJsonEscape(v: unknown): v is JsonEscape {
  return typeof v === 'object' && v !== null && typeof (v as JsonEscape).$escape === 'string';
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What a decoder meets in a JSON string so written: a lone surrogate, or an escape that is none. */
export function escapeClass(escaped: string): 'lone-surrogate' | 'bad-escape' {
  try {
    return LONE_SURROGATE.test(JSON.parse(`"${escaped}"`) as string) ? 'lone-surrogate' : 'bad-escape';
  } catch {
    return 'bad-escape';
  }
}

/** The features of what a decoder meets, whatever parameter carries it. */
export const ENCODING_CLASSES: readonly string[] = ['not-utf8', 'lone-surrogate', 'bad-escape'];
