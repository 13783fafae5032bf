/**
 * `npm run bench:capacity`: how repeatable a capacity search is, and whether it sees a target slowed on
 * purpose by the expected ratio. Each round searches, through `wfcheck load capacity` as a user runs it,
 * three targets: the reference target itself, the same target behind 4 workers and behind 2 workers
 * (fixtures/hostile/worker-pool.ts: a worker is busy 20 ms per request, so 2 workers serve half what 4 do,
 * whatever the machine's load: the expected ratio is 0.5). The order of the three turns every round, so
 * that drift on a shared machine does not always hit the same one; the generator's own ceiling (the bare
 * k6 loop) and the load average are taken every round.
 *
 * Goals: the searches of one target agree within ±10 % of their median; the slowed target's capacity over
 * the fast one's is 0.5 within ±20 %.
 */
import { DEFAULT_BUDGET_S } from '../../load/capacity/search.ts';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inheritedEnvironment } from '../../core/settings/child-environment.ts';
import type { OptionValues } from '../../core/settings/command.ts';
import { positiveInt, SettingError, wholeNumber } from '../../core/settings/rules.ts';
import { PACKAGE_ROOT } from '../../core/settings/roots.ts';
import { referenceBooter } from '../../fixtures/reference/boot/booter.ts';
import { readTargetSettings } from '../../core/settings/target-settings.ts';
import { resolveTarget, type Target } from '../../core/settings/target.ts';
import { startWorkerPool, type WorkerPool } from '../../fixtures/hostile/worker-pool.ts';
import type { CapacityReport } from '../../load/capacity/report.ts';
import { table } from '../../load/k6/lib/run-report.ts';
import { measureGeneratorCeiling } from '../../load/capacity/node/ceiling.ts';
import { ensureK6 } from '../../load/node/ensure-k6.ts';
import { REPORTS_ROOT } from '../../load/node/run-dir.ts';
import { loadAverage, median } from './load-figures.ts';

export interface CapacityBenchOptions {
  rounds: number;
  /** Each search's budget, as --budget takes it. */
  budget: string;
  seed: number;
  /** The targets searched each round (default all three): `reference` alone checks repeatability. */
  targets: readonly Name[];
}

const SERVICE_MS = 20;
const FAST_WORKERS = 4;
const SLOW_WORKERS = 2;
const EXPECTED_RATIO = SLOW_WORKERS / FAST_WORKERS;
const REPEAT_GOAL = 0.1;
const RATIO_GOAL = 0.2;
const CEILING_SECONDS = 5;

export type Name = 'reference' | 'fast' | 'slow';
export const NAMES: readonly Name[] = ['reference', 'fast', 'slow'];

