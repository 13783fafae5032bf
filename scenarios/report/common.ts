/**
 * What every part of the conformance report shares: the headline, the marks of verdicts and findings
 * (plain words, so that they read without an emoji font: headless browsers and many terminals have
 * none), the order requirements are listed in, and small text helpers.
 */
import type { Mark } from '../../core/report/document.ts';
import type { Finding } from '../../core/findings/findings.ts';
import type { ConformanceReport, RequirementResult, Severity, VerdictValue } from '../../core/findings/build-report.ts';

/** Requirements are listed what-to-act-on first: failures, warnings, then the rest. */
export const VERDICT_ORDER: readonly VerdictValue[] = [
  'fail',
  'warn',
  'waived',
  'blocked',
  'not-run',
  'observed',
  'pass',
];

export const SEVERITY_LABEL: Record<Severity, string> = {
  security: 'security',
  'server-error': 'server error',
  deviation: 'contract / status deviation',
};

/** The mark of a finding: what it does to the run. */
export function findingMark(f: Finding): Mark {
  const mark = f.waived ? 'WAIVED' : f.strength === 'failure' ? 'FAIL' : 'WARN';
  return { mark, tone: mark.toLowerCase() };
}

/** The group of a finding or a failing clause, as a mark: security, server error or a plain deviation. */
export function severityMark(s: Severity): Mark {
  return { mark: SEVERITY_LABEL[s], tone: s };
}

export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * The verdict in one line, counting findings (deviations), then the clauses under them:
 * "FAIL — 6 findings (2 security), 3 warnings; 16 clauses failing, 7 blocked".
 */
export function headline(r: ConformanceReport): string {
  const f = r.summary.findings;
  const blocked = r.summary.byVerdict.blocked ?? 0;
  const others = [...(f.warnings ? [count(f.warnings, 'warning')] : []), ...(f.waived ? [`${f.waived} waived`] : [])];
  if (r.exitCode === 1) {
    const findings = `${count(f.failures, 'finding')}${f.security ? ` (${f.security} security)` : ''}`;
    const clauses = `${r.summary.newFailures} ${r.summary.newFailures === 1 ? 'clause' : 'clauses'} failing, ${blocked} blocked`;
    const incomplete = r.meta.incomplete ? `; run incomplete: ${r.meta.incomplete}` : '';
    return `FAIL — ${[findings, ...others].join(', ')}; ${clauses}${incomplete}`;
  }
  const tail = [
    ...(others.length ? [others.join(', ')] : []),
    ...(blocked ? [`${blocked} ${blocked === 1 ? 'clause' : 'clauses'} blocked`] : []),
  ];
  if (r.exitCode === 2) return `INCOMPLETE — ${r.meta.incomplete}${tail.length ? `; ${tail.join('; ')}` : ''}`;
  return `PASS — no failing finding${tail.length ? `; ${tail.join('; ')}` : ''}`;
}

/** The requirements in listing order: by verdict (failures first), then by severity, then catalogue order. */
export function requirementsInOrder(r: ConformanceReport): RequirementResult[] {
  const sev = (x: RequirementResult) =>
    x.severity ? ['security', 'server-error', 'deviation'].indexOf(x.severity) : 3;
  return r.requirements
    .map((x, i) => ({ x, i }))
    .sort(
      (a, b) =>
        VERDICT_ORDER.indexOf(a.x.verdict) - VERDICT_ORDER.indexOf(b.x.verdict) || sev(a.x) - sev(b.x) || a.i - b.i,
    )
    .map(({ x }) => x);
}

/** The findings each clause belongs to, by clause ID. */
export function findingsByClause(r: ConformanceReport): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const f of r.findings) for (const id of f.clauses) out.set(id, [...(out.get(id) ?? []), f.id]);
  return out;
}

/** Anchor of a requirement's entry, so a blocked clause links to what blocked it. */
export function anchor(id: string): string {
  return `req-${id}`;
}

export function findingAnchor(f: Finding): string {
  return `finding-${f.id}`;
}

export function seconds(ms?: number): string {
  return ms === undefined ? 'n/a' : `${(ms / 1000).toFixed(1)} s`;
}

/** Where a finding showed: its operations and how many exchanges. */
export function whereText(f: Finding): string {
  const ops = f.operations.length ? `on ${f.operations.join(', ')}` : 'in the suites';
  return `${ops} (${count(f.exchanges || f.checks, f.exchanges ? 'exchange' : 'check')})`;
}

/** The note of a requirement's row: why it did not run, what blocked it, its waiver, or the values observed. */
export function noteOf(x: RequirementResult): string {
  if (x.verdict === 'not-run') return x.notRunReasons.join('; ');
  if (x.verdict === 'blocked') return `blocked by ${x.blockedBy.join(', ')}`;
  if (x.waiver) return `waived: ${x.waiver.reason}`;
  return x.observations.map((o) => `${o.key}: ${o.values.map((v) => v.value).join(', ')}`).join('; ');
}

/** Columns of the coverage table: every status seen or listed for any operation. */
export function coverageStatuses(r: ConformanceReport): string[] {
  return [...new Set(r.coverage.flatMap((c) => [...Object.keys(c.counts), ...c.listed.map(String)]))].sort();
}

/** The run's footprint on the target, in one line. */
export function footprintText(f: ConformanceReport['footprint']): string {
  return `${f.canvasesCreated} canvas(es) created, ${f.canvasesOverwritten} generation(s) into an existing canvas, ${f.executionsStarted} execution(s) started, ${f.filesUploaded} file(s) uploaded`;
}

export function testsText(s: ConformanceReport['summary']): string {
  const t = s.tests;
  return `${t.total} started, ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped, ${t.unfinished} unfinished${t.harnessErrors ? `, ${t.harnessErrors} stopped by the harness` : ''}`;
}

export function targetText(m: ConformanceReport['meta']): string {
  return `${m.baseUrl} (${m.targetKind}${m.targetHow ? `, ${m.targetHow}` : ''})`;
}
