/**
 * The settings of `wfcheck load` and `wfcheck load distributed` on the Node side, where its k6 is found
 * and kept, and the k6 scripts' own settings handed to k6 unparsed (load/k6/lib/config.ts reads them there).
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { randomSeed } from '../core/data/seeded.ts';
import {
  readConnectionSettings,
  type ConnectionArgs,
  type ConnectionSettings,
} from '../core/settings/connection-settings.ts';
import { optionOrEnv, optionOrEnvText } from '../core/settings/option-or-env.ts';
import { PACKAGE_INSTALLED, PACKAGE_ROOT, WORK_DIR } from '../core/settings/roots.ts';
import {
  ENV,
  k6ScriptSettingsOf,
  number,
  oneOf,
  SettingError,
  text,
  wholeNumber,
  type EnvLike,
  type K6ScriptValues,
} from '../core/settings/rules.ts';
import { readTargetSettings, type TargetSettings } from '../core/settings/target-settings.ts';

/** The options that shape a load run, as node:util parseArgs gives them. */
export interface LoadRunArgs extends ConnectionArgs {
  profile?: string;
  scenarios?: string;
  duration?: string;
  'vus-scale'?: string;
  seed?: string;
  run?: string;
  out?: string;
  'contract-sample'?: string;
}

/**
 * The load profiles a run may name, and the one it runs without a name. They are the profile table's
 * (load/k6/lib/profiles.ts), which lies above this layer: the command hands them in.
 */
export interface ProfileChoice {
  names: readonly string[];
  fallback: string;
}

export interface LoadRunSettings {
  /** One of the profile table's names (--profile, PROFILE), else its default. */
  profile: string;
  /** Comma-separated scenario names; unset: the profile's own. */
  scenarios?: string;
  /** k6 duration; unset: the profile's own. */
  duration?: string;
  vusScale?: number;
  seed: number;
  /** Name of the run's report folder under reports/load; unset: a timestamp and the profile. */
  run?: string;
  /** The run's report folder (--out), absolute, in place of one under reports/load; unset: there. */
  outDir?: string;
  /** Share of responses checked against the contract; unset: all. */
  contractSample?: number;
  target: TargetSettings;
  /** The way to the target: trust, client certificate, proxies (connection-settings.ts). */
  connection: ConnectionSettings;
}

/**
 * The k6 scripts' settings the environment holds (SLO_*, THINK_TIME_S, WFCHECK_ALLOW_OVERWRITE, …),
 * unparsed: a k6 run gets them as given (load/node/k6-env.ts), and load/k6/lib/config.ts reads them.
 */
export function readK6ScriptSettings(env: EnvLike = process.env): K6ScriptValues {
  return k6ScriptSettingsOf(env);
}

export function readLoadRunSettings(
  args: LoadRunArgs,
  profiles: ProfileChoice,
  env: EnvLike = process.env,
): LoadRunSettings {
  const out = text(args.out);
  // Both name the run's folder: one would be silently ignored.
  if (out !== undefined && text(args.run) !== undefined)
    throw new SettingError(
      '--out and --run both name the folder of the run: give one (--run NAME is --out reports/load/NAME)',
    );
  return {
    profile: oneOf(...optionOrEnv(args.profile, '--profile', env, ENV.profile), profiles.names, profiles.fallback),
    scenarios: optionOrEnvText(args.scenarios, env, ENV.scenarios),
    duration: optionOrEnvText(args.duration, env, ENV.duration),
    vusScale: number(...optionOrEnv(args['vus-scale'], '--vus-scale', env, ENV.vusScale), undefined, {
      positive: true,
    }),
    seed: wholeNumber(...optionOrEnv(args.seed, '--seed', env, ENV.seed)) ?? randomSeed(),
    run: text(args.run),
    outDir: out === undefined ? undefined : resolve(WORK_DIR, out),
    contractSample: number(
      ...optionOrEnv(args['contract-sample'], '--contract-sample', env, ENV.contractSample),
      undefined,
      { min: 0, max: 1 },
    ),
    target: readTargetSettings(env),
    connection: readConnectionSettings(args, env),
  };
}

/** Where load/node/ensure-k6.ts looks for k6 and for Go to build it with. */
export interface K6Lookup {
  /** The k6 binary named explicitly (K6_BIN), used before any other. */
  k6Bin?: string;
  /** The directories searched for k6 and go (PATH). */
  path: string;
}

/** K6_BIN and PATH; blank counts as unset. */
export function readK6Lookup(env: EnvLike = process.env): K6Lookup {
  return { k6Bin: text(env.K6_BIN), path: env.PATH ?? '' };
}

/**
 * Where the k6 the harness builds is kept: .tools/bin in a clone, beside the repository's other tools;
 * for an installed package, the user's cache ($XDG_CACHE_HOME/wfcheck/bin, else ~/.cache/wfcheck/bin),
 * so that it is built once for every project that installs the harness, and never into the package.
 */
export function readToolsBin(env: EnvLike = process.env): string {
  if (!PACKAGE_INSTALLED) return join(PACKAGE_ROOT, '.tools', 'bin');
  // The XDG rule: a relative value is invalid and ignored.
  const xdg = text(env.XDG_CACHE_HOME);
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'wfcheck', 'bin');
}
