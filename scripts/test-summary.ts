/**
 * Prints the closing line CI reads — "N passed, N failed" (", N skipped" when any) — from Playwright's
 * JSON report. Flaky tests (passed on retry) count as passed and are named, so they are not hidden.
 */
import { existsSync, readFileSync } from 'node:fs';

interface Stats { expected: number; unexpected: number; flaky: number; skipped: number }

const file = process.argv[2] ?? 'reports/harness/results.json';
if (!existsSync(file)) {
  console.error(`no test report at ${file}: the test run did not complete`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8')) as { stats: Stats; errors?: unknown[] };
const { expected, unexpected, flaky, skipped } = report.stats;
const globalErrors = report.errors?.length ?? 0;
if (flaky) console.log(`${flaky} test(s) passed only on retry`);
if (globalErrors) console.log(`${globalErrors} error(s) outside tests (setup, collection)`);
console.log(`${expected + flaky} passed, ${unexpected + globalErrors} failed${skipped ? `, ${skipped} skipped` : ''}`);
