/**
 * The edge families as they are written and named, without a server: integers at and beside the classic
 * limits (exactly, past what a double holds), page pairs whose offset crosses one, exponents at the edges
 * of a double, escapes that are no UTF-8 and JSON escapes that are none, sent as written; long runs of one
 * character found in any text; odd and many multipart parts; broken framing on requests with a body. Each
 * marks its request so that any 4xx is observed (an edge is the server's to refuse), and nothing ordinary
 * is so marked.
 */
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { boundaryInteger, exponentEdge, pagingPair } from './generate/edges.ts';
import { escapeClass, ILL_FORMED_ESCAPES } from './generate/encodings.ts';
import { headerVariantsFor } from './generate/headers.ts';
import { prepare } from './generate/inputs.ts';
import type { ExploreInput, World } from './generate/model.ts';
import { runsIn } from './generate/runs.ts';
import { atEdge, numberTextFeatures } from './generate/text.ts';

const WORLD: World = { canvases: [], fileKeys: [], executions: [], keys: ['wfcheck-test-key'] };
const features = (raw: string) => {
  const out = new Set<string>();
  numberTextFeatures('n', raw, out);
  return [...out].filter((f) => f !== 'n').map((f) => f.slice(2));
};

test('integers at and beside the classic limits, exactly: 2^63 − 1 is not past 2^63 − 1', () => {
  const values = new Set(fc.sample(boundaryInteger, { seed: 1, numRuns: 500 }).map((n) => n.$number));
  for (const v of [
    '32767',
    '32768',
    '32769',
    '65536',
    '2147483647',
    '-2147483648',
    '4294967296',
    '9223372036854775807',
  ])
    expect(values, v).toContain(v);
  expect(features('9223372036854775807')).toContain('|x|>2^53');
  expect(features('9223372036854775807')).not.toContain('|x|>2^63-1');
  expect(features('9223372036854775808')).toContain('|x|>2^63-1');
  for (const v of values) expect(atEdge(v), v).toBe(true);
  for (const v of ['1', '1000', '123456789', '9'.repeat(30)]) expect(atEdge(v), v).toBe(false);
});

test('exponents at the edges of a double and past any integer exponent, named by what a reader meets', () => {
  expect(fc.sample(exponentEdge, { seed: 2, numRuns: 200 }).map((n) => n.$number)).toEqual(
    expect.arrayContaining(['1e308', '1e309', '1e-400', '1e99999999999']),
  );
  expect(features('1e308')).toEqual(expect.arrayContaining(['positive', 'exponent', '|x|>2^64-1']));
  expect(features('1e308')).not.toContain('overflows-double');
  expect(features('1e309')).toContain('overflows-double');
  expect(features('1e-400')).toEqual(expect.arrayContaining(['zero', 'underflows-double']));
  expect(features('0e-400')).not.toContain('underflows-double');
  expect(features('1e99999999999')).toEqual(expect.arrayContaining(['overflows-double', '|exponent|>2^31-1']));
  expect(features('1e-99999999999')).toEqual(expect.arrayContaining(['underflows-double', '|exponent|>2^31-1']));
  for (const raw of ['1e309', '1e-400', '1e99999999999']) expect(atEdge(raw), raw).toBe(true);
  expect(atEdge('6.8e89')).toBe(false);
});

test('a number of 20,000 digits is named in one pass (no backtracking regex)', () => {
  const started = performance.now();
  for (let i = 0; i < 20; i++) features('9'.repeat(20_000));
  expect(performance.now() - started).toBeLessThan(500);
});

test('page pairs: the page small, the offset just below or just past a classic limit', () => {
  for (const { page, pageSize } of fc.sample(pagingPair, { seed: 3, numRuns: 100 })) {
    const offset = (BigInt(page.$number) - 1n) * BigInt(pageSize);
    const near = [15, 16, 31, 32, 53, 63, 64].some((e) => {
      const limit = 2n ** BigInt(e);
      return offset - limit < BigInt(pageSize) && limit - offset <= BigInt(pageSize);
    });
    expect(near, `${page.$number} × ${pageSize}`).toBe(true);
  }
  const p = prepare(
    { op: 'searchWorkflows', family: 'allowed', query: { page: { $number: '214748366' }, pageSize: 10 } },
    WORLD,
  );
  expect(p.spec.path).toBe('/openapi/workflows?page=214748366&pageSize=10');
  expect(p.features).toContain('offset:>=2^31');
  // Any refusal of a page at an edge is the server's choice: observed.
  expect(p.spec.openPoint).toBe('SEARCH-PAGESIZE-DEFAULT');
  const ordinary = prepare({ op: 'searchWorkflows', family: 'allowed', query: { page: 3, pageSize: 20 } }, WORLD);
  expect(ordinary.spec.openPoint).toBeUndefined();
});

