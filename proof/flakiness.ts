/**
 * Flakiness of the conformance suite (`npm run flakiness`, scripts/flakiness.ts): the suite run N times
 * with different seeds against the reference target, every result that is not the same from run to
 * run reported.
 *
 * --target harness (default): each run is a plain `npm run conformance` that boots the reference target
 *   itself (container or local process), exactly the hermetic path CI uses.
 * --target inprocess: a fresh reference target per run, started here and given through BASE_URL.
 *
 * Non-deterministic results: a run that fails or does not complete (its seed replays it), and any
 * must/should requirement whose verdict differs between runs. Variations of observe-level clauses
 * are listed for information. Writes reports/flakiness/report.json and report.md.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REQUIREMENTS } from '../contracts/requirements.ts';
import { commandLine } from '../core/settings/invocation.ts';
import { heading, listOf, paragraph } from '../core/report/document.ts';
import { renderMarkdown } from '../core/report/render/markdown.ts';
import { idsWhere, verdictSeries, verdictsOf, type Verdicts } from '../core/history-store/verdicts.ts';
import {
  scratchOutDir,
  REFERENCE_BEHIND_PROXY_ENV,
  runConformance,
  type ConformanceRunResult,
} from './conformance-run.ts';
import { startTarget } from '../fixtures/reference/server.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const FLAKINESS_OUT = join(ROOT, 'reports', 'flakiness');

interface RunSummary {
  seed: number;
  exitCode: number | null;
  wallMs: number;
  verdicts: Verdicts;
  tests: { total: number; passed: number; failed: number; skipped: number; unfinished: number };
  failing: string[];
  incomplete?: string;
  /** How the target ran (container, process, or given by BASE_URL). */
  targetHow?: string;
}

export type FlakinessTarget = 'harness' | 'inprocess';
export const FLAKINESS_TARGETS: readonly FlakinessTarget[] = ['harness', 'inprocess'];

export interface FlakinessOptions {
  runs: number;
  parallel: number;
  firstSeed: number;
  workers: number;
  timeoutS: number;
  target: FlakinessTarget;
  /** One line per finished run; default stdout. */
  log?: (line: string) => void;
}

export interface FlakinessReport {
  startedAt: string;
  wallMs: number;
  target: FlakinessTarget;
  parallel: number;
  workers: number;
  seeds: number[];
  runs: RunSummary[];
  failedRuns: number[];
  variations: ReturnType<typeof variations>;
  ok: boolean;
}

async function oneRun(
  seed: number,
  outDir: string,
  o: { workers: number; timeoutS: number; target: string },
): Promise<RunSummary> {
  let run: ConformanceRunResult;
  if (o.target === 'inprocess') {
    const t = await startTarget({});
    try {
      run = await runConformance({
        outDir,
        baseUrl: t.baseUrl,
        apiKey: t.tenants[0].apiKey,
        apiKeyB: t.tenants[1]?.apiKey,
        seed,
        timeoutS: o.timeoutS,
        workers: o.workers,
        env: REFERENCE_BEHIND_PROXY_ENV,
      });
    } finally {
      await t.close();
    }
  } else {
    // No BASE_URL: the conformance run boots the reference target itself.
    run = await runConformance({
      outDir,
      baseUrl: '',
      apiKey: '',
      seed,
      timeoutS: o.timeoutS,
      workers: o.workers,
      env: { BASE_URL: '', API_KEY: '' },
    });
  }
  const r = run.report;
  const verdicts = verdictsOf(r);
  return {
    seed,
    exitCode: run.exitCode,
    wallMs: run.wallMs,
    verdicts,
    tests: r?.summary.tests ?? { total: 0, passed: 0, failed: 0, skipped: 0, unfinished: 0 },
    failing: idsWhere(verdicts, (v) => v === 'fail' || v === 'warn').map((id) => `${id} (${verdicts[id]})`),
    targetHow: r?.meta.targetHow,
    incomplete: r ? r.meta.incomplete : `no report: ${run.output.trim().split('\n').slice(-3).join(' | ')}`,
  };
}

/** Every requirement whose verdict is not the same in every run, with the seeds of the runs that gave each verdict. */
function variations(runs: RunSummary[]): { id: string; level: string; verdicts: Record<string, number[]> }[] {
  const series = verdictSeries(
    runs.map((r) => r.verdicts),
    REQUIREMENTS.map((req) => req.id),
  );
  return REQUIREMENTS.flatMap((req, i) => {
    const by: Record<string, number[]> = {};
    for (const [run, v] of series[i].verdicts.entries()) {
      by[v] ??= [];
      by[v].push(runs[run].seed);
    }
    return Object.keys(by).length > 1 ? [{ id: req.id, level: req.level, verdicts: by }] : [];
  });
}

/** How far apart consecutive seeds are: far, so that consecutive runs do not share derived values. */
export const SEED_STEP = 7919;

/** `n` seeds from `first`, SEED_STEP apart: the runs of a flakiness check, and of one long-lived target. */
export function seedSequence(first: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => first + i * SEED_STEP);
}

