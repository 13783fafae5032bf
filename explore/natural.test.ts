/**
 * Proves the inputs sent every run on the crashes reviews of implementations on the stacks vendors use found
 * and the generative mode's sample missed (fixtures/faults/natural-crashes.ts), against the reference target
 * in process behind the mutating proxy, with the defaults an external target gets:
 *
 * - each crash entry (an offset past 32 bits at the default page size, a part type in a VARCHAR(200)'s
 *   window, a lone surrogate in a declared variable or the query, an RFC 5987 charset, a multipart body
 *   broken for its boundary, more than 1000 parts, 1e309 in a declared variable of a workflow with required
 *   inputs, a content coding not applied, a nested multipart part, JSON 980 deep) is caught as exactly one
 *   deviation, each finding's minimal input of its family and from the inputs sent every run;
 * - a keyword cut at its NUL is one must finding under SEARCH-KEYWORD-APPLIED: judged on the titles read;
 * - a cost per upload part is one warning, found only with many parts of long names;
 * - the legal entries, which refuse those inputs in ways the specification allows, or clean the keyword
 *   first, are clean: their refusals observed where a status is not listed.
 */
import { expect, test } from '@playwright/test';
import { NATURAL_CRASHES, NATURAL_LEGAL, NATURAL_SLOW } from '../fixtures/faults/natural-crashes.ts';
import { INPUT_NOT_SLOW } from '../core/judging/latency.ts';
import { exploreBehind } from '../proof/explore-behind.ts';
import type { ExploreFinding, ExploreReport } from './report/explore-report.ts';

const SEED = 20260101;

// biome-ignore lint/suspicious/noExplicitAny: reads into shown inputs of every operation's shape
type Shown = Record<string, any>;
const minimal = (f: ExploreFinding) => f.minimalInput as Shown;
const shown = (f: ExploreFinding) => JSON.stringify(f.minimalInput);
const fromBattery = (f: ExploreFinding) => f.family.startsWith('sent every run: ');
const topValue = (f: ExploreFinding) => minimal(f).body?.variables?.$object?.[0]?.value;

/** Per crash entry: the operations it breaks, and whether a finding's minimal input is of its family. */
const CAUGHT: Record<string, { ops: string[]; family(f: ExploreFinding): boolean }> = {
  'crash-page-offset-default-size': {
    ops: ['searchWorkflows'],
    // The default the server served in setup (20): the first page past 2^31 at it, no pageSize.
    family: (f) => shown(f) === '{"op":"searchWorkflows","family":"allowed","query":{"page":{"$number":"107374184"}}}',
  },
  'crash-part-type-column-200': {
    ops: ['uploadFiles'],
    family: (f) => minimal(f).body?.parts?.[0]?.type?.long === 189 && f.shape.includes('part.type:len>200'),
  },
  'crash-lone-surrogate-declared': {
    ops: ['runWorkflow', 'generateWorkflow'],
    family: (f) =>
      shown(f).includes('{"$escape":"\\\\udc00"}') &&
      f.shape.some((x) => x.endsWith(':lone-surrogate')) &&
      (f.operation === 'generateWorkflow' || minimal(f).canvas?.$canvas === 'inputs'),
  },
  'crash-rfc5987-charset': {
    ops: ['uploadFiles'],
    family: (f) =>
      minimal(f).body?.parts?.[0]?.disposition === 'filename*-unknown-charset' &&
      f.shape.includes('part.name*:charset-unreadable'),
  },
  'crash-multipart-unterminated': {
    ops: ['uploadFiles'],
    family: (f) => minimal(f).body?.form === 'broken' && f.shape.includes('multipart:broken'),
  },
  'crash-upload-param-limit-1000': {
    ops: ['uploadFiles'],
    family: (f) => minimal(f).body?.count === 1001 && f.shape.includes('files:count>1000'),
  },
  'crash-declared-variable-beyond-double': {
    ops: ['runWorkflow'],
    // On the workflow that declares the variable, its required ones filled: nowhere else does it crash.
    family: (f) =>
      minimal(f).canvas?.$canvas === 'inputs' &&
      topValue(f)?.$number === '1e309' &&
      f.shape.some((x) => x.startsWith('vars.*:any(') && x.includes('overflows-double')),
  },
  'crash-coding-not-applied': {
    ops: ['runWorkflow', 'generateWorkflow', 'uploadFiles'],
    family: (f) => minimal(f).coding === 'gzip' && f.shape.includes('body:coding-not-applied'),
  },
  'crash-nested-multipart-part': {
    ops: ['uploadFiles'],
    family: (f) => f.shape.includes('part.type:multipart'),
  },
  'crash-json-recursion-980': {
    ops: ['runWorkflow', 'generateWorkflow'],
    family: (f) =>
      JSON.stringify(minimal(f).body).match(/"\$nest":(9[89]\d)/) !== null &&
      f.shape.some((x) => x.endsWith(':depth>100')),
  },
};

