/**
 * usage: wfcheck history import <report.json>… [--name LABEL] [--target-version V] [--db FILE]
 *
 * Records conformance reports made elsewhere (the report.json of `wfcheck conformance`, e.g. sent by a
 * vendor instead of their keys) in the run history, under an implementation's name: --name, else the
 * name the run was given (its --name). They then take their column in `wfcheck matrix`.
 * A file that is not a wfcheck conformance report is refused (exit 2) and nothing is written; a report
 * imported before is not recorded twice. No key is stored: every text is scrubbed of credentials.
 * The history is WFCHECK_HISTORY (default reports/history.sqlite) unless --db.
 * It writes no file but the history: --out does not apply.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { HISTORY_IMPORT_OPTIONS, runHistoryImport } from '../history/import-run.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

function main(): number {
  const { values, positionals } = parseArgs({ options: HISTORY_IMPORT_OPTIONS, allowPositionals: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  return runHistoryImport(values, positionals);
}

runCommand('history:import', main, { usage: USAGE });
