/**
 * Long runs of one character: spaces, tabs, carriage returns, non-breaking spaces, dots, commas. A
 * step-splitting regex (`/(\s*[.,]?\s*)+$/` and its kin) backtracks on them, its time growing with the
 * square or the cube of the run, so a prompt of 10,000 spaces takes seconds and one of 20,000 a minute,
 * where an ordinary prompt takes milliseconds. A run is a feature of the text that holds it
 * (`query:run(space)`), found in whatever text was sent, so a slow class is recognised in any input.
 */

export const RUN_CHARS = { space: ' ', tab: '\t', cr: '\r', nbsp: '\u00a0', dot: '.', comma: ',' } as const;

export type RunChar = keyof typeof RUN_CHARS;

export const RUN_CHAR_NAMES = Object.keys(RUN_CHARS) as RunChar[];

/** Runs shorter than this are no family of their own (a few spaces between words are ordinary text). */
export const RUN_MIN = 256;

/** A run found in a text sent: where, of which character, how long. */
export interface Run {
  path: string;
  char: RunChar;
  times: number;
}

const BY_CHAR = new Map<string, RunChar>(RUN_CHAR_NAMES.map((n) => [RUN_CHARS[n], n]));

export const runFeature = (char: RunChar) => `run(${char})`;

/** The longest run of each run character in `s`, of RUN_MIN or more. */
export function runsIn(path: string, s: string): Run[] {
  const longest = new Map<RunChar, number>();
  let at = 0;
  while (at < s.length) {
    const char = BY_CHAR.get(s[at]!);
    let end = at + 1;
    while (end < s.length && s[end] === s[at]) end++;
    if (char && end - at >= RUN_MIN) longest.set(char, Math.max(longest.get(char) ?? 0, end - at));
    at = end;
  }
  return [...longest].map(([char, times]) => ({ path, char, times }));
}

/** Adds the run features of a text at `path` (`query:run(space)`), and the runs themselves to `into`. */
export function runFeatures(path: string, s: string, features: Set<string>, into: Run[]): void {
  for (const run of runsIn(path, s)) {
    features.add(`${path}:${runFeature(run.char)}`);
    into.push(run);
  }
}

/** The run characters as a person names them. */
export const RUN_WORDS: Readonly<Record<RunChar, string>> = {
  space: 'spaces',
  tab: 'tabs',
  cr: 'carriage returns',
  nbsp: 'non-breaking spaces',
  dot: 'dots',
  comma: 'commas',
};

/** "a run of 4,096 spaces in query". */
export function runWords(run: Pick<Run, 'path' | 'char' | 'times'>): string {
  return `a run of ${run.times.toLocaleString('en-US')} ${RUN_WORDS[run.char]} in ${run.path}`;
}
