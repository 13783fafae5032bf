/**
 * A capacity search in the run history (core/history-store/capacity.ts): recorded under the implementation's
 * name and version when given (else under its target), with the figures of each operation at the rate
 * found; and the searches recorded before, for the page's history chart. A search that did not converge
 * has no capacity to record (a null there reads as "no rate held"): it is left out, its reports keep it.
 * A history that cannot be used is reported and skipped: the search's own reports never depend on it.
 */
import { type CapacityPoint, capacityTrend, recordCapacityRun } from '../../../core/history-store/capacity.ts';
import { harnessVersion, type LoadRunRecord, targetFingerprint } from '../../../core/history-store/records.ts';
import { historyPath, withHistory } from '../../../core/history-store/store.ts';
import type { Target } from '../../../core/settings/target.ts';
import { describeBreak } from '../gates.ts';
import type { CapacityReport } from '../report.ts';

/** Searches the page's history chart shows. */
const HISTORY_POINTS = 30;

function loadRecord(r: CapacityReport, target: string, exitCode: number): LoadRunRecord {
  const at = r.capacity ? r.steps.find((s) => s.index === r.capacity!.step) : undefined;
  return {
    startedAt: r.meta.startedAt,
    seed: r.meta.seed,
    harnessVersion: harnessVersion(),
    target,
    wallMs: Math.round(r.meta.wallMs),
    exitCode,
    ...(r.meta.name ? { name: r.meta.name } : {}),
    ...(r.meta.version ? { targetVersion: r.meta.version } : {}),
    profile: 'capacity',
    passed: r.passed,
    requests: at ? Math.round(at.requestsPerS * at.steadyS) : undefined,
    throughputRps: at?.requestsPerS,
    failedRate: at?.failedRate ?? undefined,
    operations: Object.entries(at?.operations ?? {}).map(([operation, o]) => ({
      operation,
      requests: o?.count,
      p95Ms: o?.p95 ?? undefined,
      p99Ms: o?.p99 ?? undefined,
    })),
  };
}

/** Records the search; returns the searches of the same implementation (or target) so far, this one last. */
export function recordCapacityHistory(
  r: CapacityReport,
  target: Pick<Target, 'baseUrl' | 'apiKey' | 'kind'>,
  exitCode: number,
  warn: (line: string) => void,
): CapacityPoint[] {
  const fingerprint = targetFingerprint(target.baseUrl, target.apiKey, target.kind);
  const of = r.meta.name ? { name: r.meta.name } : { target: fingerprint };
  if (r.end === 'incomplete') {
    warn('not recorded in the run history: the search did not converge, so it has no capacity to record');
    return withHistory(historyPath(), (db) => capacityTrend(db, of, HISTORY_POINTS)).value ?? [];
  }
  const { value, skipped } = withHistory(historyPath(), (db) => {
    recordCapacityRun(db, loadRecord(r, fingerprint, exitCode), {
      lifecyclesPerS: r.capacity?.lifecyclesPerS ?? null,
      requestsPerS: r.capacity?.requestsPerS ?? null,
      confirmed: r.capacity?.confirmed ?? false,
      kneeRate: r.knee?.rate ?? null,
      kneeGate: r.knee ? describeBreak(r.knee.gate) : null,
      generatorCeilingRps: r.generator.requestsPerS,
      generatorReached: r.generator.reached,
      steps: r.steps.length,
      mixProfile: r.meta.mixProfile,
    });
    return capacityTrend(db, of, HISTORY_POINTS);
  });
  if (!value) {
    warn(`${skipped}; the search's reports are complete without it`);
    return [];
  }
  return value;
}

/**
 * The confirmed capacity last recorded for this implementation (by name) or target, when the history
 * holds one: the next search starts its ramp below it rather than from the bottom. An unconfirmed figure
 * (recorded before every capacity had to be confirmed) is no capacity and seeds nothing.
 */
export function lastCapacity(
  target: Pick<Target, 'baseUrl' | 'apiKey' | 'kind'>,
  name: string | undefined,
): number | undefined {
  const of = name ? { name } : { target: targetFingerprint(target.baseUrl, target.apiKey, target.kind) };
  const { value } = withHistory(historyPath(), (db) => capacityTrend(db, of, 5));
  return value
    ?.filter((p) => p.confirmed)
    .map((p) => p.lifecyclesPerS)
    .filter((c): c is number => c !== null && c > 0)
    .at(-1);
}
