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
import { positiveInt, SettingError, wholeNumber } from '../core/settings/rules.ts';
import { DEFAULT_BUDGET_S } from '../load/capacity/search.ts';
import { benchCapacity, NAMES, type Name } from '../proof/bench/capacity.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

function targetsOf(text: string | undefined): Name[] {
  if (text === undefined) return [...NAMES];
  const given = text.split(',').map((t) => t.trim());
  const unknown = given.filter((t) => !(NAMES as readonly string[]).includes(t));
  if (unknown.length > 0 || given.length === 0)
    throw new SettingError(`--targets takes ${NAMES.join(', ')} (comma-separated), got "${text}"`);
  return given as Name[];
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string' },
      budget: { type: 'string' },
      seed: { type: 'string' },
      targets: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  await benchCapacity({
    rounds: positiveInt(values.rounds, '--rounds', 3),
    budget: values.budget ?? `${DEFAULT_BUDGET_S}s`,
    seed: wholeNumber(values.seed, '--seed', 4242),
    targets: targetsOf(values.targets),
  });
  return 0;
}

runCommand('bench:capacity', main, {
  usage: USAGE,
  failure: (err) => `bench:capacity failed: ${err.message}`,
  failureCode: 1,
});
