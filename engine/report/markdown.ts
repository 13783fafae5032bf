/**
 * The Markdown report (CI logs, pull requests, the job summary): a list of sections, each a small
 * function of the report. It opens with the findings, security first; the clause verdicts follow.
 */
import { commandLine } from '../../foundation/environment/config.ts';
import { redactSecrets } from '../../foundation/environment/redact.ts';
import type { ConformanceHistory } from '../../foundation/history/conformance.ts';
import type { EvidenceItem, Finding } from '../verdict/findings.ts';
import { historyMarkdown } from './history-view.ts';
import type { ConformanceReport, RequirementResult } from '../verdict/report.ts';
import {
  anchor,
  count,
  coverageStatuses,
  findingAnchor,
  findingMark,
  findingsByClause,
  footprintText,
  headline,
  MARK,
  noteOf,
  requirementsInOrder,
  seconds,
  SEVERITY_LABEL,
  targetText,
  testsText,
  whereText,
} from './common.ts';

type Section = (r: ConformanceReport, history?: ConformanceHistory) => string[];

const MAX_LISTED = 8;
const MAX_OTHER_EXCHANGES_SHOWN = 10;

export function mdCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function fence(text: string): string {
  return `\`\`\`\n${text.replace(/```/g, '``\u200b`')}\n\`\`\``;
}

function indented(label: string, text: string | undefined): string[] {
  return text ? ['', `   ${label}:`, '', fence(text).replace(/^/gm, '   ')] : [];
}

function some(items: readonly string[], max = MAX_LISTED): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

const clauseLink = (id: string) => `[${id}](#${anchor(id)})`;

function evidenceLines(e: EvidenceItem, i: number): string[] {
  return [
    `${i + 1}. ${e.test ? `*${e.test}* — ` : ''}${e.message}${e.expected ? ` (expected ${e.expected}${e.actual ? `, got ${e.actual}` : ''})` : ''} [${e.source}]`,
    ...indented('Request', e.request),
    ...indented('Response', e.response),
    ...indented('Reproduce', e.curl),
  ];
}

