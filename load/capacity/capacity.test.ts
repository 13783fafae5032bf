/**
 * The capacity search end to end, kept short (tiny budgets): the same target served by 4 workers and then
 * by 1 (fixtures/hostile/worker-pool.ts: its throughput cannot pass workers / service time). A search of
 * the fast one writes its reports and the manifest at the found rate and is saved as the baseline; a
 * search of the slowed one fails against it, naming the gate that broke first above its capacity. Serial:
 * the second test reads the first one's baseline.
 */
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTarget, type StartedTarget } from '../../fixtures/reference/server.ts';
import { startWorkerPool, type WorkerPool } from '../../fixtures/hostile/worker-pool.ts';
import type { CapacityReport } from './report.ts';
import { ensureK6 } from '../node/ensure-k6.ts';

test.describe.configure({ mode: 'serial' });

const BIN = resolve(fileURLToPath(new URL('../..', import.meta.url)), 'bin', 'wfcheck.mjs');
/** Service time of a worker: 1 worker serves 25 requests/s, 4 serve 100 (about 4 and 16 lifecycles/s). */
const SERVICE_MS = 40;

let k6 = '';
let target: StartedTarget;
const pools: WorkerPool[] = [];
let scratch = '';

test.beforeAll(async ({}, info) => {
  info.setTimeout(15 * 60_000); // the first k6 build from source takes minutes
  k6 = await ensureK6((l) => console.log(l));
  // Short node steps keep the slowest seeded workflow (30× multiplier) to a few seconds: a short discovery.
  target = await startTarget({ nodeDurationMs: 10 });
  scratch = mkdtempSync(join(tmpdir(), 'wfcheck-capacity-'));
});

test.afterAll(async () => {
  for (const p of pools) await p.close();
  await target?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

interface Ran {
  code: number | null;
  out: string;
}

/** `wfcheck load capacity` against a pool of `workers` in front of the target. */
async function capacity(workers: number, name: string, args: string[]): Promise<Ran & { dir: string }> {
  const pool = await startWorkerPool(target.baseUrl, { workers, serviceMs: SERVICE_MS });
  pools.push(pool);
  const dir = join(scratch, name);
  const env = {
    ...process.env,
    BASE_URL: pool.baseUrl,
    API_KEY: target.tenants[0].apiKey,
    K6_BIN: k6,
    WFCHECK_HISTORY: join(scratch, 'history.sqlite'),
    FORCE_COLOR: '0',
  };
  // A coarse precision (one bisection step between the anchoring and the last confirmation) and short steps
  // (a budget under 90 s): a search converges in about a minute, with room for a busy machine's slower k6 starts.
  const common = ['--ceiling', 'off', '--start-rate', '2', '--precision', '45', '--seed', '11', '--out', dir];
  const ran = await new Promise<Ran>((done, fail) => {
    const child = spawn(process.execPath, [BIN, 'load', 'capacity', ...common, ...args], { env, cwd: scratch });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, out }));
  });
  return { ...ran, dir };
}

const reportOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as CapacityReport;

const baseline = () => join(scratch, 'baseline.json');

test(
  'a search of the target behind 4 workers finds its capacity, writes every report and the manifest at that rate',
  { tag: '@k6' },
  async ({}, info) => {
    info.setTimeout(150_000);
    const fast = await capacity(4, 'fast', ['--budget', '89s', '--name', 'pool', '--target-version', '4-workers']);
    info.annotations.push({ type: 'fast search', description: fast.out.slice(-3000) });
    expect(fast.code, fast.out).toBe(0);
    const r = reportOf(fast.dir);
    // 4 workers of 40 ms serve 100 requests/s, about 16 lifecycles/s: the capacity lies below, not far below.
    expect(r.capacity!.lifecyclesPerS).toBeGreaterThan(4);
    expect(r.capacity!.lifecyclesPerS).toBeLessThan(20);
    // Converged: a confirmation step held at it, and the knee lies within the precision above it.
    expect(r.end).toBe('found');
    expect(r.steps.find((s) => s.index === r.capacity!.step)).toMatchObject({ purpose: 'confirm', held: true });
    expect(r.knee!.rate / r.capacity!.lifecyclesPerS).toBeLessThanOrEqual(1.46);
    expect(fast.out).toMatch(/^capacity: [\d.]+ lifecycles\/s \([\d.]+ requests\/s\) with every gate held/m);
    expect(fast.out).toMatch(/→ steps? 1(–\d+)? \(ramp\)/);
    for (const f of ['report.txt', 'report.json', 'report.junit.xml', 'report.html'])
      expect(existsSync(join(fast.dir, f)), f).toBe(true);
    expect(readFileSync(join(fast.dir, 'report.html'), 'utf8')).toContain('capacity-op-');
    // The k6-operator manifest and the archive it runs hold the rate found.
    const rate = String(r.capacity!.lifecyclesPerS);
    expect(readFileSync(join(fast.dir, 'capacity-testrun.yaml'), 'utf8')).toContain(`--tag capacity_rate=${rate}`);
    expect(readFileSync(join(fast.dir, 'wfcheck-capacity.tar'), 'latin1')).toMatch(
      new RegExp(`"CAPACITY_RATE":\\s*"${rate.replace('.', '\\.')}"`),
    );
    copyFileSync(join(fast.dir, 'report.json'), baseline());
  },
);

test(
  'a search of the same target behind 1 worker fails against that baseline, naming the gate that broke first',
  { tag: '@k6' },
  async ({}, info) => {
    info.setTimeout(150_000);
    const base = JSON.parse(readFileSync(baseline(), 'utf8')) as CapacityReport;
    const slow = await capacity(1, 'slow', [
      '--budget',
      '89s',
      '--name',
      'pool',
      '--target-version',
      '1-worker',
      '--baseline',
      baseline(),
    ]);
    info.annotations.push({ type: 'slowed search', description: slow.out.slice(-3000) });
    expect(slow.code, slow.out).toBe(1);
    const r = reportOf(slow.dir);
    expect(r.baseline!.regressed).toBe(true);
    expect(r.capacity === null || r.capacity.lifecyclesPerS < base.capacity!.lifecyclesPerS * 0.9).toBe(true);
    // The failure names the capacity fallen and the gate that broke first above it.
    expect(slow.out).toMatch(/REGRESSED: capacity -\d+(\.\d)?% against the baseline's [\d.]+ lifecycles\/s/);
    expect(slow.out).toMatch(
      /capacity fell below the baseline: capacity: .*(first gate to break above it: .+ \(.+ [<>≠] .+\) at [\d.]+\/s|already at [\d.]+\/s)/,
    );
    expect(r.knee?.gate.gate).toBeTruthy();
    expect(readFileSync(join(slow.dir, 'report.junit.xml'), 'utf8')).toMatch(
      /<testcase classname="load.capacity" name="capacity against the baseline"><failure message="REGRESSED/,
    );
    // Neither the key nor anything like it reached the reports.
    for (const f of ['report.json', 'report.txt', 'report.html'])
      expect(readFileSync(join(slow.dir, f), 'utf8')).not.toContain(target.tenants[0].apiKey);
  },
);
