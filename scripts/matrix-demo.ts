/**
 * npm run matrix:demo -- [--nights N (default 3)] [--seed S (default 20260301)] [--parallel N (default 3)]
 *                        [--out DIR (default reports/matrix-demo)]
 *
 * An implementation matrix from real runs: the reference target, the two independent implementations
 * (fixtures/independent; the python one's reports imported as a vendor's would be) and entries of the
 * fault catalogue served as implementations of their own (two bugs, one fixed after night 2; a
 * should-level deviation; a legal variant), verified night after night with one seed per night into
 * one history; then `wfcheck matrix` builds the site (DIR/site/index.html) and chromium, when
 * installed, photographs its "differs" view (DIR/site.png). Needs go and python3. About two minutes.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { MATRIX_DEMO_OPTIONS, runMatrixDemo } from '../proof/matrix-demo.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

async function main(): Promise<number> {
  const { values } = parseArgs({ options: MATRIX_DEMO_OPTIONS });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  return runMatrixDemo(values);
}

runCommand('matrix:demo', main, { usage: USAGE, failureCode: 1 });
