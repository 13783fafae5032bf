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
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readHistoryPath } from '../core/settings/history-settings.ts';
import { refuseOut, runCommand, usageFromSource } from '../core/settings/command.ts';
import { SettingError } from '../core/settings/rules.ts';
import { importReport, readReportFile } from '../history/import.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

function main(): number {
  const { values, positionals } = parseArgs({
    options: {
      name: { type: 'string' },
      'target-version': { type: 'string' },
      db: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  refuseOut(values.out, 'history import', 'it records reports in the run history: --db FILE or WFCHECK_HISTORY');
  if (positionals.length === 0) throw new SettingError('name the report.json file(s) to import');
  const files = positionals.map((f) => resolve(f));
  // Every file is checked before any is written: a refused one leaves the history as it was.
  for (const f of files) readReportFile(f);
  const historyFile = values.db ? resolve(values.db) : readHistoryPath();
  for (const file of files) {
    const r = importReport(file, { name: values.name, version: values['target-version'], historyFile });
    if (r.skipped) {
      console.error(`history:import: ${r.skipped}`);
      return 2;
    }
    const what = `${r.name}${r.version ? ` ${r.version}` : ''}, seed ${r.seed}, started ${r.startedAt}`;
    console.log(
      r.duplicate
        ? `history:import: ${positionals[files.indexOf(file)]} is already in the history as run #${r.runId} (${what})`
        : `history:import: ${positionals[files.indexOf(file)]} recorded as run #${r.runId} (${what})` +
            (r.scrubbed ? `; ${r.scrubbed} text(s) held a credential, replaced by ***` : ''),
    );
  }
  return 0;
}

runCommand('history:import', main, { usage: USAGE });
