/**
 * The generative run's report as people read it, built with the report kit (core/report): report.md,
 * the job summary (summary.md), the lines the command prints, and the files written. A finding is the
 * summary model's FindingView, as in the conformance report; the previous run's findings now gone are
 * its HistoryView.
 */
import {
  type Block,
  code,
  fields,
  heading,
  type Inline,
  toInlines,
  type Item,
  joined,
  listOf,
  paragraph,
  type Inlines,
} from '../../core/report/document.ts';
import { connectionBlocks } from '../../core/report/connection.ts';
import { NODE_CLIENT_SPEAKS } from '../../core/connection/connection-facts.ts';
import { renderConsole } from '../../core/report/render/console.ts';
import { REPORT_FORMATS, renderReport, type ReportViews } from '../../core/report/formats.ts';
import { renderMarkdown } from '../../core/report/render/markdown.ts';
import { findingBlocks, type FindingView, type HistoryView, type RunSummary } from '../../core/report/summary.ts';
import { openOutputFolder, type OutputFolder } from '../../core/outputs/output-folder.ts';
import { containsSecret, redactSecrets, redactValue } from '../../core/settings/redact.ts';
import type { GoneFinding } from '../../core/history-store/explore.ts';
import {
  deviationsHeadline,
  type ExploreFinding,
  type ExploreReport,
  type PropertySummary,
  seenText,
} from './explore-report.ts';

/** Characters of a minimal input on the console. */
const CONSOLE_INPUT = 160;
/** The budget a replay need not name. */
const DEFAULT_BUDGET_S = 60;

/** One item per finding of the previous run this run no longer has. */
export function goneItems(gone: readonly GoneFinding[]): Inlines[] {
  return gone.map((g) => [
    { code: g.fingerprint },
    ' ',
    { mark: g.clause },
    ` ${g.operation}: ${g.message}${g.explored ? '' : ' (its operation was not explored by this run: not looked for)'}`,
  ]);
}

/** The request as sent and what came back (or the fault met), as one text. */
function exchangeText(f: ExploreFinding): string {
  const rq = f.exchange.request;
  const answer = f.exchange.response
    ? `→ ${f.exchange.response.status} ${f.exchange.response.contentType ?? ''}\n${f.exchange.response.bodyExcerpt}`
    : `→ ${f.exchange.fault?.kind}: ${f.exchange.fault?.message}`;
  return [
    `${rq.method} ${rq.url}`,
    ...Object.entries(rq.headers).map(([k, v]) => `${k}: ${v}`),
    ...(rq.bodyExcerpt !== undefined ? ['', rq.bodyExcerpt] : []),
    '',
    answer,
  ].join('\n');
}

function factsOf(f: ExploreFinding, withHistory: boolean): Item[] {
  const codes = (xs: readonly string[]): Inline[] =>
    joined(
      xs.map((x) => ({ code: x })),
      ', ',
    );
  const r = f.replay;
  const facts: Inlines[] = [
    ...(withHistory ? [['history: ', { strong: seenText(f.seen) }] as Inlines] : []),
    [
      'level ',
      { strong: f.level },
      `${f.catalogued ? '' : ' (clause proposed, not yet in the catalogue)'}; ${f.property} input, family `,
      { code: f.family },
    ],
    `expected ${f.expected}; got ${f.actual}`,
    ['fingerprint ', { code: f.fingerprint }, '; shape: ', ...(f.shape.length ? codes(f.shape) : ['(empty)'])],
    // A slowness is narrowed down by lengths that double, then halve (slowness.ts): no fast-check path replays it.
    r.path === ''
      ? `replay: seed ${r.seed} (any seed: narrowed down by run lengths doubled then halved, ${r.numRuns} requests)`
      : [
          `replay: seed ${r.seed}, property seed ${r.propertySeed}, path `,
          { code: r.path },
          ` (round ${r.round}, ${r.shrinks} shrinks, ${r.simplified} simplification(s))${f.shrinkComplete ? '' : ', shrinking cut short'}`,
        ],
    `reproduced on a second send: ${f.reproduced ? 'yes' : 'no (the target did not fail the same way again)'}; reached ${f.occurrences} time(s)`,
    ...(f.alsoBreaks.length ? [`the same answer also breaks: ${f.alsoBreaks.join(', ')}`] : []),
  ];
  return facts.map((text) => ({ text }));
}