function findingLines(f: Finding): string[] {
  const tags = [f.severity === 'security' ? 'security' : SEVERITY_LABEL[f.severity], whereText(f)].join(' · ');
  const out = [
    `<a id="${findingAnchor(f)}"></a>`,
    '',
    `### ${f.id} [${findingMark(f)}] ${f.behaviour}`,
    '',
    tags,
    '',
    `- Breaks ${count(f.clauses.length, 'clause')}: ${f.clauses.map(clauseLink).join(', ')}`,
  ];
  if (f.probes.length) out.push(`- Probes: ${some(f.probes)}`);
  if (f.blocked.length) out.push(`- Kept from being judged: ${some(f.blocked.map(clauseLink), 20)}`);
  if (f.waived) out.push(`- Waived: ${f.waivers.map((w) => `${w.id} (${w.reason})`).join('; ')}`);
  const e = f.example;
  out.push('', `Example, ${e.requirementId}:`, '', ...evidenceLines(e, 0));
  if (f.otherExchanges.length) {
    const more = f.otherExchanges.length - MAX_OTHER_EXCHANGES_SHOWN + f.moreExchanges;
    out.push('', `Also seen (${f.otherExchanges.length + f.moreExchanges} more exchanges):`, '');
    for (const x of f.otherExchanges.slice(0, MAX_OTHER_EXCHANGES_SHOWN))
      out.push(
        `- ${x.answer}${x.request ? ` — \`${x.request}\`` : x.test ? ` — *${x.test}*` : ''}${x.probe ? ` (${x.probe})` : ''} — ${x.clauses.join(', ')}`,
      );
    if (more > 0) out.push(`- … and ${more} more`);
  }
  return out;
}

const mdTitle: Section = (r) => [
  '# wfcheck conformance report',
  '',
  `**${headline(r)}**`,
  '',
  `Target ${targetText(r.meta)} · seed ${r.meta.seed} · started ${r.meta.startedAt}`,
  '',
];

function findingSection(title: string, intro: string, findings: readonly Finding[]): string[] {
  const out = [`## ${title} (${findings.length})`, '', intro, ''];
  if (findings.length === 0) out.push('None.', '');
  for (const f of findings) out.push(...findingLines(f), '');
  return out;
}

const mdFindings: Section = (r) =>
  findingSection(
    'Findings',
    'One per deviation, however many clauses and operations show it; security first, then server errors (a 5xx or a transport fault), then contract and status deviations.',
    r.findings.filter((f) => !f.waived && f.strength === 'failure'),
  );

const mdWarnings: Section = (r) => {
  const warnings = r.findings.filter((f) => !f.waived && f.strength === 'warning');
  return warnings.length
    ? findingSection(
        'Warnings',
        'Deviations from clauses that follow from the specification without being stated; `--strict` makes them failures.',
        warnings,
      )
    : [];
};

const mdWaivedFindings: Section = (r) => {
  const waived = r.findings.filter((f) => f.waived);
  if (!waived.length) return [];
  return [
    `## Waived findings (${waived.length})`,
    '',
    ...waived.map((f) => `- ${f.id} ${f.behaviour} — ${f.waivers.map((w) => `${w.id}: ${w.reason}`).join('; ')}`),
    '',
  ];
};

const mdChange: Section = (_r, history) => historyMarkdown(history);

const mdRequirements: Section = (r) => {
  const by = findingsByClause(r);
  const out = [
    '## Requirements',
    '',
    'Every clause of the catalogue: failures first, then warnings, then the rest.',
    '',
    '| verdict | ID | level | passing / failing checks | finding | note |',
    '|---|---|---|---|---|---|',
  ];
  for (const x of requirementsInOrder(r)) {
    out.push(
      `| [${MARK[x.verdict]}] | <a id="${anchor(x.id)}"></a>${x.id} | ${x.level} | ${x.passes} / ${x.failureCount} | ${(by.get(x.id) ?? []).join(', ')} | ${mdCell(noteOf(x)).slice(0, 300)} |`,
    );
  }
  out.push('');
  if (r.unknownRequirementIds.length)
    out.push(
      `Requirement IDs used by the suites but missing from the catalogue: ${r.unknownRequirementIds.join(', ')}`,
      '',
    );
  return out;
};

function clauseDetail(x: RequirementResult): string[] {
  const group = x.severity ? ` — ${SEVERITY_LABEL[x.severity]}` : '';
  const out = [`### ${x.id} [${MARK[x.verdict]}] (${x.level}, §${x.section})${group}`, '', x.text];
  if (x.why) out.push('', `Why: ${x.why}`);
  if (x.waiver) out.push('', `Waiver: ${x.waiver.reason}${x.waiver.expires ? ` (expires ${x.waiver.expires})` : ''}`);
  out.push('', `${x.failureCount} failing check(s), ${x.passes} passing.`, '');
  x.failures.forEach((e, i) => {
    out.push(...evidenceLines(e, i));
  });
  return out;
}

const mdClauseEvidence: Section = (r) => {
  const flagged = requirementsInOrder(r).filter((x) => x.rawVerdict === 'fail' || x.rawVerdict === 'warn');
  if (!flagged.length) return [];
  const out = ['## Failing and warning clauses, with evidence', ''];
  for (const x of flagged) out.push(...clauseDetail(x), '');
  return out;
};

const mdBlocked: Section = (r) => {
  const blocked = r.requirements.filter((x) => x.verdict === 'blocked');
  if (!blocked.length) return [];
  return [
    `## Blocked (${blocked.length})`,
    '',
    'Clauses a test could not judge because an earlier step failed; each links to its cause.',
    '',
    ...blocked.map((x) => `- ${x.id} — blocked by ${x.blockedBy.map(clauseLink).join(', ')}`),
    '',
  ];
};

const mdNotRun: Section = (r) => {
  const notRun = r.requirements.filter((x) => x.verdict === 'not-run');
  if (!notRun.length) return [];
  return [
    `## Not run (${notRun.length})`,
    '',
    ...notRun.map((x) => `- ${x.id} — ${mdCell(x.notRunReasons.join('; ')).slice(0, 300)}`),
    '',
  ];
};

const mdCoverage: Section = (r) => {
  const statuses = coverageStatuses(r);
  const out = [
    '## Coverage: operation × status',
    '',
    `| operation | ${statuses.join(' | ')} |`,
    `|---|${statuses.map(() => '---').join('|')}|`,
  ];
  for (const c of r.coverage)
    out.push(
      `| ${c.operation} | ${statuses.map((st) => (c.counts[st] ? String(c.counts[st]) : c.listed.includes(Number(st)) ? '0 (listed, unseen)' : '')).join(' | ')} |`,
    );
  out.push('');
  return out;
};

const mdObservations: Section = (r) => {
  const out = ['## Observed values for points the specification leaves open', ''];
  if (r.observations.length === 0) out.push('None recorded.');
  for (const o of r.observations) {
    out.push(`- **${o.requirementId}** — ${o.text}`);
    for (const k of o.observed)
      out.push(`  - ${k.key}: ${k.values.map((v) => `\`${v.value}\`${v.count > 1 ? ` ×${v.count}` : ''}`).join(', ')}`);
  }
  out.push('');
  return out;
};

const mdRun: Section = (r) => {
  const s = r.summary;
  const m = r.meta;
  const out = [
    '## The run',
    '',
    `- Target: ${targetText(m)}`,
    `- Seed: ${m.seed} — replay with \`${m.command ?? commandLine('conformance', ['--seed', m.seed])}\``,
    `- Started: ${m.startedAt}; wall time ${seconds(m.wallTimeMs)}${m.bootMs !== undefined ? ` (target boot ${seconds(m.bootMs)})` : ''}`,
    `- Strict (warnings fail): ${m.strict ? 'yes' : 'no'}`,
    `- Requirements exercised: ${s.exercised} of ${s.catalogue} in the catalogue — ${Object.entries(s.byVerdict)
      .map(([v, n]) => `${MARK[v as keyof typeof MARK]} ${n}`)
      .join(', ')}`,
    `- Tests: ${testsText(s)}; ${s.exchanges} HTTP exchanges, ${s.faults} transport faults`,
  ];
  if (m.incomplete) out.push(`- Incomplete: ${m.incomplete}`);
  if (r.footprint) out.push(`- Left on the target: ${footprintText(r.footprint)}`);
  if (r.discovery) out.push(`- Discovery: ${r.discovery}`);
  out.push('');
  return out;
};

