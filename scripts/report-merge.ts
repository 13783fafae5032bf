/**
 * usage: wfcheck report merge <shard dir>… [--out DIR]
 *
 * Builds one conformance verdict from the output directories of a sharded run
 * (wfcheck conformance --shard i/n --out <dir> each): report.json, report.md, report.html,
 * report.junit.xml and the job summary (summary.md) through the same report builder as an unsharded run,
 * one Playwright HTML report (html/) and one JUnit file (junit.xml), written to --out DIR (default where
 * an unsharded run writes: WFCHECK_OUT_DIR, else reports/conformance; never one of the shards). The
 * merged verdict is recorded in the run history (WFCHECK_HISTORY). The folder is taken as a
 * conformance run takes it: one run at a time, only what its manifest names cleared.
 * Exit: as wfcheck conformance (0 no unwaived failure, 1 failures, 2 incomplete).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { REPORT_MERGE_OPTIONS, runReportMerge } from '../scenarios/run/merge.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

function main(): number {
  const { values, positionals } = parseArgs({ options: REPORT_MERGE_OPTIONS, allowPositionals: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  return runReportMerge(values, positionals);
}

runCommand('report merge', main, { usage: USAGE });
