/**
 * Requests that the HTTP layer of many stacks refuses before the API sees them: a request target that no
 * implementation could route to an endpoint as the operation's path, whatever its own code does. Tomcat
 * (and so every Spring Boot service) answers 400 to an encoded slash, backslash or NUL in a path and to a
 * percent-escape that is malformed or not UTF-8; Spring Security's firewall refuses an encoded percent
 * and a `;`; many gateways refuse control characters. RFC 9110 lets a server answer 400 to a request
 * target it will not route, and the status lists of §4 cover each endpoint's own outcomes: such a
 * refusal (a 4xx) is observed under HTTP-LAYER-REFUSAL, not failed. A 5xx, a hang or a reset still fails.
 *
 * Pure: it reads the request target as sent (still percent-encoded).
 */
import type { ObserveClauseId } from '../../contracts/requirements.ts';

/** The observe clause a 4xx refusal of such a request is recorded under. */
export const HTTP_LAYER_REFUSAL = 'HTTP-LAYER-REFUSAL' as const satisfies ObserveClauseId;

const ESCAPE = /%([0-9A-Fa-f]{2})/g;

/** Whether a run of percent-escapes decodes as UTF-8 (a lone `%FF`, an overlong `%C0%AF` do not). */
function decodesAsUtf8(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** Why the HTTP layer of a common stack may refuse this part of a request target, or undefined. */
function refusalIn(part: string, where: 'path' | 'query'): string | undefined {
  if (/%(?![0-9A-Fa-f]{2})/.test(part)) return `a malformed percent-escape in the ${where}`;
  if (!decodesAsUtf8(part.replace(/\+/g, ' '))) return `a percent-escape that is not UTF-8 in the ${where}`;
  if (where === 'query') return undefined;
  const escaped = [...part.matchAll(ESCAPE)].map((m) => Number.parseInt(m[1]!, 16));
  if (escaped.some((b) => b < 0x20 || b === 0x7f))
    return 'an encoded control character (NUL and the like) in a path id';
  if (escaped.includes(0x2f)) return 'an encoded slash in a path id';
  if (escaped.includes(0x5c) || part.includes('\\')) return 'a backslash in a path id';
  if (escaped.includes(0x25)) return 'an encoded percent sign in a path id';
  if (part.includes(';')) return 'a semicolon (a path parameter to Tomcat) in a path id';
  if (escaped.includes(0x2e)) return 'an encoded dot in a path id';
  if (/\/\/|\/\.{1,2}(\/|$)/.test(part)) return 'an empty or dot segment in the path';
  return undefined;
}

/**
 * Why the HTTP layer of a common stack may refuse a request to `target` before the API sees it, or
 * undefined for a request target every stack routes. `target` is the URL as sent.
 */
export function httpLayerRefusalOf(target: URL): string | undefined {
  return refusalIn(target.pathname, 'path') ?? (target.search ? refusalIn(target.search.slice(1), 'query') : undefined);
}

/**
 * Request lines this long are beyond what many servers take by default (gunicorn 4,094 octets, Apache
 * 8,190, nginx 8 KB of headers); RFC 9110 only recommends 8,000 at least. Shorter ones are taken by all.
 */
const LONG_REQUEST_LINE = 2_048;

/**
 * Why a refusal (a 4xx) is the HTTP layer's limit on this request and not the operation's answer: its request
 * target is longer than every stack takes. RFC 9110 asks for a 414, but the layers answer as they do:
 * nginx 414, Tomcat and gunicorn a plain 400, Node a 431. Undefined otherwise.
 */
export function httpLayerLimitOf(target: URL, status: number | undefined): string | undefined {
  if (status === undefined || status < 400 || status >= 500) return undefined;
  const octets = target.pathname.length + target.search.length;
  return octets > LONG_REQUEST_LINE
    ? `a request target of ${octets} octets (the HTTP layer's length limit)`
    : undefined;
}
