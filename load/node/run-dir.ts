import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const REPORTS_ROOT = join(REPO_ROOT, 'reports', 'load');

/** reports/load/<name>, default name: UTC timestamp plus profile (sortable, unique enough per machine). */
export function runDir(name: string | undefined, profile: string): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return join(REPORTS_ROOT, name || `${stamp}-${profile}`);
}

/** Dashboard sampling period: short runs need a short period or the export has no data points. */
export function dashboardPeriod(durationSeconds: number): string {
  return `${Math.min(10, Math.max(1, Math.round(durationSeconds / 30)))}s`;
}
