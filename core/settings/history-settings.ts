/**
 * The settings of the run history and the implementation matrix: where the history is, and the
 * implementation a run is recorded under (a column of the matrix).
 */
import { join, resolve } from 'node:path';
import { optionOrEnv } from './option-or-env.ts';
import { WORK_DIR } from './roots.ts';
import { ENV, label, SettingError, text, type EnvLike } from './rules.ts';

/** The run history's SQLite file, absolute: WFCHECK_HISTORY, else reports/history.sqlite. */
export function readHistoryPath(env: EnvLike = process.env): string {
  return resolve(WORK_DIR, text(env[ENV.history]) ?? join('reports', 'history.sqlite'));
}

/** An implementation's name (a column of the matrix) and, when its vendor gives one, its version. */
export interface Implementation {
  name: string;
  version?: string;
}

/** Options naming the implementation, as parseArgs gives them. */
export interface ImplementationArgs {
  name?: string;
  'target-version'?: string;
}

/**
 * --name (WFCHECK_TARGET_NAME) and --target-version (WFCHECK_TARGET_VERSION); undefined when no name is
 * given. A version without a name is refused: it would be recorded under no implementation.
 */
export function readImplementation(args: ImplementationArgs, env: EnvLike = process.env): Implementation | undefined {
  const name = label(...optionOrEnv(args.name, '--name', env, ENV.targetName));
  const version = label(...optionOrEnv(args['target-version'], '--target-version', env, ENV.targetVersion));
  if (!name) {
    if (version)
      throw new SettingError(
        `--target-version (${ENV.targetVersion}) is the version of a named implementation: give --name (${ENV.targetName}) too`,
      );
    return undefined;
  }
  return version ? { name, version } : { name };
}