export function exploreFindingView(f: ExploreFinding, withHistory: boolean): FindingView {
  const title = `${f.operation}: ${f.message}`;
  return {
    heading: [{ mark: f.clause }, ` ${title}`],
    facts: factsOf(f, withHistory),
    example: {
      code: [
        code(JSON.stringify(f.minimalInput, null, 2), { lang: 'json', caption: 'Minimal input' }),
        code(exchangeText(f), { lang: 'http', caption: 'Request and answer' }),
        code(f.curl, { lang: 'sh', caption: 'Reproduce (export BASE_URL and API_KEY first)', className: 'curl' }),
      ],
    },
    box: { className: `finding f-${f.level === 'must' ? 'fail' : 'warn'}` },
    line: [
      `${f.level === 'must' ? 'FINDING' : 'warning'} `,
      { mark: f.clause },
      ` ${title} (fingerprint ${f.fingerprint}; minimal ${JSON.stringify(f.minimalInput).slice(0, CONSOLE_INPUT)})`,
      withHistory ? ` — ${seenText(f.seen)}` : '',
    ],
    under: [],
  };
}

/** The findings of the previous run this run no longer has (nothing on the first run of a target). */
export function goneView(r: ExploreReport): HistoryView | undefined {
  const previous = r.history?.previous;
  if (!previous) return undefined;
  const gone = r.history!.gone;
  return {
    title: 'Gone since the previous run',
    intro: [`Findings of run #${previous.runId} (${previous.startedAt}) that this run does not have:`],
    sections: [{ items: goneItems(gone) }],
    none: 'None.',
    after:
      gone.length && r.incomplete.length
        ? ['This run was incomplete: a finding may be missing only because the run did not reach it.']
        : [],
  };
}

/** What the history says of the run: what it was compared with, and how many findings are new. */
function historyLine(r: ExploreReport): Block[] {
  const h = r.history;
  if (!h) return [];
  if (h.skipped) return [paragraph(`History skipped: ${h.skipped}; whether a finding is new is not known.`)];
  const since = h.previous
    ? `compared with run #${h.previous.runId} (${h.previous.startedAt}, seed ${h.previous.seed})`
    : 'the first recorded run of this target';
  return [
    paragraph(
      `History (run #${h.runId ?? '?'}, ${since}): ${h.findings.new} new finding(s), ${h.findings.seenBefore} seen before` +
        (h.previous ? `; ${h.gone.length} of the previous run's gone.` : '.'),
    ),
  ];
}

function stopText(p: PropertySummary): string {
  const inc = Object.entries(p.inconclusive)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  const slow = p.knownSlow ? `, ${p.knownSlow} of a slow class not sent` : '';
  return `${p.inputs} inputs, ${p.requests} req, ${p.stop}${p.capped ? `, ${p.capped} capped` : ''}${slow}${inc ? `, ${inc}` : ''}`;
}

function deviationItems(r: ExploreReport): Inlines[] {
  return r.deviations.map((d) => [
    `${d.level === 'must' ? '' : '(warning) '}${d.answer}, `,
    ...(d.shape.length
      ? joined(
          d.shape.map((x) => ({ code: x })),
          ', ',
        )
      : ['any input']),
    `: ${d.operations.join(', ')} — ${d.clauses.join(', ')} (finding(s) `,
    ...joined(
      d.fingerprints.map((x) => ({ code: x })),
      ', ',
    ),
    ')',
  ]);
}

function footprintLine(r: ExploreReport): string {
  const fp = r.footprint;
  return (
    `Footprint on the target: ${fp.executionsStarted} execution(s) started, ${fp.canvasesCreated} canvas(es) created, ` +
    `${fp.canvasOverwrites} overwrite(s) of one canvas, ${fp.filesUploaded} file(s) uploaded; ` +
    `${fp.requests.explore} exploring request(s), ${fp.requests.setup} for setup, ${fp.requests.cleanup} for cleanup.`
  );
}

/**
 * The run in figures: seed, target and time, (in the report) its verdict, what the history says, the
 * deviations, the footprint and each operation.
 */
