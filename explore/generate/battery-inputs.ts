/**
 * The inputs sent on every run, not drawn by chance: the widths and sites real servers were seen to break
 * at, which a sample of a few hundred inputs reaches on some nights and not on others. Each family is a
 * fixed list per operation, built from what setup found (the page sizes the server serves, the titles it
 * lists, a workflow that declares variables), in the order it is sent: the plainest member of a family
 * first, so a failure met by several members is the first one's finding and the others count as it.
 *
 * What they are, and what a server must do with them, is in docs/explore.md ("Sent every run"); in short,
 * each is an input the specification allows (or leaves to the server to refuse), so any listed status, or
 * a 4xx where the input is at an edge (observed), passes, and a 5xx, a reset or a hang fails; a keyword
 * no title holds must list nothing.
 */
import type { OperationId } from '../../contracts/check.ts';
import { COMMON_PAGE_SIZES, defaultSizesOf } from './inputs.ts';
import type {
  BrokenMultipart,
  Coding,
  Disposition,
  Entry,
  ExploreInput,
  Fill,
  GenerateBody,
  RunCanvas,
  RunInput,
  SearchInput,
  UploadBody,
  Value,
  World,
} from './model.ts';
import { WIDTHS, type Repeat, type Text } from './text.ts';

export interface BatteryFamily {
  /** What the family is, as a finding names where it came from. */
  name: string;
  inputs: ExploreInput[];
}

/** A canvas no target holds, of letters only (its text has no class of its own: no shape but its presence). */
const UNKNOWN = 'wfchecknosuch';
const QUERY = 'Summarise';
const PLAIN_FILL: Fill = { text: 'wfcheck', option: 0, fileKeys: [{ $fileKey: 0 }], asArray: false };

const x = (times: number): Repeat => ({ $repeat: 'x', times });
/** Each width, one less and one more: where a column or a buffer of that width starts refusing or overflowing. */
const AROUND_WIDTHS = WIDTHS.flatMap((w) => [w - 1, w, w + 1]);
/** Just past each width: where each request starts an execution, one per width (a column of w refuses w + 1). */
const PAST_WIDTHS = WIDTHS.map((w) => w + 1);

// ---- search ---------------------------------------------------------------------------------------------

/** The limits an offset (page − 1) × pageSize crosses here: a signed 32-bit and a signed 64-bit integer. */
const OFFSET_EXPONENTS = [31, 63] as const;

/** The first page whose offset at `size` is past 2^e: still a small page, its product past the limit. */
const pagePast = (e: number, size: number) => String(2n ** BigInt(e) / BigInt(size) + 2n);

const search = (query: SearchInput['query'], extra: Partial<SearchInput> = {}): SearchInput => ({
  op: 'searchWorkflows',
  family: 'allowed',
  query,
  ...extra,
});

/**
 * Pages whose offset crosses 2^31 and 2^63 at the page sizes the server serves: without pageSize at its
 * default (observed in setup, or the common ones), then with each size it served (its default and the most
 * it served) and the common ones, smallest first.
 */
function pagingEdges(world: World): SearchInput[] {
  const seen = [world.search?.servedByDefault, world.search?.servedAtMost].filter((n): n is number => !!n && n > 1);
  const sizes = [...new Set([...seen, ...COMMON_PAGE_SIZES])].sort((a, b) => a - b);
  return OFFSET_EXPONENTS.flatMap((e) => [
    ...defaultSizesOf(world).map((d) => search({ page: { $number: pagePast(e, d) } })),
    ...sizes.map((size) => search({ page: { $number: pagePast(e, size) }, pageSize: size })),
  ]);
}

/** A word of four letters or more of a listed title: what a keyword cut short still finds. */
function titleWord(world: World): string | undefined {
  for (const item of world.search?.items ?? []) {
    const word = item.title.split(/[^A-Za-z]+/).find((w) => w.length >= 4);
    if (word) return word;
  }
  return undefined;
}

/**
 * Keywords no title holds, made of twenty random letters: after a NUL (a keyword cut at it is empty), after
 * a title's word and a NUL (cut, it finds that title), after a control character, DEL or NEL, and sixty
 * times over. A server that strips, trims or refuses such characters still finds nothing.
 */
function oddKeywords(world: World): SearchInput[] {
  const n = world.search?.nonsense;
  if (!n) return [];
  const word = titleWord(world);
  const keywords = [`\u0000${n}`, ...(word ? [`${word}\u0000${n}`] : []), `\u0001${n}`, `\u007f${n}`, `\u0085${n}`];
  return [...keywords, n.repeat(60)].map((keyword) => search({ keyword }, { keywordInNoTitle: true }));
}

