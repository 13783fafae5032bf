/**
 * `npm run flakiness` (scripts/flakiness.ts parses its command line): the runs over many seeds
 * (flakiness.ts) or against one long-lived target (long-lived.ts) with the options given, their report
 * printed and written.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OptionValues } from '../core/settings/command.ts';
import { number, oneOf, positiveInt, wholeNumber } from '../core/settings/rules.ts';
import {
  FLAKINESS_OUT,
  FLAKINESS_TARGETS,
  runFlakiness,
  SEED_STEP,
  seedSequence,
  writeFlakinessReport,
  type FlakinessOptions,
} from './flakiness.ts';
import { sameTargetMarkdown, runSameTarget, type SameTargetOptions } from './long-lived.ts';

export const FLAKINESS_OPTIONS = {
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
} as const;

type Options = { kind: 'seeds'; o: FlakinessOptions } | { kind: 'same-target'; o: SameTargetOptions };

function optionsOf(values: OptionValues<typeof FLAKINESS_OPTIONS>): Options {
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

/** The runs of the command line `values`; the exit code (0 every run passed with the same verdicts, 1 otherwise). */
export async function runFlakinessCommand(values: OptionValues<typeof FLAKINESS_OPTIONS>): Promise<number> {
  const options = optionsOf(values);
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
