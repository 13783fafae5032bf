/**
 * The arbitraries of the generative mode, per operation: the inputs the specification allows, and
 * separately those it forbids. They are built from what the exploration holds (a runnable canvas, one
 * with a file variable, the canvas generate may overwrite), so references only appear where they
 * resolve, and generate names a canvas only where overwriting is allowed.
 *
 * Where a choice is a `oneof`, the simplest branch comes first and cross-shrinking is on: a failure that
 * does not depend on the branch shrinks to the first one, so its minimal input is the same whichever
 * branch found it.
 */
import fc from 'fast-check';
import type { OperationId } from '../../contracts/check.ts';
import { LOCALES } from '../../core/discovery/locales.ts';
import type {
  AuthInput,
  Entry,
  ExecutionOp,
  ExploreInput,
  Fill,
  GenerateInput,
  QueryNumber,
  RunCanvas,
  RunInput,
  SearchInput,
  UrlText,
  Value,
  World,
} from './model.ts';
import { edgeNumber, longName, longUrlText, nest, pagingPair, rawNumber, withHeaderVariants } from './edges.ts';
import { jsonEscape, percentEscape } from './encodings.ts';
import { uploadArbitraries } from './parts.ts';
import { anyString, anyText, repeated, textOf, tokenChar, type Text } from './text.ts';

export interface Arbitraries {
  allowed: fc.Arbitrary<ExploreInput>;
  forbidden: fc.Arbitrary<ExploreInput>;
}

/** Long texts stay just under §8's 100k characters (one character per unit). */
const LONG = 99_000;
const oneChar = anyString({ minLength: 1, maxLength: 1 });
const lowerLetter = fc.integer({ min: 0x61, max: 0x7a }).map((c) => String.fromCharCode(c));

/**
 * Texts that travel in the request line stay within 6000 octets once encoded: RFC 9110 asks every server
 * for 8000, and what goes beyond it is answered by the HTTP stack (414, 431), not by the operation.
 */
const fitsInUrl = (t: Text) => encodeURIComponent(textOf(t)).length <= 6000;

/**
 * Ids of any shape: short texts of every plane, long repeated ones, percent-escapes that are no UTF-8; never
 * "." or "..", which URLs resolve away.
 */
const anyId: fc.Arbitrary<UrlText> = fc.oneof(
  { withCrossShrink: true },
  {
    weight: 5,
    arbitrary: fc
      .oneof(
        { withCrossShrink: true },
        { arbitrary: anyString({ minLength: 1, maxLength: 40 }), weight: 3 },
        { arbitrary: longUrlText(6_000), weight: 2 },
      )
      .filter((t) => fitsInUrl(t) && !/^\.\.?$/.test(textOf(t))),
  },
  { weight: 1, arbitrary: percentEscape },
);

/**
 * The request line a search query may take, per text parameter and per number written as is: with two of
 * each, 6,400 octets and the names, within the 8000 every server must take.
 */
const QUERY_TEXT_OCTETS = 2_000;
const QUERY_DIGITS = 1_200;

/** A text of a query: short of every plane (empty too), long (its share of the request line), escapes that are no UTF-8. */
const queryText: fc.Arbitrary<UrlText> = fc.oneof(
  { withCrossShrink: true },
  { arbitrary: anyString({ maxLength: 24 }), weight: 7 },
  { arbitrary: longUrlText(QUERY_TEXT_OCTETS), weight: 3 },
  { arbitrary: percentEscape, weight: 1 },
);

const numbers: fc.Arbitrary<number> = fc.oneof(
  { withCrossShrink: true },
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.maxSafeInteger(),
);

/**
 * A query number: whole or with a fraction, from -2^53 to 2^53; written as is (twenty digits and more,
 * exponent form, negative zero); at an edge (a classic limit, the edge of a double); any text; escapes
 * that are no UTF-8. The fraction shrinks away first.
 */
const queryNumber: fc.Arbitrary<QueryNumber> = fc.oneof(
  { withCrossShrink: true },
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.option(fc.integer({ min: 1, max: 999 }), { nil: undefined }),
        fc.integer({ min: -(2 ** 53), max: 2 ** 53 }),
      )
      .map(([f, i]) => (f === undefined ? i : i + (i < 0 ? -f : f) / 1000)),
  },
  { weight: 3, arbitrary: rawNumber(QUERY_DIGITS) },
  { weight: 1, arbitrary: fc.record({ text: anyString({ maxLength: 12 }) }) },
  { weight: 2, arbitrary: edgeNumber },
  { weight: 1, arbitrary: percentEscape },
);