const mdWaivers: Section = (r) => {
  const w = r.waivers;
  const out = ['## Waivers', '', `Source: ${w.source ?? '(none given)'}`, ''];
  out.push(
    `- Waived clauses: ${w.waivedFailures.map((x) => `${x.id} (${x.verdict}; ${x.reason})`).join('; ') || 'none'}`,
  );
  out.push(`- Waivers that now pass (remove them): ${w.nowPassing.map((x) => x.id).join(', ') || 'none'}`);
  out.push(`- Waivers not exercised in this run: ${w.notExercised.map((x) => x.id).join(', ') || 'none'}`);
  out.push(
    `- Expired waivers (no longer applied): ${w.expired.map((x) => `${x.id} (expired ${x.expires})`).join(', ') || 'none'}`,
  );
  if (w.problems.length) out.push(`- Problems in the waiver file: ${w.problems.join('; ')}`);
  out.push('');
  return out;
};

const mdFaults: Section = (r) =>
  r.faults.length
    ? [
        `## Transport faults (${r.faults.length})`,
        '',
        ...r.faults.map((f) => `- ${f.test ? `*${f.test}* — ` : ''}${f.kind}: ${mdCell(f.message)} — \`${f.request}\``),
        '',
      ]
    : [];

const mdFailedTests: Section = (r) =>
  r.failedTests.length
    ? [
        `## Failed tests (${r.failedTests.length})`,
        '',
        ...r.failedTests.map((t) => `- ${t.test} (${t.status}): ${mdCell((t.error ?? '').split('\n')[0] ?? '')}`),
        '',
      ]
    : [];

const mdHousekeeping: Section = (r) =>
  r.unreadableEvidenceLines ? [`Unreadable evidence lines (torn writes): ${r.unreadableEvidenceLines}`, ''] : [];

/** The sections, in the order a reader needs them. */
const SECTIONS: readonly Section[] = [
  mdTitle,
  mdFindings,
  mdWarnings,
  mdWaivedFindings,
  mdChange,
  mdRequirements,
  mdClauseEvidence,
  mdBlocked,
  mdNotRun,
  mdCoverage,
  mdObservations,
  mdRun,
  mdWaivers,
  mdFaults,
  mdFailedTests,
  mdHousekeeping,
];

export function renderMarkdown(r: ConformanceReport, history?: ConformanceHistory): string {
  return redactSecrets(SECTIONS.flatMap((section) => section(r, history)).join('\n'));
}
