/**
 * Prints the closing line CI reads — "N passed, N failed" (", N skipped" when any) — from Playwright's
 * JSON report. Flaky tests (passed on retry) count as passed and are named, so they are not hidden.
 *
 *   npx tsx scripts/test-summary.ts [reports/harness/results.json]
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../foundation/environment/command.ts';

interface Stats {
  expected: number;
  unexpected: number;
  flaky: number;
  skipped: number;
}

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

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
  const file = positionals[0] ?? 'reports/harness/results.json';
  if (!existsSync(file)) {
    console.error(`no test report at ${file}: the test run did not complete`);
    return 1;
  }
  const report = JSON.parse(readFileSync(file, 'utf8')) as { stats: Stats; errors?: unknown[] };
  const { expected, unexpected, flaky, skipped } = report.stats;
  const globalErrors = report.errors?.length ?? 0;
  if (flaky) console.log(`${flaky} test(s) passed only on retry`);
  if (globalErrors) console.log(`${globalErrors} error(s) outside tests (setup, collection)`);
  console.log(
    `${expected + flaky} passed, ${unexpected + globalErrors} failed${skipped ? `, ${skipped} skipped` : ''}`,
  );
}

runCommand('test-summary', main, { usage: USAGE, failureCode: 1 });
