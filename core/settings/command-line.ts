/**
 * Command lines as the user types them, for every hint the harness prints (usage texts, "replay: …",
 * "run … first"): `wfcheck conformance --seed 7` when the harness was started as the installed command
 * (or in its image), `npm run conformance -- --seed 7` when it was started by an npm script of a clone.
 * A hint in the other form would name a command the reader does not have.
 *
 * Pure (no Node API): the k6 scripts format their hints with it too. The form of the running command
 * is read by core/settings/invocation.ts (readInvocation), from what bin/wfcheck.mjs sets.
 */

/**
 * The subcommands of `wfcheck`, as bin/wfcheck.mjs offers them. The npm script of each is its words
 * joined by `:` (`load compare` is `npm run load:compare`).
 */
export const SUBCOMMANDS = [
  'conformance',
  'load',
  'load compare',
  'load distributed',
  'load capacity',
  'explore',
  'history',
  'history import',
  'matrix',
  'report merge',
  'target',
  'target image',
] as const;

export type Subcommand = (typeof SUBCOMMANDS)[number];

/** How the harness was started: the installed command (also the image's entrypoint), or an npm script of a clone. */
export type Invocation = 'wfcheck' | 'npm';

/** The npm script that runs a subcommand in a clone. */
export function npmScriptOf(command: Subcommand): string {
  return command.replace(/ /g, ':');
}

/**
 * An argument as a shell reads it back: as it is when it holds only plain characters (placeholders such
 * as `<seed>` included), else single-quoted.
 */
function shellWord(arg: string | number): string {
  const s = String(arg);
  return /^[\w./:=@%+,<>-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** `command` with `args` as the user of `invocation` types it; in an npm script the arguments follow `--`. */
export function commandLineFor(
  invocation: Invocation,
  command: Subcommand,
  args: readonly (string | number)[] = [],
): string {
  const rest = args.map(shellWord).join(' ');
  if (invocation === 'npm') return `npm run ${npmScriptOf(command)}${rest ? ` -- ${rest}` : ''}`;
  return `wfcheck ${command}${rest ? ` ${rest}` : ''}`;
}

/** `wfcheck <subcommand>`, longest first (`load compare` before `load`), then a space when options follow. */
const WRITTEN_AS_WFCHECK = new RegExp(
  `\\bwfcheck (${[...SUBCOMMANDS].sort((a, b) => b.length - a.length).join('|')})(?![\\w:-])( (?=[-[<]))?`,
  'g',
);

/**
 * A text that names subcommands as `wfcheck <subcommand> [options]` (a usage text, the help of a
 * command), in the form of `invocation`: for npm scripts `npm run <script>`, with `--` before the
 * options that follow (an option, `[…]` or `<…>`).
 */
export function inInvocationForm(text: string, invocation: Invocation): string {
  if (invocation === 'wfcheck') return text;
  return text.replace(
    WRITTEN_AS_WFCHECK,
    (_, command: Subcommand, options?: string) => `npm run ${npmScriptOf(command)}${options ? ' -- ' : ''}`,
  );
}
