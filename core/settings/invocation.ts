/**
 * How the harness was started, read once from the environment, and the command lines its hints print in
 * that form (command-line.ts writes them; it is pure, for k6 too, so the reading is here).
 */
import { commandLineFor, type Invocation, type Subcommand } from './command-line.ts';
import { PACKAGE_INSTALLED } from './roots.ts';
import { ENV, text, type EnvLike } from './rules.ts';

/**
 * What bin/wfcheck.mjs set (WFCHECK_INVOKED_AS), else (an entry point started by other means, e.g. tsx in
 * a clone or a test) the installed command when the harness is installed, the npm scripts when it runs
 * from its clone.
 */
export function readInvocation(env: EnvLike = process.env): Invocation {
  const given = text(env[ENV.invokedAs]);
  if (given === 'wfcheck' || given === 'npm') return given;
  return PACKAGE_INSTALLED ? 'wfcheck' : 'npm';
}

/** A command line for a hint, as the user types it (`wfcheck load --seed 7` or `npm run load -- --seed 7`). */
export function commandLine(
  command: Subcommand,
  args: readonly (string | number)[] = [],
  env: EnvLike = process.env,
): string {
  return commandLineFor(readInvocation(env), command, args);
}
