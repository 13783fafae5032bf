/**
 * How long answers take, judged against the operation's own ordinary time: slow only when many times
 * slower and over a second; growth named as a vendor reads it; a stall only when the other request waited
 * for most of the slow one. The judges record a should-level failure on the exchange they are given.
 */
import { expect, test } from '@playwright/test';
import { EvidenceInMemory, type CheckRecord } from '../evidence/records.ts';
import { Verdict } from '../evidence/verdict.ts';
import type { Exchange } from '../transport/exchange.ts';
import {
  growthOf,
  growthWords,
  INPUT_NOT_SLOW,
  judgeSlowAnswer,
  judgeStall,
  NO_STALL,
  slowerThanOrdinary,
  stalled,
} from './latency.ts';

test('slow is many times the ordinary time and over a second, never either alone', () => {
  expect(slowerThanOrdinary(1_200, 5)).toBe(true);
  expect(slowerThanOrdinary(900, 5)).toBe(false); // under a second: noise on a busy machine
  expect(slowerThanOrdinary(2_500, 300)).toBe(false); // a server slow at everything is not slow on one input
  expect(slowerThanOrdinary(3_500, 300)).toBe(true);
});

test('growth when the run doubles: linear, the square, the cube, the ordinary time taken off', () => {
  expect(growthWords(growthOf(2_000, 1_000, 0))).toBe(
    '×2.0 when the run doubles: grows about linearly with its length',
  );
  expect(growthWords(growthOf(4_010, 1_010, 10))).toBe(
    '×4.0 when the run doubles: grows with the square of its length',
  );
  expect(growthWords(growthOf(8_000, 1_000, 0))).toBe('×8.0 when the run doubles: grows with the cube of its length');
  expect(growthOf(32_000, 1_000, 0).exponent).toBe(5);
});

test('a stall is a wait that is slow itself and lasts for most of the slow request', () => {
  expect(stalled({ slowMs: 4_000, waitedMs: 3_900, ordinaryMs: 3 })).toBe(true);
  expect(stalled({ slowMs: 4_000, waitedMs: 40, ordinaryMs: 3 })).toBe(false);
  expect(stalled({ slowMs: 9_000, waitedMs: 1_100, ordinaryMs: 3 })).toBe(false); // a wait of its own
});

test('the judges record a should-level failure on the exchange, with the times and the growth in words', () => {
  const records = new EvidenceInMemory();
  const verdict = Verdict.detached(records);
  const ex = { record: { id: 'x-1' } } as Exchange;
  judgeSlowAnswer(verdict, ex, {
    what: 'a run of 5,312 spaces in query',
    ms: 1_130,
    ordinaryMs: 11,
    growth: growthOf(2_700, 680, 11),
  });
  judgeStall(verdict, ex, {
    slow: 'generateWorkflow on a run',
    slowMs: 4_500,
    cheap: 'a search',
    waitedMs: 4_400,
    ordinaryMs: 1,
  });
  const [slow, stall] = records.take('x-1') as CheckRecord[];
  expect(slow).toMatchObject({ requirementId: INPUT_NOT_SLOW, level: 'should', outcome: 'fail' });
  expect(slow!.message).toBe(
    'answers slowly on a run of 5,312 spaces in query (1.1 s against 11 ms); ×4.0 when the run doubles: grows with the square of its length',
  );
  expect(stall).toMatchObject({ requirementId: NO_STALL, level: 'should', outcome: 'fail' });
  expect(stall!.message).toBe(
    'one request stalls the whole server: a search, sent while generateWorkflow on a run took 4.5 s, waited 4.4 s (against 1 ms)',
  );
});
