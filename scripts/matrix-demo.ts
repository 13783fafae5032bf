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
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { WORK_DIR } from '../core/settings/roots.ts';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { positiveInt, wholeNumber } from '../core/settings/rules.ts';
import { DEMO_IMPLEMENTATIONS, matrixDemo } from '../proof/matrix-demo.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      nights: { type: 'string' },
      seed: { type: 'string' },
      parallel: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const log = (line: string) => console.log(`matrix:demo: ${line}`);
  const started = Date.now();
  const outDir = resolve(WORK_DIR, values.out ?? 'reports/matrix-demo');
  const nights = positiveInt(values.nights, '--nights', 3);
  log(`${DEMO_IMPLEMENTATIONS.length} implementations × ${nights} night(s):`);
  for (const impl of DEMO_IMPLEMENTATIONS) log(`  ${impl.name.padEnd(28)} ${impl.what}`);
  const { runs, site, screenshot } = await matrixDemo({
    outDir,
    nights,
    firstSeed: wholeNumber(values.seed, '--seed', 20260301),
    parallel: positiveInt(values.parallel, '--parallel', 3),
    log,
  });
  const rel = (p: string) => relative(process.cwd(), p);
  log(
    `matrix: ${site.implementations} implementations × ${site.requirements} requirements, ${site.files} files, ` +
      `built in ${site.ms.load + site.ms.render + site.ms.write} ms: ${rel(`${site.outDir}/index.html`)}`,
  );
  if (screenshot) log(`screenshot of the "differs" view: ${rel(screenshot)}`);
  log(`${runs.length} runs in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return runs.some((r) => r.problem) ? 1 : 0;
}

runCommand('matrix:demo', main, { usage: USAGE, failureCode: 1 });
