/**
 * The string parameters a long run of one character can stand in, per operation, generate's query first:
 * where the run goes, how long a run fits there (a URL's share of the request line; within the content
 * limit in a body), and the plainest request that carries it, everything else as ordinary as it gets. The
 * run is written `{ $repeat, times }`, so a minimal input reads as one line.
 */
import type { OperationId } from '../../contracts/check.ts';
import type { Entry, ExploreInput, Fill, World } from './model.ts';
import { RUN_CHARS, type RunChar } from './runs.ts';
import type { Repeat } from './text.ts';

export interface RunSite {
  /** The path its texts are written under (the run's feature path). */
  path: string;
  /** The longest run of `char` the parameter carries. */
  max(char: RunChar): number;
  /** The request carrying `run` there. */
  input(run: Repeat, world: World): ExploreInput;
  /** The run characters tried there (default: all), and the first length (default FIRST_RUN). */
  chars?: readonly RunChar[];
  from?: number;
}

/** Octets of a request line a query value may take (as arbitraries.ts shares them), and a path id. */
const QUERY_OCTETS = 2_000;
const ID_OCTETS = 6_000;
/** Runs in a body: well within §8's limits, whatever the character (a non-breaking space is two octets). */
const BODY_RUN = 32_768;
/** A run of a one-octet character in generate's query, twice as long: still within 100KB and 100k characters. */
const QUERY_RUN = 65_536;
const inBody = (char: RunChar) => (Buffer.byteLength(RUN_CHARS[char]) === 1 ? QUERY_RUN : BODY_RUN);
const NAME_RUN = 4_096;
const FILE_NAME_RUN = 8_192;
/**
 * Parts of an upload whose names each carry the run: a cost per part (a name trimmed one character at a
 * time took 0.27 s at 8 KB) is slow only for many parts together (20 took 5.4 s), never for one.
 */
export const MANY_NAMED_PARTS = 16;

const inQuery = (char: RunChar) =>
  Math.floor(QUERY_OCTETS / (new URLSearchParams({ v: RUN_CHARS[char] }).toString().length - 2));
const inPath = (char: RunChar) => Math.floor(ID_OCTETS / encodeURIComponent(RUN_CHARS[char]).length);
const upTo = (n: number) => () => n;

const PLAIN_FILL: Fill = { text: 'wfcheck', option: 0, fileKeys: [{ $fileKey: 0 }], asArray: false };
/** A canvas no target holds: a run's request starts no execution. */
const UNKNOWN = 'wfcheck-explore-unknown';
const PROMPT = 'Summarise the weekly sales report';

/**
 * A run written between two plain words: a splitter of steps or sentences backtracks over a run only when
 * something follows it and no separator it looks for does ("ab" + 99,990 spaces + "cd" took Spring's splitter
 * 309 s; a bare run is trimmed away first, and a run followed by "then" is split at once).
 */
const inProse = (run: Repeat): Repeat => ({ ...run, around: ['ab', 'cd'] });

/** A run of the plainest body: `variables` only, legacy fields none. */
const runWith = (variables: Entry[] | undefined, canvas: { id: Repeat | string }): ExploreInput => ({
  op: 'runWorkflow',
  family: 'allowed',
  canvas,
  body: { form: 'json', ...(variables ? { variables: { $object: variables } } : {}), legacy: [] },
  fill: PLAIN_FILL,
});

const execution = (op: 'getExecutionStatus' | 'getExecutionOutput' | 'abortExecution'): RunSite => ({
  path: 'executionId',
  max: inPath,
  input: (run) => ({ op, family: 'allowed', execution: { id: run } }),
});

const SITES: Readonly<Record<OperationId, readonly RunSite[]>> = {
  generateWorkflow: [
    {
      path: 'query',
      max: inBody,
      input: (run) => ({ op: 'generateWorkflow', family: 'allowed', body: { form: 'json', query: inProse(run) } }),
    },
    {
      path: 'locale',
      max: upTo(BODY_RUN),
      input: (run) => ({
        op: 'generateWorkflow',
        family: 'allowed',
        body: { form: 'json', query: PROMPT, locale: run },
      }),
    },
    {
      path: 'extra.*',
      max: upTo(BODY_RUN),
      input: (run) => ({
        op: 'generateWorkflow',
        family: 'allowed',
        body: { form: 'json', query: PROMPT, extra: [{ name: 'note', value: inProse(run) }] },
      }),
    },
  ],
  searchWorkflows: [
    {
      path: 'keyword',
      max: inQuery,
      input: (run) => ({ op: 'searchWorkflows', family: 'allowed', query: { keyword: run } }),
    },
    {
      path: 'order',
      max: inQuery,
      input: (run) => ({ op: 'searchWorkflows', family: 'allowed', query: { order: run } }),
    },
  ],
  getWorkflowDetail: [
    {
      path: 'canvasId',
      max: inPath,
      input: (run) => ({ op: 'getWorkflowDetail', family: 'allowed', canvas: { id: run } }),
    },
  ],
  runWorkflow: [
    {
      path: 'vars.*',
      max: upTo(BODY_RUN),
      input: (run) => runWith([{ name: 'topic', value: inProse(run) }], { id: UNKNOWN }),
    },
    {
      path: 'vars.*#name',
      max: upTo(NAME_RUN),
      input: (run) => runWith([{ name: run.$repeat.repeat(run.times), value: 'x' }], { id: UNKNOWN }),
    },
    { path: 'canvasId', max: inPath, input: (run) => runWith(undefined, { id: run }) },
  ],
  getExecutionStatus: [execution('getExecutionStatus')],
  getExecutionOutput: [execution('getExecutionOutput')],
  abortExecution: [execution('abortExecution')],
  uploadFiles: [
    {
      path: 'file.name',
      max: upTo(FILE_NAME_RUN),
      input: (run) => ({
        op: 'uploadFiles',
        family: 'allowed',
        body: { form: 'files', files: [{ name: run, type: 'text/plain', size: 16, fill: 1 }] },
      }),
    },
    {
      // Trailing spaces and dots are what a name trimmer eats (Windows drops both).
      path: 'file.name',
      max: upTo(FILE_NAME_RUN),
      chars: ['space', 'dot'],
      from: 1_024,
      input: (run) => ({
        op: 'uploadFiles',
        family: 'allowed',
        body: {
          form: 'files',
          files: Array.from({ length: MANY_NAMED_PARTS }, (_, i) => ({
            name: run,
            type: 'text/plain',
            size: 16,
            fill: i,
          })),
        },
      }),
    },
  ],
};

/** The sites of an operation, in the order they are tried. */
export function runSitesOf(op: OperationId): readonly RunSite[] {
  return SITES[op];
}

/** The site of an operation a run found at `path` stands in, if it is one. */
export function runSiteAt(op: OperationId, path: string): RunSite | undefined {
  return SITES[op].find((s) => s.path === path);
}

/** The first run length tried, and each next one twice as long: a run slow at n was not at n/2, within 4× for the square. */
export const FIRST_RUN = 256;

/** The lengths a site's run of `char` is tried at, doubling up to the longest it carries. */
export function ladderOf(site: RunSite, char: RunChar): number[] {
  const max = site.max(char);
  const out: number[] = [];
  for (let n = site.from ?? FIRST_RUN; n < max; n *= 2) out.push(n);
  out.push(max);
  return out;
}

export const runOf = (char: RunChar, times: number): Repeat => ({ $repeat: RUN_CHARS[char], times });
