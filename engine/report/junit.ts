/**
 * The verdict as JUnit XML, for CI dashboards: one test case per finding — a failure fails, a warning
 * passes with its text, a waived finding is skipped — and one per clause of the catalogue. A failing
 * clause is reported under its finding and is skipped here, so the failures a dashboard counts are the
 * findings, not the clauses that show them.
 */
import { redactSecrets } from '../../foundation/environment/redact.ts';
import type { Finding } from '../verdict/findings.ts';
import type { ConformanceReport, RequirementResult } from '../verdict/report.ts';
import { findingsByClause, headline, noteOf, SEVERITY_LABEL, whereText } from './common.ts';

function xml(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: characters XML 1.0 cannot carry
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}

function findingBody(f: Finding): string {
  const e = f.example;
  return [
    `${f.behaviour} — ${whereText(f)}`,
    `clauses: ${f.clauses.join(', ')}`,
    ...(f.blocked.length ? [`kept from being judged: ${f.blocked.join(', ')}`] : []),
    `example (${e.requirementId}): ${e.message}${e.expected ? ` (expected ${e.expected}${e.actual ? `, got ${e.actual}` : ''})` : ''}`,
    ...(e.request ? ['', e.request] : []),
    ...(e.response ? ['', e.response] : []),
    ...(e.curl ? ['', `reproduce: ${e.curl}`] : []),
  ].join('\n');
}

function findingCase(f: Finding): string {
  const name = xml(`${f.id} ${f.behaviour}`);
  const open = `<testcase classname="findings.${f.severity}" name="${name}" assertions="${f.checks}">`;
  if (f.waived)
    return `${open}<skipped message="${xml(`waived: ${f.waivers.map((w) => `${w.id}: ${w.reason}`).join('; ')}`)}"/></testcase>`;
  if (f.strength === 'warning')
    return `${open}<system-out>${xml(`warning: ${findingBody(f)}`)}</system-out></testcase>`;
  return `${open}<failure message="${xml(f.behaviour)}" type="${xml(SEVERITY_LABEL[f.severity])}">${xml(findingBody(f))}</failure></testcase>`;
}

function clauseCase(x: RequirementResult, findings: readonly string[]): string {
  const open = `<testcase classname="requirements.${xml(x.section)}" name="${xml(`${x.id} (${x.level})`)}" assertions="${x.passes + x.failureCount}">`;
  const under = findings.length ? `; counted as ${findings.join(', ')}` : '';
  switch (x.verdict) {
    case 'pass':
      return `${open}</testcase>`;
    case 'observed':
      return `${open}<system-out>${xml(`observed: ${noteOf(x)}`)}</system-out></testcase>`;
    case 'fail':
    case 'warn':
      return `${open}<skipped message="${xml(`${x.verdict}${under}`)}"/></testcase>`;
    default:
      return `${open}<skipped message="${xml(`${x.verdict}: ${noteOf(x)}`.slice(0, 500))}"/></testcase>`;
  }
}

export function renderJunit(r: ConformanceReport): string {
  const by = findingsByClause(r);
  const failures = r.findings.filter((f) => !f.waived && f.strength === 'failure').length;
  const skippedFindings = r.findings.filter((f) => f.waived).length;
  const skippedClauses = r.requirements.filter((x) => x.verdict !== 'pass' && x.verdict !== 'observed').length;
  const time = ((r.meta.wallTimeMs ?? 0) / 1000).toFixed(3);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(`wfcheck conformance: ${headline(r)}`)}" tests="${r.findings.length + r.requirements.length}" failures="${failures}" errors="0" skipped="${skippedFindings + skippedClauses}" time="${time}">`,
    `<testsuite name="findings" tests="${r.findings.length}" failures="${failures}" errors="0" skipped="${skippedFindings}" timestamp="${xml(r.meta.startedAt)}">`,
    ...r.findings.map(findingCase),
    '</testsuite>',
    `<testsuite name="requirements" tests="${r.requirements.length}" failures="0" errors="0" skipped="${skippedClauses}" timestamp="${xml(r.meta.startedAt)}">`,
    ...r.requirements.map((x) => clauseCase(x, by.get(x.id) ?? [])),
    '</testsuite>',
    '</testsuites>',
    '',
  ];
  return redactSecrets(out.join('\n'));
}
