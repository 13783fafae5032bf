/**
 * The inputs sent every run, as they are built and written, without a server: paging offsets past 2^31 and
 * 2^63 at the sizes the server served and the common ones; keywords no title holds; lengths at and beside
 * each column width in the part headers and just past them where a request starts an execution; lone
 * surrogates and false escapes in every JSON string, names included; RFC 5987 names in odd charsets;
 * multipart bodies broken for their boundary, or nested; part counts beside the framework limits; content
 * codings not applied; nesting depths beside the recursion limits; odd values in a declared variable.
 * Each is of the same list whatever the seed, and what a server may refuse is marked so (observed).
 */
import { expect, test } from '@playwright/test';
import { type BatteryFamily, batteryOf } from '../generate/battery-inputs.ts';
import { prepare } from '../generate/inputs.ts';
import type { ExploreInput, World } from '../generate/model.ts';
import { WIDTHS } from '../generate/text.ts';

const PLAN = {
  title: 'Market research report',
  tasks: [{ id: 't1', title: 'Research', prompt: 'p', toolsets: [] }],
  variables: [
    { name: 'topic', variableType: 'string' as const, required: true },
    { name: 'depth', variableType: 'option' as const, required: true, options: ['short', 'long'] },
  ],
};
const WORLD: World = {
  canvases: [],
  fileKeys: [],
  executions: [],
  keys: ['wfcheck-test-key'],
  plain: { canvasId: 'c_plain', plan: { title: 'Hello', tasks: PLAN.tasks } },
  inputs: { canvasId: 'c_inputs', plan: PLAN, variable: 'topic' },
  overwrite: 'c_overwrite',
  search: {
    items: [{ canvasId: 'c_1', title: 'Weekly digest: sales' }],
    capped: false,
    servedByDefault: 20,
    servedAtMost: 26,
    nonsense: 'qzxvjkwpqzxvjkwpqzxv',
  },
};

const family = (op: Parameters<typeof batteryOf>[0], name: string): BatteryFamily =>
  batteryOf(op, WORLD).find((f) => f.name.startsWith(name))!;
const bodyOf = (input: ExploreInput) => {
  const raw = prepare(input, WORLD).spec.raw?.body;
  return typeof raw === 'string' ? raw : Buffer.from(raw ?? new Uint8Array()).toString('latin1');
};

test('paging: offsets past 2^31 and 2^63 at the default and the sizes served, smallest first; each an edge', () => {
  const inputs = family('searchWorkflows', 'paging').inputs as Extract<ExploreInput, { op: 'searchWorkflows' }>[];
  const paths = inputs.map((i) => prepare(i, WORLD).spec.path);
  // Without pageSize at the default seen (20), then at each size served (20, 26) and the common ones.
  expect(paths[0]).toBe('/openapi/workflows?page=107374184');
  expect(paths).toContain('/openapi/workflows?page=21474838&pageSize=100');
  expect(paths).toContain('/openapi/workflows?page=82595526&pageSize=26');
  expect(paths).toContain('/openapi/workflows?page=461168601842738792&pageSize=20');
  for (const i of inputs) {
    const size = BigInt(Number(i.query.pageSize ?? 20));
    const page = BigInt((i.query.page as { $number: string }).$number);
    const offset = (page - 1n) * size;
    expect(
      [2n ** 31n, 2n ** 63n].some((l) => offset >= l && offset - l < size),
      paths.join('\n'),
    ).toBe(true);
    // A refusal of a page at an edge, or of a page size past 50, is the open point's: observed.
    expect(['SEARCH-PAGESIZE-DEFAULT', 'SEARCH-PAGESIZE-MAX']).toContain(prepare(i, WORLD).spec.openPoint);
  }
  const sizes = inputs.filter((i) => i.query.pageSize !== undefined).map((i) => Number(i.query.pageSize));
  expect(sizes.slice(0, sizes.length / 2)).toEqual([10, 20, 25, 26, 50, 100, 1000]);
});

