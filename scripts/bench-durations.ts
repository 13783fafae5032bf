/**
 * npm run bench:durations — the conformance run against the in-process reference target at its default
 * node step (30 ms) and at 1000 ms (workflows of seconds, as real ones take), one after the other: the
 * wall time at each speed, and every requirement whose verdict differs between them (none expected).
 *
 *   npm run bench:durations -- [--speeds 30,1000] [--seed 4242] [--workers N] [--timeout S (default 300)]
 *
 * --workers defaults to the conformance command's own default.
 * Exit: 0 the verdicts are the same at every speed; 1 some differ; 2 a run was incomplete.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { list, number, positiveInt, SettingError, wholeNumber } from '../core/settings/rules.ts';
import {
  DEFAULT_SPEEDS,
  durationsExitCode,
  renderDurationsBench,
  runDurationsBench,
  type DurationsOptions,
} from '../proof/bench/durations.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

function readOptions(): DurationsOptions | undefined {
  const { values } = parseArgs({
    options: {
      speeds: { type: 'string' },
      seed: { type: 'string' },
      workers: { type: 'string' },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return undefined;
  const speeds =
    values.speeds === undefined ? [...DEFAULT_SPEEDS] : list(values.speeds).map((s) => wholeNumber(s, '--speeds', 0));
  if (speeds.length < 2) throw new SettingError('--speeds needs at least two node step durations in ms, e.g. 30,1000');
  return {
    speeds,
    seed: wholeNumber(values.seed, '--seed', 4242),
    workers: values.workers === undefined ? undefined : positiveInt(values.workers, '--workers'),
    timeoutS: number(values.timeout, '--timeout', 300, { positive: true }),
  };
}

async function main(): Promise<number> {
  const o = readOptions();
  if (!o) {
    console.log(USAGE);
    return 0;
  }
  console.log(`bench:durations: the conformance run at ${o.speeds.join(', ')} ms per node step`);
  const bench = await runDurationsBench(o);
  console.log(`\n${renderDurationsBench(bench)}`);
  return durationsExitCode(bench);
}

runCommand('bench:durations', main, { usage: USAGE });