// ---- ids ------------------------------------------------------------------------------------------------

const EXECUTION_OPS = ['getExecutionStatus', 'getExecutionOutput', 'abortExecution'] as const;

/** Ids just past each width, in the path: an id column or a lookup key of that width. */
function idWidths(op: OperationId): ExploreInput[] {
  if (op === 'getWorkflowDetail') return PAST_WIDTHS.map((n) => ({ op, family: 'allowed', canvas: { id: x(n) } }));
  if ((EXECUTION_OPS as readonly string[]).includes(op))
    return PAST_WIDTHS.map((n) => ({
      op: op as (typeof EXECUTION_OPS)[number],
      family: 'allowed',
      execution: { id: x(n) },
    }));
  if (op === 'runWorkflow') return PAST_WIDTHS.map((n) => run({ id: x(n) }));
  return [];
}

// ---- run and generate -------------------------------------------------------------------------------------

function run(canvas: RunCanvas, variables?: Entry[], extra: Partial<RunInput> = {}): RunInput {
  return {
    op: 'runWorkflow',
    family: 'allowed',
    canvas,
    body: { form: 'json', ...(variables ? { variables: { $object: variables } } : {}), legacy: [] },
    fill: PLAIN_FILL,
    ...extra,
  };
}

const generate = (body: Omit<Extract<GenerateBody, { form: 'json' }>, 'form'>, extra = {}): ExploreInput => ({
  op: 'generateWorkflow',
  family: 'allowed',
  body: { form: 'json', ...body },
  ...extra,
});

/** Lone surrogates, high and low (a JSON text may carry them, UTF-8 cannot), and an escape that is none. */
const LOW = '\\udc00';
const ESCAPES = [LOW, '\\ud800', '\\uZZZZ'] as const;
/** A lone surrogate as a name holds it: JSON.stringify writes it `\udc00`. */
const LONE_NAME = '\udc00';

/** Broken encodings in every JSON string of a run: a value, a name, and a name of the runnable canvas's run. */
function runEscapes(world: World): RunInput[] {
  const unknown = { id: UNKNOWN };
  return [
    ...ESCAPES.map(($escape) => run(unknown, [{ name: '', value: { $escape } }])),
    run(unknown, [{ name: LONE_NAME, value: '' }]),
    ...(world.plain ? [run({ $canvas: 'plain' }, [{ name: LONE_NAME, value: 'x' }])] : []),
  ];
}

/** Broken encodings in every JSON string of a generation: the query, the locale, a field and its name, the canvas. */
function generateEscapes(): ExploreInput[] {
  return [
    ...ESCAPES.map(($escape) => generate({ query: { $escape } })),
    generate({ query: QUERY, locale: { $escape: LOW } }),
    generate({ query: QUERY, extra: [{ name: '', value: { $escape: LOW } }] }),
    generate({ query: QUERY, extra: [{ name: LONE_NAME, value: '' }] }),
    generate({ query: QUERY, canvas: { $escape: LOW } }),
  ];
}

/**
 * Values §4.1 allows in a variable the workflow declares, its required ones filled: numbers no double holds
 * (past its largest, below its smallest, an exponent no integer holds), negative zero, twenty digits, 2^63,
 * a lone surrogate, a NUL, a boolean.
 */
const DECLARED_ODD: readonly Value[] = [
  { $number: '1e309' },
  { $number: '1e-400' },
  { $number: '1e99999999999' },
  { $number: '-0' },
  { $number: '99999999999999999999' },
  { $number: '9223372036854775808' },
  { $escape: LOW },
  '\u0000',
  true,
];

function declaredValues(world: World): RunInput[] {
  const v = world.inputs?.variable;
  if (v === undefined) return [];
  return [
    ...DECLARED_ODD.map((value) => run({ $canvas: 'inputs' }, [{ name: v, value }])),
    ...PAST_WIDTHS.map((n) => run({ $canvas: 'inputs' }, [{ name: v, value: x(n) }])),
  ];
}

/** Depths beside the usual recursion limits (.NET 64, Ruby 100, serde 128, PHP 512, Python and Jackson 1000). */
const DEPTH_LIMITS = [64, 100, 128, 500, 512, 1000, 1024, 10_000] as const;
const AROUND_DEPTHS = DEPTH_LIMITS.flatMap((d) => [d - 1, d, d + 1]);