function entries(value: fc.Arbitrary<Value>, maxLength: number, names = anyString({ maxLength: 12 })) {
  return fc.uniqueArray(fc.record({ name: names, value }), { maxLength, selector: (e) => e.name }) as fc.Arbitrary<
    Entry[]
  >;
}

/** Every value kind §4.1 names (string, number, boolean, object, array), nested; strings up to the content limit. */
const anyValue: fc.Arbitrary<Value> = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { withCrossShrink: true, depthSize: 'small', maxDepth: 3 },
    { arbitrary: anyText(LONG) as fc.Arbitrary<Value>, weight: 4 },
    { arbitrary: numbers, weight: 2 },
    { arbitrary: fc.boolean(), weight: 1 },
    { arbitrary: fc.array(tie('value'), { maxLength: 3 }), weight: 1 },
    { arbitrary: entries(tie('value'), 3).map(($object) => ({ $object })), weight: 1 },
  ),
})).value;

/**
 * A value as the top level of a body holds it (a variable's, an extra field's): any value, or one at the
 * edges — a number no double holds, one at a classic limit or at the edge of a double, arrays nested up to
 * the payload limit, a string with an ill-formed escape. Only there: a failure bound to one then shrinks to
 * the same place in the body whichever input found it.
 */
const topValue: fc.Arbitrary<Value> = fc.oneof(
  { withCrossShrink: true },
  { arbitrary: anyValue, weight: 6 },
  { arbitrary: rawNumber(20_000), weight: 2 },
  { arbitrary: nest, weight: 2 },
  { arbitrary: edgeNumber, weight: 3 },
  { arbitrary: jsonEscape, weight: 1 },
);

/** Names of variables and fields: short of every plane (empty too), or long. */
const anyName: fc.Arbitrary<string> = fc.oneof(
  { withCrossShrink: true },
  { arbitrary: anyString({ maxLength: 12 }), weight: 8 },
  { arbitrary: longName(300), weight: 1 },
);

const authInput: fc.Arbitrary<AuthInput> = fc.oneof(
  { withCrossShrink: true },
  fc.constant({ none: true as const }),
  fc.record({
    scheme: fc.constantFrom('Bearer', 'bearer', 'Basic', 'Token', 'ApiKey', ''),
    token: fc.string({ unit: tokenChar, maxLength: 48 }),
  }),
);

const fill: fc.Arbitrary<Fill> = fc.record({
  text: anyText(200),
  option: fc.nat(20),
  fileKeys: fc.array(fc.record({ $fileKey: fc.nat(50) }), { minLength: 1, maxLength: 3 }),
  asArray: fc.boolean(),
});

const PLAIN_FILL: Fill = { text: 'wfcheck', option: 0, fileKeys: [{ $fileKey: 0 }], asArray: false };

/** A weighted choice, simplest first, of the branches that exist. */
function choice<T>(branches: (false | undefined | { arbitrary: fc.Arbitrary<T>; weight: number })[]): fc.Arbitrary<T> {
  const present = branches.filter((b): b is { arbitrary: fc.Arbitrary<T>; weight: number } => !!b);
  return fc.oneof({ withCrossShrink: true }, ...present);
}

// ---- search, detail, executions -----------------------------------------------------------------------

/** A search query of every parameter, each optional. */
const searchQuery: fc.Arbitrary<SearchInput['query']> = fc.record(
  {
    keyword: queryText,
    order: fc.oneof(
      { withCrossShrink: true },
      { arbitrary: anyString({ maxLength: 16 }), weight: 2 },
      {
        arbitrary: fc.constantFrom('asc', 'desc', 'updationDesc', 'creationAsc', 'titleAsc', '-createdAt'),
        weight: 2,
      },
      { arbitrary: longUrlText(QUERY_TEXT_OCTETS), weight: 3 },
      { arbitrary: percentEscape, weight: 1 },
    ),
    page: queryNumber,
    pageSize: queryNumber,
  },
  { requiredKeys: [] },
);

/** A page and a page size whose offset crosses a classic limit (edges.ts), nothing else. */
const pagingQuery: fc.Arbitrary<SearchInput['query']> = pagingPair.map(({ page, pageSize }) => ({ page, pageSize }));

