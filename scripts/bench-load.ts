/**
 * npm run bench:load — measures the load generator itself, side by side in
 * one run against the same reference target:
 *   1. the suite on the status-read route with a contract check on every response and no memo (checked
 *      in Node, --contract-mode offload), against a bare k6 request loop on the same route (goal ≥ 0.8),
 *      next to wrk, the suite with checks off, with memoised verdicts, and checking in the VU,
 *   2. the suite's lifecycle mix (upload → run with a file variable → poll → output, a share aborted),
 *      every response checked in Node, no memo, against the same mix as a bare k6 loop (goal ≥ 0.7),
 *   3. k6 memory per VU (peak RSS at two VU counts),
 *   4. what one contract check costs, in µs, inside k6's runtime and in Node, on the
 *      same response bodies (proof/bench/k6/check-samples.ts), with JSON.parse alone in k6
 *      as the share no checking code can avoid.
 * Each goal's pair runs back to back, its order flipped every round, so drift on a shared machine hits
 * both sides alike; every round's figures and ratios are printed, the verdicts take the median ratio.
 *
 *   npm run bench:load -- [--rounds 3] [--seconds 10] [--connections 10] [--skip-memory]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { benchLoad, LOAD_BENCH_OPTIONS, loadBenchOptions } from '../proof/bench/load.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

async function main(): Promise<number> {
  const { values } = parseArgs({ options: LOAD_BENCH_OPTIONS, strict: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  await benchLoad(loadBenchOptions(values));
  return 0;
}

runCommand('bench:load', main, { usage: USAGE, failure: (err) => `bench:load failed: ${err.message}`, failureCode: 1 });
