/**
 * A long-lived target, as a nightly CI job meets it (`npm run flakiness -- --same-target`): ONE reference
 * target process, optionally preloaded with thousands of workflows, and the conformance suite run against
 * it again and again, each run with its own seed and leaving behind whatever it creates. Coverage must not
 * decay: every run must exercise the same requirements and show the same warnings and failures as the
 * first.
 */
import { seedWithPreload } from '../fixtures/reference/crowded.ts';
import { rmSync } from 'node:fs';
import { ABSENT, compareVerdicts, idsWhere, verdictsOf, type Verdicts } from '../core/history-store/verdicts.ts';
import { startTarget } from '../fixtures/reference/server.ts';
import { REFERENCE_BEHIND_PROXY_ENV, runConformance, scratchOutDir } from './conformance-run.ts';
import type { ConformanceReport } from '../core/findings/build-report.ts';
import { heading, paragraph } from '../core/report/document.ts';
import { footprintText } from '../scenarios/report/index.ts';
import { renderMarkdown } from '../core/report/render/markdown.ts';
import { seedSequence } from './flakiness.ts';

export interface SameTargetOptions {
  runs: number;
  firstSeed: number;
  /** Extra workflows given to tenant A before the first run (all newer than the fixture ones). */
  preload: number;
  /** Node step duration of the target (ms); real workflows take seconds. */
  nodeDurationMs?: number;
  workers: number;
  timeoutS: number;
  /** Let generate overwrite a canvas (a staging target that allows it). */
  allowOverwrite: boolean;
  /** Discovery keeps nothing between runs: every run samples the (growing) listing afresh. */
  noMemory?: boolean;
  log?: (line: string) => void;
}

/** What one run showed: the set a nightly job compares night to night. */
export interface RunProfile {
  run: number;
  seed: number;
  exitCode: number | null;
  wallMs: number;
  /** Every requirement's verdict before waivers (what the target did), by ID: what runs are compared on. */
  verdicts: Verdicts;
  exercised: string[];
  warnings: string[];
  failures: string[];
  incomplete?: string;
  /** What the run left on the target, and how it found its workflows (the report's lines). */
  left?: string;
  found?: string;
  /** How this run differs from the first (empty for the first and for identical runs). */
  differences: string[];
}

export interface SameTargetReport {
  preload: number;
  nodeDurationMs?: number;
  noMemory?: boolean;
  runs: RunProfile[];
  ok: boolean;
}

/** What a run exercised, warned of and failed, before waivers: a waiver must not hide a change of coverage. */
const EXERCISED = (v: string) => v !== 'not-run' && v !== ABSENT;
const WARNED = (v: string) => v === 'warn';
const FAILED = (v: string) => v === 'fail';

function profileOf(
  run: number,
  seed: number,
  exitCode: number | null,
  wallMs: number,
  report: ConformanceReport | undefined,
  output: string,
): Omit<RunProfile, 'differences'> {
  const verdicts = verdictsOf(report, 'rawVerdict');
  return {
    run,
    seed,
    exitCode,
    wallMs,
    verdicts,
    exercised: idsWhere(verdicts, EXERCISED),
    warnings: idsWhere(verdicts, WARNED),
    failures: idsWhere(verdicts, FAILED),
    incomplete: report ? report.meta.incomplete : `no report: ${output.trim().split('\n').slice(-3).join(' | ')}`,
    left: report?.footprint ? footprintText(report.footprint) : undefined,
    found: report?.discovery,
  };
}

/** What changed between the first run and this one, in words a person can act on. */
export function differencesFrom(
  first: Omit<RunProfile, 'differences'>,
  run: Omit<RunProfile, 'differences'>,
): string[] {
  const changed = compareVerdicts(first.verdicts, run.verdicts);
  const out: string[] = [];
  const diff = (label: string, holds: (verdict: string) => boolean) => {
    const lost = changed.filter((d) => holds(d.before) && !holds(d.after)).map((d) => d.id);
    const gained = changed.filter((d) => !holds(d.before) && holds(d.after)).map((d) => d.id);
    if (lost.length) out.push(`${label} no longer: ${lost.join(', ')}`);
    if (gained.length) out.push(`${label} newly: ${gained.join(', ')}`);
  };
  diff('exercised', EXERCISED);
  diff('warned', WARNED);
  diff('failed', FAILED);
  if (run.incomplete && !first.incomplete) out.push(`incomplete: ${run.incomplete}`);
  return out;
}

