/**
 * The mutation table as people read it, built with the report kit (core/report): the table the
 * command prints (console), report.md, and the line printed as each entry's run ends.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Block,
  heading,
  type Item,
  listOf,
  paragraph,
  type Inlines,
  withCode,
} from '../../core/report/document.ts';
import { consoleText } from '../../core/report/escape.ts';
import { REPORT_FORMATS, renderReport } from '../../core/report/formats.ts';
import { renderConsole } from '../../core/report/render/console.ts';
import { renderMarkdown } from '../../core/report/render/markdown.ts';
import { SUITES_CAUGHT } from './judge.ts';
import {
  MUTATION_OUT,
  type BlockedClause,
  type MutantResult,
  type MutationReport,
  type MutationScore,
  type EntryOutcome,
} from './types.ts';

/** The line printed when an entry's run ends. */
export function progressLine(r: MutantResult, done: number, total: number): string {
  const hit = r.expectedHit.length
    ? `by ${r.expectedHit.join(', ')}`
    : r.failed.length
      ? `failed: ${r.failed.join(', ')}`
      : '';
  const collateral = r.collateral.length ? `  COLLATERAL ${r.collateral.join(', ')}` : '';
  const wall = `${(r.wallMs / 1000).toFixed(1).padStart(6)} s`;
  const head = `[${done}/${total}] ${r.id.padEnd(36)} ${r.outcome.padEnd(22)} findings ${findingsText(r).padEnd(9)}`;
  return consoleText(`${head} ${wall}  ${hit}${collateral}${r.note ? `  (${r.note})` : ''}`);
}

/**
 * Findings reported against expected ("1/1"); with the generative mode, the suites' and its own ("suites 0,
 * explore 1/1"); marked when not exact (another count, or collateral).
 */
const findingsText = (r: MutantResult) => `${reportedText(r)}/${r.findingsExpected}${r.exact ? '' : ' ≠'}`;

/** The findings reported: the suites' count, and with the generative mode its own beside it. */
function reportedText(r: MutantResult): string {
  const suites = `${r.findingsReported ?? '—'}`;
  if (!r.explore) return suites;
  const explore = r.kind === 'should' ? r.explore.warnings : r.explore.deviations + r.explore.warnings;
  return `suites ${suites}, explore ${explore}`;
}

/** Wall time of each single-operation fault entry that ran. */
const singleOperationText = (s: MutationScore) =>
  Object.entries(s.singleOperationWallMs)
    .map(([id, ms]) => `${id} ${(ms / 1000).toFixed(1)} s`)
    .join(', ');

const ICON: Record<EntryOutcome, string> = {
  killed: 'killed',
  'killed-with-collateral': 'KILLED WITH COLLATERAL',
  'killed-unrelated': 'KILLED BY OTHER CLAUSES',
  'part-missed': 'PART MISSED',
  survived: 'SURVIVED',
  warned: 'warned',
  'warned-with-collateral': 'WARNED WITH COLLATERAL',
  missed: 'NOT WARNED',
  clean: 'clean',
  'false-alarm': 'FALSE ALARM',
  incomplete: 'INCOMPLETE',
  starved: 'STARVED OTHER SUITES',
};

const blockedText = (b: BlockedClause[]) => b.map((x) => `${x.id} ← ${x.by.join('+') || '?'}`).join(', ');
/** The stillRuns check of an entry: how many of its clauses were exercised, and which were not. */
const stillRunsText = (x: MutantResult) =>
  x.stillRuns.length === 0
    ? ''
    : x.stillRunsMissing.length
      ? `${x.stillRuns.length - x.stillRunsMissing.length}/${x.stillRuns.length}, NOT ${x.stillRunsMissing.join(', ')}`
      : `${x.stillRuns.length}/${x.stillRuns.length}`;

/** Which mode caught the entry; for entries only the suites ran against, said so. */
function caughtText(x: MutantResult): string {
  if (x.caughtBy) return x.caughtBy;
  if (x.kind === 'legal' || x.kind === 'harness-limit')
    return x.explore ? (x.outcome === 'clean' ? 'clean in both' : 'flagged') : '';
  return SUITES_CAUGHT.includes(x.outcome) ? 'suites (only)' : 'neither';
}

