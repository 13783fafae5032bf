/**
 * The closing line CI reads (scripts/test-summary.ts parses its command line): Playwright's JSON reports
 * summed, a labelled report's own line printed first, flaky tests counted as passed and said, a missing
 * report counted as one failure.
 */
import { existsSync, readFileSync } from 'node:fs';

interface Stats {
  expected: number;
  unexpected: number;
  flaky: number;
  skipped: number;
}

/** Prints the summary of the reports `args` (`file` or `label=file`; default the harness run's own). */
export function printTestSummary(args: string[]): void {
  const files = args.length > 0 ? args : ['reports/harness/results.json'];
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const arg of files) {
    const [label, file] = arg.includes('=') ? (arg.split(/=(.*)/s) as [string, string]) : ['', arg];
    const counted = countOf(file, label);
    total.passed += counted.passed;
    total.failed += counted.failed;
    total.skipped += counted.skipped;
  }
  console.log(line(total));
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