function runBlocks(r: ExploreReport, inReport: boolean): Block[] {
  return [
    paragraph([
      'Seed ',
      { strong: String(r.seed) },
      `${r.seedGiven ? '' : ' (fresh)'} · target ${r.target.kind} (${r.target.how}) · ${(r.wallMs / 1000).toFixed(1)} s · exit ${r.exitCode}`,
    ]),
    ...(inReport
      ? [
          paragraph([
            { strong: deviationsHeadline(r) },
            `.${r.incomplete.length ? ` Incomplete: ${r.incomplete.join('; ')}.` : ''}`,
          ]),
        ]
      : []),
    ...historyLine(r),
    ...(r.deviations.length ? [...(inReport ? [heading(2, 'Deviations')] : []), listOf(deviationItems(r))] : []),
    paragraph(footprintLine(r)),
    {
      kind: 'table',
      head: ['Operation', 'Allowed inputs', 'Forbidden inputs', 'Findings', 'Time'],
      rows: r.operations.map((o) => ({
        cells: [
          o.operation,
          stopText(o.allowed),
          stopText(o.forbidden),
          String(o.findings),
          `${(o.wallMs / 1000).toFixed(1)} s`,
        ],
      })),
    },
  ];
}

/** Which families of input were tried on which parameter of each operation, allowed and forbidden inputs together. */
function triedBlocks(r: ExploreReport): Block[] {
  const rows = r.operations.flatMap((o) => {
    const merged: Record<string, Record<string, number>> = {};
    for (const p of [o.allowed, o.forbidden])
      for (const [param, families] of Object.entries(p.tried ?? {})) {
        const into = merged[param] ?? {};
        merged[param] = into;
        for (const [family, n] of Object.entries(families)) into[family] = (into[family] ?? 0) + n;
      }
    return Object.entries(merged)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([param, families]) => ({
        cells: [
          o.operation,
          [{ code: param }],
          Object.entries(families)
            .map(([family, n]) => `${family} ×${n}`)
            .join(', '),
        ],
      }));
  });
  if (!rows.length) return [];
  return [
    heading(2, 'Input families tried'),
    { kind: 'table', head: ['Operation', 'Parameter', 'Families (requests)'], rows },
  ];
}

export function exploreDocument(r: ExploreReport): Block[] {
  const observed = r.operations.flatMap((o) =>
    [...Object.entries(o.allowed.observed), ...Object.entries(o.forbidden.observed)].map(
      ([clause, v]): Inlines => [
        `${o.operation}: `,
        { mark: clause },
        ` ${v.count} × unlisted ${v.statuses.join('/')} (open point, recorded)`,
      ],
    ),
  );
  const gone = goneView(r);
  return [
    heading(1, 'Generative exploration'),
    ...connectionBlocks(r.connection, { speaks: NODE_CLIENT_SPEAKS, certificate: true }),
    ...runBlocks(r, true),
    ...(observed.length ? [heading(2, 'Open points observed'), listOf(observed)] : []),
    ...triedBlocks(r),
    ...(r.setup.length ? [heading(2, 'Setup'), listOf(r.setup)] : []),
    ...r.findings.flatMap((f) => findingBlocks(exploreFindingView(f, Boolean(r.history)), 2)),
    ...(gone ? historyBlocksOf(gone) : []),
  ];
}

/** The gone section of report.md, a heading of the report's second level. */
function historyBlocksOf(gone: HistoryView): Block[] {
  return [
    heading(2, gone.title),
    ...gone.intro.map((t) => paragraph(t)),
    ...(gone.sections[0].items.length ? [listOf(gone.sections[0].items)] : [paragraph(gone.none ?? 'None.')]),
    ...(gone.after ?? []).map((t) => paragraph(t)),
  ];
}

export function exploreMarkdown(r: ExploreReport): string {
  return renderMarkdown(exploreDocument(r));
}

/** The line that says how to replay the run (its budget when it is not the default). */
export function replayLine(r: Pick<ExploreReport, 'seed' | 'budget'>): string {
  const budget = r.budget.seconds !== DEFAULT_BUDGET_S ? ` --budget-s ${r.budget.seconds}` : '';
  return `explore seed ${r.seed}: replay with wfcheck explore --seed ${r.seed}${budget}`;
}

