/**
 * A command-line option takes the place of its environment variable: the harness is pointed at an
 * implementation through the environment only, never by editing code, and an option given on the
 * command line says the same thing for one run.
 */
import { text, type EnvLike } from './rules.ts';

/** A command-line value when given, else the environment's, with the name to cite when it is refused. */
export function optionOrEnv(
  option: string | undefined,
  optionName: string,
  env: EnvLike,
  variable: string,
): [string | undefined, string] {
  return option !== undefined ? [option, optionName] : [env[variable], variable];
}

/** A text setting: the command-line value when given, else the environment's; blank counts as unset. */
export function optionOrEnvText(option: string | undefined, env: EnvLike, variable: string): string | undefined {
  return text(option ?? env[variable]);
}