/** Every run, `parallel` at a time, then the verdicts compared across them. */
export async function runFlakiness(o: FlakinessOptions): Promise<FlakinessReport> {
  const log = o.log ?? ((l: string) => console.log(l));
  const n = o.runs;
  const parallel = Math.max(1, Math.min(o.parallel, n));
  const seeds = seedSequence(o.firstSeed, n);
  const started = Date.now();
  const slots = Array.from({ length: parallel }, (_, i) => scratchOutDir(`flakiness-${process.pid}-${i}`));
  const queue = [...seeds];
  const runs: RunSummary[] = [];
  const drain = async (slot: string, limit = Infinity) => {
    for (let seed = queue.shift(); seed !== undefined; seed = limit-- > 1 ? queue.shift() : undefined) {
      const r = await oneRun(seed, slot, o);
      runs.push(r);
      const ok = r.exitCode === 0;
      log(
        `[${runs.length}/${n}] seed ${seed}: ${ok ? 'PASS' : `FAIL (exit ${r.exitCode})`} in ${(r.wallMs / 1000).toFixed(1)} s — tests ${r.tests.passed} passed, ${r.tests.failed} failed, ${r.tests.skipped} skipped${r.failing.length ? `; ${r.failing.join(', ')}` : ''}${r.incomplete ? `; ${r.incomplete}` : ''}`,
      );
    }
  };
  // The first run alone: it builds the target image if needed, so parallel runs never race to build it.
  await drain(slots[0], 1);
  await Promise.all(slots.map((slot) => drain(slot)));
  for (const s of slots) rmSync(s, { recursive: true, force: true });
  runs.sort((a, b) => a.seed - b.seed);
  const failed = runs.filter((r) => r.exitCode !== 0);
  const varied = variations(runs);
  const gating = varied.filter((v) => v.level !== 'observe');
  return {
    startedAt: new Date(started).toISOString(),
    wallMs: Date.now() - started,
    target: o.target,
    parallel,
    workers: o.workers,
    seeds,
    runs,
    failedRuns: failed.map((r) => r.seed),
    variations: varied,
    ok: failed.length === 0 && gating.length === 0,
  };
}

/** The runs as Markdown: whether every verdict held, each run, and the verdicts that varied. */
export function flakinessMarkdown(report: FlakinessReport): string {
  const { runs, wallMs, parallel, variations: varied } = report;
  const n = runs.length;
  const failed = runs.filter((r) => r.exitCode !== 0);
  const gating = varied.filter((v) => v.level !== 'observe');
  const walls = runs.map((r) => r.wallMs).sort((a, b) => a - b);
  return renderMarkdown([
    heading(1, 'wfcheck flakiness report'),
    paragraph([
      { strong: report.ok ? 'STABLE' : 'NON-DETERMINISTIC' },
      ` — ${n - failed.length}/${n} runs passed; ${gating.length} must/should requirement(s) with varying verdicts; ${varied.length - gating.length} observe-level variation(s).`,
    ]),
    paragraph(
      `Wall time ${(wallMs / 1000).toFixed(1)} s for ${n} runs (${parallel} at a time, ${report.workers} workers each); per run median ${(walls[Math.floor(n / 2)] / 1000).toFixed(1)} s, max ${(walls[n - 1] / 1000).toFixed(1)} s. Target: ${report.target} (${[...new Set(runs.map((r) => r.targetHow ?? '?'))].join(', ')}).`,
    ),
    {
      kind: 'table',
      head: ['seed', 'result', 'wall s', 'tests passed / failed / skipped', 'failing or warning requirements'],
      rows: runs.map((r) => ({
        cells: [
          String(r.seed),
          r.exitCode === 0 ? 'pass' : `FAIL (exit ${r.exitCode})`,
          (r.wallMs / 1000).toFixed(1),
          `${r.tests.passed} / ${r.tests.failed} / ${r.tests.skipped}`,
          `${r.failing.join(', ')}${r.incomplete ? ` ${r.incomplete}` : ''}`,
        ],
      })),
    },
    ...(varied.length
      ? [
          heading(2, 'Verdicts that vary between runs'),
          listOf(
            varied.map(
              (v) =>
                `${v.id} (${v.level}): ${Object.entries(v.verdicts)
                  .map(([verdict, s]) => `${verdict} with seeds ${s.join(', ')}`)
                  .join('; ')}`,
            ),
          ),
        ]
      : [paragraph('Every requirement had the same verdict in every run.')]),
    ...(failed.length
      ? [paragraph(['Replay a failing run: ', { code: commandLine('conformance', ['--seed', '<seed>']) }, '.'])]
      : []),
  ]);
}

/** Writes reports/flakiness/report.json and report.md; returns the Markdown. */
export function writeFlakinessReport(report: FlakinessReport): string {
  mkdirSync(FLAKINESS_OUT, { recursive: true });
  writeFileSync(join(FLAKINESS_OUT, 'report.json'), JSON.stringify(report, null, 2));
  const md = flakinessMarkdown(report);
  writeFileSync(join(FLAKINESS_OUT, 'report.md'), md);
  return md;
}
