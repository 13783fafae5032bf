/**
 * usage: wfcheck load compare [RUN] [--baseline FILE] [--tolerance PCT] [--min-latency-delta MS]
 *     [--rate-tolerance PTS] [--out DIR]
 *        wfcheck load compare [RUN] --save-baseline [FILE] [--out DIR]
 *
 * Sets a load run against a saved baseline and fails on regressions beyond a tolerance.
 * RUN is a run folder or its report.json (default: the newest run under reports/load/).
 * --out DIR is where the baselines are (default reports/load): --save-baseline without FILE writes
 * the run there as baseline-<profile>.json, and without --baseline the run is compared with that file.
 * Exit: 0 no regression; 1 regression(s); 2 missing or unreadable input.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { LOAD_COMPARE_OPTIONS, runLoadCompare, valueOptional } from '../load/node/compare-run.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

function main(): number {
  const { values, positionals } = parseArgs({
    args: valueOptional(process.argv.slice(2), '--save-baseline'),
    allowPositionals: true,
    strict: true,
    options: LOAD_COMPARE_OPTIONS,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  return runLoadCompare(values, positionals);
}

runCommand('load compare', main, { usage: USAGE });
