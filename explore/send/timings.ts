/**
 * How long each operation ordinarily answers on the target, measured as the run goes: the median of its
 * recent answers. The bar for "slow" is this target's own, not a number the specification never gives: a
 * server that takes 300 ms for every search is not slow on any of them.
 */
import { slowerThanOrdinary } from '../../core/judging/latency.ts';
import type { Exchange } from '../../core/transport/exchange.ts';

/** Answers kept per operation: the recent ones (a target warms up, a shared machine gets busier). */
const KEPT = 64;
/** Answers needed before an operation has an ordinary time (one answer is no habit). */
export const MIN_SAMPLES = 3;

export class Timings {
  private readonly byOp = new Map<string, number[]>();

  /**
   * Keeps the time of an answer that came (a fault or a rate limit says nothing of the time an answer takes),
   * unless it is slow against the time already known: a slow class of input is no ordinary time.
   */
  record(ex: Exchange): void {
    if (!ex.operation || ex.status === undefined || ex.fault || ex.status === 429) return;
    const ms = ex.record.durationMs;
    const ordinary = this.ordinaryMs(ex.operation);
    if (ordinary !== undefined && slowerThanOrdinary(ms, ordinary)) return;
    const list = this.byOp.get(ex.operation) ?? [];
    this.byOp.set(ex.operation, list);
    list.push(ms);
    if (list.length > KEPT) list.shift();
  }

  /** The median of the operation's recent answers, once there are enough of them. */
  ordinaryMs(op: string): number | undefined {
    const list = this.byOp.get(op);
    if (!list || list.length < MIN_SAMPLES) return undefined;
    const sorted = [...list].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  }
}

/**
 * How long an exchange took as slowness reads it: its time, or the deadline for one given up at it;
 * undefined for no answer of any other kind (refused, reset: no time to speak of).
 */
export function timeOf(ex: Exchange, deadlineMs: number): { ms: number; abandoned: boolean } | undefined {
  if (ex.fault?.kind === 'timeout') return { ms: Math.max(ex.record.durationMs, deadlineMs), abandoned: true };
  if (ex.status === undefined || ex.fault) return undefined;
  return { ms: ex.record.durationMs, abandoned: false };
}
