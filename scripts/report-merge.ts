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
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readMergeOutDir } from '../core/settings/run-config.ts';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { SettingError } from '../core/settings/rules.ts';
import { mergeShards } from '../scenarios/run/merge.ts';
import { conformanceConsole } from '../scenarios/report/index.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

function main(): number {
  const { values, positionals } = parseArgs({
    options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length === 0) throw new SettingError('name the shard directories to merge');
  const shards = positionals.map((d) => resolve(d));
  const out = readMergeOutDir(values.out);
  // The merge clears the outputs its folder's manifest names: a shard's own would lose the evidence it merges.
  if (shards.includes(out))
    throw new SettingError(`--out ${relative(process.cwd(), out) || '.'} is one of the shards: name another folder`);
  const { report, paths, problems } = mergeShards(shards, out, (line) => console.error(`report merge: ${line}`));
  for (const p of problems) console.error(`report merge: ${p}`);
  console.log(conformanceConsole(report, paths));
  return report.exitCode;
}

runCommand('report merge', main, { usage: USAGE });
