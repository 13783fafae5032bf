/**
 * `npm run bench:matrix` — the implementation matrix built from a synthetic history of 20
 * implementations × 127 requirements × 30 nights: build time (read, render, write), page sizes (and
 * gzipped), and where /usr/bin/chromium is installed, the time the grid takes to be usable in a headless
 * browser and the time of one filter, as the page measures them. Figures vary run to run on a shared
 * machine.
 *
 * Env: BENCH_MATRIX_IMPLEMENTATIONS (default 20), BENCH_MATRIX_NIGHTS (30), BENCH_MATRIX_BUILDS (5).
 */
import { readFileSync } from 'node:fs';
import { printedHelp, runCommand, usageFromSource } from '../core/settings/command.ts';
import { readBenchSettings } from '../proof/bench/settings.ts';
import { benchMatrix } from '../proof/bench/matrix.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

function main(): number {
  if (printedHelp(USAGE)) return 0;
  benchMatrix(readBenchSettings().matrix);
  return 0;
}

runCommand('bench:matrix', main, { usage: USAGE, failureCode: 1 });
