/**
 * The conformance report's clause sections: every requirement of the catalogue with its verdict (failures
 * first), the evidence of the failing and warning ones, what was blocked and what did not run, the
 * operation × status coverage, the run's answer to each point the specification leaves open (in the point's
 * vocabulary) and the values observed there.
 */
import {
  type Block,
  type Cell,
  heading,
  type Inline,
  type Item,
  joined,
  listOf,
  paragraph,
  rawHtml,
  type Row,
  section,
  type Inlines,
} from '../../core/report/document.ts';
import { htmlAttr, htmlText } from '../../core/report/escape.ts';
import { MARK, verdictMark } from '../../core/report/verdict-marks.ts';
import { clauseLink, evidenceItem } from './findings.ts';
import type { ConformanceReport, RequirementResult } from '../../core/findings/build-report.ts';
import {
  anchor,
  count,
  coverageStatuses,
  findingsByClause,
  noteOf,
  requirementsInOrder,
  SEVERITY_LABEL,
  severityMark,
  VERDICT_ORDER,
} from './common.ts';

/** Characters of a note in the table (why a clause did not run, the values observed). */
const NOTE_CHARS = 400;

/** The page's buttons that show one verdict at a time, and their script. */
function filtersHtml(r: ConformanceReport): Block {
  const counts = r.summary.byVerdict;
  const buttons = [
    `<button onclick="filter('all')">all (${r.requirements.length})</button>`,
    ...VERDICT_ORDER.filter((v) => counts[v]).map(
      (v) => `<button onclick="filter('${htmlAttr(v)}')">${htmlText(MARK[v].toLowerCase())} (${counts[v]})</button>`,
    ),
  ].join('');
  return rawHtml(
    `<p class="filters">Show: ${buttons}</p><script>function filter(v){for(const tr of document.querySelectorAll('#reqs tr[data-verdict]'))tr.style.display=(v==='all'||tr.dataset.verdict===v)?'':'none'}</script>`,
  );
}

/** Where a failing or warning clause's evidence is listed. */
const evidenceAnchor = (id: string) => `evidence-${id}`;

const flagged = (x: RequirementResult) => x.rawVerdict === 'fail' || x.rawVerdict === 'warn';

/**
 * The last column: the clause, why it holds, and why it did not run, what blocked it or what was seen;
 * for a failing or warning clause, a link to its evidence.
 */
function clauseCell(x: RequirementResult): Inline[] {
  const note: Inline[] =
    x.verdict === 'blocked'
      ? ['blocked by ', ...joined(x.blockedBy.map(clauseLink), ', ')]
      : noteOf(x)
        ? [noteOf(x).slice(0, NOTE_CHARS)]
        : [];
  return [
    x.text,
    ...(x.why ? [' ', { span: `(why: ${x.why})`, className: 'dim' }] : []),
    ...(note.length ? [' — ', { span: note, className: 'note' }] : []),
    ...(flagged(x) ? [' — ', { link: evidenceAnchor(x.id), text: count(x.failureCount, 'failing check') }] : []),
  ];
}

function requirementRow(x: RequirementResult, findings: readonly string[]): Row {
  // Only the urgent groups are marked: a plain deviation is what an unmarked failure is.
  const group =
    x.severity && x.severity !== 'deviation' && (x.verdict === 'fail' || x.verdict === 'warn')
      ? [' ', severityMark(x.severity)]
      : [];
  return {
    id: anchor(x.id),
    data: { verdict: x.verdict },
    cells: [
      [verdictMark(x.verdict), ...group],
      { span: x.id, className: 'rid' },
      x.level,
      `${x.passes} / ${x.failureCount}`,
      joined(
        findings.map((id): Inlines => ({ link: `finding-${id}`, text: id })),
        ', ',
      ),
      clauseCell(x),
    ],
  };
}

function requirementsSection(r: ConformanceReport): Block {
  const by = findingsByClause(r);
  return section('requirements', [
    heading(2, 'Requirements'),
    paragraph('Every clause of the catalogue: failures first, then warnings, then the rest.', 'dim'),
    filtersHtml(r),
    {
      kind: 'table',
      id: 'reqs',
      head: ['verdict', 'ID', 'level', 'passing / failing checks', 'finding', 'clause, note'],
      rows: requirementsInOrder(r).map((x) => requirementRow(x, by.get(x.id) ?? [])),
    },
    ...(r.unknownRequirementIds.length
      ? [
          paragraph([
            'Requirement IDs used by the suites but missing from the catalogue: ',
            ...joined(
              r.unknownRequirementIds.map((id) => ({ code: id })),
              ', ',
            ),
          ]),
        ]
      : []),
  ]);
}

