/**
 * usage: wfcheck history [--from RUN --to RUN] [--target FINGERPRINT] [--requirement ID] [--runs N] [--db FILE]
 *        wfcheck history --explore [--to RUN | --list | --fingerprint FP] [--target FINGERPRINT] [--runs N] [--db FILE]
 *
 * What changed between two conformance runs of the run history (default: the
 * last two runs of the target of the latest run): newly failing, newly passing,
 * newly blocked or not run, waivers that started passing, and requirements
 * that flip. --requirement prints that requirement's verdict in each of the
 * last N runs (default 30) instead. --list lists the last N runs.
 * --explore reads the generative runs (wfcheck explore) instead, run ids being theirs: the findings of
 * the latest run (or --to RUN), each new or seen before (first seen, in how many runs), and the previous
 * run's findings it no longer has; --list lists the last N of them; --fingerprint FP says in which of
 * the last N runs that finding was found.
 * The history is WFCHECK_HISTORY (default reports/history.sqlite) unless --db.
 * It prints and writes no file: --out does not apply.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { exploreHistoryText } from '../explore/history.ts';
import { HISTORY_OPTIONS, showHistory } from '../history/show.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

function main(): number {
  const { values } = parseArgs({ options: HISTORY_OPTIONS });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  return showHistory(values, exploreHistoryText);
}

runCommand('history', main, { usage: USAGE });
