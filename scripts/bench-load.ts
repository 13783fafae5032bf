/**
 * npm run bench:load — measures the load generator itself, side by side in
 * one run against the same reference target:
 *   1. k6 req/s on the status-read scenario vs wrk on the same endpoint (goal ≥ 0.5),
 *      with a bare k6 request loop as a reference for what the engine alone reaches,
 *   2. k6 throughput with contract checks on every response vs off (goal ≥ 0.8),
 *      with the suite's default memoised verdicts and without them (raw check cost),
 *   3. k6 memory per VU (peak RSS at two VU counts),
 *   4. what one contract check costs, in µs, inside k6's runtime and in Node, on the
 *      same response bodies (load/bench/check-samples.ts), with JSON.parse alone in k6
 *      as the share no checking code can avoid.
 * Rounds alternate the tools so drift on a shared machine hits all of them.
 *
 *   npm run bench:load -- [--rounds 3] [--seconds 10] [--connections 10]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureK6 } from '../load/node/ensure-k6.ts';
import { bootTarget } from '../fixtures/target/boot/boot.ts';
import { writeLoadData } from '../load/node/prepare-data.ts';
import { runK6 } from '../load/node/run-k6.ts';
import { REPO_ROOT, REPORTS_ROOT } from '../load/node/run-dir.ts';
import { table } from '../load/lib/report.ts';
import { checkResponse } from '../contracts/check.ts';
import { CHECK_HEADERS, CHECK_SAMPLES, type CheckCost } from '../load/bench/check-samples.ts';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
  },
});
const ROUNDS = Number(args.rounds);
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const SEED = 4242;

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

async function api(baseUrl: string, key: string, path: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(baseUrl + path, { ...init, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...(init.headers ?? {}) } });
  return res.json();
}

/** Executions to read: one run of each workflow without required variables (what a status poller reads). */
async function executions(baseUrl: string, key: string): Promise<string[]> {
  const list = (await api(baseUrl, key, '/openapi/workflows?page=1&pageSize=50')).data as { canvasId: string }[];
  const ids: string[] = [];
  for (const w of list) {
    const r = await api(baseUrl, key, `/openapi/workflow/${w.canvasId}/run`, { method: 'POST', body: JSON.stringify({ variables: {} }) });
    if (r?.data?.executionId) ids.push(r.data.executionId);
  }
  await new Promise((ok) => setTimeout(ok, 1500));
  return ids;
}

function wrk(baseUrl: string, key: string, ids: string[], dir: string): number {
  const url = new URL(baseUrl);
  const script = join(dir, 'status.lua');
  // The key lives in a private temp file, not on the command line.
  writeFileSync(script, [
    `wrk.headers["Authorization"] = "Bearer ${key}"`,
    `local ids = { ${ids.map((i) => JSON.stringify(i)).join(', ')} }`,
    'local n = 0',
    'request = function()',
    '  n = n % #ids + 1',
    `  return wrk.format("GET", "${url.pathname}/openapi/workflow/" .. ids[n] .. "/status")`,
    'end',
  ].join('\n'), { mode: 0o600 });
  const out = execFileSync('wrk', ['-t2', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '-s', script, `${url.origin}/`], { encoding: 'utf8' });
  const m = out.match(/Requests\/sec:\s+([\d.]+)/);
  const non2xx = out.match(/Non-2xx or 3xx responses:\s+(\d+)/);
  if (non2xx) throw new Error(`wrk saw ${non2xx[1]} non-2xx answers: the comparison would be meaningless`);
  if (!m) throw new Error(`cannot read wrk output:\n${out}`);
  return Number(m[1]);
}

/**
 * The same reads with a bare k6 loop (one http.get per iteration, no suite code):
 * separates what the engine costs from what the suite adds.
 */
async function k6Bare(k6: string, baseUrl: string, key: string, ids: string[], dir: string): Promise<number> {
  const script = join(dir, 'bare.js');
  writeFileSync(script, [
    `const ids = ${JSON.stringify(ids)};`,
    `const params = { headers: { Authorization: 'Bearer ' + __ENV.API_KEY } };`,
    `export const options = { scenarios: { s: { executor: 'constant-vus', vus: ${CONNECTIONS}, duration: '${SECONDS}s' } }, summaryTrendStats: ['count'] };`,
    `import http from 'k6/http';`,
    `let n = 0;`,
    `export default function () { n = (n + 1) % ids.length; http.get('${baseUrl}/openapi/workflow/' + ids[n] + '/status', params); }`,
    `export function handleSummary(d) { return { '${join(dir, 'bare.json')}': JSON.stringify(d.metrics.http_reqs.values) }; }`,
  ].join('\n'), { mode: 0o600 });
  execFileSync(k6, ['run', '--quiet', script], { env: { ...process.env, API_KEY: key, K6_NO_USAGE_REPORT: 'true' }, stdio: ['ignore', 'ignore', 'inherit'] });
  const values = JSON.parse(readFileSync(join(dir, 'bare.json'), 'utf8')) as { count: number };
  return values.count / SECONDS;
}

