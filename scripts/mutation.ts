/**
 * `npm run mutation`: the conformance suite against each injected bug and legal variant
 * (proof/mutation.ts), as a score table.
 *
 *   npm run mutation -- [--only id,id] [--category c,c] [--kind bug,should,legal,harness-limit]
 *                       [--parallel N] [--workers N] [--seed N] [--timeout S]
 *                       [--max-failures N (default 0: every run in full)] [--focus] [--list]
 *                       [--explore inputs|all|none (default inputs)] [-- <playwright args>]
 *
 * The catalogue is fixtures/faults/catalogue.ts and the input-crash entries of fixtures/faults/input-crashes.ts.
 * The scripted suites run against every entry; the generative mode (`wfcheck explore`, at its default budget)
 * also runs against the input-crash entries and the control (--explore inputs), every entry (all) or none,
 * and the table says which mode caught each entry: the suites alone, the generative mode alone, both or neither.
 *
 * Per entry the table shows the findings reported against the deviations the entry injects (exact when
 * they are equal and nothing is collateral; the ones not exact are listed finding by finding under the
 * table), the clauses expected, the clauses flagged, the collateral (flagged but not expected), the
 * blocked clauses with the clause that blocked them, and the wall time; the totals add the wall time of
 * each single-operation fault entry. Collateral is judged on
 * full runs: --max-failures cuts bug runs short and so may hide it (the report says so). An entry
 * naming `stillRuns` (clauses of suites its deviation does not concern) runs the full suite, uncut,
 * even with --focus, and is STARVED when one of them was not exercised.
 *
 * Arguments after `--` go to every conformance run's test runner (e.g. `-- --grep-invert ODD-IDS`).
 * Writes reports/mutation/report.json and report.md (and each run's report under runs/<id>/).
 * Exit: 0 every bug killed by its clause without collateral, every should-level entry warned, every
 * legal variant clean, every count of findings exact and no entry starving the suites it names;
 * 1 otherwise; 2 the control run (the unmodified target behind the proxy) failed, so no result would
 * mean anything.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { MUTATION_OPTIONS, runMutationCommand } from '../proof/mutation/command.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ options: MUTATION_OPTIONS, strict: true, allowPositionals: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  return runMutationCommand(values, positionals);
}

runCommand('mutation', main, { usage: USAGE, failure: (err) => `mutation: ${err.stack ?? err.message}` });
