/**
 * `npm run mutation` (scripts/mutation.ts parses its command line): the catalogue listed, or the entries
 * chosen run against the conformance suite with the options given, the score table printed and written,
 * and the control run's verdict said first when it failed.
 */
import { relative } from 'node:path';
import type { OptionValues } from '../../core/settings/command.ts';
import { PACKAGE_ROOT } from '../../core/settings/roots.ts';
import { number, positiveInt, SettingError, wholeNumber } from '../../core/settings/rules.ts';
import { kindOf } from '../../fixtures/faults/catalogue.ts';
import { mutationTable, writeMutationReport } from './render.ts';
import { explores, runMutation, selectMutants } from './mutant-run.ts';
import { CONTROL_ID, DEFAULT_MUTATION_SEED, ENTRIES, type ExploreScope, type MutationOptions } from './types.ts';

export const MUTATION_OPTIONS = {
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
} as const;

function printCatalogue(): void {
  for (const m of ENTRIES)
    console.log(
      `${m.id.padEnd(36)} ${kindOf(m).padEnd(13)} ${m.category.padEnd(16)} ${explores(m, 'inputs') ? 'both modes ' : 'suites     '} ${m.description}`,
    );
}

/**
 * The mutation run of the command line (`values`; `positionals`: the test runner's arguments after `--`);
 * the exit code (0 every entry as it should be, 1 otherwise, 2 the control run failed).
 */
export async function runMutationCommand(
  values: OptionValues<typeof MUTATION_OPTIONS>,
  positionals: string[],
): Promise<number> {
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
