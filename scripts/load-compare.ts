/**
 * npm run load:compare — sets a load run against a saved baseline and fails on
 * regressions beyond a tolerance.
 *
 *   npm run load:compare -- [RUN] [--baseline FILE] [--tolerance PCT]
 *                           [--min-latency-delta MS] [--rate-tolerance PTS]
 *   npm run load:compare -- [RUN] --save-baseline [FILE]
 *
 * RUN is a run folder or its summary.json (default: the newest run under
 * reports/load/). The default baseline is reports/load/baseline-<profile>.json.
 * Exit: 0 no regression; 1 regression(s); 2 missing or unreadable input.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import type { RunReport } from '../load/lib/report.ts';
import { compareReports, DEFAULT_COMPARE, renderComparison } from '../load/node/compare.ts';
import { REPORTS_ROOT } from '../load/node/run-dir.ts';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    baseline: { type: 'string' },
    'save-baseline': { type: 'string' },
    tolerance: { type: 'string' },
    'min-latency-delta': { type: 'string' },
    'rate-tolerance': { type: 'string' },
  },
});

function newestRun(): string {
  if (!existsSync(REPORTS_ROOT)) throw new Error('no runs under reports/load/: run `npm run load` first or name a run');
  const runs = readdirSync(REPORTS_ROOT)
    .map((d) => join(REPORTS_ROOT, d, 'summary.json'))
    .filter((f) => existsSync(f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!runs[0]) throw new Error('no run with a summary.json under reports/load/');
  return runs[0];
}

function summaryPath(arg: string | undefined): string {
  if (!arg) return newestRun();
  const p = existsSync(join(arg, 'summary.json')) ? join(arg, 'summary.json') : arg;
  if (!existsSync(p)) throw new Error(`no summary.json at ${arg}`);
  return p;
}

function readReport(path: string): RunReport {
  const r = JSON.parse(readFileSync(path, 'utf8')) as RunReport;
  if (!r.meta || !r.metrics) throw new Error(`${path} is not a load run summary (summary.json written by the load suite)`);
  return r;
}

function pct(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text.replace(/%$/, ''));
  if (!Number.isFinite(n) || n < 0) throw new Error(`not a percentage: ${text}`);
  return n / 100;
}

function main(): number {
  const currentPath = summaryPath(positionals[0]);
  const current = readReport(currentPath);
  const defaultBaseline = join(REPORTS_ROOT, `baseline-${current.meta.profile}.json`);
  if (args['save-baseline'] !== undefined) {
    const target = args['save-baseline'] || defaultBaseline;
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(currentPath, target);
    console.log(`saved ${relative(process.cwd(), currentPath)} as baseline ${relative(process.cwd(), target)}`);
    return 0;
  }
  const baselinePath = args.baseline ?? defaultBaseline;
  if (!existsSync(baselinePath)) throw new Error(`no baseline at ${relative(process.cwd(), baselinePath)}: save one with --save-baseline`);
  const options = {
    tolerance: pct(args.tolerance, DEFAULT_COMPARE.tolerance),
    minLatencyDeltaMs: args['min-latency-delta'] !== undefined ? Number(args['min-latency-delta']) : DEFAULT_COMPARE.minLatencyDeltaMs,
    rateTolerance: pct(args['rate-tolerance'], DEFAULT_COMPARE.rateTolerance),
  };
  console.log(`baseline ${relative(process.cwd(), baselinePath)} vs run ${relative(process.cwd(), currentPath)}\n`);
  const { rows, warnings } = compareReports(readReport(baselinePath), current, options);
  console.log(renderComparison(rows, warnings, options));
  return rows.some((r) => r.regression) ? 1 : 0;
}

try {
  process.exit(main());
} catch (err) {
  console.error(`load:compare: ${(err as Error).message}`);
  process.exit(2);
}
