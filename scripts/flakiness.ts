/**
 * `npm run flakiness`: runs the conformance suite N times with different seeds against the reference
 * target and reports every result that is not the same from run to run.
 *
 *   npm run flakiness -- [--runs N (default 20)] [--parallel N (default 2)] [--first-seed S]
 *                        [--workers N] [--timeout S] [--target harness|inprocess]
 *
 * --target harness (default): each run is a plain `npm run conformance` that boots the reference target
 *   itself (container or local process), exactly the hermetic path CI uses.
 * --target inprocess: a fresh reference target per run, started here and given through BASE_URL.
 *
 * Non-deterministic results: a run that fails or does not complete (its seed replays it), and any
 * must/should requirement whose verdict differs between runs. Variations of observe-level clauses
 * are listed for information. Writes reports/flakiness/report.json and report.md.
 * Exit: 0 all runs passed with identical verdicts; 1 otherwise.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { REQUIREMENTS } from '../contracts/requirements.ts';
import { scratchOutDir, REFERENCE_BEHIND_PROXY_ENV, runConformance, type ConformanceRunResult } from '../fixtures/faults/run-conformance.ts';
import { startTarget } from '../fixtures/target/server.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const OUT = join(ROOT, 'reports', 'flakiness');

interface RunSummary {
  seed: number;
  exitCode: number | null;
  wallMs: number;
  verdicts: Record<string, string>;
  tests: { total: number; passed: number; failed: number; skipped: number; unfinished: number };
  failing: string[];
  incomplete?: string;
  /** How the target ran (container, process, or given by BASE_URL). */
  targetHow?: string;
}

async function oneRun(seed: number, outDir: string, o: { workers: number; timeoutS: number; target: string }): Promise<RunSummary> {
  let run: ConformanceRunResult;
  if (o.target === 'inprocess') {
    const t = await startTarget({});
    try {
      run = await runConformance({ outDir, baseUrl: t.baseUrl, apiKey: t.tenants[0].apiKey, apiKeyB: t.tenants[1]?.apiKey, seed, timeoutS: o.timeoutS, workers: o.workers, env: REFERENCE_BEHIND_PROXY_ENV });
    } finally {
      await t.close();
    }
  } else {
    // No BASE_URL: the conformance run boots the reference target itself.
    run = await runConformance({ outDir, baseUrl: '', apiKey: '', seed, timeoutS: o.timeoutS, workers: o.workers, env: { BASE_URL: '', API_KEY: '' } });
  }
  const r = run.report;
  return {
    seed,
    exitCode: run.exitCode,
    wallMs: run.wallMs,
    verdicts: Object.fromEntries((r?.requirements ?? []).map((q) => [q.id, q.verdict])),
    tests: r?.summary.tests ?? { total: 0, passed: 0, failed: 0, skipped: 0, unfinished: 0 },
    failing: (r?.requirements ?? []).filter((q) => q.verdict === 'fail' || q.verdict === 'warn').map((q) => `${q.id} (${q.verdict})`),
    targetHow: r?.meta.targetHow,
    incomplete: r ? r.meta.incomplete : `no report: ${run.output.trim().split('\n').slice(-3).join(' | ')}`,
  };
}

