/**
 * Proves the generative mode: against the reference target, in process, behind the mutating proxy with
 * the input-crash entries (fixtures/faults/input-crashes.ts), with the default settings an external
 * target gets (budget, footprint caps, no overwriting):
 *
 * - each crash entry is caught within the budget as exactly one deviation: a finding per operation (and
 *   parameter) it breaks, whose minimal input is of the family that crashes (shrunk to the simplest member
 *   of the form that reached it) and whose shape names every class the entry crashes on, reproduced, with
 *   a curl reproducer that names the key `${API_KEY}` and never shows it;
 * - each legal entry (forbidden inputs refused in another allowed way, throttling) is clean;
 * - the reference target itself is clean, within its footprint caps;
 * - a fixed seed replays exactly (same findings, same minimal inputs, same fast-check paths), and the
 *   fingerprint of a failure is the same under another seed (the same failure, recognised next night);
 * - `wfcheck explore` records each run in the run history: the same crash on the next run, under another
 *   seed, is "seen before" with the date it was first seen, and once fixed it is listed as gone.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { INPUT_CRASHES, INPUT_LEGAL } from '../fixtures/faults/input-crashes.ts';
import type { Mutant } from '../fixtures/faults/catalogue.ts';
import { startMutatingProxy } from '../fixtures/faults/proxy.ts';
import { exploreBehind } from '../proof/explore-behind.ts';
import { readExploreSettings } from './settings.ts';
import { ENV } from '../core/settings/rules.ts';
import { startTarget } from '../fixtures/reference/server.ts';
import { anyChar, codePointAt } from './generate/text.ts';
import type { ExploreFinding, ExploreReport } from './report/explore-report.ts';
import { writeExploreReport } from './report/report-view.ts';
import { operationsNamed, runExplore } from './explore-run.ts';
import { BATTERY_EXECUTIONS, SWEEP_CANVASES } from './send/session.ts';

const SEED = 20260101;

// biome-ignore lint/suspicious/noExplicitAny: reads into shown inputs of every operation's shape
type Shown = Record<string, any>;
const minimal = (f: ExploreFinding) => f.minimalInput as Shown;
const nonAscii = (s: string) => [...s].some((c) => c.codePointAt(0)! > 0x7f);
const textOfShown = (t: unknown): string =>
  typeof t === 'string'
    ? t
    : t && typeof t === 'object'
      ? String((t as { $repeat: string }).$repeat).repeat((t as { times: number }).times)
      : '';

/** The classes a finding's shape names for a parameter (`keyword:any(two-byte,…)` → two-byte, …). */
const classesIn = (f: ExploreFinding, path: string): string[] =>
  f.shape.flatMap((x) => (x.startsWith(`${path}:any(`) ? x.slice(path.length + 5, -1).split(',') : []));
const VARIABLE_NAME_CLASSES = ['space', 'punct', 'control', 'c1-control', 'two-byte', 'three-byte', 'four-byte'];
const NOT_PRINTABLE_ASCII = ['control', 'c1-control', 'two-byte', 'three-byte', 'four-byte'];
/** Numbers past 1000: at the magnitudes, written long, or past a double. */
const PAST_1000 = [
  'overflows-double',
  '|exponent|>2^31-1',
  '|x|>1000',
  '|x|>32767',
  '|x|>65535',
  '|x|>2^31-1',
  '|x|>2^32-1',
  '|x|>2^53',
  '|x|>2^63-1',
  '|x|>2^64-1',
  'digits>16',
  'digits>1000',
];
/** Numbers past 2^53 or in exponent form (at the edges of a double too). */
const PAST_2_53_OR_EXPONENT = [
  'exponent',
  'overflows-double',
  'underflows-double',
  '|exponent|>2^31-1',
  '|x|>2^53',
  '|x|>2^63-1',
  '|x|>2^64-1',
  'digits>16',
  'digits>1000',
];
const CHARSETS_AND_CODINGS = [
  'charset=us-ascii',
  'charset=latin1',
  'charset=iso-8859-1',
  'charset=utf-16',
  'content-encoding=unknown',
];
/** A shown query number as it was sent: a number, a number written as is, or a text. */
const rawOf = (v: unknown): string =>
  String(typeof v === 'object' && v !== null ? ((v as Shown).$number ?? (v as Shown).text) : v);