/** The generative mode's run: deviations, requests and wall time; "—" where it did not run. */
function exploreText(x: MutantResult): string {
  const e = x.explore;
  if (!e) return '—';
  const warnings = e.warnings ? ` + ${e.warnings} warn` : '';
  return `${e.deviations} dev${warnings}, ${e.requests} req, ${(e.wallMs / 1000).toFixed(1)} s`;
}

/** Over the entries both modes ran against: which mode caught what, and what the generative mode cost. */
function modesText(s: MutationScore): string | undefined {
  const c = s.caughtBy;
  const both = c.suites + c.explore + c.both + c.neither;
  if (both === 0 && s.exploreRequests === 0) return undefined;
  return (
    `of ${both} deviation entr${both === 1 ? 'y' : 'ies'} run in both modes: caught by the suites alone ${c.suites}, ` +
    `by the generative mode alone ${c.explore}, by both ${c.both}, by neither ${c.neither}; ` +
    `generative mode ${s.exploreRequests} requests in ${(s.exploreWallMs / 1000).toFixed(1)} s`
  );
}

export function totalsLine(r: MutationReport): string {
  const s = r.score;
  const single = singleOperationText(s);
  const modes = modesText(s);
  return [
    `findings exact ${s.exact}/${s.entries}`,
    `bugs killed ${s.killed}/${s.bugs}`,
    `should-level warned ${s.warned}/${s.should}`,
    `collateral ${s.collateralEntries} entr${s.collateralEntries === 1 ? 'y' : 'ies'} / ${s.collateralClauses} clause(s)`,
    `legal and harness-limit clean ${s.clean}/${s.legal}`,
    `survived ${s.survived}, not warned ${s.missed}, false alarms ${s.falseAlarms}, starved ${s.starved}`,
    ...(single ? [`single-operation faults ${single}`] : []),
    ...(modes ? [modes] : []),
    `wall time ${(r.wallMs / 1000).toFixed(1)} s`,
  ].join('; ');
}

const TABLE_HEAD = [
  'mutant',
  'kind',
  'result',
  'findings rep/exp',
  'caught by',
  'generative mode',
  'expected, flagged',
  'collateral',
  'blocked ← by',
  'still runs',
  'suites s',
];

/** The run's settings in one line. */
function settingsLine(r: MutationReport, cut: string): string {
  return `seed ${r.seed}; ${r.parallel} run(s) in parallel, ${r.workers} workers each${r.focus ? '; focused runs' : ''}${r.maxFailures > 0 ? `; bug runs cut after ${r.maxFailures} failures (${cut})` : ''}`;
}

/** The table the command prints: one row per entry, the totals, and per entry not exact its findings. */
export function mutationTable(r: MutationReport): string {
  const rows = r.results.map((x) => ({
    cells: [
      x.id,
      x.kind,
      ICON[x.outcome],
      findingsText(x),
      caughtText(x),
      exploreText(x),
      x.expectedHit.join(', ') || (x.failed.length ? `(failed ${x.failed.join(', ')})` : ''),
      x.collateral.join(', '),
      blockedText(x.blocked),
      stillRunsText(x),
      `${(x.wallMs / 1000).toFixed(1)}`,
    ],
  }));
  const inexact = inexactItems(r);
  const blocks: Block[] = [
    { kind: 'table', head: TABLE_HEAD, rows },
    paragraph(''),
    paragraph(totalsLine(r)),
    paragraph(settingsLine(r, 'collateral may be hidden')),
    ...(inexact.length ? [paragraph(''), paragraph('Findings not exact:'), listOf(inexact)] : []),
    paragraph(
      r.ok
        ? 'RESULT: every bug killed by its clause without collateral, should-level deviations warned, ' +
            'legal variants clean, every count of findings exact'
        : 'RESULT: FAIL — see the rows in capitals and the findings marked ≠',
    ),
  ];
  return renderConsole(blocks);
}

/** Per entry whose findings are not exact: what the report told, finding by finding. */
function inexactItems(r: MutationReport): Item[] {
  return r.results
    .filter((x) => !x.exact)
    .map((x) => ({
      text: `${x.id}: ${x.findingsReported ?? 'no report'} reported, ${x.findingsExpected} expected${
        x.collateral.length ? `; collateral ${x.collateral.join(', ')}` : ''
      }`,
      blocks: x.findings.length
        ? [
            listOf(
              x.findings.map(
                (f) =>
                  `${f.id} ${f.strength}${f.waived ? ' (waived)' : ''} ${f.signature} — ${f.clauses.join(', ')} (${f.operations.length} operation(s))`,
              ),
            ),
          ]
        : [],
    }));
}