function search(): Arbitraries {
  const allowed = fc.record({
    op: fc.constant('searchWorkflows' as const),
    family: fc.constant('allowed'),
    query: fc.oneof(
      { withCrossShrink: true },
      { weight: 9, arbitrary: searchQuery },
      { weight: 1, arbitrary: pagingQuery },
    ),
  });
  const forbidden = fc.record({
    op: fc.constant('searchWorkflows' as const),
    family: fc.constant('no-valid-key'),
    auth: authInput,
    query: fc.constant({}),
  });
  return { allowed, forbidden };
}

function detail(world: World): Arbitraries {
  const canvas = choice<{ $canvas: number } | { id: UrlText }>([
    world.canvases.length > 0 && { arbitrary: fc.record({ $canvas: fc.nat(50) }), weight: 2 },
    { arbitrary: fc.record({ id: anyId }), weight: 3 },
  ]);
  const known = world.canvases.length ? { $canvas: 0 } : { id: 'wfcheck-explore-unknown' };
  return {
    allowed: fc.record({ op: fc.constant('getWorkflowDetail' as const), family: fc.constant('allowed'), canvas }),
    forbidden: fc.record({
      op: fc.constant('getWorkflowDetail' as const),
      family: fc.constant('no-valid-key'),
      auth: authInput,
      canvas: fc.constant(known),
    }),
  };
}

function execution(op: ExecutionOp, world: World): Arbitraries {
  const started = world.executions.length > 0 || world.plain !== undefined;
  const ref = choice<{ $execution: number } | { id: UrlText }>([
    started && { arbitrary: fc.record({ $execution: fc.nat(50) }), weight: 3 },
    { arbitrary: fc.record({ id: anyId }), weight: 2 },
  ]);
  return {
    allowed: fc.record({ op: fc.constant(op), family: fc.constant('allowed'), execution: ref }),
    forbidden: fc.record({
      op: fc.constant(op),
      family: fc.constant('no-valid-key'),
      auth: authInput,
      execution: fc.constant(started ? { $execution: 0 } : { id: 'wfcheck-explore-unknown' }),
    }),
  };
}

// ---- run --------------------------------------------------------------------------------------------

/**
 * The canvas a run names. Any id first: a failure that does not need a real canvas shrinks to one that
 * starts no execution.
 */
function runCanvas(world: World): fc.Arbitrary<RunCanvas> {
  return choice<RunCanvas>([
    { arbitrary: fc.record({ id: anyId }), weight: 3 },
    world.plain && { arbitrary: fc.constant({ $canvas: 'plain' as const }), weight: 3 },
    world.files && { arbitrary: fc.constant({ $canvas: 'files' as const }), weight: 1 },
  ]);
}

/** Variables given as top-level fields (the legacy form): never one named "variables", read as the wrapper. */
const legacyNames = anyName.filter((n) => n !== 'variables');

/** An allowed run body: mostly JSON, its variables (or none) and legacy top-level fields; now and then no body. */
const allowedRunBody = fc.oneof(
  { withCrossShrink: true },
  {
    weight: 9,
    arbitrary: fc.record(
      {
        form: fc.constant('json' as const),
        variables: entries(topValue, 4, anyName).map(($object) => ({ $object })),
        legacy: entries(topValue, 2, legacyNames),
      },
      { requiredKeys: ['form', 'legacy'] },
    ),
  },
  { weight: 1, arbitrary: fc.constant({ form: 'none' as const }) },
);

/** A body that is not a JSON object: another JSON value, broken JSON, or any text. */
const notObject = fc.oneof(
  { withCrossShrink: true },
  fc.constantFrom('[]', '[{}]', '"text"', '42', 'true', 'null', '{', '{"a":', '{"a" 1}', "{'a':1}", '{"a":1,}', '{}}'),
  anyString({ minLength: 1, maxLength: 20 }),
);

/** `variables` of every kind but an object. */
const variablesNotObject: fc.Arbitrary<Value> = fc.oneof(
  anyString({ maxLength: 8 }),
  numbers,
  fc.boolean(),
  fc.constant(null),
  fc.array(anyValue, { maxLength: 2 }),
);

/** Variables of which one is null (the others any value). */
const variablesWithNull: fc.Arbitrary<Value> = fc
  .tuple(anyString({ maxLength: 8 }), entries(anyValue, 2))
  .map(([name, rest]) => ({ $object: [{ name, value: null }, ...rest.filter((e) => e.name !== name)] }));

