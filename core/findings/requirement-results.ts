/**
 * The result of each requirement of the catalogue, before and after its waiver: its verdict from the
 * checks recorded against it, the evidence of its failures (at most a few shown), the group a failure is
 * reported in, the clauses that blocked it, why it was not run, and the values observed for it.
 */
import type { CheckRecord, ObservationRecord } from '../evidence/records.ts';
import { evidenceItemOf, type EvidenceIndex } from './evidence-index.ts';
import { SEVERITY_ORDER, type Severity } from './findings.ts';
import type { CatalogueEntry, ObservedValue, RequirementResult, VerdictValue } from './report-model.ts';
import type { Waiver } from './waivers.ts';

const MAX_FAILURE_EVIDENCE = 5;
const MAX_VALUES_PER_KEY = 12;

function show(value: unknown): string {
  if (typeof value === 'string') return value;
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text;
}

function aggregateObservations(records: ObservationRecord[]): ObservedValue[] {
  const byKey = new Map<string, Map<string, number>>();
  for (const r of records) {
    const values = byKey.get(r.key) ?? new Map<string, number>();
    const v = show(r.value).slice(0, 300);
    values.set(v, (values.get(v) ?? 0) + 1);
    byKey.set(r.key, values);
  }
  return [...byKey.entries()].map(([key, values]) => ({
    key,
    values: [...values.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, MAX_VALUES_PER_KEY)
      .map(([value, count]) => ({ value, count })),
  }));
}

/**
 * The verdict of one requirement before waivers, strongest finding first: a failure that counts
 * (must, or should under strict), a warning, a pass, blocked by another clause's failure, an
 * observation; else not run — so a clause is never reported as passing on the strength of checks
 * that could not run, nor as failing for what another clause broke.
 */
export function rawVerdictOf(checks: readonly CheckRecord[], observed: boolean, strict: boolean): VerdictValue {
  const fails = checks.filter((c) => c.outcome === 'fail');
  if (fails.some((c) => c.level === 'must' || (c.level === 'should' && strict))) return 'fail';
  if (fails.length > 0) return 'warn';
  if (checks.some((c) => c.outcome === 'pass')) return 'pass';
  if (checks.some((c) => c.outcome === 'blocked')) return 'blocked';
  return observed ? 'observed' : 'not-run';
}

/** A failure's evidence shows the server breaking: a 5xx answer, or a transport fault instead of one. */
function showsServerError(c: CheckRecord, ix: EvidenceIndex): boolean {
  const x = c.exchangeId ? ix.exchanges.get(c.exchangeId) : undefined;
  return !!x && (!!x.fault || (x.response?.status ?? 0) >= 500);
}

function severityOf(entry: CatalogueEntry, fails: readonly CheckRecord[], ix: EvidenceIndex): Severity | undefined {
  if (fails.length === 0) return undefined;
  if (entry.security) return 'security';
  return fails.some((c) => showsServerError(c, ix)) ? 'server-error' : 'deviation';
}

/** Failures (or any results) in the order they are reported: by severity group, then catalogue order. */
export function inSeverityOrder<T extends { severity?: Severity }>(results: readonly T[]): T[] {
  const rank = (r: T) => (r.severity ? SEVERITY_ORDER.indexOf(r.severity) : SEVERITY_ORDER.length);
  return results
    .map((r, i) => ({ r, i }))
    .sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i)
    .map(({ r }) => r);
}

export function requirementResult(
  entry: CatalogueEntry,
  ix: EvidenceIndex,
  waiver: Waiver | undefined,
  strict: boolean,
): RequirementResult {
  const mine = ix.checksById.get(entry.id) ?? [];
  const fails = mine.filter((c) => c.outcome === 'fail');
  const obs = ix.observationsById.get(entry.id) ?? [];
  const raw = rawVerdictOf(mine, obs.length > 0, strict);
  const failures = fails.slice(0, MAX_FAILURE_EVIDENCE).map((c) => evidenceItemOf(c, ix));
  const reasons = [...new Set(mine.filter((c) => c.outcome === 'not-run').map((c) => c.message))];
  if (raw === 'not-run' && reasons.length === 0)
    reasons.push(ix.testsById.has(entry.id) ? 'no result recorded' : 'no suite exercised this requirement in this run');
  const severity = severityOf(entry, fails, ix);
  const blockedBy =
    raw === 'blocked'
      ? [...new Set(mine.flatMap((c) => (c.outcome === 'blocked' && c.blockedBy ? [c.blockedBy] : [])))]
      : [];
  return {
    ...entry,
    verdict: waiver && (raw === 'fail' || raw === 'warn') ? 'waived' : raw,
    rawVerdict: raw,
    ...(waiver ? { waiver } : {}),
    passes: mine.filter((c) => c.outcome === 'pass').length,
    failures,
    failureCount: fails.length,
    ...(severity ? { severity } : {}),
    blockedBy,
    notRunReasons: raw === 'not-run' ? reasons : [],
    observations: aggregateObservations(obs),
    tests: [...(ix.testsById.get(entry.id) ?? [])].sort(),
  };
}
