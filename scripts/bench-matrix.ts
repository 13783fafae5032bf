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
import { printedHelp, runCommand, usageFromSource } from '../foundation/environment/command.ts';
import { positiveInt } from '../foundation/environment/rules.ts';
import { benchMatrix } from '../proof/bench/matrix.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

function main(): number {
  if (printedHelp(USAGE)) return 0;
  const env = process.env;
  benchMatrix({
    implementations: positiveInt(env.BENCH_MATRIX_IMPLEMENTATIONS, 'BENCH_MATRIX_IMPLEMENTATIONS', 20),
    nights: positiveInt(env.BENCH_MATRIX_NIGHTS, 'BENCH_MATRIX_NIGHTS', 30),
    builds: positiveInt(env.BENCH_MATRIX_BUILDS, 'BENCH_MATRIX_BUILDS', 5),
  });
  return 0;
}

runCommand('bench:matrix', main, { usage: USAGE, failureCode: 1 });
