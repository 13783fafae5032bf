/**
 * The HTML conformance report of the latest of ten synthetic runs, with their trend: what the browser
 * test opens and what `npm run report:screenshot -- --demo` photographs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPERATION_IDS, operationInfo } from '../../contracts/check.ts';
import { REQUIREMENTS } from '../../contracts/requirements.ts';
import { historyOfRun } from '../../core/history-store/conformance.ts';
import { recordConformanceRun, withHistory } from '../../core/history-store/store.ts';
import { SYNTHETIC_TARGET, syntheticRuns } from './synthetic-history.ts';
import { conformanceHtml } from '../../scenarios/report/index.ts';
import { buildReport } from '../../core/findings/build-report.ts';
import { emptyWaivers } from '../../core/findings/waivers.ts';

export function demoReportHtml(nights = 10): string {
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-history-demo-'));
  try {
    const { value, skipped } = withHistory(join(dir, 'history.sqlite'), (db) => {
      let last = 0;
      for (const run of syntheticRuns(
        REQUIREMENTS.map((r) => r.id),
        nights,
      ))
        last = recordConformanceRun(db, run);
      return historyOfRun(db, last);
    });
    if (!value) throw new Error(skipped);
    const meta = {
      seed: 1009,
      baseUrl: SYNTHETIC_TARGET,
      targetKind: 'reference' as const,
      strict: false,
      startedAt: value.change!.to.startedAt,
      wallTimeMs: value.change!.to.wallMs ?? undefined,
    };
    const listedStatuses = Object.fromEntries(OPERATION_IDS.map((op) => [op, operationInfo(op).listedStatuses]));
    const report = buildReport({ catalogue: REQUIREMENTS, records: [], waivers: emptyWaivers(), meta, listedStatuses });
    return conformanceHtml(report, value);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