test('keywords no title holds: after a NUL, after a title word and a NUL, controls, and long; judged on the titles read', () => {
  const inputs = family('searchWorkflows', 'keywords').inputs;
  const keywords = inputs.map((i) => (i as Extract<ExploreInput, { op: 'searchWorkflows' }>).query.keyword);
  const n = WORLD.search!.nonsense;
  expect(keywords).toEqual([`\u0000${n}`, `Weekly\u0000${n}`, `\u0001${n}`, `\u007f${n}`, `\u0085${n}`, n.repeat(60)]);
  const p = prepare(inputs[1]!, WORLD);
  expect(p.spec.path).toBe(`/openapi/workflows?keyword=Weekly%00${n}`);
  expect(p.inNoTitle?.keyword).toBe(`Weekly\u0000${n}`);
  expect(p.inNoTitle?.facts.items).toHaveLength(1);
  expect(p.features).toContain('keyword:control');
});

test('widths: each ±1 in a part name and a part type, just past each in a declared value, an id and a query', () => {
  const uploads = family('uploadFiles', 'part headers').inputs;
  expect(uploads).toHaveLength(WIDTHS.length * 6);
  const types = uploads.map(bodyOf).flatMap((b) => /Content-Type: (application\/x*)\r\n/.exec(b)?.[1] ?? []);
  expect(types.map((t) => t.length)).toEqual(WIDTHS.flatMap((w) => [w - 1, w, w + 1]));
  const names = uploads.map(bodyOf).flatMap((b) => /filename="(x*)"/.exec(b)?.[1] ?? []);
  expect(names.map((n) => n.length)).toEqual(WIDTHS.flatMap((w) => [w - 1, w, w + 1]));
  // A part written by hand: a refusal with any 4xx is the server's choice, observed.
  expect(prepare(uploads[0]!, WORLD).spec.openPoint).toBe('ERROR-STATUS-FOR-UNLISTED-CODES');
  const declared = family('runWorkflow', 'odd values').inputs.map(bodyOf);
  expect(declared.filter((b) => b.startsWith('{"variables":{"topic":"xxx'))).toHaveLength(WIDTHS.length);
  // The required option is filled validly, so the odd value is what the workflow meets.
  for (const b of declared) expect(b).toContain('"depth":"short"');
  expect(family('getExecutionStatus', 'ids').inputs.map((i) => prepare(i, WORLD).spec.path.length)).toEqual(
    WIDTHS.map((w) => '/openapi/workflow//status'.length + w + 1),
  );
  expect(family('generateWorkflow', 'texts').inputs).toHaveLength(WIDTHS.length);
});

test('broken encodings in every JSON string: values, names, the locale, the canvas; all marked at an edge', () => {
  const run = family('runWorkflow', 'broken encodings').inputs;
  const bodies = run.map(bodyOf);
  expect(bodies).toEqual(
    expect.arrayContaining([
      '{"variables":{"":"\\udc00"}}',
      '{"variables":{"":"\\uZZZZ"}}',
      '{"variables":{"\\udc00":""}}',
      '{"variables":{"\\udc00":"x"}}',
    ]),
  );
  const name = prepare(run[3]!, WORLD);
  expect(name.features).toContain('vars.*#name:lone-surrogate');
  expect(
    name.features.some((f) => f.endsWith(':three-byte')),
    'a lone surrogate is no character of a class',
  ).toBe(false);
  expect(name.spec.openPoint).toBe('ERROR-STATUS-FOR-UNLISTED-CODES');
  const generate = family('generateWorkflow', 'broken encodings').inputs.map(bodyOf);
  expect(generate).toEqual(
    expect.arrayContaining([
      '{"query":"\\udc00","canvasId":"c_overwrite"}',
      '{"query":"Summarise","locale":"\\udc00","canvasId":"c_overwrite"}',
      '{"query":"Summarise","\\udc00":"","canvasId":"c_overwrite"}',
      '{"query":"Summarise","canvasId":"\\udc00"}',
    ]),
  );
});

