/**
 * Proves the generative mode on the edges implementations written from the specification alone crashed or
 * stalled on (fixtures/faults/edge-crashes.ts), against the reference target in process behind the mutating
 * proxy, with the defaults an external target gets:
 *
 * - each crash entry (an offset past 32 bits, an exponent no integer holds, a number past a double, escapes
 *   that are no UTF-8, a lone surrogate, a long part header, many parts, a chunk size that is not hex) is
 *   caught as exactly one deviation, a finding per operation it breaks, each minimal input of the family
 *   that crashes;
 * - a prompt splitter quadratic in a run of spaces is one warning, shrunk to the smallest run still slow
 *   with its growth (×4 when the run doubles); the same splitter stalling the whole server is one warning
 *   too, naming the stall;
 * - the legal entry, which refuses every one of those inputs with a status no operation lists (and broken
 *   framing with a plain-text 400), is clean: each refusal observed, none failed.
 */
import { expect, test } from '@playwright/test';
import { EDGE_CRASHES, EDGE_LEGAL, EDGE_SLOW } from '../../fixtures/faults/edge-crashes.ts';
import { INPUT_NOT_SLOW, NO_STALL } from '../../core/judging/latency.ts';
import type { Mutant } from '../../fixtures/faults/catalogue.ts';
import { NEVER } from '../../fixtures/faults/proxy.ts';
import { exploreBehind } from '../../proof/explore-behind.ts';
import type { ExploreFinding, ExploreReport } from '../report/explore-report.ts';

const SEED = 20260101;

// biome-ignore lint/suspicious/noExplicitAny: reads into shown inputs of every operation's shape
type Shown = Record<string, any>;
const minimal = (f: ExploreFinding) => f.minimalInput as Shown;
const shown = (f: ExploreFinding) => JSON.stringify(f.minimalInput);
const topValues = (m: Shown): unknown[] =>
  [...(m.body?.variables?.$object ?? []), ...(m.body?.legacy ?? []), ...(m.body?.extra ?? [])].map(
    (e: { value: unknown }) => e.value,
  );
const numbersIn = (f: ExploreFinding) =>
  topValues(minimal(f)).map((v) => String((v as { $number?: string })?.$number ?? ''));
const classesIn = (f: ExploreFinding, path: string): string[] =>
  f.shape.flatMap((x) => (x.startsWith(`${path}:any(`) ? x.slice(path.length + 5, -1).split(',') : []));
const valuePath = (f: ExploreFinding) => (f.operation === 'runWorkflow' ? 'vars.*' : 'extra.*');

const URL_OPS = [
  'searchWorkflows',
  'getWorkflowDetail',
  'runWorkflow',
  'getExecutionStatus',
  'getExecutionOutput',
  'abortExecution',
];