function variations(runs: RunSummary[]): { id: string; level: string; verdicts: Record<string, number[]> }[] {
  return REQUIREMENTS.flatMap((req) => {
    const by: Record<string, number[]> = {};
    for (const r of runs) (by[r.verdicts[req.id] ?? '(absent)'] ??= []).push(r.seed);
    return Object.keys(by).length > 1 ? [{ id: req.id, level: req.level, verdicts: by }] : [];
  });
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '20' },
      parallel: { type: 'string', default: '2' },
      'first-seed': { type: 'string', default: '1000' },
      workers: { type: 'string', default: '2' },
      timeout: { type: 'string', default: '300' },
      target: { type: 'string', default: 'harness' },
    },
    strict: true,
  });
  const n = Number(values.runs);
  const parallel = Math.max(1, Math.min(Number(values.parallel), n));
  const firstSeed = Number(values['first-seed']);
  const o = { workers: Number(values.workers), timeoutS: Number(values.timeout), target: values.target! };
  if (!(n >= 1) || !Number.isInteger(firstSeed) || !['harness', 'inprocess'].includes(o.target)) throw new Error('usage: --runs N --parallel N --first-seed S --workers N --timeout S --target harness|inprocess');
  // Seeds far apart, so consecutive runs do not share derived values.
  const seeds = Array.from({ length: n }, (_, i) => firstSeed + i * 7919);
  console.log(`flakiness: ${n} conformance runs, seeds ${seeds[0]}…${seeds[n - 1]} (step 7919), ${parallel} at a time, target: ${o.target}`);
  const started = Date.now();
  const slots = Array.from({ length: parallel }, (_, i) => scratchOutDir(`flakiness-${process.pid}-${i}`));
  const queue = [...seeds];
  const runs: RunSummary[] = [];
  const drain = async (slot: string, limit = Infinity) => {
    for (let seed = queue.shift(); seed !== undefined; seed = limit-- > 1 ? queue.shift() : undefined) {
      const r = await oneRun(seed, slot, o);
      runs.push(r);
      const ok = r.exitCode === 0;
      console.log(`[${runs.length}/${n}] seed ${seed}: ${ok ? 'PASS' : `FAIL (exit ${r.exitCode})`} in ${(r.wallMs / 1000).toFixed(1)} s — tests ${r.tests.passed} passed, ${r.tests.failed} failed, ${r.tests.skipped} skipped${r.failing.length ? `; ${r.failing.join(', ')}` : ''}${r.incomplete ? `; ${r.incomplete}` : ''}`);
    }
  };
  // The first run alone: it builds the target image if needed, so parallel runs never race to build it.
  await drain(slots[0], 1);
  await Promise.all(slots.map((slot) => drain(slot)));
  for (const s of slots) rmSync(s, { recursive: true, force: true });
  runs.sort((a, b) => a.seed - b.seed);
  const wallMs = Date.now() - started;
  const failed = runs.filter((r) => r.exitCode !== 0);
  const varied = variations(runs);
  const gating = varied.filter((v) => v.level !== 'observe');
  const walls = runs.map((r) => r.wallMs).sort((a, b) => a - b);
  const report = { startedAt: new Date(started).toISOString(), wallMs, target: o.target, parallel, workers: o.workers, seeds, runs, failedRuns: failed.map((r) => r.seed), variations: varied, ok: failed.length === 0 && gating.length === 0 };
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, 'report.json'), JSON.stringify(report, null, 2));
  const md = [
    '# wfcheck flakiness report',
    '',
    `**${report.ok ? 'STABLE' : 'NON-DETERMINISTIC'}** — ${n - failed.length}/${n} runs passed; ${gating.length} must/should requirement(s) with varying verdicts; ${varied.length - gating.length} observe-level variation(s).`,
    '',
    `Wall time ${(wallMs / 1000).toFixed(1)} s for ${n} runs (${parallel} at a time, ${o.workers} workers each); per run median ${(walls[Math.floor(n / 2)] / 1000).toFixed(1)} s, max ${(walls[n - 1] / 1000).toFixed(1)} s. Target: ${o.target} (${[...new Set(runs.map((r) => r.targetHow ?? '?'))].join(', ')}).`,
    '',
    '| seed | result | wall s | tests passed / failed / skipped | failing or warning requirements |',
    '|---|---|---|---|---|',
    ...runs.map((r) => `| ${r.seed} | ${r.exitCode === 0 ? 'pass' : `FAIL (exit ${r.exitCode})`} | ${(r.wallMs / 1000).toFixed(1)} | ${r.tests.passed} / ${r.tests.failed} / ${r.tests.skipped} | ${r.failing.join(', ')}${r.incomplete ? ` ${r.incomplete}` : ''} |`),
    '',
    ...(varied.length ? ['## Verdicts that vary between runs', '', ...varied.map((v) => `- ${v.id} (${v.level}): ${Object.entries(v.verdicts).map(([verdict, s]) => `${verdict} with seeds ${s.join(', ')}`).join('; ')}`)] : ['Every requirement had the same verdict in every run.']),
    '',
    ...(failed.length ? ['Replay a failing run: `npm run conformance -- --seed <seed>`.'] : []),
  ].join('\n');
  writeFileSync(join(OUT, 'report.md'), md + '\n');
  console.log('\n' + md);
  console.log(`\nreports: reports/flakiness/report.md, reports/flakiness/report.json`);
  return report.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`flakiness: ${err.stack ?? err.message}`);
    process.exit(2);
  },
);