const MD_HEAD = [
  'mutant',
  'kind',
  'category',
  'result',
  'findings expected',
  'findings reported',
  'caught by',
  'generative mode',
  'expected',
  'flagged',
  'collateral',
  'blocked ← by',
  'still runs',
  'suites s',
  'description',
];

function markdownRow(x: MutantResult): Inlines[] {
  return [
    x.id,
    x.kind,
    x.category,
    ICON[x.outcome],
    String(x.findingsExpected),
    `${reportedText(x)}${x.exact ? '' : ' ≠'}`,
    caughtText(x),
    exploreText(x),
    x.expected.join(', '),
    [...x.failed, ...x.warned].join(', '),
    x.collateral.join(', '),
    blockedText(x.blocked),
    stillRunsText(x),
    (x.wallMs / 1000).toFixed(1),
    [...withCode(x.description), ...(x.note ? [' ', { em: `(${x.note})` }] : [])],
  ];
}

const CAUGHT_BY_KEY: Inlines = [
  "Caught by: which mode flagged the entry's deviation by one of its clauses — the scripted suites, the generative mode (",
  { code: 'wfcheck explore' },
  ', run against the input-crash entries and the control by default, every entry with ',
  { code: '--explore all' },
  '), both or neither; "suites (only)" where the generative mode did not run. Generative mode: its deviations (findings grouped across operations), requests and wall time.',
];

const FINDINGS_KEY =
  'Findings: the deviations the entry injects, and the findings the run reported for it (unwaived failures, ' +
  'and warnings where a should-level deviation is injected; for legal variants and harness limits every ' +
  'failure and warning). ≠ marks an entry whose count differs or that has collateral. ' +
  'Collateral: clauses flagged (fail or warn) that the entry does not break — a second verdict for one deviation, or a false alarm. Blocked: clauses that could not be judged because the named clause deviated first. Still runs: of the clauses the entry must not starve (suites its deviation does not concern), how many the run exercised.';

/** The report as one document: the verdict and totals, how to read the table, the table, and what the generative mode found. */
export function mutationDocument(r: MutationReport): Block[] {
  const inexact = inexactItems(r);
  return [
    heading(1, 'wfcheck mutation report'),
    paragraph([{ strong: r.ok ? 'PASS' : 'FAIL' }, ` — ${totalsLine(r)}.`]),
    paragraph(
      `Seed ${r.seed}; started ${r.startedAt}; ${r.parallel} run(s) in parallel with ${r.workers} worker(s) each${r.focus ? '; focused runs' : ''}${r.maxFailures > 0 ? `; bug runs cut after ${r.maxFailures} failures, so collateral in unfinished tests is not seen` : '; every run in full'}.`,
    ),
    paragraph(CAUGHT_BY_KEY),
    paragraph(FINDINGS_KEY),
    { kind: 'table', head: MD_HEAD, rows: r.results.map((x) => ({ cells: markdownRow(x) })) },
    ...(inexact.length ? [heading(2, 'Findings not exact'), listOf(inexact)] : []),
    ...minimalInputBlocks(r),
  ];
}

/** report.md. */
export function mutationMarkdown(r: MutationReport): string {
  return renderMarkdown(mutationDocument(r));
}

/** The minimal inputs the generative mode reported, per entry it flagged. */
function minimalInputBlocks(r: MutationReport): Block[] {
  const flagged = r.results.filter((x) => x.explore?.minimal.length);
  if (flagged.length === 0) return [];
  return [
    heading(2, 'Minimal inputs found by the generative mode'),
    listOf(
      flagged.map((x) => ({
        text: { strong: x.id },
        blocks: [listOf(x.explore!.minimal.map((m) => ({ code: m.slice(0, 300) })))],
      })),
    ),
  ];
}

/** Writes the report in the formats of the report kit's table it has views for (JSON, Markdown); returns their paths. */
export function writeMutationReport(r: MutationReport): { json: string; md: string } {
  mkdirSync(MUTATION_OUT, { recursive: true });
  for (const { file, text } of renderReport({ json: r, markdown: mutationDocument(r) }))
    writeFileSync(join(MUTATION_OUT, file), text);
  return { json: join(MUTATION_OUT, REPORT_FORMATS.json.file), md: join(MUTATION_OUT, REPORT_FORMATS.markdown.file) };
}