export async function runSameTarget(o: SameTargetOptions): Promise<SameTargetReport> {
  const log = o.log ?? ((l: string) => console.log(l));
  const target = await startTarget({ seed: seedWithPreload(o.preload), nodeDurationMs: o.nodeDurationMs });
  const outDir = scratchOutDir(`same-target-${process.pid}-0`);
  const cacheDir = scratchOutDir(`same-target-${process.pid}-cache`);
  // No canvas named by configuration: discovery must find (and then remember) every role itself, as on a target it meets for the first time.
  const {
    WFCHECK_ABORT_CANVAS_ID: _abort,
    WFCHECK_DISABLED_CANVAS_ID: _disabled,
    ...pace
  } = REFERENCE_BEHIND_PROXY_ENV;
  const env = {
    ...pace,
    WFCHECK_ALLOW_OVERWRITE: o.allowOverwrite ? '1' : '0',
    WFCHECK_CACHE_DIR: o.noMemory ? 'off' : cacheDir,
  };
  const runs: RunProfile[] = [];
  try {
    for (const [i, seed] of seedSequence(o.firstSeed, o.runs).entries()) {
      const r = await runConformance({
        outDir,
        baseUrl: target.baseUrl,
        apiKey: target.tenants[0].apiKey,
        apiKeyB: target.tenants[1]?.apiKey,
        seed,
        timeoutS: o.timeoutS,
        workers: o.workers,
        env,
      });
      const profile = profileOf(i + 1, seed, r.exitCode, r.wallMs, r.report, r.output);
      const differences = runs.length ? differencesFrom(runs[0], profile) : [];
      runs.push({ ...profile, differences });
      log(
        `[${i + 1}/${o.runs}] seed ${seed}: ${profile.exercised.length} exercised, ${profile.warnings.length} warning(s), ${profile.failures.length} failure(s), ${(r.wallMs / 1000).toFixed(1)} s${differences.length ? ` — DIFFERS: ${differences.join('; ')}` : ''}`,
      );
      log(`        found ${profile.found ?? '(no discovery line)'}; left ${profile.left ?? '?'}`);
    }
  } finally {
    await target.close();
    for (const dir of [outDir, cacheDir]) rmSync(dir, { recursive: true, force: true });
  }
  return {
    preload: o.preload,
    nodeDurationMs: o.nodeDurationMs,
    noMemory: o.noMemory,
    runs,
    ok: runs.every((r) => r.differences.length === 0 && r.exitCode === 0),
  };
}

/** The runs as Markdown: whether coverage held, and per run what it exercised, warned and failed. */
export function sameTargetMarkdown(report: SameTargetReport): string {
  const first = report.runs[0];
  const setup = `${report.preload} preloaded workflows${report.nodeDurationMs !== undefined ? `, ${report.nodeDurationMs} ms node steps` : ''}${report.noMemory ? ', no discovery memory' : ''}`;
  return renderMarkdown([
    heading(1, `wfcheck on one long-lived target (${setup})`),
    paragraph([
      { strong: report.ok ? 'STABLE' : 'COVERAGE CHANGES' },
      ` — ${report.runs.length} runs; the first exercised ${first?.exercised.length ?? 0} requirements with ${first?.warnings.length ?? 0} warning(s) and ${first?.failures.length ?? 0} failure(s).`,
    ]),
    {
      kind: 'table',
      head: [
        'run',
        'seed',
        'exercised',
        'warnings',
        'failures',
        'wall s',
        'differences from run 1',
        'discovery',
        'left on the target',
      ],
      rows: report.runs.map((r) => ({
        cells: [
          String(r.run),
          String(r.seed),
          String(r.exercised.length),
          r.warnings.join(', ') || '0',
          r.failures.join(', ') || '0',
          (r.wallMs / 1000).toFixed(1),
          r.differences.join('; '),
          r.found ?? '',
          r.left ?? '',
        ],
      })),
    },
  ]);
}
