/**
 * A load run in the run history: the summary figures of each operation recorded, and the trend page
 * of the target's last runs written next to the run's other reports. A history that cannot be used is
 * reported and skipped; the run's own reports never depend on it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrend } from '../../core/history-store/queries.ts';
import { harnessVersion, targetFingerprint, type LoadRunRecord } from '../../core/history-store/records.ts';
import { historyPath, recordLoadRun, withHistory } from '../../core/history-store/store.ts';
import { readK6ScriptSettings } from '../settings.ts';
import type { Target } from '../../core/settings/target.ts';
import { apiRequestRate, apiResponses, operationRows, type RunReport } from '../k6/lib/run-report.ts';
import { sloFromEnv } from '../k6/lib/thresholds.ts';
import { renderLoadTrendPage } from './trend-page.ts';
import { capacityTrendSection } from '../capacity/node/trend.ts';
import { capacityByVersion, capacityTrend } from '../../core/history-store/capacity.ts';

/** Runs the trend page shows. */
export const LOAD_TREND_RUNS = 30;

export function loadRecord(report: RunReport, target: string, exitCode: number): LoadRunRecord {
  const figure = (metric: string, key: string) => report.metrics[metric]?.values[key];
  return {
    startedAt: report.meta.startedAt ?? new Date().toISOString(),
    seed: report.meta.seed,
    harnessVersion: harnessVersion(),
    target,
    wallMs: Math.round(report.meta.durationMs),
    exitCode,
    profile: report.meta.profile,
    passed: report.passed,
    // The target's requests: batches sent to the Node checker (offloaded checks) are not among them.
    requests: report.metrics.http_reqs ? apiResponses(report) : undefined,
    throughputRps: apiRequestRate(report),
    failedRate: figure('http_req_failed', 'rate'),
    operations: operationRows(report.metrics).map((o) => ({
      operation: o.operation,
      requests: o.values.count,
      avgMs: o.values.avg,
      p95Ms: o.values['p(95)'],
      p99Ms: o.values['p(99)'],
      maxMs: o.values.max,
    })),
  };
}

/** Records the run and writes dir/trend.html; returns the page's path, or undefined with the reason printed. */
export function recordLoadHistory(
  report: RunReport,
  target: Pick<Target, 'baseUrl' | 'apiKey' | 'kind'>,
  dir: string,
  exitCode: number,
  warn: (line: string) => void,
): string | undefined {
  const fingerprint = targetFingerprint(target.baseUrl, target.apiKey, target.kind);
  const { value, skipped } = withHistory(historyPath(), (db) => {
    recordLoadRun(db, loadRecord(report, fingerprint, exitCode));
    return {
      runs: loadTrend(db, fingerprint, LOAD_TREND_RUNS),
      capacity: capacityTrendSection(
        capacityByVersion(db),
        capacityTrend(db, { target: fingerprint }, LOAD_TREND_RUNS),
      ),
    };
  });
  if (!value) {
    warn(`${skipped}; the run's reports are complete without it`);
    return undefined;
  }
  const page = join(dir, 'trend.html');
  writeFileSync(page, renderLoadTrendPage(value.runs, sloFromEnv(readK6ScriptSettings()), value.capacity));
  return page;
}