/** The verdict in one line: the must-level deviations, how many are new to the history, the warnings. */
function summaryHeadline(r: ExploreReport): string {
  const must = r.findings.filter((f) => f.level === 'must');
  const deviations = r.deviations.filter((d) => d.level === 'must').length;
  const word = r.exitCode === 0 ? 'PASS' : r.exitCode === 1 ? 'FAIL' : `INCOMPLETE (exit ${r.exitCode})`;
  const known = r.history && !r.history.skipped;
  const fresh = must.filter((f) => f.seen?.status !== 'seen-before').length;
  const spread = deviations === must.length ? '' : ` in ${must.length} finding(s) across operations`;
  return (
    `${word} — ${deviations} deviation(s)${spread}${known ? ` (${fresh} new, ${must.length - fresh} seen before)` : ''}, ` +
    `${r.findings.length - must.length} warning(s)${r.incomplete.length ? `; incomplete: ${r.incomplete.length} reason(s)` : ''}`
  );
}

export function exploreSummary(r: ExploreReport): RunSummary {
  return {
    what: 'wfcheck explore',
    headline: summaryHeadline(r),
    context: [
      paragraph(replayLine(r)),
      ...connectionBlocks(r.connection, { speaks: NODE_CLIENT_SPEAKS, certificate: true }),
    ],
    findings: {
      title: 'Findings',
      count: r.findings.filter((f) => f.level === 'must').length,
      none: 'None: every answer was one the specification allows for its input.',
      items: r.findings.map((f) => exploreFindingView(f, Boolean(r.history))),
    },
    history: goneView(r),
    more: [
      {
        title: 'The exploration',
        blocks: [
          ...runBlocks(r, false),
          ...(r.incomplete.length ? [listOf(r.incomplete.map((i) => `incomplete: ${i}`))] : []),
        ],
      },
    ],
    reportName: 'report.md',
  };
}

/** The lines the command prints after the run: each finding, the gone ones, the footprint, why it is incomplete. */
export function exploreConsole(r: ExploreReport): string {
  const fp = r.footprint;
  const previous = r.history?.previous;
  return renderConsole([
    listOf(r.findings.map((f) => exploreFindingView(f, Boolean(r.history)).line)),
    ...(previous
      ? [listOf(goneItems(r.history!.gone).map((g) => [`gone since run #${previous.runId}: `, ...toInlines(g)]))]
      : []),
    fields([
      [
        'footprint:',
        `${fp.executionsStarted} execution(s) started, ${fp.canvasesCreated} canvas(es) created, ` +
          `${fp.canvasOverwrites} overwrite(s), ${fp.filesUploaded} file(s) uploaded, ` +
          `${fp.requests.explore + fp.requests.setup + fp.requests.cleanup} request(s)`,
      ],
      ...r.incomplete.map((i) => ['incomplete:', i] as const),
    ]),
  ]);
}

/** The formats a generative run writes. */
type ExploreFormat = 'json' | 'markdown' | 'jobSummary';
const EXPLORE_FORMATS: readonly ExploreFormat[] = ['json', 'markdown', 'jobSummary'];

/** What a generative run writes at its folder's top: the report's files, and the bodies the reproducers need. */
export const EXPLORE_NAMES: readonly string[] = [...EXPLORE_FORMATS.map((f) => REPORT_FORMATS[f].file), 'bodies'];

/** The report in every format a generative run writes (the report kit's table renders them). */
export function exploreViews(r: ExploreReport): Required<Pick<ReportViews, ExploreFormat>> {
  return { json: r, markdown: exploreDocument(r), jobSummary: exploreSummary(r) };
}

/**
 * Writes the report in every format and the bodies the reproducers need into the run's folder, every
 * text redacted and each file whole or not at all; returns the path of each format written. Given a
 * path, it opens that folder for the writing alone, as a run of its own.
 */
export function writeExploreReport(
  r: ExploreReport,
  into: OutputFolder | string,
  bodies: ReadonlyMap<string, string>,
): Record<ExploreFormat, string> {
  const folder =
    typeof into === 'string'
      ? openOutputFolder(into, { mode: 'explore', command: 'explore', names: EXPLORE_NAMES })
      : into;
  const write = (name: string, text: string) => {
    const out = redactSecrets(text);
    // Redaction knows the keys in use; a key it missed would be a defect of the harness, never written.
    if (containsSecret(out)) throw new Error(`a key would be written to ${folder.path(name)}`);
    return folder.write(name, out);
  };
  try {
    for (const [name, text] of bodies) write(name, text);
    const paths = {} as Record<ExploreFormat, string>;
    for (const { format, file, text } of renderReport(exploreViews(redactValue(r))))
      paths[format as ExploreFormat] = write(file, text);
    if (typeof into === 'string') folder.finish();
    return paths;
  } finally {
    if (typeof into === 'string') folder.release();
  }
}
