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
import { benchDurations, DURATIONS_OPTIONS } from '../proof/bench/durations.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

async function main(): Promise<number> {
  const { values } = parseArgs({ options: DURATIONS_OPTIONS, strict: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  return benchDurations(values);
}

runCommand('bench:durations', main, { usage: USAGE });