interface K6Figures { reqPerSec: number; peakRssKb?: number }

async function k6Run(k6: string, baseUrl: string, key: string, dir: string, name: string, env: Record<string, string>, vusScale = 1): Promise<K6Figures> {
  const reportDir = join(dir, name);
  const dataFile = join(dir, 'load-data.json');
  const r = await runK6({
    k6, baseUrl, apiKey: key, profile: 'throughput', seed: SEED, reportDir, dataFile,
    scenarios: 'statusRead', duration: `${SECONDS}s`, quiet: true,
    // Short trial waits: the status-read scenario only needs execution ids.
    env: { WORKFLOW_TIMEOUT_MS: '3000', VUS_SCALE: String(vusScale), ...env },
  });
  if (!r.report) throw new Error(`k6 run ${name} wrote no report (exit ${r.exitCode}); see ${reportDir}/k6.log`);
  const reads = r.report.metrics['http_req_duration{operation:getExecutionStatus}']?.values.count ?? 0;
  // Setup's few status polls are included; they are < 0.1% of the scenario's reads.
  return { reqPerSec: reads / SECONDS, peakRssKb: r.peakRssKb };
}

/** µs per contract check in k6 (load/bench/check-cost.ts, one VU) on the shared samples. */
function k6CheckCost(k6: string): CheckCost[] {
  const script = join(REPO_ROOT, 'load', 'bench', 'check-cost.ts');
  const out = spawnSync(k6, ['run', '--quiet', '--summary-mode=disabled', '--no-color', script], { encoding: 'utf8', env: { ...process.env, K6_NO_USAGE_REPORT: 'true' } });
  const line = `${out.stdout}\n${out.stderr}`.split('\n').find((l) => l.includes('msg="CHECK-COST '));
  if (!line) throw new Error(`k6 check-cost run printed no figures (exit ${out.status}):\n${out.stderr.slice(-2000)}`);
  const escaped = line.slice(line.indexOf('msg="CHECK-COST ') + 'msg="CHECK-COST '.length, line.lastIndexOf('" source=console'));
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

async function main(): Promise<void> {
  const hasWrk = spawnSync('wrk', ['-v']).error === undefined;
  const k6 = await ensureK6();
  const target = await bootTarget({ log: (l) => console.error(l) });
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-bench-load-'));
  try {
    const key = target.tenants[0].apiKey;
    writeLoadData(join(dir, 'load-data.json'), SEED);
    const ids = await executions(target.baseUrl, key);
    console.error(`target ${target.how} at ${target.baseUrl}; ${ids.length} executions; ${ROUNDS} rounds × ${SECONDS}s, ${CONNECTIONS} connections/VUs`);
    const wrkRps: number[] = [];
    const on: number[] = [];
    const off: number[] = [];
    const raw: number[] = [];
    const bare: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      if (hasWrk) { wrkRps.push(wrk(target.baseUrl, key, ids, dir)); console.error(`round ${round}: wrk ${wrkRps.at(-1)!.toFixed(0)} req/s`); }
      bare.push(await k6Bare(k6, target.baseUrl, key, ids, dir));
      console.error(`round ${round}: k6 bare loop ${bare.at(-1)!.toFixed(0)} req/s`);
      on.push((await k6Run(k6, target.baseUrl, key, dir, `on-${round}`, { CONTRACT_CHECK_SAMPLE: '1' })).reqPerSec);
      console.error(`round ${round}: k6, checks on ${on.at(-1)!.toFixed(0)} req/s`);
      off.push((await k6Run(k6, target.baseUrl, key, dir, `off-${round}`, { CONTRACT_CHECK_SAMPLE: '0' })).reqPerSec);
      console.error(`round ${round}: k6, checks off ${off.at(-1)!.toFixed(0)} req/s`);
      raw.push((await k6Run(k6, target.baseUrl, key, dir, `raw-${round}`, { CONTRACT_CHECK_SAMPLE: '1', CONTRACT_CHECK_MEMO: '0' })).reqPerSec);
      console.error(`round ${round}: k6, checks on without memo ${raw.at(-1)!.toFixed(0)} req/s`);
    }
    // Memory per VU: idle-ish VUs (think time) at two counts; the difference divided by the VU difference.
    const k6Cost = k6CheckCost(k6);
    const nodeCost = nodeCheckCost();
    const lowVus = 10;
    const highVus = 200;
    const memLow = await k6Run(k6, target.baseUrl, key, dir, 'mem-low', { THINK_TIME_S: '0.5' }, lowVus / 10);
    const memHigh = await k6Run(k6, target.baseUrl, key, dir, 'mem-high', { THINK_TIME_S: '0.5' }, highVus / 10);
    const perVuKb = memLow.peakRssKb && memHigh.peakRssKb ? (memHigh.peakRssKb - memLow.peakRssKb) / (highVus - lowVus) : undefined;

    const k6On = median(on);
    const k6Off = median(off);
    const k6Raw = median(raw);
    const wrkMedian = hasWrk ? median(wrkRps) : undefined;
    // Ratios within each round (same minute, same machine state) are the fairer comparison on a shared machine.
    const roundRatios = {
      k6VsWrk: hasWrk ? on.map((v, i) => v / wrkRps[i]) : [],
      checksOnVsOff: on.map((v, i) => v / off[i]),
      checksOnWithoutMemoVsOff: raw.map((v, i) => v / off[i]),
    };
    const figures = {
      roundRatios,
      medianRoundRatioK6VsWrk: hasWrk ? median(roundRatios.k6VsWrk) : undefined,
      medianRoundRatioChecksOnVsOff: median(roundRatios.checksOnVsOff),
      medianRoundRatioChecksOnWithoutMemoVsOff: median(roundRatios.checksOnWithoutMemoVsOff),
      wrkReqPerSec: wrkMedian, k6ChecksOnReqPerSec: k6On, k6ChecksOffReqPerSec: k6Off,
      k6VsWrk: wrkMedian ? k6On / wrkMedian : undefined, k6VsWrkChecksOff: wrkMedian ? k6Off / wrkMedian : undefined,
      checksOnVsOff: k6On / k6Off, checksOnWithoutMemoVsOff: k6Raw / k6Off, k6ChecksOnWithoutMemoReqPerSec: k6Raw,
      peakRssKb: { [lowVus]: memLow.peakRssKb, [highVus]: memHigh.peakRssKb }, memoryPerVuKb: perVuKb,
      k6BareReqPerSec: median(bare), k6BareVsWrk: wrkMedian ? median(bare) / wrkMedian : undefined,
      rounds: { wrk: wrkRps, bare, on, off, raw }, seconds: SECONDS, connections: CONNECTIONS, target: target.how,
      checkCostUs: k6Cost.map((c) => ({ ...c, nodeCheckUs: nodeCost[c.name] })),
    };
    const f = (n: number | undefined, d = 0) => (n === undefined ? 'n/a' : n.toFixed(d));
    console.log(table([
      ['measure', 'value', 'goal'],
      ['wrk, status read (req/s, median)', hasWrk ? f(wrkMedian) : 'wrk not installed', ''],
      ['k6, bare request loop, no suite code (req/s)', f(median(bare)), ''],
      ['k6, status read, checks on (req/s)', f(k6On), ''],
      ['k6, status read, checks off (req/s)', f(k6Off), ''],
      ['k6, status read, checks on, no memo (req/s)', f(k6Raw), ''],
      ['k6 (checks on) / wrk', f(figures.k6VsWrk, 2), '≥ 0.5'],
      ['k6 (checks off) / wrk', f(figures.k6VsWrkChecksOff, 2), ''],
      ['k6 bare loop / wrk (the engine alone)', f(figures.k6BareVsWrk, 2), ''],
      ['k6 (checks on) / wrk, median of per-round ratios', f(figures.medianRoundRatioK6VsWrk, 2), '≥ 0.5'],
      ['k6 checks on / off', f(figures.checksOnVsOff, 2), '≥ 0.8'],
      ['k6 checks on / off, median of per-round ratios', f(figures.medianRoundRatioChecksOnVsOff, 2), '≥ 0.8'],
      ['k6 checks on without memo / off', f(figures.checksOnWithoutMemoVsOff, 2), ''],
      ['k6 checks on without memo / off, median of per-round ratios', f(figures.medianRoundRatioChecksOnWithoutMemoVsOff, 2), ''],
      [`k6 peak RSS at ${lowVus} / ${highVus} VUs (MiB)`, `${f((memLow.peakRssKb ?? 0) / 1024, 1)} / ${f((memHigh.peakRssKb ?? 0) / 1024, 1)}`, ''],
      ['k6 memory per VU (KiB)', f(perVuKb), ''],
    ]));
    console.log('');
    console.log(table([
      ['one contract check (µs per response)', 'bytes', 'k6', 'k6 JSON.parse alone', 'Node', 'k6 / Node'],
      ...k6Cost.map((c) => [c.name, String(c.bytes), f(c.checkUs, 1), f(c.jsonParseUs, 1), f(nodeCost[c.name], 1), f(c.checkUs / (nodeCost[c.name] ?? NaN), 0)]),
    ], 1));
    mkdirSync(REPORTS_ROOT, { recursive: true });
    const out = join(REPORTS_ROOT, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(out, `${JSON.stringify(figures, null, 2)}\n`);
    console.error(`figures written to ${out}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await target.stop();
  }
}

main().catch((err: Error) => { console.error(`bench:load failed: ${err.message}`); process.exit(1); });
