/**
 * How long an answer took, against how long the same operation ordinarily takes on the same target. The
 * specification states no latency, so both clauses are should-level, and the bar is relative: an input
 * answered many times slower than its operation's ordinary answers, and over a second, is slow
 * (INPUT-NOT-SLOW: a step-splitting regex growing with the square of a run of spaces takes minutes where a
 * prompt takes milliseconds); a cheap request sent on another connection while such a request is in flight
 * that waits too shows one request holding up the whole server (ONE-REQUEST-NO-STALL).
 *
 * The caller measures (it knows what it sent and how often); this decides and records, so a clause reads
 * the same whatever measured it.
 */
import type { ClauseId } from '../../contracts/requirements.ts';
import type { Exchange } from '../transport/exchange.ts';
import { judge } from './judge.ts';

export const INPUT_NOT_SLOW = 'INPUT-NOT-SLOW' as const satisfies ClauseId;
export const NO_STALL = 'ONE-REQUEST-NO-STALL' as const satisfies ClauseId;

/** The judge of answer times against the operation's ordinary ones. */
export const latency = judge('how long answers take', [INPUT_NOT_SLOW, NO_STALL]);

/** An answer this many times slower than the ordinary ones of its operation… */
export const SLOW_FACTOR = 10;
/** …and slower than this, is slow: milliseconds of difference are noise on a shared machine, not a class of input. */
export const SLOW_FLOOR_MS = 1_000;

/** Whether an answer of `ms` is slow for an operation that ordinarily answers in `ordinaryMs`. */
export function slowerThanOrdinary(ms: number, ordinaryMs: number): boolean {
  return ms >= SLOW_FLOOR_MS && ms >= SLOW_FACTOR * Math.max(ordinaryMs, 1);
}

/** How the time of an answer changes when its input doubles. */
export interface Growth {
  /** The time at the length, and at half of it (ms), the ordinary time taken off both. */
  ratio: number;
  /** log2 of the ratio: 1 linear, 2 the square, 3 the cube. */
  exponent: number;
}

/** The growth between a length and its half, from the times measured at both. */
export function growthOf(ms: number, halfMs: number, ordinaryMs: number): Growth {
  const ratio = Math.max(ms - ordinaryMs, 1) / Math.max(halfMs - ordinaryMs, 1);
  return { ratio, exponent: Math.log2(ratio) };
}

/** The growth in words a vendor recognises: "×4.1 when the run doubles: grows with the square of its length". */
export function growthWords(g: Growth): string {
  const k = g.exponent;
  const how =
    k < 1.5
      ? 'grows about linearly with its length'
      : k < 2.5
        ? 'grows with the square of its length'
        : k < 3.5
          ? 'grows with the cube of its length'
          : 'grows faster than the cube of its length';
  return `×${g.ratio.toFixed(1)} when the run doubles: ${how}`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export interface SlowAnswer {
  /** What was sent, in words ("a run of 1,024 spaces in query"). */
  what: string;
  ms: number;
  ordinaryMs: number;
  /** No answer came within the deadline: `ms` is the deadline. */
  abandoned?: boolean;
  growth?: Growth;
}

/** INPUT-NOT-SLOW failed on the exchange that answered slowly (or not at all). */
export const judgeSlowAnswer = latency.judges((verdict, ex: Exchange, t: SlowAnswer): void => {
  const took = t.abandoned ? `no answer within ${seconds(t.ms)}` : seconds(t.ms);
  const growth = t.growth ? `; ${growthWords(t.growth)}` : '';
  verdict.check(
    INPUT_NOT_SLOW,
    false,
    {
      message: `answers slowly on ${t.what} (${took} against ${Math.round(t.ordinaryMs)} ms)${growth}`,
      expected: `about the operation's ordinary ${Math.round(t.ordinaryMs)} ms (under ${SLOW_FACTOR}× it, or under ${seconds(SLOW_FLOOR_MS)})`,
      actual: took,
      exchangeId: ex.record.id,
    },
    'contract',
  );
});

export interface Stall {
  /** The slow request in words ("generateWorkflow on a run of 4,096 spaces in query"). */
  slow: string;
  slowMs: number;
  /** The cheap request that waited ("a search with the other key"), its time and its ordinary time. */
  cheap: string;
  waitedMs: number;
  ordinaryMs: number;
}

/** Whether the cheap request waited for the slow one: slow itself, and for most of the slow one's time. */
export function stalled(s: Pick<Stall, 'slowMs' | 'waitedMs' | 'ordinaryMs'>): boolean {
  return slowerThanOrdinary(s.waitedMs, s.ordinaryMs) && s.waitedMs >= s.slowMs / 2;
}

/** ONE-REQUEST-NO-STALL failed on the exchange of the cheap request that waited. */
export const judgeStall = latency.judges((verdict, ex: Exchange, s: Stall): void => {
  verdict.check(
    NO_STALL,
    false,
    {
      message:
        `one request stalls the whole server: ${s.cheap}, sent while ${s.slow} took ${seconds(s.slowMs)}, ` +
        `waited ${seconds(s.waitedMs)} (against ${Math.round(s.ordinaryMs)} ms)`,
      expected: `the other request answered in about its ordinary ${Math.round(s.ordinaryMs)} ms`,
      actual: `${seconds(s.waitedMs)}, while the slow request was in flight`,
      exchangeId: ex.record.id,
    },
    'contract',
  );
});
