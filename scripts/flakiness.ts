/**
 * `npm run flakiness`: runs the conformance suite N times with different seeds against the reference
 * target and reports every result that is not the same from run to run (fixtures/proof/flakiness.ts).
 *
 *   npm run flakiness -- [--runs N (default 20)] [--parallel N (default 2)] [--first-seed S (default 1000)]
 *                        [--workers N (default 2)] [--timeout S (default 300)] [--target harness|inprocess]
 *
 * --target harness (default): each run is a plain `npm run conformance` that boots the reference target
 *   itself (container or local process), exactly the hermetic path CI uses.
 * --target inprocess: a fresh reference target per run, started here and given through BASE_URL.
 *
 * Writes reports/flakiness/report.json and report.md.
 * Exit: 0 all runs passed with identical verdicts; 1 otherwise.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../fixtures/environment/command.ts';
import { number, oneOf, positiveInt, wholeNumber } from '../fixtures/environment/rules.ts';
import { FLAKINESS_TARGETS, flakinessSeeds, runFlakiness, writeFlakinessReport, type FlakinessOptions } from '../fixtures/proof/flakiness.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

function readOptions(): FlakinessOptions | undefined {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string' },
      parallel: { type: 'string' },
      'first-seed': { type: 'string' },
      workers: { type: 'string' },
      timeout: { type: 'string' },
      target: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return undefined;
  return {
    runs: positiveInt(values.runs, '--runs', 20),
    parallel: positiveInt(values.parallel, '--parallel', 2),
    firstSeed: wholeNumber(values['first-seed'], '--first-seed', 1000),
    workers: positiveInt(values.workers, '--workers', 2),
    timeoutS: number(values.timeout, '--timeout', 300, { positive: true }),
    target: oneOf(values.target, '--target', FLAKINESS_TARGETS, 'harness'),
  };
}

async function main(): Promise<number> {
  const o = readOptions();
  if (!o) {
    console.log(USAGE);
    return 0;
  }
  const seeds = flakinessSeeds(o.firstSeed, o.runs);
  console.log(`flakiness: ${o.runs} conformance runs, seeds ${seeds[0]}…${seeds[o.runs - 1]} (step 7919), ${Math.min(o.parallel, o.runs)} at a time, target: ${o.target}`);
  const report = await runFlakiness(o);
  const md = writeFlakinessReport(report);
  console.log('\n' + md);
  console.log(`\nreports: reports/flakiness/report.md, reports/flakiness/report.json`);
  return report.ok ? 0 : 1;
}

runCommand('flakiness', main, { usage: USAGE, failure: (err) => `flakiness: ${err.stack ?? err.message}` });
