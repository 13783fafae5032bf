/**
 * npm run report:merge -- <shard dir>… --out <dir>
 *
 * Builds one conformance verdict from the output directories of a sharded run
 * (`npm run conformance -- --shard i/n --out <dir>` each): report.json, report.md,
 * report.html, report.junit.xml and the job summary (summary.md) through the same
 * report builder as an unsharded run, one Playwright HTML report (html/) and one
 * JUnit file (junit.xml). The merged
 * verdict is recorded in the run history (WFCHECK_HISTORY).
 * Exit: as `npm run conformance` (0 no unwaived failure, 1 failures, 2 incomplete).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../foundation/environment/command.ts';
import { SettingError } from '../foundation/environment/rules.ts';
import { mergeShards } from '../engine/runner/merge.ts';
import { conformanceConsole } from '../engine/report/index.ts';

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
  if (!values.out) throw new SettingError('--out <dir> is required');
  const { report, paths, problems } = mergeShards(
    positionals.map((d) => resolve(d)),
    resolve(values.out),
    (line) => console.error(`report:merge: ${line}`),
  );
  for (const p of problems) console.error(`report:merge: ${p}`);
  console.log(conformanceConsole(report, paths));
  return report.exitCode;
}

runCommand('report:merge', main, { usage: USAGE });
