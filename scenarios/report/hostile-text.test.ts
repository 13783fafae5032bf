/**
 * What a target answers reaches every report: a workflow's title, an error message, an observed value.
 * Here one holding every character a format gives a meaning to (`"<>&'`, a pipe, a line break) is
 * rendered in every format the harness writes — the console summary, report.md, report.html, the JUnit
 * XML, the job summary, the generative run's report and summary, the load trend page — and each output
 * is read back the way its reader would: the text is there as it was sent (a line break shown as a space
 * where the format cannot hold one), and no markup is broken (the XML parses, every HTML tag and
 * attribute is whole, every Markdown table row has its columns, no tag of the title is live).
 */
import { expect, test } from '@playwright/test';
import type { EvidenceRecord, TestRef } from '../../core/evidence/records.ts';
import { buildReport, type CatalogueEntry, type ConformanceReport } from '../../core/findings/build-report.ts';
import { emptyWaivers } from '../../core/findings/waivers.ts';
import type { ExploreReport } from '../../explore/report/explore-report.ts';
import { exploreConsole, exploreMarkdown, exploreSummary } from '../../explore/report/report-view.ts';
import type { LoadRunFigures } from '../../core/history-store/queries.ts';
import { DEFAULT_SLO } from '../../load/k6/lib/thresholds.ts';
import { renderLoadTrendPage } from '../../load/node/trend-page.ts';
import { consoleText, htmlAttr, mdCode, mdInline, xmlAttr } from '../../core/report/escape.ts';
import {
  conformanceConsole,
  conformanceHtml,
  conformanceJobSummary,
  conformanceJunit,
  conformanceMarkdown,
  headline,
} from './index.ts';
import { renderJobSummary } from '../../core/report/render/job-summary.ts';

/** A workflow title as a hostile or careless target may give it. */
const TITLE = `Invoice "Q<3>" & Tom's <b>bold</b> | split\nline`;
/** The same where a line break cannot be shown. */
const FLAT = TITLE.replace(/\n/g, ' ');

// ---- Readers -------------------------------------------------------------------------------------

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const XML_REFERENCE = /&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;
const XML_NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function xmlDecode(s: string): string {
  if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(s)) throw new Error(`a bare & in ${s.slice(0, 80)}`);
  return s.replace(XML_REFERENCE, (_, ref: string) =>
    ref.startsWith('#x')
      ? String.fromCodePoint(Number.parseInt(ref.slice(2), 16))
      : ref.startsWith('#')
        ? String.fromCodePoint(Number(ref.slice(1)))
        : XML_NAMED[ref],
  );
}

/** XML 1.0 as the reports write it, read strictly: anything malformed throws. */
function parseXml(xml: string): XmlElement {
  let at = /^<\?xml[^?]*\?>\s*/.exec(xml)?.[0].length ?? 0;
  const rest = () => xml.slice(at);
  const element = (): XmlElement => {
    const open = /^<([A-Za-z_][\w.-]*)/.exec(rest());
    if (!open) throw new Error(`an element expected at ${at}: ${rest().slice(0, 40)}`);
    at += open[0].length;
    const el: XmlElement = { name: open[1], attributes: {}, children: [], text: '' };
    for (;;) {
      const space = /^\s+/.exec(rest())?.[0] ?? '';
      at += space.length;
      if (rest().startsWith('/>')) {
        at += 2;
        return el;
      }
      if (rest().startsWith('>')) {
        at += 1;
        break;
      }
      const attr = /^([A-Za-z_][\w.:-]*)="([^"<]*)"/.exec(rest());
      if (!space || !attr || attr[1] in el.attributes)
        throw new Error(`a broken attribute at ${at}: ${rest().slice(0, 60)}`);
      // Attribute-value normalisation: literal white space becomes a space; references are kept.
      el.attributes[attr[1]] = xmlDecode(attr[2].replace(/[\t\n\r]/g, ' '));
      at += attr[0].length;
    }
    for (;;) {
      if (rest().startsWith(`</${el.name}>`)) {
        at += el.name.length + 3;
        return el;
      }
      if (rest().startsWith('<')) el.children.push(element());
      else {
        const text = /^[^<]+/.exec(rest())?.[0];
        if (text === undefined || text.includes(']]>')) throw new Error(`unterminated ${el.name} at ${at}`);
        el.text += xmlDecode(text);
        at += text.length;
      }
    }
  };
  const root = element();
  if (rest().trim()) throw new Error(`content after the root: ${rest().slice(0, 40)}`);
  return root;
}

