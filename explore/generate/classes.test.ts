/**
 * A crash is named by the class of input it is about, found by probing: the same class whichever member
 * shrinking reached, and only the classes whose representative crashed. Probed here against crash rules
 * read off the prepared request, without a server.
 */
import { expect, test } from '@playwright/test';
import { classesOf, classedPaths, generalized, shapeHolds } from './classes.ts';
import type { Probe } from './builder.ts';
import { prepare, shapeOf } from './inputs.ts';
import type { ExploreInput, World } from './model.ts';

const WORLD: World = { canvases: [], fileKeys: [], executions: [], keys: ['wfcheck-test-key'] };

const search = (query: Record<string, unknown>, header?: string): ExploreInput =>
  ({ op: 'searchWorkflows', family: 'allowed', query, ...(header ? { header } : {}) }) as ExploreInput;
const run = (name: string, value: unknown = '', header?: string): ExploreInput =>
  ({
    op: 'runWorkflow',
    family: 'allowed',
    canvas: { id: 'a' },
    body: { form: 'json', legacy: [{ name, value }] },
    fill: { text: 'x', option: 0, fileKeys: [], asArray: false },
    ...(header ? { header } : {}),
  }) as ExploreInput;

/** The shape a crash rule gives a minimal input, probed as the exploration probes it. */
async function classShape(input: ExploreInput, crashes: (p: ReturnType<typeof prepare>) => boolean) {
  const minimal = prepare(input, WORLD);
  expect(crashes(minimal)).toBe(true);
  const found = await classesOf(input.op, minimal.features, async (probe: Probe) =>
    crashes(prepare(input, WORLD, probe)),
  );
  return generalized(shapeOf(minimal.features), found);
}

/** A query value as the server reads it off the request line. */
const queryOf = (p: ReturnType<typeof prepare>, name: string) =>
  new URL(`http://target${p.spec.path}`).searchParams.get(name) ?? '';
const keywordOf = (p: ReturnType<typeof prepare>) => queryOf(p, 'keyword');
const body = (p: ReturnType<typeof prepare>) => String(p.spec.raw?.body ?? '');

test('a keyword outside printable ASCII: one class from "À" and from NUL', async () => {
  const rule = (p: ReturnType<typeof prepare>) => /[^\x20-\x7e]/.test(keywordOf(p));
  const fromAccent = await classShape(search({ keyword: 'À' }), rule);
  const fromNul = await classShape(search({ keyword: '\u0000' }), rule);
  expect(fromAccent).toEqual(['keyword', 'keyword:any(control,c1-control,two-byte,three-byte,four-byte)']);
  expect(fromNul).toEqual(fromAccent);
});

test('a variable name outside [A-Za-z0-9_]: one class from " ", "!" and "À", the value aside', async () => {
  const rule = (p: ReturnType<typeof prepare>) => /"[^"]*[^A-Za-z0-9_"][^"]*":/.test(body(p));
  const shapes = await Promise.all([run(' '), run('!'), run('À', { $object: [] })].map((i) => classShape(i, rule)));
  expect(shapes[0]).toEqual([
    'vars.*',
    'vars.*#name:any(space,punct,control,c1-control,two-byte,three-byte,four-byte)',
  ]);
  expect(shapes[1]).toEqual(shapes[0]);
  // Another value kind keeps its own feature, yet the finding's shape holds in it: it is known as the same.
  const structured = prepare(run('À', { $object: [] }), WORLD);
  expect(shapeHolds(new Set(shapeOf(structured.features)), shapes[0]!)).toBe(true);
});

test('a page beyond 2^53 or in exponent form: one class from 16 digits and from 1e0', async () => {
  const rule = (p: ReturnType<typeof prepare>) => {
    const page = queryOf(p, 'page');
    return /[eE]/.test(page) || (/^\d+$/.test(page) && BigInt(page) > 2n ** 53n);
  };
  const fromDigits = await classShape(search({ page: { $number: '9999999999999999' } }), rule);
  const fromExponent = await classShape(search({ page: { $number: '1e0' } }), rule);
  expect(fromDigits).toEqual([
    'page',
    'page:any(exponent,overflows-double,underflows-double,|exponent|>2^31-1,|x|>2^53,|x|>2^63-1,|x|>2^64-1,digits>16,digits>1000)',
  ]);
  expect(fromExponent).toEqual(fromDigits);
});

test('a charset other than utf-8: one class of header variants, whichever variant was reached', async () => {
  const rule = (p: ReturnType<typeof prepare>) => /charset=(?!utf-8)/i.test(p.spec.raw?.contentType ?? '');
  const latin1 = await classShape(run('', '', 'charset=latin1'), rule);
  const utf16 = await classShape(run('', '', 'charset=utf-16'), rule);
  expect(latin1).toContain('header:any(charset=us-ascii,charset=latin1,charset=iso-8859-1,charset=utf-16)');
  expect(utf16).toEqual(latin1);
});

test('a class that did not matter leaves the shape; one no representative shares stays as shrinking left it', async () => {
  // Crashes on any variable whatever its name: the name's class (a space) is not what it is about.
  const anyName = await classShape(run(' '), (p) => body(p).startsWith('{"'));
  expect(anyName).toEqual(['vars.*']);
  // Crashes only on "_": no representative shares it, so the shape keeps the member reached.
  const underscore = await classShape(run('_'), (p) => body(p).includes('"_"'));
  expect(underscore).toEqual(['vars.*', 'vars.*#name:punct']);
});

test('classed values: characters of a class, numbers, header variants; plain letters and presence have none', () => {
  const p = prepare(search({ keyword: 'abc', order: 'a b', page: 3 }, 'authorization=twice'), WORLD);
  expect(classedPaths(p.features)).toEqual(
    expect.arrayContaining([
      { path: 'order', family: 'text' },
      { path: 'header', family: 'header' },
    ]),
  );
  expect(classedPaths(p.features).some((c) => c.path === 'keyword')).toBe(false);
  expect(shapeHolds(new Set(['order', 'order:four-byte']), ['order:any(space,four-byte)'])).toBe(true);
  expect(shapeHolds(new Set(['order', 'order:punct']), ['order:any(space,four-byte)'])).toBe(false);
});

test('an escape that is no UTF-8 is its own class, unless a class of characters in its place crashes alike', async () => {
  // A server that reads %FF as U+FFFD and then breaks on anything outside ASCII: the same finding as "À".
  const decoded = (p: ReturnType<typeof prepare>) =>
    /[^\x20-\x7e]/.test(new URLSearchParams(p.spec.path.split('?')[1]).get('keyword') ?? '');
  const fromEscape = await classShape(search({ keyword: { $percent: '%FF' } }), decoded);
  const fromAccent = await classShape(search({ keyword: 'À' }), decoded);
  expect(fromEscape).toEqual(fromAccent);
  // A URL decoder that breaks on the bytes themselves: no character stands in for them.
  const raw = (p: ReturnType<typeof prepare>) => p.spec.path.includes('%FF');
  expect(await classShape(search({ keyword: { $percent: '%FF' } }), raw)).toEqual(['keyword', 'keyword:not-utf8']);
});
