/**
 * Prints the closing line CI reads — "N passed, N failed" (", N skipped" when any) — from Playwright's
 * JSON reports, summed: the full run, and the quick tests run again on another Node line. Each report
 * gets a line of its own first. Flaky tests (passed on retry) count as passed and are named, so they are
 * not hidden; a report that is missing counts as one failure (its run did not complete).
 *
 *   npx tsx scripts/test-summary.ts [reports/harness/results.json] [label=other/results.json …]
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../core/settings/command.ts';

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
  const files = positionals.length > 0 ? positionals : ['reports/harness/results.json'];
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const arg of files) {
    const [label, file] = arg.includes('=') ? (arg.split(/=(.*)/s) as [string, string]) : ['', arg];
    const counted = countOf(file, label);
    total.passed += counted.passed;
    total.failed += counted.failed;
    total.skipped += counted.skipped;
  }
  console.log(line(total));
  return undefined;
}

function line(c: { passed: number; failed: number; skipped: number }): string {
  return `${c.passed} passed, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ''}`;
}

/** One report's counts, its own line printed when it has a label. */
function countOf(file: string, label: string): { passed: number; failed: number; skipped: number } {
  const named = label ? `${label}: ` : '';
  if (!existsSync(file)) {
    console.error(`${named}no test report at ${file}: the test run did not complete`);
    return { passed: 0, failed: 1, skipped: 0 };
  }
  const report = JSON.parse(readFileSync(file, 'utf8')) as { stats: Stats; errors?: unknown[] };
  const { expected, unexpected, flaky, skipped } = report.stats;
  const globalErrors = report.errors?.length ?? 0;
  if (flaky) console.log(`${named}${flaky} test(s) passed only on retry`);
  if (globalErrors) console.log(`${named}${globalErrors} error(s) outside tests (setup, collection)`);
  const counted = { passed: expected + flaky, failed: unexpected + globalErrors, skipped };
  if (label) console.log(`${label}: ${line(counted)}`);
  return counted;
}

runCommand('test-summary', main, { usage: USAGE, failureCode: 1 });