/** Per crash entry: the operations it breaks, and whether a finding's minimal input is of its family. */
const CAUGHT: Record<string, { ops: string[]; family(f: ExploreFinding): boolean }> = {
  'crash-page-offset-overflow': {
    ops: ['searchWorkflows'],
    // Sent every run: the first page past 2^31 at the default the server served in setup (20), no pageSize; or,
    // from the properties, shrunk to the smallest limit crossed at the smallest page size: 2^31 at pages of 10.
    family: (f) =>
      [
        '{"op":"searchWorkflows","family":"allowed","query":{"page":{"$number":"107374184"}}}',
        '{"op":"searchWorkflows","family":"allowed","query":{"page":{"$number":"214748366"},"pageSize":10}}',
      ].includes(shown(f)),
  },
  'crash-number-exponent-beyond-int': {
    ops: ['runWorkflow', 'generateWorkflow'],
    family: (f) => numbersIn(f).includes('1e99999999999') && classesIn(f, valuePath(f)).join() === '|exponent|>2^31-1',
  },
  'crash-number-beyond-double': {
    ops: ['runWorkflow', 'generateWorkflow'],
    family: (f) =>
      numbersIn(f).some((n) => ['1e309', '1e99999999999'].includes(n)) &&
      classesIn(f, valuePath(f)).join() === 'overflows-double,|exponent|>2^31-1',
  },
  'crash-percent-not-utf8': {
    ops: URL_OPS,
    family: (f) => shown(f).includes('{"$percent":"%FF"}') && f.shape.some((x) => x.endsWith(':not-utf8')),
  },
  'crash-json-lone-surrogate': {
    ops: ['runWorkflow', 'generateWorkflow'],
    // In a value (an escape written as is) or in a name (a string JSON writes `\udc00`).
    family: (f) =>
      (shown(f).includes('{"$escape":"\\\\udc00"}') || shown(f).includes('"name":"\\udc00"')) &&
      f.shape.some((x) => x.endsWith(':lone-surrogate')),
  },
  'crash-part-content-type-long': {
    ops: ['uploadFiles'],
    // `application/` and 189 letters: 201 characters, the first past 200.
    family: (f) => minimal(f).body?.parts?.[0]?.type?.long === 189 && f.shape.includes('part.type:len>64'),
  },
  'crash-upload-many-parts': {
    ops: ['uploadFiles'],
    family: (f) => minimal(f).body?.count === 128 && f.shape.includes('files:count>100'),
  },
  'crash-chunk-size-not-hex': {
    ops: ['runWorkflow', 'generateWorkflow', 'uploadFiles'],
    family: (f) =>
      minimal(f).header === 'framing=chunk-size-not-hex' &&
      f.shape.includes('header:any(framing=chunk-size-not-hex)') &&
      f.curl.startsWith("printf '") &&
      f.curl.includes('\\r\\n\\r\\nzz\\r\\n'),
  },
  'crash-content-type-wildcard': {
    ops: ['runWorkflow', 'generateWorkflow'],
    family: (f) =>
      /^content-type=(\*\/\*|application\/\*)$/.test(minimal(f).header) &&
      f.shape.includes('header:any(content-type=*/*,content-type=application/*)'),
  },
  'crash-generate-canvas-not-string': {
    ops: ['generateWorkflow'],
    family: (f) =>
      minimal(f).family === 'canvas-not-string' &&
      typeof minimal(f).body?.canvas !== 'string' &&
      f.shape.some((x) => /^canvasId:(boolean|number|null|object|array)/.test(x)),
  },
};

function summaryOf(r: ExploreReport): string {
  return r.findings
    .map((f) => `${f.operation} [${f.clause}] ${shown(f)} ${f.shape.join(' ')}`)
    .concat(r.incomplete)
    .join('\n');
}

test.describe('edge crashes are caught, each as one deviation', () => {
  test.describe.configure({ mode: 'parallel' });
  for (const mutant of EDGE_CRASHES) {
    test(mutant.id, { tag: '@slow' }, async () => {
      const { report, keys, proxyErrors } = await exploreBehind(mutant, SEED);
      const expected = CAUGHT[mutant.id]!;
      expect(proxyErrors).toEqual([]);
      expect(report.incomplete, summaryOf(report)).toEqual([]);
      expect([...new Set(report.findings.map((f) => f.operation))].sort(), summaryOf(report)).toEqual(
        [...expected.ops].sort(),
      );
      expect(report.deviations, summaryOf(report)).toEqual([
        expect.objectContaining({ level: 'must', answer: '500', operations: expect.arrayContaining(expected.ops) }),
      ]);
      for (const f of report.findings) {
        expect(mutant.breaks).toContain(f.clause);
        expect(f.exchange.response?.status).toBe(500);
        expect(expected.family(f), `${shown(f)} ${f.shape.join(' ')}`).toBe(true);
        expect(f.reproduced).toBe(true);
        expect(f.curl).toContain('${API_KEY}');
      }
      const text = JSON.stringify(report);
      for (const key of keys.filter(Boolean)) expect(text).not.toContain(key);
    });
  }
});

