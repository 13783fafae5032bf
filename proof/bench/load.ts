/**
 * `npm run bench:load`: the load generator measured against itself, side by side in one run against the
 * same target (what each measurement is: scripts/bench-load.ts). Each goal's pair (a bare k6 loop, the
 * suite) runs back to back, its order flipped every round, so that drift on a shared machine hits both
 * sides alike; the figures are printed and written by load-figures.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkResponse } from '../../contracts/check.ts';
import { inheritedEnvironment } from '../../core/settings/child-environment.ts';
import type { OptionValues } from '../../core/settings/command.ts';
import { PACKAGE_ROOT } from '../../core/settings/roots.ts';
import { ENV, positiveInt } from '../../core/settings/rules.ts';
import { referenceBooter } from '../../fixtures/reference/boot/booter.ts';
import { readTargetSettings } from '../../core/settings/target-settings.ts';
import { resolveTarget } from '../../core/settings/target.ts';
import { LOAD_PROFILES } from '../../load/k6/lib/profiles.ts';
import { operationRows } from '../../load/k6/lib/run-report.ts';
import { ensureK6 } from '../../load/node/ensure-k6.ts';
import { writeLoadData } from '../../load/node/prepare-data.ts';
import { runK6 } from '../../load/node/run-k6.ts';
import { BenchClient, operationPath } from './client.ts';
import type { BenchPlan } from './k6/bare-lifecycle.ts';
import { CHECK_COST_MARKER, CHECK_HEADERS, CHECK_SAMPLES, type CheckCost } from './k6/check-samples.ts';
import { BENCH_K6_ENV } from './k6/setting-names.ts';
import {
  HIGH_VUS,
  LOW_VUS,
  loadAverage,
  type Memory,
  median,
  printFigures,
  type Rounds,
  summarise,
  writeFigures,
} from './load-figures.ts';
import { executionsToRead, lifecyclePlan, TRIAL_TIMEOUT_MS } from './load-plan.ts';
import { hasWrk, wrk } from './wrk.ts';

export interface LoadBenchOptions {
  rounds: number;
  /** Length of every measurement. */
  seconds: number;
  /** wrk's connections, and the VUs of every k6 measurement but the memory one. */
  connections: number;
  skipMemory: boolean;
}

