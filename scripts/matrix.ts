/**
 * usage: wfcheck matrix [--out DIR (default reports/matrix)] [--runs N (default 30)] [--only NAME,NAME] [--db FILE]
 *                      [--open-points]
 *
 * Builds the implementation matrix from the run history: a static site in one folder (index.html, the
 * grid of requirements × implementations; matrix.json beside it; impl/<name>.html with the evidence of
 * each cell), ready to publish as it is (e.g. GitHub Pages). An implementation is a column: the runs
 * recorded under its name (`wfcheck conformance --name <label>`, or imported with `wfcheck history
 * import`), or the runs of one target where no name was given. Each cell is the verdict of its latest
 * run; --runs is how many runs each cell's history and each score trend go back.
 * --only keeps these implementations, in this order (`target:<fingerprint>` for an unnamed one).
 * The history is WFCHECK_HISTORY (default reports/history.sqlite) unless --db.
 * --open-points also prints where the implementations split on the points the specification leaves open
 * (the table of open-points.html): each value with the implementations holding it, and for a split point
 * the answers a client must tolerate.
 * Exit: 0 built; 2 no usable history, or a refused option.
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readHistoryPath } from '../core/settings/history-settings.ts';
import { WORK_DIR } from '../core/settings/roots.ts';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { list, positiveInt } from '../core/settings/rules.ts';
import { DEFAULT_RUNS } from '../matrix/load.ts';
import { buildMatrixSite } from '../matrix/site.ts';
import { openPointsTable } from '../matrix/open-points-text.ts';
import { OPEN_POINTS_PAGE } from '../matrix/page-open-points.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

function main(): number {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      runs: { type: 'string' },
      only: { type: 'string' },
      db: { type: 'string' },
      'open-points': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const only = list(values.only);
  const site = buildMatrixSite({
    historyFile: values.db ? resolve(values.db) : readHistoryPath(),
    outDir: resolve(WORK_DIR, values.out ?? join('reports', 'matrix')),
    runs: positiveInt(values.runs, '--runs', DEFAULT_RUNS),
    ...(only.length ? { only } : {}),
    log: (line) => console.error(`matrix: ${line}`),
  });
  const rel = relative(process.cwd(), site.outDir) || '.';
  console.log(
    `matrix: ${site.implementations} implementation(s) × ${site.requirements} requirements; ` +
      `${site.files} file(s), ${(site.bytes.total / 1024).toFixed(0)} KiB, built in ${site.ms.load + site.ms.render + site.ms.write} ms`,
  );
  console.log(
    `matrix: ${join(rel, 'index.html')} (data: ${join(rel, 'matrix.json')}; open points: ${join(rel, OPEN_POINTS_PAGE)})`,
  );
  if (values['open-points']) console.log(`\n${openPointsTable(site.matrix.openPoints, site.implementations)}`);
  return 0;
}

runCommand('matrix', main, { usage: USAGE });
