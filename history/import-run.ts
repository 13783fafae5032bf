/**
 * `wfcheck history import` (scripts/history-import.ts parses its command line): conformance reports made
 * elsewhere checked, every one before any is written, then recorded in the run history one by one.
 */
import { resolve } from 'node:path';
import { readHistoryPath } from '../core/settings/history-settings.ts';
import { refuseOut, type OptionValues } from '../core/settings/command.ts';
import { SettingError } from '../core/settings/rules.ts';
import { importReport, readReportFile } from './import.ts';

export const HISTORY_IMPORT_OPTIONS = {
  name: { type: 'string' },
  'target-version': { type: 'string' },
  db: { type: 'string' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The reports `positionals` imported as the command line `values` says; the exit code (2: the history could not be written). */
export function runHistoryImport(values: OptionValues<typeof HISTORY_IMPORT_OPTIONS>, positionals: string[]): number {
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