export const LOAD_BENCH_OPTIONS = {
  rounds: { type: 'string' },
  seconds: { type: 'string' },
  connections: { type: 'string' },
  'skip-memory': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The benchmark's options from its command line (scripts/bench-load.ts parses it). */
export function loadBenchOptions(values: OptionValues<typeof LOAD_BENCH_OPTIONS>): LoadBenchOptions {
  return {
    rounds: positiveInt(values.rounds, '--rounds', 3),
    seconds: positiveInt(values.seconds, '--seconds', 10),
    connections: positiveInt(values.connections, '--connections', 10),
    skipMemory: values['skip-memory'],
  };
}

const SEED = 4242;
const K6_SCRIPTS = join(PACKAGE_ROOT, 'proof', 'bench', 'k6');

/** Poll pause of both lifecycle loops: short, so they measure the generator rather than the workflows' pace. */
const LIFECYCLE_POLL_MS = 1;

/** What every measurement of one benchmark run shares. */
interface Bench extends LoadBenchOptions {
  k6: string;
  baseUrl: string;
  key: string;
  /** Executions whose status the read measurements poll. */
  ids: string[];
  /** Workflows the bare lifecycle loop drives (proof/bench/k6/bare-lifecycle.ts). */
  plan: BenchPlan;
  /** Scratch folder (data, evidence, k6 reports), removed at the end. */
  dir: string;
}

/** Runs a k6 script of proof/bench/k6 quietly (its errors still shown); its summary file's request count per second. */
async function bareK6(b: Bench, script: string, env: Record<string, string>): Promise<number> {
  const summary = join(b.dir, `${script}.json`);
  const code = await new Promise<number | null>((done, fail) =>
    spawn(b.k6, ['run', '--quiet', join(K6_SCRIPTS, script)], {
      env: {
        ...inheritedEnvironment(),
        ...env,
        K6_NO_USAGE_REPORT: 'true',
        [ENV.baseUrl]: b.baseUrl,
        [ENV.apiKey]: b.key,
        [BENCH_K6_ENV.vus]: String(b.connections),
        [ENV.duration]: `${b.seconds}s`,
        [BENCH_K6_ENV.summaryFile]: summary,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    })
      .on('error', fail)
      .on('close', done),
  );
  if (code !== 0) throw new Error(`k6 run ${script} failed (exit ${code})`);
  return (JSON.parse(readFileSync(summary, 'utf8')) as { count: number }).count / b.seconds;
}

/** The status reads as a bare k6 loop: what the engine costs, apart from what the suite adds. */
function k6Bare(b: Bench): Promise<number> {
  const ids = join(b.dir, 'ids.json');
  writeFileSync(ids, JSON.stringify(b.ids), { mode: 0o600 });
  return bareK6(b, 'bare-status.ts', { [BENCH_K6_ENV.ids]: ids });
}

/** The lifecycle mix as a bare k6 loop, same VUs, same poll pause, same seeded picks. */
function k6BareLifecycle(b: Bench): Promise<number> {
  const plan = join(b.dir, 'plan.json');
  writeFileSync(plan, JSON.stringify(b.plan), { mode: 0o600 });
  return bareK6(b, 'bare-lifecycle.ts', {
    [BENCH_K6_ENV.plan]: plan,
    [ENV.seed]: String(SEED),
    [BENCH_K6_ENV.pollS]: String(LIFECYCLE_POLL_MS / 1000),
  });
}

/** The same status reads with wrk, cycling through the executions. */
function wrkStatus(b: Bench): Promise<number> {
  return wrk({
    urls: b.ids.map((executionId) => b.baseUrl + operationPath('getExecutionStatus', { executionId })),
    apiKey: b.key,
    connections: b.connections,
    seconds: b.seconds,
    threads: 2,
  });
}

interface K6Figures {
  reqPerSec: number;
  peakRssKb?: number;
}

interface SuiteRun {
  vusScale?: number;
  scenarios?: string;
  contractMode?: 'vu' | 'offload';
}

/** The suite itself (load/k6/main.ts through the load runner), under the throughput profile. */
async function k6Suite(b: Bench, name: string, env: Record<string, string>, run: SuiteRun = {}): Promise<K6Figures> {
  const reportDir = join(b.dir, name);
  const r = await runK6({
    k6: b.k6,
    baseUrl: b.baseUrl,
    apiKey: b.key,
    profile: 'throughput',
    seed: SEED,
    reportDir,
    dataFile: join(b.dir, 'load-data.json'),
    scenarios: run.scenarios ?? 'statusRead',
    duration: `${b.seconds}s`,
    quiet: true,
    vusScale: run.vusScale ?? 1,
    contractMode: run.contractMode ?? 'vu',
    // Short trial waits: the status-read scenario only needs execution ids.
    env: { [ENV.workflowTimeoutMs]: '3000', ...env },
  });
  if (!r.report) throw new Error(`k6 run ${name} wrote no report (exit ${r.exitCode}); see ${reportDir}/k6.log`);
  if (run.scenarios === 'lifecycle') sameWorkflowsAsPlan(b, reportDir);
  // Every operation's requests during the scenarios: setup's (discovery, trial runs) carry no operation tag.
  const requests = operationRows(r.report.metrics).reduce((n, o) => n + (o.values.count ?? 0), 0);
  return { reqPerSec: requests / b.seconds, peakRssKb: r.peakRssKb };
}

/**
 * The suite's lifecycle and the bare loop must walk the same workflows, or the ratio compares two mixes:
 * the suite's discovery prints how many it drives, the bench's plan holds the bare loop's.
 */
function sameWorkflowsAsPlan(b: Bench, reportDir: string): void {
  const line = readFileSync(join(reportDir, 'k6.log'), 'utf8').match(
    /discovered \d+ workflows; (\d+) used for the lifecycle/,
  );
  const used = line ? Number(line[1]) : undefined;
  if (used !== b.plan.plain.length)
    throw new Error(
      `the suite drove ${used ?? 'an unknown number of'} workflows and the bare lifecycle loop ${b.plan.plain.length}: the two mixes differ, so their ratio would mean nothing`,
    );
}

/** µs per contract check in k6 (proof/bench/k6/check-cost.ts, one VU) on the shared samples. */
function k6CheckCost(k6: string): CheckCost[] {
  const out = spawnSync(
    k6,
    ['run', '--quiet', '--summary-mode=disabled', '--no-color', join(K6_SCRIPTS, 'check-cost.ts')],
    {
      encoding: 'utf8',
      env: { ...inheritedEnvironment(), K6_NO_USAGE_REPORT: 'true' },
    },
  );
  const marker = `msg="${CHECK_COST_MARKER}`;
  const line = `${out.stdout}\n${out.stderr}`.split('\n').find((l) => l.includes(marker));
  if (!line) throw new Error(`k6 check-cost run printed no figures (exit ${out.status}):\n${out.stderr.slice(-2000)}`);
  const escaped = line.slice(line.indexOf(marker) + marker.length, line.lastIndexOf('" source=console'));
  return JSON.parse(JSON.parse(`"${escaped}"`) as string) as CheckCost[];
}

/** µs per contract check in Node on the same samples (median of rounds). */
function nodeCheckCost(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of CHECK_SAMPLES) {
    const input = { operation: s.operation, status: s.status, headers: CHECK_HEADERS, body: s.body };
    const rounds: number[] = [];
    for (let r = 0; r < 5; r++) {
      const start = performance.now();
      for (let i = 0; i < 20_000; i++) checkResponse(input);
      rounds.push(((performance.now() - start) * 1000) / 20_000);
    }
    out[s.name] = median(rounds);
  }
  return out;
}

/** Runs two measurements back to back, in the given order. */
async function pair(first: () => Promise<void>, second: () => Promise<void>, flip: boolean): Promise<void> {
  await (flip ? second : first)();
  await (flip ? first : second)();
}

/**
 * The throughput rounds. Each goal's two measurements (the bare k6 loop and the suite) run back to back at
 * the start of a round, in an order that flips every round: on a shared machine the load drifts within
 * minutes, and a pair measured a minute apart would read that drift as the suite's cost. The other
 * variants follow, for the picture.
 */
async function throughputRounds(b: Bench, withWrk: boolean): Promise<Rounds> {
  const r: Rounds = {
    wrk: [],
    bare: [],
    on: [],
    off: [],
    raw: [],
    offload: [],
    bareLifecycle: [],
    lifecycle: [],
    lifecycleOffload: [],
    loadAverage: [],
  };
  const noMemo = { [ENV.contractSample]: '1', [ENV.contractMemo]: '0' };
  const lifecycleEnv = {
    ...noMemo,
    [ENV.loadPollIntervalMs]: String(LIFECYCLE_POLL_MS),
    [ENV.workflowTimeoutMs]: String(TRIAL_TIMEOUT_MS),
  };
  const lifecycle = { vusScale: b.connections / LOAD_PROFILES.throughput.vus.lifecycle, scenarios: 'lifecycle' };
  for (let round = 1; round <= b.rounds; round++) {
    const measure = (what: string, into: number[], rate: () => Promise<number>) => async () => {
      into.push(await rate());
      console.error(`round ${round}: ${what} ${into.at(-1)!.toFixed(0)} req/s`);
    };
    const suite = (name: string, env: Record<string, string>, run?: SuiteRun) => async () =>
      (await k6Suite(b, `${name}-${round}`, env, run)).reqPerSec;
    const flip = round % 2 === 0;
    await pair(
      measure('k6 bare loop', r.bare, () => k6Bare(b)),
      measure(
        'k6 suite, checks on, no memo, checked in Node',
        r.offload,
        suite('offload', noMemo, { contractMode: 'offload' }),
      ),
      flip,
    );
    await pair(
      measure('k6 bare lifecycle loop', r.bareLifecycle, () => k6BareLifecycle(b)),
      measure(
        'k6 suite lifecycle mix, checks on, no memo, checked in Node',
        r.lifecycleOffload,
        suite('lifecycle-offload', lifecycleEnv, { ...lifecycle, contractMode: 'offload' }),
      ),
      flip,
    );
    if (withWrk) await measure('wrk', r.wrk, () => wrkStatus(b))();
    await measure('k6 suite, checks on (memo)', r.on, suite('on', { [ENV.contractSample]: '1' }))();
    await measure('k6 suite, checks off', r.off, suite('off', { [ENV.contractSample]: '0' }))();
    await measure('k6 suite, checks on, no memo, in the VU', r.raw, suite('raw', noMemo))();
    await measure(
      'k6 suite lifecycle mix, checks on, no memo, in the VU',
      r.lifecycle,
      suite('lifecycle', lifecycleEnv, lifecycle),
    )();
    r.loadAverage.push(loadAverage());
    console.error(`round ${round}: load average ${r.loadAverage.at(-1)}`);
  }
  return r;
}

/** Memory per VU: idle-ish VUs (think time) at two counts; the difference divided by the VU difference. */
async function memoryPerVu(b: Bench): Promise<Memory> {
  const low = (await k6Suite(b, 'mem-low', { [ENV.thinkTimeS]: '0.5' }, { vusScale: LOW_VUS / 10 })).peakRssKb;
  const high = (await k6Suite(b, 'mem-high', { [ENV.thinkTimeS]: '0.5' }, { vusScale: HIGH_VUS / 10 })).peakRssKb;
  return { low, high, perVuKb: low && high ? (high - low) / (HIGH_VUS - LOW_VUS) : undefined };
}

/** The whole benchmark: finds what to drive, measures, prints the figures and writes them under reports/load/. */
export async function benchLoad(o: LoadBenchOptions): Promise<void> {
  const withWrk = hasWrk();
  const k6 = await ensureK6();
  const target = await resolveTarget(readTargetSettings(), referenceBooter);
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-bench-load-'));
  try {
    writeLoadData(join(dir, 'load-data.json'), SEED);
    const client = new BenchClient(target.baseUrl, target.apiKey, join(dir, 'evidence'));
    const b: Bench = {
      ...o,
      k6,
      dir,
      baseUrl: target.baseUrl,
      key: target.apiKey,
      ids: await executionsToRead(client),
      plan: await lifecyclePlan(client),
    };
    if (b.ids.length === 0) throw new Error('no execution to read: no listed workflow could be run');
    console.error(`load average at the start: ${loadAverage()}`);
    console.error(
      `target ${target.how} at ${target.baseUrl}; ${b.ids.length} executions; ${b.rounds} rounds × ${b.seconds}s, ${b.connections} connections/VUs`,
    );
    const rounds = await throughputRounds(b, withWrk);
    const k6Cost = k6CheckCost(k6);
    const nodeCost = nodeCheckCost();
    const memory = o.skipMemory ? {} : await memoryPerVu(b);
    const figures = summarise(b, rounds, memory, target.how, k6Cost, nodeCost);
    printFigures(figures);
    writeFigures(figures);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await target.stop();
  }
}
