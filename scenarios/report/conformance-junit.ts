/**
 * The verdict as JUnit XML, for CI dashboards: one test case per finding — a failure fails, a warning
 * passes with its text, a waived finding is skipped — and one per clause of the catalogue. A failing
 * clause is reported under its finding and is skipped here, so the failures a dashboard counts are the
 * findings, not the clauses that show them.
 */
import { redactSecrets } from '../../core/settings/redact.ts';
import type { Finding } from '../../core/findings/findings.ts';
import type { ConformanceReport, RequirementResult } from '../../core/findings/build-report.ts';
import { findingsByClause, headline, noteOf, SEVERITY_LABEL, whereText } from './common.ts';
import { type JunitCase, type JunitDocument, renderJunit } from '../../core/report/render/junit.ts';

/** Characters of a skipped clause's message. */
const SKIP_MESSAGE_CHARS = 500;

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

function findingCase(f: Finding): JunitCase {
  const base = { classname: `findings.${f.severity}`, name: `${f.id} ${f.behaviour}`, assertions: f.checks };
  if (f.waived)
    return { ...base, skipped: { message: `waived: ${f.waivers.map((w) => `${w.id}: ${w.reason}`).join('; ')}` } };
  if (f.strength === 'warning') return { ...base, systemOut: `warning: ${findingBody(f)}` };
  return { ...base, failure: { message: f.behaviour, type: SEVERITY_LABEL[f.severity], text: findingBody(f) } };
}

function clauseCase(x: RequirementResult, findings: readonly string[]): JunitCase {
  const base = {
    classname: `requirements.${x.section}`,
    name: `${x.id} (${x.level})`,
    assertions: x.passes + x.failureCount,
  };
  const under = findings.length ? `; counted as ${findings.join(', ')}` : '';
  switch (x.verdict) {
    case 'pass':
      return base;
    case 'observed':
      return { ...base, systemOut: `observed: ${noteOf(x)}` };
    case 'fail':
    case 'warn':
      return { ...base, skipped: { message: `${x.verdict}${under}` } };
    default:
      return { ...base, skipped: { message: `${x.verdict}: ${noteOf(x)}`.slice(0, SKIP_MESSAGE_CHARS) } };
  }
}

/** The verdict as JUnit test cases: the findings, then every clause. */
export function conformanceJunitDocument(r: ConformanceReport): JunitDocument {
  const by = findingsByClause(r);
  return {
    name: `wfcheck conformance: ${headline(r)}`,
    time: (r.meta.wallTimeMs ?? 0) / 1000,
    suites: [
      { name: 'findings', timestamp: r.meta.startedAt, cases: r.findings.map(findingCase) },
      {
        name: 'requirements',
        timestamp: r.meta.startedAt,
        cases: r.requirements.map((x) => clauseCase(x, by.get(x.id) ?? [])),
      },
    ],
  };
}

export function conformanceJunit(r: ConformanceReport): string {
  return redactSecrets(renderJunit(conformanceJunitDocument(r)));
}