function clauseEvidence(x: RequirementResult): Block[] {
  const group = x.severity ? ` — ${SEVERITY_LABEL[x.severity]}` : '';
  return [
    heading(3, [x.id, ' ', verdictMark(x.verdict), ` (${x.level}, §${x.section})${group}`], evidenceAnchor(x.id)),
    paragraph(x.text),
    ...(x.why ? [paragraph(`Why: ${x.why}`)] : []),
    ...(x.waiver
      ? [paragraph(`Waiver: ${x.waiver.reason}${x.waiver.expires ? ` (expires ${x.waiver.expires})` : ''}`)]
      : []),
    {
      kind: 'details',
      summary: `${x.failureCount} failing check(s), ${x.passes} passing.`,
      blocks: x.failures.length ? [listOf(x.failures.map(evidenceItem), { ordered: true })] : [],
    },
  ];
}

function clauseEvidenceSection(r: ConformanceReport): Block[] {
  const shown = requirementsInOrder(r).filter(flagged);
  if (!shown.length) return [];
  return [
    section('clause-evidence', [
      heading(2, 'Failing and warning clauses, with evidence'),
      ...shown.flatMap(clauseEvidence),
    ]),
  ];
}

function blockedSection(r: ConformanceReport): Block[] {
  const blocked = r.requirements.filter((x) => x.verdict === 'blocked');
  if (!blocked.length) return [];
  return [
    section('blocked', [
      heading(2, `Blocked (${blocked.length})`),
      paragraph('Clauses a test could not judge because an earlier step failed; each links to its cause.', 'dim'),
      listOf(blocked.map((x) => [x.id, ' — blocked by ', ...joined(x.blockedBy.map(clauseLink), ', ')])),
    ]),
  ];
}

function notRunSection(r: ConformanceReport): Block[] {
  const notRun = r.requirements.filter((x) => x.verdict === 'not-run');
  if (!notRun.length) return [];
  return [
    section('not-run', [
      heading(2, `Not run (${notRun.length})`),
      listOf(notRun.map((x) => `${x.id} — ${x.notRunReasons.join('; ').slice(0, NOTE_CHARS)}`)),
    ]),
  ];
}

function coverageSection(r: ConformanceReport): Block {
  const statuses = coverageStatuses(r);
  const cell = (c: ConformanceReport['coverage'][number], st: string): Cell => {
    if (c.counts[st]) return { cell: String(c.counts[st]), className: 'seen' };
    return c.listed.includes(Number(st)) ? { cell: '0 (listed, unseen)', className: 'unseen' } : { cell: '' };
  };
  return section('coverage', [
    heading(2, 'Coverage: operation × status'),
    {
      kind: 'table',
      head: ['operation', ...statuses],
      rows: r.coverage.map((c) => ({ cells: [c.operation, ...statuses.map((st) => cell(c, st))] })),
    },
  ]);
}

function observationsSection(r: ConformanceReport): Block {
  const items: Item[] = r.observations.map((o) => ({
    text: [{ code: o.requirementId }, ` — ${o.text}`],
    blocks: [
      listOf(
        o.observed.map((k) => [
          `${k.key}: `,
          ...joined(
            k.values.map((v): Inlines => [{ code: v.value }, v.count > 1 ? ` ×${v.count}` : '']),
            ', ',
          ),
        ]),
      ),
    ],
  }));
  return section('observations', [
    heading(2, 'Observed values for points the specification leaves open'),
    items.length ? listOf(items) : paragraph('None recorded.'),
  ]);
}

/** The run's answer to each open point, in its point's vocabulary: what compares across implementations. */
function openPointsSection(r: ConformanceReport): Block {
  const points = r.openPoints ?? [];
  return section('open-points', [
    heading(2, 'Answers to the open points'),
    points.length
      ? {
          kind: 'table',
          head: ['point', 'answer', 'question', 'read from'],
          rows: points.map((p) => ({
            cells: [
              [{ code: p.point }],
              [
                ...joined(
                  p.values.map((v): Inlines => [{ code: v.value }]),
                  ' + ',
                ),
              ],
              [p.question, ' (', clauseLink(p.requirementId), ')'],
              (p.values[0]?.sentence ?? '').slice(0, NOTE_CHARS),
            ],
          })),
        }
      : paragraph('None recorded.'),
  ]);
}

/** The clause sections, in the order a reader needs them. */
export function clauseSections(r: ConformanceReport): Block[] {
  return [
    requirementsSection(r),
    ...clauseEvidenceSection(r),
    ...blockedSection(r),
    ...notRunSection(r),
    coverageSection(r),
    openPointsSection(r),
    observationsSection(r),
  ];
}
