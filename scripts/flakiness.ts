/**
 * `npm run flakiness`: runs the conformance suite N times with different seeds against the reference
 * target and reports every result that is not the same from run to run (proof/flakiness.ts).
 *
 *   npm run flakiness -- [--runs N (default 20)] [--parallel N (default 2)] [--first-seed S (default 1000)]
 *                        [--workers N (default 2)] [--timeout S (default 300)] [--target harness|inprocess]
 *
 * --target harness (default): each run is a plain `npm run conformance` that boots the reference target
 *   itself (container or local process), exactly the hermetic path CI uses.
 * --target inprocess: a fresh reference target per run, started here and given through BASE_URL.
 *
 * --same-target: ONE reference target process (in process), the suite run --runs times against it, as
 *   a nightly job meets a staging target that lives for months; [--preload N] gives tenant A N more
 *   workflows first, [--node-duration-ms N] slows every node step, [--no-memory] makes discovery search
 *   afresh every run (no discovery memory kept between runs), [--allow-overwrite] lets generate
 *   reuse a canvas. Prints per run the requirements exercised, warnings and failures; fails when any
 *   run differs from the first.
 *
 * Writes reports/flakiness/report.json and report.md (--same-target: same-target.json / .md).
 * Exit: 0 all runs passed with identical verdicts; 1 otherwise.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { FLAKINESS_OPTIONS, runFlakinessCommand } from '../proof/flakiness-command.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

async function main(): Promise<number> {
  const { values } = parseArgs({ options: FLAKINESS_OPTIONS, strict: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  return runFlakinessCommand(values);
}

runCommand('flakiness', main, { usage: USAGE, failure: (err) => `flakiness: ${err.stack ?? err.message}` });