test('RFC 5987 names, broken and nested multipart bodies, part counts, codings: written as a parser meets them', () => {
  const names = family('uploadFiles', 'RFC 5987').inputs.map(bodyOf);
  expect(names.map((b) => /filename\*=([^\r]*)/.exec(b)?.[1])).toEqual([
    "UTF-8''a",
    "ISO-8859-1''%E9",
    "BOGUS''a",
    'a',
    "UTF-8''%ZZa",
  ]);
  const unreadable = prepare(family('uploadFiles', 'RFC 5987').inputs[2]!, WORLD).features;
  expect(unreadable).toEqual(expect.arrayContaining(['part.disposition:filename*', 'part.name*:charset-unreadable']));
  const broken = family('uploadFiles', 'multipart bodies').inputs.map((i) => prepare(i, WORLD).spec.raw!);
  expect(broken.map((r) => r.contentType)).toEqual([
    ...Array(3).fill('multipart/form-data; boundary=wfcheck-explore-boundary'),
    'multipart/form-data',
    'multipart/form-data; boundary=wfcheck-explore-boundary',
  ]);
  const [noClose, empty, text] = broken.map((r) => Buffer.from(r.body as Uint8Array).toString('latin1'));
  expect(noClose).toContain('--wfcheck-explore-boundary\r\n');
  expect(noClose).not.toContain('--wfcheck-explore-boundary--');
  expect([empty, text.startsWith('--')]).toEqual(['', false]);
  const nested = Buffer.from(broken[4]!.body as Uint8Array).toString('latin1');
  expect(nested).toContain('Content-Type: multipart/mixed; boundary=wfcheck-inner\r\n\r\n--wfcheck-inner\r\n');
  const counts = family('uploadFiles', 'part counts').inputs.map((i) => (i as { body: { count: number } }).body.count);
  expect(counts).toEqual([100, 101, 128, 129, 1000, 1001, 1024, 1025, 4096, 4097]);
  for (const op of ['runWorkflow', 'generateWorkflow', 'uploadFiles'] as const) {
    const codings = family(op, 'content codings').inputs.map((i) => prepare(i, WORLD));
    expect(codings.map((p) => p.spec.headers?.['content-encoding'])).toEqual(['gzip', 'deflate', 'br']);
    for (const p of codings) {
      expect(p.features).toContain('body:coding-not-applied');
      expect(p.spec.openPoint).toBe('ERROR-STATUS-FOR-UNLISTED-CODES');
    }
  }
});

test('nesting depths beside the recursion limits, as depths of the whole body', () => {
  const depthOf = (text: string) => {
    let d = 0;
    let max = 0;
    for (const c of text) {
      if (c === '[' || c === '{') max = Math.max(max, ++d);
      if (c === ']' || c === '}') d--;
    }
    return max;
  };
  const expected = [64, 100, 128, 500, 512, 1000, 1024, 10_000].flatMap((d) => [d - 1, d, d + 1]);
  for (const op of ['runWorkflow', 'generateWorkflow'] as const)
    expect(
      family(op, 'nesting depths').inputs.map((i) => depthOf(bodyOf(i))),
      op,
    ).toEqual(expected);
});

test('odd values go to the declared variable, the required ones filled; without such a canvas, none are sent', () => {
  const odd = family('runWorkflow', 'odd values').inputs.map(bodyOf);
  expect(odd.slice(0, 9)).toEqual([
    '{"variables":{"topic":1e309,"depth":"short"}}',
    '{"variables":{"topic":1e-400,"depth":"short"}}',
    '{"variables":{"topic":1e99999999999,"depth":"short"}}',
    '{"variables":{"topic":-0,"depth":"short"}}',
    '{"variables":{"topic":99999999999999999999,"depth":"short"}}',
    '{"variables":{"topic":9223372036854775808,"depth":"short"}}',
    '{"variables":{"topic":"\\udc00","depth":"short"}}',
    '{"variables":{"topic":"\\u0000","depth":"short"}}',
    '{"variables":{"topic":true,"depth":"short"}}',
  ]);
  expect(prepare(family('runWorkflow', 'odd values').inputs[0]!, WORLD).spec.path).toBe(
    '/openapi/workflow/c_inputs/run',
  );
  const bare: World = { ...WORLD, inputs: undefined, search: undefined };
  expect(batteryOf('runWorkflow', bare).some((f) => f.name.startsWith('odd values'))).toBe(false);
  expect(batteryOf('searchWorkflows', bare).some((f) => f.name.startsWith('keywords'))).toBe(false);
  // The same list on every run: nothing in it is drawn.
  expect(JSON.stringify(batteryOf('uploadFiles', WORLD))).toBe(JSON.stringify(batteryOf('uploadFiles', WORLD)));
});