export const CAPACITY_BENCH_OPTIONS = {
  rounds: { type: 'string' },
  budget: { type: 'string' },
  seed: { type: 'string' },
  targets: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The benchmark's options from its command line (scripts/bench-capacity.ts parses it). */
export function capacityBenchOptions(values: OptionValues<typeof CAPACITY_BENCH_OPTIONS>): CapacityBenchOptions {
  return {
    rounds: positiveInt(values.rounds, '--rounds', 3),
    budget: values.budget ?? `${DEFAULT_BUDGET_S}s`,
    seed: wholeNumber(values.seed, '--seed', 4242),
    targets: targetsOf(values.targets),
  };
}

function targetsOf(text: string | undefined): Name[] {
  if (text === undefined) return [...NAMES];
  const given = text.split(',').map((t) => t.trim());
  const unknown = given.filter((t) => !(NAMES as readonly string[]).includes(t));
  if (unknown.length > 0 || given.length === 0)
    throw new SettingError(`--targets takes ${NAMES.join(', ')} (comma-separated), got "${text}"`);
  return given as Name[];
}

interface Search {
  lifecyclesPerS: number | null;
  requestsPerS: number | null;
  confirmed: boolean;
  knee: string;
  wallS: number;
}

interface Round {
  searches: Partial<Record<Name, Search>>;
  ceilingRps: number;
  loadAverage: string;
}

/**
 * One search through the command, its report read back. Each target keeps its own history across the
 * rounds, as a target searched before every release does: from the second round on, the ramp starts at a
 * quarter of the capacity recorded before (the first round starts at the default rate).
 */
async function search(
  k6: string,
  target: { baseUrl: string; apiKey: string; history: string },
  dir: string,
  o: CapacityBenchOptions,
): Promise<Search> {
  const args = ['load', 'capacity', '--budget', o.budget, '--seed', String(o.seed), '--ceiling', 'off', '--out', dir];
  const code = await new Promise<number | null>((done, fail) =>
    spawn(process.execPath, [join(PACKAGE_ROOT, 'bin', 'wfcheck.mjs'), ...args], {
      env: {
        ...inheritedEnvironment(),
        BASE_URL: target.baseUrl,
        API_KEY: target.apiKey,
        K6_BIN: k6,
        WFCHECK_HISTORY: target.history,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    })
      .on('error', fail)
      .on('close', done),
  );
  // 2 is also a search that did not converge: its report says so, and it counts as no figure.
  const report = join(dir, 'report.json');
  if (code !== 0 && code !== 1 && !(code === 2 && existsSync(report)))
    throw new Error(`wfcheck load capacity failed (exit ${code}); see ${dir}`);
  const r = JSON.parse(readFileSync(report, 'utf8')) as CapacityReport;
  return {
    lifecyclesPerS: r.capacity?.lifecyclesPerS ?? null,
    requestsPerS: r.capacity?.requestsPerS ?? null,
    confirmed: r.capacity?.confirmed ?? false,
    knee:
      r.end === 'incomplete'
        ? `did not converge: ${r.ended}`
        : r.knee
          ? `${r.knee.gate.gate} at ${r.knee.rate}/s`
          : r.ended,
    wallS: r.meta.wallMs / 1000,
  };
}

interface Targets {
  reference: Target;
  fast: WorkerPool;
  slow: WorkerPool;
}

async function rounds(k6: string, t: Targets, dir: string, o: CapacityBenchOptions): Promise<Round[]> {
  const out: Round[] = [];
  const urls: Record<Name, string> = { reference: t.reference.baseUrl, fast: t.fast.baseUrl, slow: t.slow.baseUrl };
  for (let i = 0; i < o.rounds; i++) {
    const round: Round = { searches: {}, ceilingRps: 0, loadAverage: loadAverage() };
    round.ceilingRps = await measureGeneratorCeiling(k6, CEILING_SECONDS);
    // Each round starts with another target: drift over the minutes of a round does not favour one.
    const names = NAMES.filter((n) => o.targets.includes(n));
    const order = names.map((_, j) => names[(i + j) % names.length]!);
    for (const name of order) {
      const target = { baseUrl: urls[name], apiKey: t.reference.apiKey, history: join(dir, `${name}.sqlite`) };
      const s = await search(k6, target, join(dir, `round-${i + 1}-${name}`), o);
      round.searches[name] = s;
      console.error(
        `round ${i + 1}: ${name} ${s.lifecyclesPerS ?? 'none'} lifecycles/s (${s.requestsPerS?.toFixed(0) ?? '—'} requests/s${s.confirmed ? ', confirmed' : ''}; knee: ${s.knee}) in ${s.wallS.toFixed(0)}s`,
      );
    }
    round.loadAverage = `${round.loadAverage} → ${loadAverage()}`;
    out.push(round);
  }
  return out;
}

const at = (r: Round, n: Name) => r.searches[n]?.lifecyclesPerS ?? Number.NaN;

function spreadOf(values: number[]): { median: number; worst: number } {
  const m = median(values);
  return { median: m, worst: Math.max(...values.map((v) => Math.abs(v / m - 1))) };
}

export function summarise(rs: Round[]) {
  const ratios = rs.map((r) => at(r, 'slow') / at(r, 'fast'));
  const spread = Object.fromEntries(NAMES.map((n) => [n, spreadOf(rs.map((r) => at(r, n)))])) as Record<
    Name,
    { median: number; worst: number }
  >;
  const ratio = median(ratios);
  return {
    rounds: rs,
    ratios,
    spread,
    ratio,
    expectedRatio: EXPECTED_RATIO,
    ratioOff: Math.abs(ratio / EXPECTED_RATIO - 1),
    ceilingRps: median(rs.map((r) => r.ceilingRps)),
  };
}

const f = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '—');
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;

export function printFigures(x: ReturnType<typeof summarise>): void {
  console.log(
    table([
      ['round', 'reference', 'fast (4 workers)', 'slow (2 workers)', 'slow/fast', 'ceiling req/s', 'load average'],
      ...x.rounds.map((r, i) => [
        String(i + 1),
        f(at(r, 'reference')),
        f(at(r, 'fast')),
        f(at(r, 'slow')),
        f(x.ratios[i]!, 3),
        f(r.ceilingRps, 0),
        r.loadAverage,
      ]),
    ]),
  );
  console.log(
    'lifecycles/s with every gate held, per search; the ceiling is the bare k6 loop against an instant server.',
  );
  console.log('');
  for (const n of NAMES.filter((name) => x.rounds.some((r) => r.searches[name]))) {
    const s = x.spread[n];
    console.log(
      `${n}: median ${f(s.median)} lifecycles/s; furthest search ${pct(s.worst)} from it: ${s.worst <= REPEAT_GOAL ? 'meets' : 'misses'} ±${REPEAT_GOAL * 100}%`,
    );
  }
  if (Number.isFinite(x.ratio))
    console.log(
      `slow/fast: median ${f(x.ratio, 3)} against the expected ${x.expectedRatio} (${pct(x.ratioOff)} off): ${x.ratioOff <= RATIO_GOAL ? 'meets' : 'misses'} ±${RATIO_GOAL * 100}%`,
    );
}

export async function benchCapacity(o: CapacityBenchOptions): Promise<void> {
  const k6 = await ensureK6();
  const reference = await resolveTarget(readTargetSettings(), referenceBooter);
  const fast = await startWorkerPool(reference.baseUrl, { workers: FAST_WORKERS, serviceMs: SERVICE_MS });
  const slow = await startWorkerPool(reference.baseUrl, { workers: SLOW_WORKERS, serviceMs: SERVICE_MS });
  // Every search's folder is kept (its page, its steps' logs): a figure that looks off can be looked into.
  const dir = join(REPORTS_ROOT, `bench-capacity-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(dir, { recursive: true });
  try {
    console.error(
      `load average at the start: ${loadAverage()}; ${o.rounds} rounds × ${o.targets.length} searches of ${o.budget}`,
    );
    const figures = summarise(await rounds(k6, { reference, fast, slow }, dir, o));
    printFigures(figures);
    const out = join(dir, 'figures.json');
    writeFileSync(out, `${JSON.stringify(figures, null, 2)}\n`);
    console.error(`figures written to ${out}; each search's reports beside it`);
  } finally {
    await fast.close();
    await slow.close();
    await reference.stop();
  }
}
