/**
 * How a command ends, the same for every entry point in scripts/: a refused setting or command line
 * exits 2 with its message (and the usage, where the command has one), an output folder refused (in use,
 * or holding the user's files) exits 2 with its message, any other failure with the command's own
 * closing message and code, with keys redacted.
 */
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { inInvocationForm, type Subcommand } from './command-line.ts';
import { commandLine, readInvocation } from './invocation.ts';
import { redactSecrets } from './redact.ts';
import { Refusal, SettingError } from './rules.ts';

export interface CommandOptions {
  /** Printed after a refused command line or setting. */
  usage?: string;
  /** The closing message of an unexpected failure; default `<name>: <message>`. */
  failure?: (err: Error) => string;
  /** Exit code of an unexpected failure; default 2. */
  failureCode?: number;
}

/**
 * The values node:util parseArgs gives for an options table (node:util does not name the type): what a
 * command parsed and hands to the mode it starts.
 */
export type OptionValues<O extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ options: O; strict: true }>
>['values'];

/** node:util parseArgs refuses a command line with errors of these codes. */
function isCommandLineError(err: unknown): boolean {
  return err instanceof SettingError || /^ERR_PARSE_ARGS_/.test(String((err as { code?: unknown })?.code ?? ''));
}

/**
 * Runs `main` and exits with the code it returns; a main that returns nothing leaves the process to
 * end by itself (a server it started keeps it alive).
 */
export function runCommand(
  name: string,
  main: () => number | undefined | Promise<number | undefined>,
  options: CommandOptions = {},
): void {
  Promise.resolve()
    .then(main)
    .then(
      (code) => {
        if (typeof code === 'number') process.exit(code);
      },
      (err: Error) => {
        if (isCommandLineError(err)) {
          console.error(redactSecrets(`${name}: ${err.message}${options.usage ? `\n\n${options.usage}` : ''}`));
          process.exit(2);
        }
        // A folder in use, or none that can be the run's alone: the message says what to do, no stack.
        if (err instanceof Refusal) {
          console.error(redactSecrets(`${name}: ${err.message}`));
          process.exit(2);
        }
        console.error(redactSecrets(options.failure ? options.failure(err) : `${name}: ${err.message}`));
        process.exit(options.failureCode ?? 2);
      },
    );
}

/** Positionals before `--` (the command's own) and after it (passed on to a tool it runs), from parseArgs tokens. */
export function splitAtTerminator(tokens: readonly { kind: string; index: number; value?: string }[]): {
  own: string[];
  passed: string[];
} {
  const end = tokens.find((t) => t.kind === 'option-terminator')?.index ?? Infinity;
  const positionals = tokens.filter((t) => t.kind === 'positional');
  return {
    own: positionals.filter((t) => t.index < end).map((t) => t.value ?? ''),
    passed: positionals.filter((t) => t.index > end).map((t) => t.value ?? ''),
  };
}

/**
 * A usage text, written with the subcommands as `wfcheck <subcommand> [options]`, in the form the user
 * started the harness with (`npm run <script> -- [options]` from a clone's npm scripts).
 */
export function usageText(text: string): string {
  return inInvocationForm(text, readInvocation());
}

/** The command's usage from the first block comment of its source file (one text for --help and the code). */
export function usageFromSource(source: string): string {
  return usageText(
    source
      .slice(source.indexOf('/**') + 3, source.indexOf('*/'))
      .split('\n')
      .map((l) => l.replace(/^ \* ?/, ''))
      .join('\n')
      .trim(),
  );
}

/**
 * Refuses --out for a command that writes no file: every command knows the option, and one that would
 * ignore it says so instead, naming what it does (`does`) and where what it reads comes from.
 */
export function refuseOut(out: string | undefined, command: Subcommand, does: string): void {
  if (out !== undefined)
    throw new SettingError(`--out does not apply: ${commandLine(command)} writes no file (${does})`);
}

/**
 * For a command without options of its own: refuses any, and prints `usage` on -h/--help (then returns
 * true). A subcommand of `wfcheck` that writes no file passes `noFiles`: its --out is refused with why.
 */
export function printedHelp(
  usage: string,
  noFiles?: { command: Subcommand; does: string },
  args: string[] = process.argv.slice(2),
): boolean {
  const { values } = parseArgs({
    args,
    options: { help: { type: 'boolean', short: 'h' }, ...(noFiles ? { out: { type: 'string' } } : {}) },
    strict: true,
  });
  if (values.help) console.log(usage);
  else if (noFiles) refuseOut(values.out as string | undefined, noFiles.command, noFiles.does);
  return values.help === true;
}