test('escapes are sent as written: percent-escapes in queries and ids, JSON escapes in bodies', () => {
  const search = prepare(
    { op: 'searchWorkflows', family: 'allowed', query: { keyword: { $percent: '%FF' }, order: 'a b' } },
    WORLD,
  );
  expect(search.spec.path).toBe('/openapi/workflows?keyword=%FF&order=a+b');
  expect(search.features).toContain('keyword:not-utf8');
  const detail = prepare({ op: 'getWorkflowDetail', family: 'allowed', canvas: { id: { $percent: '%C0%AF' } } }, WORLD);
  expect(detail.spec.path).toBe('/openapi/workflows/%C0%AF');
  const generate: ExploreInput = {
    op: 'generateWorkflow',
    family: 'allowed',
    body: { form: 'json', query: { $escape: '\\udc00' } },
  };
  const g = prepare(generate, WORLD);
  expect(g.spec.raw?.body).toBe('{"query":"\\udc00"}');
  expect(g.features).toContain('query:lone-surrogate');
  expect(g.spec.openPoint).toBe('ERROR-STATUS-FOR-UNLISTED-CODES');
  expect(ILL_FORMED_ESCAPES.map(escapeClass)).toEqual([
    ...Array(6).fill('lone-surrogate'),
    ...Array(3).fill('bad-escape'),
  ]);
  const plain = prepare({ op: 'generateWorkflow', family: 'allowed', body: { form: 'json', query: 'hello' } }, WORLD);
  expect(plain.spec.openPoint).toBeUndefined();
});

test('a long run of one character is a feature of whatever text holds it; a short one is ordinary text', () => {
  expect(runsIn('query', `words${' '.repeat(300)}and ${'.'.repeat(1_000)}`)).toEqual([
    { path: 'query', char: 'space', times: 300 },
    { path: 'query', char: 'dot', times: 1_000 },
  ]);
  expect(runsIn('query', `a${' '.repeat(255)}b${'x'.repeat(5_000)}`)).toEqual([]);
  const p = prepare(
    { op: 'generateWorkflow', family: 'allowed', body: { form: 'json', query: { $repeat: '\r', times: 4_096 } } },
    WORLD,
  );
  expect(p.features).toContain('query:run(cr)');
  expect(p.runs).toEqual([{ path: 'query', char: 'cr', times: 4_096 }]);
});

test('parts written by hand: a long Content-Type, filename*, no name; many parts; all observed when refused', () => {
  const parts = prepare(
    {
      op: 'uploadFiles',
      family: 'allowed',
      body: {
        form: 'parts',
        parts: [
          { name: 'a', type: { long: 189 }, disposition: 'filename', size: 0, fill: 0 },
          { name: 'é.txt', type: 'TEXT/PLAIN', disposition: 'filename*', size: 1, fill: 0 },
          { name: 'b', type: 'text', disposition: 'no-name', size: 0, fill: 0 },
        ],
      },
    },
    WORLD,
  );
  const body = String(Buffer.from(parts.spec.raw!.body as Uint8Array));
  expect(body).toContain(`Content-Type: application/${'x'.repeat(189)}\r\n`);
  expect(body).toContain("filename*=UTF-8''%C3%A9.txt");
  expect(body).toContain('Content-Disposition: form-data; filename="b"\r\n');
  expect(parts.features).toEqual(
    expect.arrayContaining([
      'part.type:len>64',
      'part.type:odd',
      'part.disposition:filename*',
      'part.disposition:no-name',
    ]),
  );
  expect(parts.spec.openPoint).toBe('ERROR-STATUS-FOR-UNLISTED-CODES');
  const many = prepare({ op: 'uploadFiles', family: 'allowed', body: { form: 'many', count: 128 } }, WORLD);
  expect(String(many.spec.raw!.body).match(/Content-Disposition/g)).toHaveLength(128);
  expect(many.features).toEqual(expect.arrayContaining(['files:many', 'files:count>100']));
});

test('broken framing is a variant of every request with a body, and only of those', () => {
  for (const op of ['runWorkflow', 'generateWorkflow', 'uploadFiles'] as const)
    expect(headerVariantsFor(op).filter((v) => v.startsWith('framing='))).toHaveLength(4);
  for (const op of ['searchWorkflows', 'getWorkflowDetail', 'getExecutionStatus'] as const)
    expect(headerVariantsFor(op).some((v) => v.startsWith('framing='))).toBe(false);
  const input: ExploreInput = {
    op: 'uploadFiles',
    family: 'allowed',
    body: { form: 'files', files: [{ name: 'a', type: 'text/plain', size: 1, fill: 0 }] },
    header: 'framing=chunk-size-not-hex',
  };
  const p = prepare(input, WORLD);
  expect(p.spec.framing).toBe('chunk-size-not-hex');
  expect(p.features).toContain('header:framing=chunk-size-not-hex');
});