function summaryOf(r: ExploreReport): string {
  return r.findings
    .map((f) => `${f.operation} [${f.clause}] ${f.family} ${shown(f)} ${f.shape.join(' ')}`)
    .concat(r.incomplete)
    .join('\n');
}

test.describe('natural crashes are caught by the inputs sent every run, each as one deviation', () => {
  test.describe.configure({ mode: 'parallel' });
  for (const mutant of NATURAL_CRASHES.filter((m) => CAUGHT[m.id])) {
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
      // Each operation's first finding comes from the inputs sent every run.
      for (const op of expected.ops) expect(fromBattery(report.findings.find((f) => f.operation === op)!)).toBe(true);
      for (const f of report.findings) {
        expect(mutant.breaks).toContain(f.clause);
        expect(f.exchange.response?.status).toBe(500);
        if (fromBattery(f)) expect(expected.family(f), `${shown(f)} ${f.shape.join(' ')}`).toBe(true);
        expect(f.reproduced).toBe(true);
        expect(f.curl).toContain('${API_KEY}');
      }
      const text = JSON.stringify(report);
      for (const key of keys.filter(Boolean)) expect(text).not.toContain(key);
    });
  }

  test('search-keyword-cut-at-nul', { tag: '@slow' }, async () => {
    const mutant = NATURAL_CRASHES.find((m) => m.id === 'search-keyword-cut-at-nul')!;
    const { report, proxyErrors } = await exploreBehind(mutant, SEED);
    expect(proxyErrors).toEqual([]);
    expect(report.incomplete, summaryOf(report)).toEqual([]);
    expect(report.deviations, summaryOf(report)).toEqual([
      expect.objectContaining({ level: 'must', operations: ['searchWorkflows'], clauses: ['SEARCH-KEYWORD-APPLIED'] }),
    ]);
    const [f] = report.findings;
    // The keyword as the setup's random letters made it, not shortened: a shorter one may be in a title.
    const keyword = minimal(f!).query.keyword as string;
    expect([keyword.charCodeAt(0), keyword.slice(1)]).toEqual([0, expect.stringMatching(/^[a-z]{20}$/)]);
    expect(f!.message).toMatch(/^keyword "\\u0000[a-z]{20}", which no title contains \(\d+ workflows listed/);
    expect(f!.actual).toMatch(/^\d+ results, from the unfiltered listing: the keyword is ignored/);
  });
});

test('a cost per upload part is one warning, found with many parts of long names only', { tag: '@slow' }, async () => {
  const [mutant] = NATURAL_SLOW;
  const { report, proxyErrors } = await exploreBehind(mutant!, SEED);
  expect(proxyErrors).toEqual([]);
  expect(report.exitCode, summaryOf(report)).toBe(0);
  expect(report.deviations, summaryOf(report)).toEqual([
    expect.objectContaining({
      level: 'should',
      answer: 'slow',
      operations: ['uploadFiles'],
      clauses: [INPUT_NOT_SLOW],
    }),
  ]);
  const [slow] = report.findings;
  expect(minimal(slow!).body.files).toHaveLength(16);
  expect(slow!.shape).toEqual(['file.name:any(run(space),run(dot))']);
});

test.describe('legal refusals of the inputs sent every run are clean', () => {
  test.describe.configure({ mode: 'parallel' });
  for (const mutant of NATURAL_LEGAL) {
    test(mutant.id, { tag: '@slow' }, async () => {
      const { report, proxyErrors } = await exploreBehind(mutant, SEED);
      expect(proxyErrors).toEqual([]);
      expect(report.findings, summaryOf(report)).toEqual([]);
      expect(report.incomplete).toEqual([]);
      expect(report.exitCode).toBe(0);
      const observed = (op: string) =>
        report.operations.find((o) => o.operation === op)?.allowed.observed['ERROR-STATUS-FOR-UNLISTED-CODES']
          ?.statuses;
      // A coding refused with 415 (no operation lists it) is the server's choice: observed.
      if (mutant.id === 'legal-upload-strict-400') expect(observed('uploadFiles')).toContain(415);
      if (mutant.id === 'legal-json-strict-400')
        for (const op of ['runWorkflow', 'generateWorkflow']) expect(observed(op), op).toContain(415);
    });
  }
});