const HTML_NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
const htmlDecode = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (_, r: string) => HTML_NAMED[r]);
/** A whole tag: its name, and attributes each a name or a name with a double-quoted value holding no quote or bracket. */
const HTML_TAG = /<\/?[a-zA-Z][a-zA-Z0-9]*(?:\s+[a-zA-Z][\w-]*(?:="[^"<>]*")?)*\s*\/?>|<!doctype html>/g;

/** What a page shows and holds, read without a DOM: its broken tags, its text, its attribute values. */
function readHtml(html: string): { broken: string[]; text: string; attributes: string[] } {
  const page = html.replace(/<script>[\s\S]*?<\/script>|<style>[\s\S]*?<\/style>/g, '');
  const attributes = [...page.matchAll(HTML_TAG)].flatMap((m) =>
    [...m[0].matchAll(/="([^"]*)"/g)].map((a) => htmlDecode(a[1])),
  );
  const text = page.replace(HTML_TAG, '');
  // Once every whole tag is gone, a bracket left is a tag that broke (or one the title opened).
  const broken = [...text.matchAll(/[<>]|&(?!(amp|lt|gt|quot|#39);)/g)].map((m) =>
    text.slice(Math.max(0, m.index - 40), m.index + 40),
  );
  return { broken, text: htmlDecode(text), attributes };
}

/** Markdown read as GitHub reads it, far enough to tell text from markup. */
function readMarkdown(md: string): { broken: string[]; text: string; codeSpans: string[]; fences: string[] } {
  const broken: string[] = [];
  const prose: string[] = [];
  const fences: string[] = [];
  let fence: { ticks: number; lines: string[] } | undefined;
  let columns: number | undefined;
  for (const line of md.split('\n')) {
    const ticks = /^ *(`{3,})/.exec(line)?.[1].length;
    if (fence) {
      if (ticks !== undefined && ticks >= fence.ticks && /^ *`+\s*$/.test(line)) {
        fences.push(fence.lines.join('\n'));
        fence = undefined;
      } else fence.lines.push(line.replace(/^ {0,3}/, ''));
      continue;
    }
    if (ticks !== undefined) {
      fence = { ticks, lines: [] };
      continue;
    }
    // A table row has as many cells as its header: a pipe not escaped would add one.
    const pipes = line.startsWith('|') ? line.match(/(?<!\\)\|/g)!.length : undefined;
    if (pipes !== undefined && columns !== undefined && pipes !== columns) broken.push(line);
    columns = pipes === undefined ? undefined : (columns ?? pipes);
    prose.push(line);
  }
  if (fence) broken.push('a code fence left open');
  const codeSpans: string[] = [];
  const text = prose
    .join('\n')
    .replace(/(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g, (_, __, body: string) => {
      const code = /^ .*[^ ].* $/.test(body) ? body.slice(1, -1) : body;
      codeSpans.push(code.replace(/\\\|/g, '|'));
      return '\u0000';
    })
    .replace(/<a id="[\w-]+"><\/a>/g, '');
  // Outside code, a bracket or an entity that is not escaped would be markup.
  for (const m of text.matchAll(/(?<!\\)(<|&[a-zA-Z#])/g))
    broken.push(text.slice(Math.max(0, m.index - 40), m.index + 40));
  return { broken, text: text.replace(/\\([!-/:-@[-`{-~])/g, '$1'), codeSpans, fences };
}

// ---- The reports -----------------------------------------------------------------------------------

const CATALOGUE: CatalogueEntry[] = [
  { id: 'A-MUST', section: '1', level: 'must', text: 'the workflow detail is answered' },
  { id: 'C-OBSERVE', section: '3', level: 'observe', text: 'not shown' },
];
const at = '2025-01-01T00:00:00Z';
const T: TestRef = { id: 't1', file: 'scenarios/x.spec.ts', title: 'detail [A-MUST] [C-OBSERVE]' };

function hostileReport(): ConformanceReport {
  const records: EvidenceRecord[] = [
    { kind: 'test-begin', test: T, citedRequirements: ['A-MUST', 'C-OBSERVE'], at },
    {
      kind: 'exchange',
      id: 'e1',
      at,
      tenant: 'A',
      method: 'GET',
      url: 'http://127.0.0.1:1/v1/openapi/workflows/c_1',
      operation: 'getWorkflowDetail',
      request: { headers: {}, bodyBytes: 0 },
      response: {
        status: 200,
        headers: { 'content-type': 'application/json' },
        bodyExcerpt: `{"title":${JSON.stringify(TITLE)}}\n${TITLE}`,
        bodyBytes: 80,
        truncated: false,
      },
      violations: [],
      durationMs: 1,
      curl: 'curl "${BASE_URL}"/openapi/workflows/c_1',
    },
    {
      kind: 'check',
      requirementId: 'A-MUST',
      level: 'must',
      outcome: 'fail',
      source: 'suite',
      test: T,
      message: `the workflow ${TITLE} has no plan`,
      expected: 'a plan',
      actual: TITLE,
      exchangeId: 'e1',
      at,
    },
    { kind: 'observation', requirementId: 'C-OBSERVE', key: 'title', value: TITLE, test: T, at },
    // A status outside the vocabulary of its open point, kept verbatim as `other: …`.
    {
      kind: 'observation',
      requirementId: 'STATE-TRANSITIONS',
      key: 'status the run answers',
      value: TITLE,
      test: T,
      at,
    },
    { kind: 'test-end', test: T, citedRequirements: ['A-MUST', 'C-OBSERVE'], status: 'failed', durationMs: 1, at },
  ];
  const report = buildReport({
    catalogue: CATALOGUE,
    records,
    waivers: emptyWaivers(),
    meta: {
      seed: 7,
      baseUrl: 'http://127.0.0.1:1/v1',
      targetKind: 'external',
      targetHow: `the target titled ${TITLE}`,
      strict: false,
      startedAt: at,
      incomplete: `the run stopped at ${TITLE}`,
    },
    listedStatuses: { getWorkflowDetail: [200, 404] },
  });
  return { ...report, discovery: `found ${TITLE} \u001b[2J` };
}

function hostileExplore(): ExploreReport {
  const finding = {
    fingerprint: '0123456789abcdef',
    operation: 'getWorkflowDetail',
    clause: 'DETAIL-HTTP-STATUS-LISTED',
    level: 'must',
    catalogued: true,
    property: 'allowed',
    family: 'allowed',
    message: `status 500 for ${TITLE}`,
    expected: 'one of 200, 404',
    actual: TITLE,
    alsoBreaks: [],
    shape: ['canvasId:punct'],
    minimalInput: { canvas: { id: TITLE } },
    exchange: {
      request: { method: 'GET', url: 'http://127.0.0.1:1/v1/openapi/workflows/x', headers: {}, bodyBytes: 0 },
      response: { status: 500, contentType: 'text/html', bodyExcerpt: TITLE },
    },
    curl: `curl "\${BASE_URL}"/openapi/workflows/x # ${FLAT}`,
    replay: { seed: 1, propertySeed: 2, path: '0:1', round: 0, numRuns: 10, shrinks: 3, simplified: 0 },
    reproduced: true,
    shrinkComplete: true,
    occurrences: 1,
    seen: { status: 'new', firstSeen: at, runs: 1, inPreviousRun: false },
  } as ExploreReport['findings'][number];
  const summary = {
    requests: 1,
    inputs: 1,
    passed: 0,
    failed: 1,
    capped: 0,
    inconclusive: {},
    observed: {},
    rounds: 1,
    shrinks: 3,
    stop: 'done',
    // A parameter named by a hostile target title: it reaches the families table of report.md.
    tried: { [TITLE]: { [TITLE]: 1 } },
  } as const;
  return {
    kind: 'wfcheck-explore',
    version: 1,
    seed: 4242,
    seedGiven: true,
    startedAt: at,
    wallMs: 1000,
    target: { kind: 'external', how: `given, titled ${TITLE}`, baseUrl: 'http://127.0.0.1:1/v1' },
    budget: {
      seconds: 60,
      requestsPerOperation: 160,
      maxExecutions: 30,
      maxCanvasesCreated: 12,
      allowOverwrite: false,
    },
    setup: [`runnable canvas: ${TITLE}`],
    operations: [
      {
        operation: 'getWorkflowDetail',
        wallMs: 100,
        allowed: { ...summary, kind: 'allowed' },
        forbidden: { ...summary, kind: 'forbidden', inconclusive: { [TITLE]: 1 } },
        findings: 1,
      },
    ],
    findings: [finding],
    deviations: [
      {
        level: 'must',
        answer: '500',
        shape: [TITLE],
        operations: ['getWorkflowDetail'],
        clauses: [finding.clause],
        fingerprints: [finding.fingerprint],
      },
    ],
    footprint: {
      executionsStarted: 0,
      canvasesCreated: 0,
      canvasOverwrites: 0,
      filesUploaded: 0,
      requests: { explore: 1, setup: 0, cleanup: 0 },
    },
    incomplete: [],
    exitCode: 1,
    history: {
      runId: 2,
      previous: { runId: 1, startedAt: at, seed: 1, exitCode: 1 },
      findings: { new: 1, seenBefore: 0, unknown: 0 },
      gone: [
        {
          fingerprint: 'fedcba9876543210',
          operation: 'runWorkflow',
          clause: 'RUN-X',
          level: 'must',
          message: TITLE,
          explored: true,
        },
      ],
    },
  };
}

// ---- The checks ------------------------------------------------------------------------------------

test('the escapers keep every character a format gives a meaning to as text', () => {
  expect(mdInline(TITLE)).toBe('Invoice "Q\\<3\\>" \\& Tom\'s \\<b\\>bold\\</b\\> \\| split line');
  expect(mdCode('a`b|c', true)).toBe('``a`b\\|c``');
  expect(htmlAttr(TITLE)).not.toMatch(/["'<>]/);
  expect(xmlAttr(TITLE)).toBe(
    'Invoice &quot;Q&lt;3&gt;&quot; &amp; Tom&apos;s &lt;b&gt;bold&lt;/b&gt; | split&#10;line',
  );
  // A terminal sees no control sequence: the escape character is shown by its code.
  expect(consoleText('a\u001b[2Jb\u202ec\nd')).toBe('a\\u{1b}[2Jb\\u{202e}c d');
});

test('the conformance report in every format keeps a hostile title as text', () => {
  const r = hostileReport();
  const behaviour = r.findings[0].behaviour;
  expect(behaviour).toContain(FLAT);

  const md = readMarkdown(conformanceMarkdown(r));
  expect(md.broken).toEqual([]);
  expect(md.text).toContain(`### F1 [FAIL] ${behaviour}`);
  expect(md.text).toContain(`Example, \u0000: *detail [A-MUST] [C-OBSERVE]* — the workflow ${FLAT} has no plan`);
  expect(md.text).toContain(`title: ${FLAT}`); // the observed value, in the requirements table
  expect(md.codeSpans).toContain(FLAT); // and in the observations
  expect(md.fences.some((f) => f.includes(TITLE))).toBe(true); // the answer, line break kept
  expect(r.openPoints.map((p) => [p.point, p.values[0]!.value])).toEqual([['run-status', `other: ${FLAT}`]]);
  expect(md.codeSpans).toContain(`other: ${FLAT}`); // the open point's answer

  const summary = readMarkdown(conformanceJobSummary(r));
  expect(summary.broken).toEqual([]);
  expect(summary.text.split('\n')[0]).toBe(`## wfcheck conformance: ${headline(r).replace(/\n/g, ' ')}`);
  expect(summary.text).toContain(`#### F1 [FAIL] ${behaviour}`);

  const html = conformanceHtml(r);
  const page = readHtml(html);
  expect(page.broken).toEqual([]);
  expect(page.text).toContain(`the workflow ${TITLE} has no plan`);
  expect(page.text).toContain(`title: ${TITLE}`);
  expect(page.text).toContain(`other: ${FLAT}`);
  expect(html).not.toContain('<b>');
  expect(htmlDecode(/<title>([^<]*)<\/title>/.exec(html)![1])).toBe(`wfcheck conformance — ${headline(r)}`);

  const junit = parseXml(conformanceJunit(r));
  expect(junit.attributes.name).toBe(`wfcheck conformance: ${headline(r)}`); // the line break kept as &#10;
  const finding = junit.children[0].children[0];
  expect(finding.attributes.name).toBe(`F1 ${behaviour}`);
  expect(finding.children[0].name).toBe('failure');
  expect(finding.children[0].text).toContain(`the workflow ${TITLE} has no plan (expected a plan, got ${TITLE})`);

  const terminal = conformanceConsole(r, {});
  expect(terminal).toContain(`F1 [FAIL] ${behaviour}`);
  expect(terminal).toContain(`found ${FLAT} \\u{1b}[2J`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character but the line break may reach the terminal
  expect(terminal).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
});

test("the generative run's report, summary and console keep a hostile title as text", () => {
  const r = hostileExplore();
  const md = readMarkdown(exploreMarkdown(r));
  expect(md.broken).toEqual([]);
  expect(md.text).toContain(`## [DETAIL-HTTP-STATUS-LISTED] getWorkflowDetail: status 500 for ${FLAT}`);
  expect(md.text).toContain(`- expected one of 200, 404; got ${FLAT}`);
  expect(md.text).toContain(`- runnable canvas: ${FLAT}`);
  expect(md.text).toContain(`\u0000 [RUN-X] runWorkflow: ${FLAT}`); // gone since the previous run
  expect(md.codeSpans).toContain(FLAT); // the deviation's shape
  expect(md.fences.some((f) => f.includes(JSON.stringify(TITLE)))).toBe(true); // the minimal input

  const summary = readMarkdown(renderJobSummary(exploreSummary(r)));
  expect(summary.broken).toEqual([]);
  expect(summary.text).toContain(`#### [DETAIL-HTTP-STATUS-LISTED] getWorkflowDetail: status 500 for ${FLAT}`);
  expect(summary.text).toContain(`1 ${FLAT}`); // the inconclusive answers, in the operations table

  const terminal = exploreConsole(r);
  expect(terminal).toContain(`FINDING [DETAIL-HTTP-STATUS-LISTED] getWorkflowDetail: status 500 for ${FLAT}`);
  expect(terminal.split('\n')).toHaveLength(3);
});

test('the load trend page keeps a hostile run label in its attributes and text', () => {
  const run = (id: number): LoadRunFigures => ({
    run: {
      id,
      kind: 'load',
      startedAt: `2026-01-0${id}T00:00:00Z ${TITLE}`,
      seed: id,
      harnessVersion: '0.1.0',
      target: 't',
      wallMs: 1000,
      exitCode: 0,
      findings: null,
      name: null,
      targetVersion: null,
      origin: null,
    },
    profile: TITLE,
    passed: id !== 2,
    throughputRps: 40,
    operations: [{ operation: 'runWorkflow', p95Ms: 100, p99Ms: 200, requests: 10 }],
  });
  const html = renderLoadTrendPage([run(1), run(2)], DEFAULT_SLO);
  const page = readHtml(html);
  expect(page.broken).toEqual([]);
  expect(page.attributes).toContain(`2026-01-01T00:00:00Z ${TITLE}`);
  expect(page.text).toContain('#2: gate breached');
  expect(html).not.toContain('<b>');
  // The charts' data (labels with the profile) is JSON in a script: no `<` that could end it.
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  expect(scripts.at(-1)).toContain('Invoice \\"Q\\u003c3>\\"');
});
