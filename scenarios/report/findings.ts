/**
 * The conformance report's findings as the summary model shows them (FindingView), and the parts of a
 * report made of them: the findings, the warnings and the waived findings, each a section; the
 * evidence a check left (what it judged, the request, the answer, the reproducer).
 */
import {
  type Block,
  code,
  heading,
  type Inline,
  type Item,
  joined,
  paragraph,
  section,
  type Inlines,
} from '../../core/report/document.ts';
import { findingBlocks, type FindingView } from '../../core/report/summary.ts';
import type { EvidenceItem, Finding } from '../../core/findings/findings.ts';
import { anchor, count, findingAnchor, findingMark, SEVERITY_LABEL, severityMark, whereText } from './common.ts';

const MAX_LISTED = 12;
const MAX_BLOCKED_LISTED = 20;
/** Characters of a reproducer in the console (the report has it whole). */
const CONSOLE_CURL = 400;
const MAX_CLAUSES_ON_CONSOLE = 6;

/** A link to a clause's row in the requirements table. */
export const clauseLink = (id: string): Inline => ({ link: anchor(id), text: id });

/** The first `max` of a list, then how many more. */
export function some(items: readonly Inlines[], max = MAX_LISTED): Inline[] {
  const shown = joined(items.slice(0, max), ', ');
  return items.length > max ? [...shown, ` and ${items.length - max} more`] : shown;
}

/** What a check said: its test, its message, what it expected and got, where the verdict came from. */
export function evidenceCaption(e: EvidenceItem): Inline[] {
  const expected = e.expected ? ` (expected ${e.expected}${e.actual ? `, got ${e.actual}` : ''})` : '';
  return [...(e.test ? [{ em: e.test }, ' — '] : []), `${e.message}${expected} `, { mark: e.source }];
}

/** The exchange a check judged: its request, the answer and the command that replays it. */
export function exchangeBlocks(e: EvidenceItem): Block[] {
  return [
    ...(e.request ? [code(e.request, { caption: 'Request' })] : []),
    ...(e.response ? [code(e.response, { caption: 'Response' })] : []),
    ...(e.curl ? [code(e.curl, { caption: 'Reproduce', className: 'curl' })] : []),
  ];
}

/** A check as an item of a list: what it said, with its exchange under it. */
export function evidenceItem(e: EvidenceItem): Item {
  const under = exchangeBlocks(e);
  return { text: evidenceCaption(e), ...(under.length ? { blocks: under } : {}) };
}

function factsOf(f: Finding): Item[] {
  const facts: Item[] = [
    { text: [`Breaks ${count(f.clauses.length, 'clause')}: `, ...joined(f.clauses.map(clauseLink), ', ')] },
  ];
  if (f.probes.length) facts.push({ text: ['Probes: ', ...some(f.probes)] });
  if (f.blocked.length)
    facts.push({ text: ['Kept from being judged: ', ...some(f.blocked.map(clauseLink), MAX_BLOCKED_LISTED)] });
  if (f.waived)
    facts.push({
      text: [
        'Waived: ',
        ...joined(
          f.waivers.map((w): Inline[] => [{ code: w.id }, ` (${w.reason})`]),
          '; ',
        ),
      ],
    });
  return facts;
}

function otherExchanges(f: Finding): FindingView['more'] {
  if (!f.otherExchanges.length) return undefined;
  const items: Item[] = f.otherExchanges.map((x) => ({
    text: [
      x.answer,
      ...(x.request ? [' — ', { code: x.request }] : x.test ? [' — ', { em: x.test }] : []),
      ...(x.probe ? [' ', { span: `(${x.probe})`, className: 'dim' }] : []),
      ` — ${x.clauses.join(', ')}`,
    ],
  }));
  if (f.moreExchanges > 0) items.push({ text: `… and ${f.moreExchanges} more` });
  return { summary: `Also seen (${f.otherExchanges.length + f.moreExchanges} more exchanges)`, items };
}

function consoleClauses(f: Finding): string {
  const shown = f.clauses.slice(0, MAX_CLAUSES_ON_CONSOLE).join(', ');
  const clauses = f.clauses.length > MAX_CLAUSES_ON_CONSOLE ? `${shown} … (${f.clauses.length} clauses)` : shown;
  return `clauses: ${clauses}${f.blocked.length ? `; blocks ${f.blocked.length}` : ''}`;
}

export function findingView(f: Finding): FindingView {
  const mark = findingMark(f);
  const e = f.example;
  const severity = f.severity === 'deviation' ? [] : [' ', severityMark(f.severity)];
  return {
    anchor: findingAnchor(f),
    heading: [{ span: f.id, className: 'fid' }, ' ', mark, ' ', f.behaviour],
    tags: [{ span: SEVERITY_LABEL[f.severity], className: `tag ${f.severity}` }, ` · ${whereText(f)}`],
    facts: factsOf(f),
    example: {
      caption: ['Example, ', { code: e.requirementId }, ': ', ...evidenceCaption(e)],
      code: exchangeBlocks(e),
    },
    more: otherExchanges(f),
    box: {
      className: ['finding', `f-${mark.tone}`, ...(f.security ? ['security'] : [])].join(' '),
      data: { strength: f.strength },
    },
    line: [f.id, ' ', mark, ...severity, ' ', f.behaviour, f.operations.length ? ` on ${f.operations.join(', ')}` : ''],
    under: [
      paragraph(consoleClauses(f)),
      ...(e.curl ? [code(e.curl.slice(0, CONSOLE_CURL), { className: 'curl' })] : []),
    ],
  };
}

function findingSection(id: string, title: string, intro: string, findings: readonly Finding[]): Block {
  return section(id, [
    heading(2, `${title} (${findings.length})`),
    paragraph(intro, 'dim'),
    ...(findings.length ? findings.flatMap((f) => findingBlocks(findingView(f), 3)) : [paragraph('None.')]),
  ]);
}

export const FINDINGS_INTRO =
  'One per deviation, however many clauses and operations show it; security first, then server errors (a 5xx or a transport fault), then contract and status deviations.';

export const findingsFailingTheRun = (fs: readonly Finding[]) =>
  fs.filter((f) => !f.waived && f.strength === 'failure');

/** The findings that fail the run (always shown, "None." when there are none), the warnings and the waived ones. */
export function findingSections(findings: readonly Finding[]): Block[] {
  const warnings = findings.filter((f) => !f.waived && f.strength === 'warning');
  const waived = findings.filter((f) => f.waived);
  return [
    findingSection('findings', 'Findings', FINDINGS_INTRO, findingsFailingTheRun(findings)),
    ...(warnings.length
      ? [
          findingSection(
            'warnings',
            'Warnings',
            'Deviations from clauses that follow from the specification without being stated; --strict makes them failures.',
            warnings,
          ),
        ]
      : []),
    ...(waived.length
      ? [
          findingSection(
            'waived-findings',
            'Waived findings',
            'Deviations every clause of which is waived: known, and not failing the run.',
            waived,
          ),
        ]
      : []),
  ];
}
