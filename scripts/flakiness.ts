/**
 * `npm run flakiness`: runs the conformance suite N times with different seeds against the reference
 * target and reports every result that is not the same from run to run (proof/flakiness.ts).
 *
 *   npm run flakiness -- [--runs N (default 20)] [--parallel N (default 2)] [--first-seed S (default 1000)]
 *                        [--workers N (default 2)] [--timeout S (default 300)] [--target harness|inprocess]
 *
 * --target harness (default): each run is a plain `npm run conformance` that boots the reference target
 *   itself (container or local process), exactly the hermetic path CI uses.
 * --target inprocess: a fresh reference target per run, started here and given through BASE_URL.
 *
 * --same-target: ONE reference target process (in process), the suite run --runs times against it, as
 *   a nightly job meets a staging target that lives for months; [--preload N] gives tenant A N more
 *   workflows first, [--node-duration-ms N] slows every node step, [--no-memory] makes discovery search
 *   afresh every run (no discovery memory kept between runs), [--allow-overwrite] lets generate
 *   reuse a canvas. Prints per run the requirements exercised, warnings and failures; fails when any
 *   run differs from the first.
 *
 * Writes reports/flakiness/report.json and report.md (--same-target: same-target.json / .md).
 * Exit: 0 all runs passed with identical verdicts; 1 otherwise.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { number, oneOf, positiveInt, wholeNumber } from '../core/settings/rules.ts';
import {
  FLAKINESS_OUT,
  FLAKINESS_TARGETS,
  runFlakiness,
  SEED_STEP,
  seedSequence,
  writeFlakinessReport,
  type FlakinessOptions,
} from '../proof/flakiness.ts';
import { sameTargetMarkdown, runSameTarget, type SameTargetOptions } from '../proof/long-lived.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

type Options = { kind: 'seeds'; o: FlakinessOptions } | { kind: 'same-target'; o: SameTargetOptions };

function readOptions(): Options | undefined {
  const { values } = parseArgs({
    options: {
      'same-target': { type: 'boolean' },
      preload: { type: 'string' },
      'node-duration-ms': { type: 'string' },
      'allow-overwrite': { type: 'boolean' },
      'no-memory': { type: 'boolean' },
      runs: { type: 'string' },
      parallel: { type: 'string' },
      'first-seed': { type: 'string' },
      workers: { type: 'string' },
      timeout: { type: 'string' },
      target: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return undefined;
  if (values['same-target']) {
    return {
      kind: 'same-target',
      o: {
        runs: positiveInt(values.runs, '--runs', 30),
        firstSeed: wholeNumber(values['first-seed'], '--first-seed', 1000),
        preload: wholeNumber(values.preload, '--preload', 0),
        nodeDurationMs:
          values['node-duration-ms'] === undefined
            ? undefined
            : wholeNumber(values['node-duration-ms'], '--node-duration-ms', 0),
        workers: positiveInt(values.workers, '--workers', 2),
        timeoutS: number(values.timeout, '--timeout', 300, { positive: true }),
        allowOverwrite: !!values['allow-overwrite'],
        noMemory: !!values['no-memory'],
      },
    };
  }
  return {
    kind: 'seeds',
    o: {
      runs: positiveInt(values.runs, '--runs', 20),
      parallel: positiveInt(values.parallel, '--parallel', 2),
      firstSeed: wholeNumber(values['first-seed'], '--first-seed', 1000),
      workers: positiveInt(values.workers, '--workers', 2),
      timeoutS: number(values.timeout, '--timeout', 300, { positive: true }),
      target: oneOf(values.target, '--target', FLAKINESS_TARGETS, 'harness'),
    },
  };
}

async function sameTarget(o: SameTargetOptions): Promise<number> {
  console.log(
    `flakiness: ${o.runs} conformance runs against one reference target (${o.preload} preloaded workflows${o.nodeDurationMs !== undefined ? `, ${o.nodeDurationMs} ms node steps` : ''})`,
  );
  const report = await runSameTarget(o);
  const md = sameTargetMarkdown(report);
  mkdirSync(FLAKINESS_OUT, { recursive: true });
  writeFileSync(join(FLAKINESS_OUT, 'same-target.json'), JSON.stringify(report, null, 2));
  writeFileSync(join(FLAKINESS_OUT, 'same-target.md'), md);
  console.log(`\n${md}\n\nreports: reports/flakiness/same-target.md, reports/flakiness/same-target.json`);
  return report.ok ? 0 : 1;
}

async function main(): Promise<number> {
  const options = readOptions();
  if (!options) {
    console.log(USAGE);
    return 0;
  }
  if (options.kind === 'same-target') return sameTarget(options.o);
  const o = options.o;
  const seeds = seedSequence(o.firstSeed, o.runs);
  console.log(
    `flakiness: ${o.runs} conformance runs, seeds ${seeds[0]}…${seeds[o.runs - 1]} (step ${SEED_STEP}), ${Math.min(o.parallel, o.runs)} at a time, target: ${o.target}`,
  );
  const report = await runFlakiness(o);
  const md = writeFlakinessReport(report);
  console.log(`\n${md}`);
  console.log(`\nreports: reports/flakiness/report.md, reports/flakiness/report.json`);
  return report.ok ? 0 : 1;
}

runCommand('flakiness', main, { usage: USAGE, failure: (err) => `flakiness: ${err.stack ?? err.message}` });
