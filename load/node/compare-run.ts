/**
 * `wfcheck load compare` (scripts/load-compare.ts parses its command line): a load run's report set
 * against a saved baseline, or saved as one.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { OptionValues } from '../../core/settings/command.ts';
import { commandLine } from '../../core/settings/invocation.ts';
import { number } from '../../core/settings/rules.ts';
import { REPORT_FORMATS } from '../../core/report/formats.ts';
import type { RunReport } from '../k6/lib/run-report.ts';
import { compareReports, DEFAULT_COMPARE, renderComparison } from './compare.ts';
import { REPORTS_ROOT } from './run-dir.ts';

export const LOAD_COMPARE_OPTIONS = {
  baseline: { type: 'string' },
  'save-baseline': { type: 'string' },
  tolerance: { type: 'string' },
  'min-latency-delta': { type: 'string' },
  'rate-tolerance': { type: 'string' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A run's report, in its folder. */
const REPORT_FILE = REPORT_FORMATS.json.file;

function newestRun(): string {
  if (!existsSync(REPORTS_ROOT))
    throw new Error(`no runs under reports/load/: run \`${commandLine('load')}\` first or name a run`);
  const runs = readdirSync(REPORTS_ROOT)
    .map((d) => join(REPORTS_ROOT, d, REPORT_FILE))
    .filter((f) => existsSync(f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!runs[0]) throw new Error(`no run with a ${REPORT_FILE} under reports/load/`);
  return runs[0];
}

function reportPath(arg: string | undefined): string {
  if (!arg) return newestRun();
  const p = existsSync(join(arg, REPORT_FILE)) ? join(arg, REPORT_FILE) : arg;
  if (!existsSync(p)) throw new Error(`no ${REPORT_FILE} at ${arg}`);
  return p;
}

function readReport(path: string): RunReport {
  const r = JSON.parse(readFileSync(path, 'utf8')) as RunReport;
  if (!r.meta || !r.metrics)
    throw new Error(`${path} is not a load run's report (the ${REPORT_FILE} a load run writes)`);
  return r;
}

/** A percentage (`5` or `5%`) as a fraction. */
function pct(text: string | undefined, name: string, fallback: number): number {
  const percent = number(text?.replace(/%$/, ''), name, undefined, { min: 0 });
  return percent === undefined ? fallback : percent / 100;
}

/** An option whose value may be left out (`--save-baseline [FILE]`): alone, or before another option, it is given empty. */
export function valueOptional(args: string[], name: string): string[] {
  return args.map((a, i) => (a === name && (i === args.length - 1 || args[i + 1].startsWith('-')) ? `${name}=` : a));
}

/**
 * The comparison of the command line `args` (RUN the first of `positionals`); the exit code (0 no
 * regression or saved, 1 regression(s)).
 */
export function runLoadCompare(args: OptionValues<typeof LOAD_COMPARE_OPTIONS>, positionals: string[]): number {
  const options = {
    tolerance: pct(args.tolerance, '--tolerance', DEFAULT_COMPARE.tolerance),
    minLatencyDeltaMs: number(args['min-latency-delta'], '--min-latency-delta', DEFAULT_COMPARE.minLatencyDeltaMs, {
      min: 0,
    }),
    rateTolerance: pct(args['rate-tolerance'], '--rate-tolerance', DEFAULT_COMPARE.rateTolerance),
  };
  const currentPath = reportPath(positionals[0]);
  const current = readReport(currentPath);
  const defaultBaseline = join(args.out ? resolve(args.out) : REPORTS_ROOT, `baseline-${current.meta.profile}.json`);
  if (args['save-baseline'] !== undefined) {
    const target = args['save-baseline'] || defaultBaseline;
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(currentPath, target);
    console.log(`saved ${relative(process.cwd(), currentPath)} as baseline ${relative(process.cwd(), target)}`);
    return 0;
  }
  const baselinePath = args.baseline ?? defaultBaseline;
  if (!existsSync(baselinePath))
    throw new Error(`no baseline at ${relative(process.cwd(), baselinePath)}: save one with --save-baseline`);
  console.log(`baseline ${relative(process.cwd(), baselinePath)} vs run ${relative(process.cwd(), currentPath)}\n`);
  const { rows, warnings } = compareReports(readReport(baselinePath), current, options);
  console.log(renderComparison(rows, warnings, options));
  return rows.some((r) => r.regression) ? 1 : 0;
}
