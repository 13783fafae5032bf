/**
 * usage: wfcheck load distributed [--instances N] [--profile NAME] [--scenarios …] [--duration D]
 *     [--vus-scale N] [--seed N] [--out DIR | --run NAME]
 *
 * One load test split into execution segments across N local k6 processes; their samples are merged
 * and the suite's thresholds are evaluated on the merged data (k6 alone would judge each instance on
 * its own share).
 *
 * Target as for wfcheck load (BASE_URL/API_KEY, else the reference target).
 * --out DIR is the run's folder (default reports/load/<run>, <run> being --run NAME or the time, the
 * profile and -x<N>): report.json, report.txt and report.junit.xml of the merged verdict; segment-<i>/
 * with each instance's log, report and samples.
 * Exit: 0 all gates met on the merged data; 1 a gate breached; 2 the run failed.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { referenceBooter } from '../fixtures/reference/boot/booter.ts';
import { runDistributed } from '../load/node/distributed-run.ts';
import { DISTRIBUTED_OPTIONS, loadUsage } from '../load/node/run-options.ts';

const USAGE = loadUsage(usageFromSource(readFileSync(new URL(import.meta.url), 'utf8')));

async function main(): Promise<number> {
  const { values } = parseArgs({ options: DISTRIBUTED_OPTIONS, strict: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  return runDistributed(values, referenceBooter);
}

runCommand('load distributed', main, { usage: USAGE, failure: (err) => `load distributed failed: ${err.message}` });