/** One variable of just over §8's 100k characters. */
const variableOverContentLimit: fc.Arbitrary<Value> = fc
  .tuple(anyString({ maxLength: 8 }), fc.integer({ min: 100_001, max: 100_400 }), lowerLetter)
  .map(([name, times, unit]) => ({ $object: [{ name, value: { $repeat: unit, times } }] }));

/** Two variables, each within the content limit, together over §8's 100KB payload. */
const variablesOverPayloadLimit: fc.Arbitrary<Value> = fc
  .tuple(fc.integer({ min: 52_000, max: 60_000 }), fc.integer({ min: 52_000, max: 60_000 }))
  .map(([a, b]) => ({
    $object: [
      { name: 'a', value: { $repeat: 'a', times: a } },
      { name: 'b', value: { $repeat: 'b', times: b } },
    ],
  }));

/** A JSON run body with the given variables and no legacy fields. */
const jsonVariables = (variables: fc.Arbitrary<Value>) =>
  fc.record({ form: fc.constant('json' as const), variables, legacy: fc.constant([] as Entry[]) });

/** A forbidden family of runs of `target`: the body varies, the rest is plain. */
const runFamily = (target: RunCanvas, name: string, body: fc.Arbitrary<RunInput['body']>) =>
  fc.record({
    op: fc.constant('runWorkflow' as const),
    family: fc.constant(name),
    canvas: fc.constant(target),
    body,
    fill: fc.constant(PLAIN_FILL),
  }) as fc.Arbitrary<RunInput>;

function forbiddenRun(world: World): fc.Arbitrary<RunInput> {
  // The forbidden families name the runnable canvas when there is one: there a refusal can only be about the body.
  const target: RunCanvas = world.plain ? { $canvas: 'plain' } : { id: 'wfcheck-explore-unknown' };
  return fc.oneof(
    runFamily(target, 'body-not-object', fc.record({ form: fc.constant('raw' as const), text: notObject })),
    runFamily(target, 'variables-not-object', jsonVariables(variablesNotObject)),
    runFamily(target, 'null-value', jsonVariables(variablesWithNull)),
    runFamily(target, 'content-over-limit', jsonVariables(variableOverContentLimit)),
    runFamily(target, 'payload-over-limit', jsonVariables(variablesOverPayloadLimit)),
    fc.record({
      op: fc.constant('runWorkflow' as const),
      family: fc.constant('no-valid-key'),
      auth: authInput,
      canvas: fc.constant(target),
      body: fc.constant({ form: 'json' as const, legacy: [] as Entry[] }),
      fill: fc.constant(PLAIN_FILL),
    }) as fc.Arbitrary<RunInput>,
  );
}

function run(world: World): Arbitraries {
  const allowed = fc.record({
    op: fc.constant('runWorkflow' as const),
    family: fc.constant('allowed'),
    canvas: runCanvas(world),
    body: allowedRunBody,
    fill,
  });
  return { allowed, forbidden: forbiddenRun(world) };
}

// ---- generate ---------------------------------------------------------------------------------------

const PROMPT = 'Summarise the weekly sales report';
const NAMED_FIELDS = new Set(['query', 'locale', 'canvasid']);
const LISTED_LOCALES = new Set(LOCALES);

/**
 * Fields §4.8 does not name, of any value, never one it names under another case: a parser keeping one
 * duplicate or matching names loosely never reads them as the query, the locale or the canvas to overwrite.
 */
const extraFields = entries(
  topValue,
  2,
  anyName.filter((n) => !NAMED_FIELDS.has(n.toLowerCase())),
);

/**
 * An allowed query: any short text, words, one character repeated up to just under the content limit, or a
 * string with an ill-formed escape (a lone surrogate).
 */
