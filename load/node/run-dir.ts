import { join } from 'node:path';
import { WORK_DIR } from '../../foundation/environment/roots.ts';

/** Under the directory the command was started in, never in the harness's own files. */
export const REPORTS_ROOT = join(WORK_DIR, 'reports', 'load');

/** reports/load/<name>, default name: UTC timestamp plus profile (sortable, unique enough per machine). */
export function runDir(name: string | undefined, profile: string): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return join(REPORTS_ROOT, name || `${stamp}-${profile}`);
}

/** Dashboard sampling period: short runs need a short period or the export has no data points. */
export function dashboardPeriod(durationSeconds: number): string {
  return `${Math.min(10, Math.max(1, Math.round(durationSeconds / 30)))}s`;
}
