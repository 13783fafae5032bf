/**
 * npm run bench:capacity — how repeatable a capacity search is, and whether a target slowed on purpose
 * comes out lower by the expected ratio, side by side in one run: each round searches the reference
 * target, the same target behind 4 workers and behind 2 (a worker busy 20 ms per request: half the
 * throughput, expected ratio 0.5), in an order that turns every round, with the generator's ceiling (the
 * bare k6 loop) and the load average. Goals: each target's searches within ±10 % of their median; the
 * ratio 0.5 within ±20 %. Prints every round and the verdicts; writes the figures under reports/load/.
 *
 *   npm run bench:capacity -- [--rounds 3] [--budget 7m] [--seed 4242] [--targets reference,fast,slow]
 *
 * --targets: the targets searched each round (`reference` alone: the repeatability on the reference target).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { benchCapacity, CAPACITY_BENCH_OPTIONS, capacityBenchOptions } from '../proof/bench/capacity.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

async function main(): Promise<number> {
  const { values } = parseArgs({ options: CAPACITY_BENCH_OPTIONS, strict: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  await benchCapacity(capacityBenchOptions(values));
  return 0;
}

runCommand('bench:capacity', main, {
  usage: USAGE,
  failure: (err) => `bench:capacity failed: ${err.message}`,
  failureCode: 1,
});
