/**
 * What slow workflows cost the conformance run, and proof that they change none of its verdicts
 * (`npm run bench:durations`): the in-process reference target at its default node step and at a slow
 * one (1 s: workflows of seconds, as real ones take), the same seeded conformance run against each, one
 * after the other. Prints the wall time at every speed and each requirement whose verdict differs.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { OptionValues } from '../../core/settings/command.ts';
import { list, number, positiveInt, SettingError, wholeNumber } from '../../core/settings/rules.ts';
import { DEFAULT_CONFIG } from '../../fixtures/reference/config.ts';
import { startTarget } from '../../fixtures/reference/server.ts';
import { REFERENCE_BEHIND_PROXY_ENV, runConformance, scratchOutDir } from '../conformance-run.ts';
import { compareVerdicts, verdictsOf, type Verdicts } from '../../core/history-store/verdicts.ts';

export const DEFAULT_SPEEDS: readonly number[] = [DEFAULT_CONFIG.nodeDurationMs, 1000];

export interface DurationsOptions {
  /** Node step durations (ms) of the target, one run each; the first is the one the others are compared with. */
  speeds: readonly number[];
  seed: number;
  /** Workers of each run; unset: the conformance command's default. */
  workers?: number;
  timeoutS: number;
  log?: (line: string) => void;
}

export interface TestTime {
  title: string;
  ms: number;
}

export interface SpeedRun {
  nodeDurationMs: number;
  wallMs: number;
  exitCode: number | null;
  /** Verdict of every requirement, by ID; empty when the run wrote no report. */
  verdicts: Verdicts;
  /** The longest tests of the run. */
  slowest: TestTime[];
  /** Why the run cannot vouch for its verdicts (deadline, no report, …). */
  incomplete?: string;
}

export interface DurationsBench {
  seed: number;
  runs: SpeedRun[];
  /** "ID: verdict at the first speed → verdict at another", one per requirement that differs. */
  differences: string[];
}

/** Every verdict the speeds do not share, against the first speed's. */
export function verdictDifferences(runs: readonly SpeedRun[]): string[] {
  const [first, ...others] = runs;
  if (!first) return [];
  const out: string[] = [];
  for (const run of others)
    for (const d of compareVerdicts(first.verdicts, run.verdicts))
      out.push(`${d.id}: ${d.before} at ${first.nodeDurationMs} ms → ${d.after} at ${run.nodeDurationMs} ms`);
  return out;
}

interface PlaywrightSuite {
  specs?: { title: string; tests: { results: { duration: number }[] }[] }[];
  suites?: PlaywrightSuite[];
}

/** The longest tests, from Playwright's JSON report of the run (none when it is missing). */
export function slowestTests(playwrightJson: string, count: number): TestTime[] {
  let root: { suites?: PlaywrightSuite[] };
  try {
    root = JSON.parse(readFileSync(playwrightJson, 'utf8')) as typeof root;
  } catch {
    return [];
  }
  const times: TestTime[] = [];
  const walk = (s: PlaywrightSuite) => {
    for (const spec of s.specs ?? [])
      times.push({
        title: spec.title.replace(/ \[[A-Z0-9-]+\]/g, ''),
        ms: Math.max(0, ...spec.tests.flatMap((t) => t.results.map((r) => r.duration))),
      });
    (s.suites ?? []).forEach(walk);
  };
  (root.suites ?? []).forEach(walk);
  return times.sort((a, b) => b.ms - a.ms).slice(0, count);
}