/** JSON text of a shown value as it was sent: a raw number's digits, nested arrays' brackets. */
const digitsOf = (v: unknown) => {
  const shown = String((v as { $number?: string })?.$number ?? '');
  // A long text is shown cut, its length kept: "999… (1001 characters)".
  const cut = /… \((\d+) characters\)$/.exec(shown);
  return cut ? Number(cut[1]) : shown.replace(/\D/g, '').length;
};
const topValues = (m: Shown): unknown[] =>
  [...(m.body?.variables?.$object ?? []), ...(m.body?.legacy ?? []), ...(m.body?.extra ?? [])].map(
    (e: { value: unknown }) => e.value,
  );

/**
 * For each crash entry: the operations it breaks, and whether a finding's minimal input is of the family
 * that crashes and its shape names the class probed (every class the entry crashes on, and no other).
 */
const CAUGHT: Record<string, { ops: string[]; family(f: ExploreFinding): boolean }> = {
  'crash-keyword-non-ascii': {
    ops: ['searchWorkflows'],
    family: (f) =>
      nonAscii(minimal(f).query?.keyword ?? '') &&
      classesIn(f, 'keyword').join() === 'c1-control,two-byte,three-byte,four-byte',
  },
  'crash-page-size-large': {
    ops: ['searchWorkflows'],
    // The simplest member of the form that reached it: 1001, sixteen digits written as is, a number at an edge.
    family: (f) =>
      Number(rawOf(minimal(f).query?.pageSize)) > 1000 && classesIn(f, 'pageSize').join() === PAST_1000.join(),
  },
  'crash-nested-variable-values': {
    ops: ['runWorkflow'],
    family: (f) =>
      f.shape.includes('vars.*:structured') &&
      JSON.stringify(minimal(f).body).match(/"value":(\[|\{"\$object"|\{"\$nest")/) !== null,
  },
  'crash-file-name-space-or-accent': {
    ops: ['uploadFiles'],
    family: (f) =>
      (minimal(f).body?.files ?? []).some(
        (x: { name: unknown }) => /\s/.test(textOfShown(x.name)) || nonAscii(textOfShown(x.name)),
      ),
  },
  'crash-long-ids': {
    ops: ['getWorkflowDetail', 'runWorkflow', 'getExecutionStatus', 'getExecutionOutput', 'abortExecution'],
    family: (f) => {
      const m = minimal(f);
      const id = m.canvas?.id ?? m.execution?.id;
      return [...textOfShown(id)].length > 64 && f.alsoBreaks.includes('ODD-IDS-NO-5XX');
    },
  },
  'crash-prompt-outside-bmp': {
    ops: ['generateWorkflow'],
    family: (f) => /[\u{10000}-\u{10ffff}]/u.test(textOfShown(minimal(f).body?.query)),
  },
  'crash-page-huge-or-exponent': {
    // page and pageSize each a finding, one deviation: the same class of number on either.
    ops: ['searchWorkflows'],
    family: (f) => {
      const q = minimal(f).query ?? {};
      const raw = rawOf(q.page ?? q.pageSize);
      const cls = classesIn(f, q.page !== undefined ? 'page' : 'pageSize');
      const beyond = /[eE]/.test(raw) || (/^-?\d+$/.test(raw) && BigInt(raw) > 2n ** 53n);
      return beyond && cls.join() === PAST_2_53_OR_EXPONENT.join();
    },
  },
  'crash-number-thousands-of-digits': {
    ops: ['runWorkflow', 'generateWorkflow'],
    family: (f) =>
      topValues(minimal(f)).some((v) => digitsOf(v) === 1001) &&
      classesIn(f, f.operation === 'runWorkflow' ? 'vars.*' : 'extra.*').join() === 'digits>1000',
  },
  'crash-json-nested-deep': {
    ops: ['runWorkflow', 'generateWorkflow'],
    // Shrunk to the depth itself: 1001 levels with the body's own braces.
    family: (f) =>
      topValues(minimal(f)).some((v) => [999, 1000].includes((v as { $nest?: number })?.$nest ?? 0)) &&
      f.shape.some((x) => x.endsWith(':depth>100')),
  },
  'crash-body-charset-or-coding': {
    ops: ['runWorkflow', 'generateWorkflow'],
    family: (f) =>
      CHARSETS_AND_CODINGS.includes(minimal(f).header) && classesIn(f, 'header').join() === CHARSETS_AND_CODINGS.join(),
  },
  'crash-order-long': {
    ops: ['searchWorkflows'],
    family: (f) => [...textOfShown(minimal(f).query?.order)].length === 33 && f.shape.includes('order:len>32'),
  },
  'crash-variable-name-odd-chars': {
    ops: ['runWorkflow'],
    // A space, as the properties shrink to; or a lone surrogate, sent every run (every class of character
    // crashes in its place alike).
    family: (f) =>
      JSON.stringify(minimal(f).body).match(/"name":"( |\\udc00)"/) !== null &&
      classesIn(f, 'vars.*#name').join() === VARIABLE_NAME_CLASSES.join(),
  },
  'crash-keyword-not-printable-ascii': {
    ops: ['searchWorkflows'],
    family: (f) =>
      /[^\x20-\x7e]/.test(textOfShown(minimal(f).query?.keyword)) &&
      classesIn(f, 'keyword').join() === NOT_PRINTABLE_ASCII.join(),
  },
};

function summaryOf(r: ExploreReport): string {
  return r.findings
    .map((f) => `${f.operation} [${f.clause}] ${JSON.stringify(f.minimalInput)}`)
    .concat(r.incomplete)
    .join('\n');
}

test.describe('input-crash entries are caught with their minimal input', () => {
  test.describe.configure({ mode: 'parallel' });
  for (const mutant of INPUT_CRASHES) {
    test(`${mutant.id}`, { tag: '@slow' }, async () => {
      const { report, bodies, keys, proxyErrors } = await exploreBehind(mutant, SEED);
      const expected = CAUGHT[mutant.id]!;
      expect(proxyErrors).toEqual([]);
      expect(report.incomplete, summaryOf(report)).toEqual([]);
      expect(report.wallMs).toBeLessThan(60_000);
      expect(report.exitCode).toBe(1);
      // One finding per operation the entry breaks (a parameter each, where several share the class), each of the
      // crashing family, each a 5xx under the status clause.
      expect([...new Set(report.findings.map((f) => f.operation))].sort(), summaryOf(report)).toEqual(
        [...expected.ops].sort(),
      );
      // ...and one deviation however many operations show it.
      expect(report.deviations, summaryOf(report)).toEqual([
        expect.objectContaining({ level: 'must', answer: '500', operations: expect.arrayContaining(expected.ops) }),
      ]);
      for (const f of report.findings) {
        expect(f.clause, summaryOf(report)).toMatch(/-HTTP-STATUS-LISTED$/);
        expect(mutant.breaks).toContain(f.clause);
        expect(f.exchange.response?.status).toBe(500);
        expect(expected.family(f), JSON.stringify(f.minimalInput)).toBe(true);
        expect(f.reproduced).toBe(true);
        expect(f.curl).toContain('${API_KEY}');
        // A property's finding replays by its fast-check path; one of the inputs sent every run by the seed alone.
        if (!f.family.startsWith('sent every run: ')) expect(f.replay.path).not.toBe('');
      }
      const text = JSON.stringify(report);
      for (const key of keys.filter(Boolean)) expect(text).not.toContain(key);
      const out = writeExploreReport(report, mkdtempSync(join(tmpdir(), 'wfcheck-explore-test-')), bodies);
      for (const key of keys.filter(Boolean)) expect(readFileSync(out.markdown, 'utf8')).not.toContain(key);
      test.info().annotations.push({
        type: 'caught',
        description: `${report.findings.map((f) => `${f.operation}: ${JSON.stringify(f.minimalInput)}`).join('; ')} — ${report.footprint.requests.explore} requests, ${(report.wallMs / 1000).toFixed(1)} s`,
      });
    });
  }
});

test.describe('legal entries are clean', () => {
  test.describe.configure({ mode: 'parallel' });
  for (const mutant of INPUT_LEGAL) {
    test(`${mutant.id}`, { tag: '@slow' }, async () => {
      const { report, proxyErrors } = await exploreBehind(mutant, SEED);
      expect(proxyErrors).toEqual([]);
      expect(report.findings, summaryOf(report)).toEqual([]);
      expect(report.incomplete).toEqual([]);
      expect(report.exitCode).toBe(0);
      if (mutant.id === 'legal-page-size-over-max-400') {
        const search = report.operations.find((o) => o.operation === 'searchWorkflows')!;
        expect(search.allowed.observed['SEARCH-PAGESIZE-MAX']?.statuses).toEqual([400]);
      }
      if (mutant.id === 'legal-body-charset-415')
        for (const op of ['runWorkflow', 'generateWorkflow']) {
          // Refused with a status §7 leaves open for E3009: observed, never failed.
          const o = report.operations.find((x) => x.operation === op)!;
          expect(o.allowed.observed['ERROR-STATUS-FOR-UNLISTED-CODES']?.statuses, op).toContain(415);
        }
    });
  }
});

test('the reference target itself is clean, within its footprint caps', { tag: '@slow' }, async () => {
  const { report } = await exploreBehind(undefined, SEED);
  expect(report.findings, summaryOf(report)).toEqual([]);
  expect(report.exitCode).toBe(0);
  // The properties' cap, and the allowance of the inputs sent every run (odd values in a declared variable).
  expect(report.footprint.executionsStarted).toBeLessThanOrEqual(report.budget.maxExecutions + BATTERY_EXECUTIONS);
  // One canvas created to be overwritten, every other generation replacing its plan.
  expect(report.footprint.canvasesCreated).toBeLessThanOrEqual(report.budget.maxCanvasesCreated);
  expect(report.footprint.canvasOverwrites).toBeGreaterThan(0);
  for (const o of report.operations) {
    // Every planned input was sent, except those a write would have taken beyond the footprint caps.
    expect(['done', 'footprint cap reached'], o.operation).toContain(o.allowed.stop);
    expect(o.forbidden.stop, o.operation).toBe('done');
    expect(o.allowed.inputs, o.operation).toBeGreaterThan(o.operation === 'generateWorkflow' ? 8 : 40);
    expect(o.forbidden.inputs, o.operation).toBeGreaterThan(10);
  }
});

test('without overwriting allowed, generate names no canvas and creates at most its cap, the sweep of runs its own', {
  tag: '@slow',
}, async () => {
  const { report } = await exploreBehind(undefined, SEED, {
    allowOverwrite: false,
    operations: operationsNamed(['GENERATE']),
  });
  expect(report.findings, summaryOf(report)).toEqual([]);
  expect(report.footprint.canvasOverwrites).toBe(0);
  expect(report.footprint.canvasesCreated).toBeLessThanOrEqual(report.budget.maxCanvasesCreated + SWEEP_CANVASES);
  expect(report.operations[0]!.allowed.capped).toBeGreaterThan(0);
});

test('a fixed seed replays exactly; another seed finds the same fingerprints', { tag: '@slow' }, async () => {
  const pick = (r: ExploreReport) =>
    r.findings.map((f) => ({
      fingerprint: f.fingerprint,
      minimal: f.minimalInput,
      path: f.replay.path,
      clause: f.clause,
    }));
  const mutant = INPUT_CRASHES.find((m) => m.id === 'crash-page-size-large')!;
  const operations = operationsNamed(['searchWorkflows', 'runWorkflow']);
  const nested = INPUT_CRASHES.find((m) => m.id === 'crash-nested-variable-values')!;
  const both: Mutant = {
    id: 'page-size-and-nested',
    category: 'compound',
    description: 'both',
    request: async (req, ctx) => {
      const first = await mutant.request!(req, ctx);
      return 'status' in first || 'destroy' in first ? first : nested.request!(first, ctx);
    },
  };
  const first = await exploreBehind(both, SEED, { operations });
  const again = await exploreBehind(both, SEED, { operations });
  const other = await exploreBehind(both, SEED + 1, { operations });
  expect(first.report.findings).toHaveLength(2);
  expect(first.report.deviations).toHaveLength(2);
  expect(pick(again.report)).toEqual(pick(first.report));
  expect(other.report.findings.map((f) => f.fingerprint).sort()).toEqual(
    first.report.findings.map((f) => f.fingerprint).sort(),
  );
});

test('characters are drawn from every plane and shrink to the simplest of their class', () => {
  const classes = new Set(fc.sample(anyChar, { seed: 1, numRuns: 2000 }).map((c) => c.codePointAt(0)! > 0xffff));
  expect(classes).toEqual(new Set([true, false]));
  // The line is monotone: a lower index never gives a more complex class.
  expect(codePointAt(0)).toBe(0x61);
  expect(String.fromCodePoint(codePointAt(3 << 16))).toBe('À');
  expect(codePointAt(6 << 16)).toBe(0x10000);
  const cp = (c: string) => c.codePointAt(0)!;
  const nonAscii = fc.check(
    fc.property(anyChar, (c) => cp(c) < 0x80 || (cp(c) >= 0x80 && cp(c) <= 0x9f)),
    { seed: 3 },
  );
  expect(nonAscii.counterexample?.[0]).toBe('À');
});

test('the same crash on the next run is seen before, with the date it was first seen; once fixed, it is gone', {
  tag: '@conformance-run',
}, async () => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-explore-history-'));
  const target = await startTarget({});
  const [a, b] = target.tenants;
  const crash = INPUT_CRASHES.find((m) => m.id === 'crash-page-size-large')!;
  let crashing = true;
  // One base URL for every run (the target's identity in the history), the crash there or fixed.
  const proxy = await startMutatingProxy(
    target.baseUrl,
    { A: a!.apiKey, B: b?.apiKey },
    { request: (req, ctx) => (crashing ? crash.request!(req, ctx) : req) },
  );
  const history = join(dir, 'history.sqlite');
  const lines: string[] = [];
  const explore = async (seed: number) => {
    const out = join(dir, `seed-${seed}`);
    const settings = readExploreSettings(
      { seed: String(seed), only: 'SEARCH', out },
      { [ENV.baseUrl]: proxy.baseUrl, [ENV.apiKey]: a!.apiKey },
    );
    const code = await runExplore(
      settings,
      { info: (l) => lines.push(l), error: (l) => lines.push(l) },
      undefined,
      history,
    );
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as ExploreReport;
    return { code, report, markdown: readFileSync(join(out, 'report.md'), 'utf8') };
  };
  try {
    const first = await explore(SEED);
    const second = await explore(SEED + 7);
    crashing = false;
    const fixed = await explore(SEED + 8);

    expect(first.code, lines.join('\n')).toBe(1);
    const [f1] = first.report.findings;
    expect(f1.seen).toMatchObject({ status: 'new', runs: 1, firstSeen: first.report.startedAt });
    expect(first.markdown).toContain('- history: **new**');
    expect(first.report.history).toMatchObject({ runId: 1, findings: { new: 1, seenBefore: 0, unknown: 0 } });

    expect(second.code).toBe(1);
    const [f2] = second.report.findings;
    expect(f2.fingerprint).toBe(f1.fingerprint);
    expect(f2.seen).toMatchObject({
      status: 'seen-before',
      runs: 2,
      firstSeen: first.report.startedAt,
      inPreviousRun: true,
    });
    expect(second.markdown).toContain(
      `- history: **seen before (first seen ${first.report.startedAt.slice(0, 10)}, 2 runs)**`,
    );
    expect(second.report.history).toMatchObject({
      runId: 2,
      previous: { runId: 1, seed: SEED },
      findings: { new: 0, seenBefore: 1, unknown: 0 },
      gone: [],
    });

    expect(fixed.code).toBe(0);
    expect(fixed.report.history?.gone).toEqual([
      expect.objectContaining({ fingerprint: f1.fingerprint, operation: 'searchWorkflows', explored: true }),
    ]);
    expect(fixed.markdown).toMatch(
      new RegExp(
        `## Gone since the previous run\\n\\nFindings of run #2 .*\\n\\n- \`${f1.fingerprint}\` \\[SEARCH-HTTP-STATUS-LISTED\\]`,
      ),
    );
  } finally {
    await proxy.close();
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
