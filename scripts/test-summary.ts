/**
 * Prints the closing line CI reads — "N passed, N failed" (", N skipped" when any) — from Playwright's
 * JSON reports, summed: the full run, and the quick tests run again on another Node line. Each report
 * gets a line of its own first. Flaky tests (passed on retry) count as passed and are named, so they are
 * not hidden; a report that is missing counts as one failure (its run did not complete).
 *
 *   npx tsx scripts/test-summary.ts [reports/harness/results.json] [label=other/results.json …]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { printTestSummary } from '../proof/test-summary.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

// The line is what CI reads: the process ends by itself, whatever it counted.
function main(): number | undefined {
  const { values, positionals } = parseArgs({
    options: { help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  printTestSummary(positionals);
}

runCommand('test-summary', main, { usage: USAGE, failureCode: 1 });