/** Arrays nested to a depth of the whole body: a run's value sits two levels in, a generation's field one. */
const depths = (wrap: number, at: (nest: number) => ExploreInput) => AROUND_DEPTHS.map((d) => at(d - wrap));

const CODINGS: readonly Coding[] = ['gzip', 'deflate', 'br'];

// ---- upload ---------------------------------------------------------------------------------------------

const upload = (body: UploadBody, extra = {}): ExploreInput => ({
  op: 'uploadFiles',
  family: 'allowed',
  body,
  ...extra,
});
/** One part written by hand: how a server refuses one (a header it will not read) is its own choice. */
const part = (disposition: Disposition, type: string | { long: number } = 'text/plain', name: Text = 'a') =>
  upload({ form: 'parts', parts: [{ name, type, disposition, size: 0, fill: 0 }] });

/** Widths in what a server stores of a part: its file name (in its Content-Disposition) and its Content-Type. */
function uploadWidths(): ExploreInput[] {
  return [
    ...AROUND_WIDTHS.map((n) => part('filename', 'text/plain', x(n))),
    // `application/` and letters: the whole media type of the width.
    ...AROUND_WIDTHS.map((n) => part('filename', { long: n - 'application/'.length })),
  ];
}

/** RFC 5987 names: UTF-8 first (the form itself), then ISO-8859-1, a charset no decoder knows, none, a false escape. */
function rfc5987Names(): ExploreInput[] {
  return [
    part('filename*'),
    part('filename*-latin1', 'text/plain', 'é'),
    part('filename*-unknown-charset'),
    part('filename*-no-charset'),
    part('filename*-bad-escape'),
  ];
}

const BROKEN: readonly BrokenMultipart[] = ['no-close', 'empty', 'not-multipart', 'no-boundary'];

/**
 * Part counts at and just past the limits frameworks set (Vert.x's “Param limit of 1000” among them): a limit
 * of n refuses n + 1, or n itself where it counts from one less; one under it tells nothing more.
 */
const PART_LIMITS = [100, 128, 1000, 1024, 4096] as const;

// ---- the battery ----------------------------------------------------------------------------------------

/** The families sent every run to `op`, in the order they are sent. */
export function batteryOf(op: OperationId, world: World): BatteryFamily[] {
  const families: BatteryFamily[] = [];
  const add = (name: string, inputs: ExploreInput[]) => inputs.length && families.push({ name, inputs });
  switch (op) {
    case 'searchWorkflows':
      add('paging offsets past 2^31 and 2^63 at the sizes served', pagingEdges(world));
      add('keywords no title holds', oddKeywords(world));
      break;
    case 'runWorkflow':
      add('broken encodings in JSON strings', runEscapes(world));
      add('odd values in a declared variable', declaredValues(world));
      add(
        'nesting depths beside recursion limits',
        depths(2, (n) => run({ id: UNKNOWN }, [{ name: '', value: { $nest: n } }])),
      );
      add(
        'content codings not applied',
        CODINGS.map((coding) => run({ id: UNKNOWN }, undefined, { coding })),
      );
      add('ids at column widths', idWidths(op));
      break;
    case 'generateWorkflow':
      add('broken encodings in JSON strings', generateEscapes());
      add(
        'nesting depths beside recursion limits',
        depths(1, (n) => generate({ query: QUERY, extra: [{ name: '', value: { $nest: n } }] })),
      );
      add(
        'content codings not applied',
        CODINGS.map((coding) => generate({ query: QUERY }, { coding })),
      );
      add(
        'texts at column widths',
        PAST_WIDTHS.map((n) => generate({ query: x(n) })),
      );
      break;
    case 'uploadFiles':
      add('part headers at column widths', uploadWidths());
      add('RFC 5987 names', rfc5987Names());
      add('multipart bodies broken for their boundary', [
        ...BROKEN.map((how) => upload({ form: 'broken', how })),
        upload({ form: 'nested' }),
      ]);
      add(
        'part counts at framework limits',
        PART_LIMITS.flatMap((n) => [n, n + 1]).map((count) => upload({ form: 'many', count })),
      );
      add(
        'content codings not applied',
        CODINGS.map((coding) =>
          upload(
            { form: 'parts', parts: [{ name: 'a', type: 'text/plain', disposition: 'filename', size: 0, fill: 0 }] },
            { coding },
          ),
        ),
      );
      break;
    default:
      add('ids at column widths', idWidths(op));
  }
  return families;
}
