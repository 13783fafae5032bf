/**
 * k6 side of `npm run bench:load`: microseconds per contract check inside k6's JavaScript
 * runtime, per response kind, next to JSON.parse of the same body alone (the share no
 * checking code can avoid). One VU, one iteration; prints one line `CHECK-COST <json>`.
 *
 *   k6 run --quiet proof/bench/k6/check-cost.ts
 */
import * as bundle from '../../../contracts/generated/check.k6.js';
import type { checkResponse as CheckResponse } from '../../../contracts/check.ts';
import { CHECK_COST_MARKER, CHECK_HEADERS, CHECK_SAMPLES, type CheckCost } from './check-samples.ts';
import { readCheckCostCalls } from './settings.ts';

const checkResponse = bundle.checkResponse as typeof CheckResponse;

export const options = { vus: 1, iterations: 1 };

const ROUNDS = 5;
const CALLS = readCheckCostCalls();

/** Median over rounds of the mean µs per call (Date.now() has ms resolution, so each round makes many calls). */
function microseconds(fn: () => unknown): number {
  for (let i = 0; i < 100; i++) fn();
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = Date.now();
    for (let i = 0; i < CALLS; i++) fn();
    rounds.push(((Date.now() - start) * 1000) / CALLS);
  }
  rounds.sort((a, b) => a - b);
  return rounds[ROUNDS >> 1]!;
}

export default function (): void {
  const figures: CheckCost[] = CHECK_SAMPLES.map((s) => {
    const input = { operation: s.operation, status: s.status, headers: CHECK_HEADERS, body: s.body };
    if (s.status === 200 && checkResponse(input).length > 0) throw new Error(`sample ${s.name} does not conform`);
    return {
      name: s.name,
      bytes: s.body.length,
      checkUs: microseconds(() => checkResponse(input)),
      jsonParseUs: microseconds(() => JSON.parse(s.body)),
    };
  });
  console.log(CHECK_COST_MARKER + JSON.stringify(figures));
}
