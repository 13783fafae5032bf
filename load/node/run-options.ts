/**
 * Command-line options that shape a load run, shared by `wfcheck load` and `wfcheck load distributed`
 * so both take the same names; load/settings.ts readLoadRunSettings reads them, with
 * the environment (PROFILE, SCENARIOS, DURATION, VUS_SCALE, SEED) for what is not given. Each command's
 * whole table is here too, with the --help both share.
 */
import { CONNECTION_OPTIONS, CONNECTION_USAGE, connectionReplayArgs } from '../../core/settings/connection-settings.ts';
import { commandLine } from '../../core/settings/invocation.ts';
import type { LoadRunSettings } from '../settings.ts';
import { profileLines } from '../k6/lib/profiles.ts';

export const RUN_SHAPE_OPTIONS = {
  profile: { type: 'string' },
  scenarios: { type: 'string' },
  duration: { type: 'string' },
  'vus-scale': { type: 'string' },
  seed: { type: 'string' },
  run: { type: 'string' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `wfcheck load`: the run's shape, its own options, the way to the target. */
export const LOAD_OPTIONS = {
  ...RUN_SHAPE_OPTIONS,
  'no-dashboard': { type: 'boolean', default: false },
  'contract-sample': { type: 'string' },
  'contract-mode': { type: 'string' },
  baseline: { type: 'string' },
  tolerance: { type: 'string' },
  'save-baseline': { type: 'string' },
  'prepare-only': { type: 'boolean', default: false },
  'k6-archive': { type: 'boolean', default: false },
  ...CONNECTION_OPTIONS,
} as const;

/** `wfcheck load distributed`: how many k6 processes, the run's shape, the way to the target. */
export const DISTRIBUTED_OPTIONS = {
  instances: { type: 'string' },
  ...RUN_SHAPE_OPTIONS,
  ...CONNECTION_OPTIONS,
} as const;

/** A load command's --help: its usage, the profiles it may run and the connection options. */
export function loadUsage(usage: string): string {
  return `${withProfiles(usage)}

${CONNECTION_USAGE}`;
}

/** A load command's usage with the profiles it may run, listed from the profile table. */
export function withProfiles(usage: string): string {
  return `${usage}\n\nProfiles (--profile NAME, else PROFILE):\n${profileLines()
    .map((line) => `  ${line}`)
    .join('\n')}`;
}

/**
 * The command line that runs the same load again: the same profile, seed (the same data) and the shape
 * options given; `extra` adds the command's own (`--instances N`).
 */
export function loadReplayCommand(
  command: 'load' | 'load distributed',
  s: LoadRunSettings,
  extra: readonly (string | number)[] = [],
): string {
  return commandLine(command, [
    '--profile',
    s.profile,
    ...(s.scenarios ? ['--scenarios', s.scenarios] : []),
    ...(s.duration ? ['--duration', s.duration] : []),
    ...(s.vusScale !== undefined ? ['--vus-scale', s.vusScale] : []),
    ...extra,
    ...connectionReplayArgs(s.connection),
    '--seed',
    s.seed,
  ]);
}