const generateQuery: fc.Arbitrary<Value> = fc.oneof(
  { withCrossShrink: true },
  { arbitrary: anyString({ maxLength: 60 }) as fc.Arbitrary<Value>, weight: 6 },
  {
    arbitrary: fc
      .array(anyString({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 8 })
      .map((w) => w.join(' ')),
    weight: 3,
  },
  { arbitrary: repeated(1, LONG, oneChar), weight: 1 },
  { arbitrary: jsonEscape, weight: 1 },
);

function allowedGenerate(world: World): fc.Arbitrary<GenerateInput> {
  const fields: Record<string, fc.Arbitrary<unknown>> = {
    form: fc.constant('json' as const),
    query: generateQuery,
    locale: fc.constantFrom(...LOCALES),
    extra: extraFields,
  };
  // Mostly the canvas it may overwrite (one canvas, replaced); now and then a new one (capped by the footprint).
  if (world.overwrite)
    fields.create = fc.oneof(
      { withCrossShrink: true },
      { arbitrary: fc.constant(undefined), weight: 4 },
      { arbitrary: fc.constant(true as const), weight: 1 },
    );
  return fc.record({
    op: fc.constant('generateWorkflow' as const),
    family: fc.constant('allowed'),
    body: fc.record(fields, { requiredKeys: world.overwrite ? ['form', 'query', 'create'] : ['form', 'query'] }),
  }) as fc.Arbitrary<GenerateInput>;
}

/** A forbidden family of generations: the body varies. */
const generateFamily = (family: string, body: fc.Arbitrary<GenerateInput['body']>) =>
  fc.record({
    op: fc.constant('generateWorkflow' as const),
    family: fc.constant(family),
    body,
  }) as fc.Arbitrary<GenerateInput>;

const missingQuery = fc.record(
  { form: fc.constant('json' as const), locale: fc.constantFrom(...LOCALES) },
  { requiredKeys: ['form'] },
);

const queryNotString = fc.record({
  form: fc.constant('json' as const),
  query: fc.oneof(numbers, fc.boolean(), fc.constant(null), fc.array(anyValue, { maxLength: 2 })),
});

const localeUnlisted = fc.record({
  form: fc.constant('json' as const),
  query: fc.constant(PROMPT),
  locale: fc
    .oneof({ withCrossShrink: true }, anyString({ maxLength: 10 }), longName(2_000))
    .filter((l) => !LISTED_LOCALES.has(l)),
});

/** A canvasId that is no string: null (a lenient server reads it as absent), a number, a boolean, an object. */
const canvasNotString = fc.record({
  form: fc.constant('json' as const),
  query: fc.constant(PROMPT),
  canvas: fc.oneof(fc.constant(null), numbers, fc.boolean(), fc.array(anyValue, { maxLength: 2 })),
});

const generateNotObject = fc.record({
  form: fc.constant('raw' as const),
  text: fc.constantFrom('[]', '"text"', '42', 'null', '{', '{"query":'),
});

/** A query of just over §8's 100k characters. */
const queryOverContentLimit = fc.record({
  form: fc.constant('json' as const),
  query: fc.record({ $repeat: lowerLetter, times: fc.integer({ min: 100_001, max: 100_400 }) }),
});

/** A query within the content limit in characters, over §8's 100KB in octets (two per "é"). */
const queryOverPayloadLimit = fc.record({
  form: fc.constant('json' as const),
  query: fc.record({ $repeat: fc.constant('é'), times: fc.integer({ min: 51_300, max: 60_000 }) }),
});

const forbiddenGenerate = fc.oneof(
  generateFamily('missing-query', missingQuery),
  generateFamily('query-not-string', queryNotString),
  generateFamily('locale-unlisted', localeUnlisted),
  generateFamily('canvas-not-string', canvasNotString),
  generateFamily('body-not-object', generateNotObject),
  generateFamily('content-over-limit', queryOverContentLimit),
  generateFamily('payload-over-limit', queryOverPayloadLimit),
  fc.record({
    op: fc.constant('generateWorkflow' as const),
    family: fc.constant('no-valid-key'),
    auth: authInput,
    body: fc.constant({ form: 'json' as const, query: PROMPT }),
  }),
);

function generate(world: World): Arbitraries {
  return { allowed: allowedGenerate(world), forbidden: forbiddenGenerate };
}

/** The allowed and the forbidden inputs of one operation, given what the exploration holds. */
export function arbitrariesFor(op: OperationId, world: World): Arbitraries {
  const { allowed, forbidden } = byOperation(op, world);
  return { allowed: withHeaderVariants(op, allowed), forbidden };
}

function byOperation(op: OperationId, world: World): Arbitraries {
  switch (op) {
    case 'searchWorkflows':
      return search();
    case 'getWorkflowDetail':
      return detail(world);
    case 'runWorkflow':
      return run(world);
    case 'getExecutionStatus':
    case 'getExecutionOutput':
    case 'abortExecution':
      return execution(op, world);
    case 'uploadFiles':
      return uploadArbitraries(authInput);
    case 'generateWorkflow':
      return generate(world);
  }
}
