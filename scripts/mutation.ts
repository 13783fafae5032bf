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
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { PACKAGE_ROOT } from '../core/settings/roots.ts';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { number, positiveInt, SettingError, wholeNumber } from '../core/settings/rules.ts';
import { kindOf } from '../fixtures/faults/catalogue.ts';
import {
  CONTROL_ID,
  DEFAULT_MUTATION_SEED,
  ENTRIES,
  explores,
  mutationTable,
  runMutation,
  selectMutants,
  writeMutationReport,
  type ExploreScope,
  type MutationOptions,
} from '../proof/mutation.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

function readCommandLine() {
  return parseArgs({
    options: {
      only: { type: 'string' },
      category: { type: 'string' },
      kind: { type: 'string' },
      parallel: { type: 'string' },
      workers: { type: 'string' },
      seed: { type: 'string' },
      timeout: { type: 'string' },
      'max-failures': { type: 'string' },
      focus: { type: 'boolean', default: false },
      explore: { type: 'string', default: 'inputs' },
      list: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: true,
  });
}

function printCatalogue(): void {
  for (const m of ENTRIES)
    console.log(
      `${m.id.padEnd(36)} ${kindOf(m).padEnd(13)} ${m.category.padEnd(16)} ${explores(m, 'inputs') ? 'both modes ' : 'suites     '} ${m.description}`,
    );
}

async function main(): Promise<number> {
  const { values, positionals } = readCommandLine();
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.list) {
    printCatalogue();
    return 0;
  }
  const mutants = selectMutants(values);
  const scopes: readonly ExploreScope[] = ['inputs', 'all', 'none'];
  const explore = scopes.find((x) => x === values.explore);
  if (!explore) throw new SettingError(`--explore takes one of ${scopes.join(', ')} (got ${values.explore})`);
  const opts: MutationOptions = {
    mutants,
    seed: wholeNumber(values.seed, '--seed', DEFAULT_MUTATION_SEED),
    parallel: positiveInt(values.parallel, '--parallel', 2),
    workers: positiveInt(values.workers, '--workers', 2),
    timeoutS: number(values.timeout, '--timeout', 240, { positive: true }),
    maxFailures: wholeNumber(values['max-failures'], '--max-failures', 0),
    focus: values.focus,
    explore,
    extraArgs: positionals,
  };
  const count = (kind: string) => mutants.filter((m) => kindOf(m) === kind).length;
  console.log(
    `mutation: ${mutants.length} mutants (${count('bug')} bugs, ${count('should')} should-level, ${count('legal')} legal, ${count('harness-limit')} harness limit), seed ${opts.seed}, ${opts.parallel} in parallel`,
  );
  const report = await runMutation(opts);
  const paths = writeMutationReport(report);
  console.log(`\n${mutationTable(report)}`);
  console.log(
    `\nreports: ${relative(PACKAGE_ROOT, paths.md)}, ${relative(PACKAGE_ROOT, paths.json)} (each run under reports/mutation/runs/<mutant>/)`,
  );
  const control = report.results.find((r) => r.id === CONTROL_ID);
  if (control && control.outcome !== 'clean') {
    console.error(
      `mutation: the control run (unmodified target behind the proxy) did not pass (${control.outcome}: ${[...control.failed, ...control.warned].join(', ') || control.note}); fix that first — every other result is meaningless`,
    );
    return 2;
  }
  return report.ok ? 0 : 1;
}

runCommand('mutation', main, { usage: USAGE, failure: (err) => `mutation: ${err.stack ?? err.message}` });