test.describe('a quadratic prompt splitter is one warning, with its growth; a stall is named', () => {
  test.describe.configure({ mode: 'parallel' });
  for (const mutant of EDGE_SLOW) {
    test(mutant.id, { tag: '@slow' }, async () => {
      const { report, proxyErrors } = await exploreBehind(mutant, SEED);
      expect(proxyErrors).toEqual([]);
      expect(report.exitCode, summaryOf(report)).toBe(0);
      expect(report.deviations, summaryOf(report)).toEqual([
        expect.objectContaining({ level: 'should', answer: 'slow', operations: ['generateWorkflow'] }),
      ]);
      expect(report.deviations[0]!.clauses.sort()).toEqual([...mutant.warns!].sort());
      const slow = report.findings.find((f) => f.clause === INPUT_NOT_SLOW)!;
      // The splitter takes 1 s at 5,000 characters: the smallest run still slow is just past it.
      const times = minimal(slow).body?.query?.times as number;
      expect(times, shown(slow)).toBeGreaterThanOrEqual(4_800);
      expect(times, shown(slow)).toBeLessThanOrEqual(5_800);
      expect(slow.shape).toEqual(['query:any(run(space),run(tab),run(cr),run(nbsp),run(dot),run(comma))']);
      expect(slow.message).toMatch(
        /answers slowly on a run of [\d,]+ spaces in query .*\(\d\.\d s against \d+ ms\); ×[34]\.\d when the run doubles: grows with the square of its length/,
      );
      const stall = report.findings.find((f) => f.clause === NO_STALL);
      expect(Boolean(stall), summaryOf(report)).toBe(mutant.warns!.includes(NO_STALL));
      if (stall)
        expect(stall.message).toMatch(/one request stalls the whole server: a search with the other key, sent while/);
    });
  }
});

test('inputs at the edges refused with statuses no operation lists are observed, never failed', {
  tag: '@slow',
}, async () => {
  const [mutant] = EDGE_LEGAL;
  const { report, proxyErrors } = await exploreBehind(mutant, SEED);
  expect(proxyErrors).toEqual([]);
  expect(report.findings, summaryOf(report)).toEqual([]);
  expect(report.incomplete).toEqual([]);
  const observed = (op: string) => {
    const o = report.operations.find((x) => x.operation === op)!;
    return Object.values({ ...o.allowed.observed }).flatMap((v) => v.statuses);
  };
  expect(observed('runWorkflow')).toEqual(expect.arrayContaining([422]));
  expect(observed('generateWorkflow')).toEqual(expect.arrayContaining([422, 400]));
  expect(observed('uploadFiles')).toEqual(expect.arrayContaining([413, 415, 400]));
  expect(observed('searchWorkflows')).toEqual(expect.arrayContaining([400]));
  expect(observed('getWorkflowDetail')).toEqual(expect.arrayContaining([400]));
  // Broken framing refused by the HTTP layer with a plain-text 400, on generate too (whose 400 body §4.8 fixes).
  const generate = report.operations.find((x) => x.operation === 'generateWorkflow')!;
  expect(generate.allowed.observed['HTTP-LAYER-REFUSAL']?.statuses).toEqual([400]);
});

test('a class of input never answered is one warning, its wait paid twice (found, confirmed), then not sent again', {
  tag: '@slow',
}, async () => {
  test.setTimeout(180_000);
  // Uploads of many parts are read, and never answered: a parser that loops on the part table.
  const hangs: Mutant = {
    id: 'upload-many-parts-hang',
    category: 'upload',
    description: 'never answers an upload of 128 parts or more',
    delayMs: (req, ctx) =>
      ctx.op === 'uploadFiles' && (req.body.toString('latin1').match(/Content-Disposition/g) ?? []).length >= 128
        ? NEVER
        : 0,
  };
  const { report } = await exploreBehind(hangs, SEED, { operations: ['uploadFiles'], requestTimeoutMs: 3_000 });
  expect(report.deviations, summaryOf(report)).toEqual([
    expect.objectContaining({
      level: 'should',
      answer: 'slow',
      operations: ['uploadFiles'],
      clauses: [INPUT_NOT_SLOW],
    }),
  ]);
  const [slow] = report.findings;
  expect(slow!.message).toMatch(
    /^answers slowly on an input of shape files:count>100, files:many \(no answer within 3\.0 s against \d+ ms\)$/,
  );
  const upload = report.operations[0]!;
  expect(upload.allowed.inconclusive.timeout).toBe(1);
  expect(upload.allowed.knownSlow, 'later inputs of the class are not sent again').toBeGreaterThan(0);
});
