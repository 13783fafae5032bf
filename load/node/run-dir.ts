import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openOutputFolder, type OutputFolder } from '../../core/outputs/output-folder.ts';
import { WORK_DIR } from '../../core/settings/roots.ts';

/** Under the directory the command was started in, never in the harness's own files. */
export const REPORTS_ROOT = join(WORK_DIR, 'reports', 'load');

/** reports/load/<name>, default name: UTC timestamp plus profile (sortable, unique enough per machine). */
export function runDir(name: string | undefined, profile: string): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return join(REPORTS_ROOT, name || `${stamp}-${profile}`);
}

/**
 * A folder no other run has: reports/load/<time>-<profile>, or with -2, -3… when a run started in the
 * same second took that name (created here, so two runs cannot both take it).
 */
function freshRunDir(profile: string): string {
  const base = runDir(undefined, profile);
  mkdirSync(REPORTS_ROOT, { recursive: true });
  for (let n = 1; ; n++) {
    const dir = n === 1 ? base : `${base}-${n}`;
    try {
      mkdirSync(dir);
      return dir;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/**
 * The folder of a load run or capacity search, the run's whole while it goes (k6 and its helpers write
 * many files into it): --out DIR or --run NAME, else a fresh one under reports/load/. A folder holding
 * files the harness did not write gets the run in its subfolder `wfcheck-<mode>/`; one another run holds
 * is refused (core/outputs/output-folder.ts).
 */
export function openRunFolder(
  settings: { outDir?: string; run?: string },
  o: { mode: 'load' | 'capacity'; command: string; name: string; target: string },
): OutputFolder {
  const dir = settings.outDir ?? (settings.run ? runDir(settings.run, o.name) : freshRunDir(o.name));
  return openOutputFolder(dir, {
    mode: o.mode,
    command: o.command,
    names: 'all',
    target: o.target,
    log: (line) => console.error(`${o.command}: ${line}`),
  });
}

/** Dashboard sampling period: short runs need a short period or the export has no data points. */
export function dashboardPeriod(durationSeconds: number): string {
  return `${Math.min(10, Math.max(1, Math.round(durationSeconds / 30)))}s`;
}