async function runAtSpeed(nodeDurationMs: number, o: DurationsOptions, index: number): Promise<SpeedRun> {
  const target = await startTarget({ nodeDurationMs });
  const outDir = scratchOutDir(`durations-${process.pid}-${index}`);
  // The target is thrown away after the run, as the one `npm run conformance` boots: overwriting harms nothing.
  const env = { ...REFERENCE_BEHIND_PROXY_ENV, WFCHECK_ALLOW_OVERWRITE: '1' };
  try {
    const r = await runConformance({
      outDir,
      baseUrl: target.baseUrl,
      apiKey: target.tenants[0].apiKey,
      apiKeyB: target.tenants[1]?.apiKey,
      seed: o.seed,
      timeoutS: o.timeoutS,
      workers: o.workers,
      env,
    });
    const incomplete = r.report
      ? r.report.meta.incomplete
      : `no report: ${r.output.trim().split('\n').slice(-3).join(' | ')}`;
    return {
      nodeDurationMs,
      wallMs: r.wallMs,
      exitCode: r.exitCode,
      verdicts: verdictsOf(r.report),
      slowest: slowestTests(join(outDir, 'playwright.json'), 3),
      incomplete,
    };
  } finally {
    await target.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** One run per speed, one after the other (never two at once: each is timed). */
export async function runDurationsBench(o: DurationsOptions): Promise<DurationsBench> {
  const log = o.log ?? ((l: string) => console.log(l));
  const runs: SpeedRun[] = [];
  for (const [i, speed] of o.speeds.entries()) {
    log(`[${i + 1}/${o.speeds.length}] ${speed} ms per node step …`);
    const run = await runAtSpeed(speed, o, i);
    log(
      `      ${(run.wallMs / 1000).toFixed(1)} s wall, exit ${run.exitCode}${run.incomplete ? ` — INCOMPLETE: ${run.incomplete}` : ''}`,
    );
    runs.push(run);
  }
  return { seed: o.seed, runs, differences: verdictDifferences(runs) };
}

/** 0 every verdict the same at every speed; 1 some differ; 2 a run cannot vouch for its verdicts. */
export function durationsExitCode(bench: DurationsBench): number {
  if (bench.runs.some((r) => r.incomplete)) return 2;
  return bench.differences.length > 0 ? 1 : 0;
}

export function renderDurationsBench(bench: DurationsBench): string {
  const base = bench.runs[0];
  const counts = (r: SpeedRun) => {
    const by = new Map<string, number>();
    for (const v of Object.values(r.verdicts)) by.set(v, (by.get(v) ?? 0) + 1);
    return [...by].map(([v, n]) => `${v} ${n}`).join(', ') || 'no verdicts';
  };
  const lines = [`conformance wall time by node step duration (seed ${bench.seed}, reference target in process):`, ''];
  for (const r of bench.runs) {
    const ratio = base && base !== r ? ` (×${(r.wallMs / base.wallMs).toFixed(2)})` : '';
    lines.push(
      `  ${String(r.nodeDurationMs).padStart(5)} ms/node  ${(r.wallMs / 1000).toFixed(1).padStart(6)} s wall${ratio}  — ${counts(r)}`,
    );
    for (const t of r.slowest) lines.push(`        ${(t.ms / 1000).toFixed(1).padStart(5)} s  ${t.title}`);
  }
  lines.push('');
  const incomplete = bench.runs.filter((r) => r.incomplete);
  for (const r of incomplete) lines.push(`INCOMPLETE at ${r.nodeDurationMs} ms/node: ${r.incomplete}`);
  if (bench.differences.length > 0)
    lines.push(`VERDICTS DIFFER (${bench.differences.length}):`, ...bench.differences.map((d) => `  ${d}`));
  else if (incomplete.length === 0) lines.push('verdicts: identical at every speed');
  return lines.join('\n');
}

export const DURATIONS_OPTIONS = {
  speeds: { type: 'string' },
  seed: { type: 'string' },
  workers: { type: 'string' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function durationsOptionsOf(values: OptionValues<typeof DURATIONS_OPTIONS>): DurationsOptions {
  const speeds =
    values.speeds === undefined ? [...DEFAULT_SPEEDS] : list(values.speeds).map((s) => wholeNumber(s, '--speeds', 0));
  if (speeds.length < 2) throw new SettingError('--speeds needs at least two node step durations in ms, e.g. 30,1000');
  return {
    speeds,
    seed: wholeNumber(values.seed, '--seed', 4242),
    workers: values.workers === undefined ? undefined : positiveInt(values.workers, '--workers'),
    timeoutS: number(values.timeout, '--timeout', 300, { positive: true }),
  };
}

/**
 * `npm run bench:durations` (scripts/bench-durations.ts parses its command line): the runs of the
 * options `values`, printed; the exit code as durationsExitCode says.
 */
export async function benchDurations(values: OptionValues<typeof DURATIONS_OPTIONS>): Promise<number> {
  const o = durationsOptionsOf(values);
  console.log(`bench:durations: the conformance run at ${o.speeds.join(', ')} ms per node step`);
  const bench = await runDurationsBench(o);
  console.log(`\n${renderDurationsBench(bench)}`);
  return durationsExitCode(bench);
}
