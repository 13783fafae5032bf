/**
 * Waiting out a 429 (§8: rate limits not shown, so a 429 is legal): Retry-After is honoured when it asks
 * for no longer than the harness waits, a few times at most.
 */

/** Bounds of waiting out a 429: at most this many attempts, each wait at most MAX_RETRY_WAIT_MS. */
export const RATE_LIMIT_ATTEMPTS = 3;
const MAX_RETRY_WAIT_MS = 5_000;

/** Retry-After (delta-seconds or an HTTP date; absent → 1 s) in ms; undefined when it asks for longer than we wait. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  let ms = 1_000;
  if (value !== undefined && value.trim() !== '') {
    const v = value.trim();
    if (/^\d+$/.test(v)) ms = Number(v) * 1000;
    else if (!Number.isNaN(Date.parse(v))) ms = Math.max(0, Date.parse(v) - now);
  }
  return ms <= MAX_RETRY_WAIT_MS ? ms : undefined;
}
