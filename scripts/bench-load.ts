/**
 * npm run bench:load — measures the load generator itself, side by side in
 * one run against the same reference target:
 *   1. the suite on the status-read route with a contract check on every response and no memo (checked
 *      in Node, --contract-mode offload), against a bare k6 request loop on the same route (goal ≥ 0.8),
 *      next to wrk, the suite with checks off, with memoised verdicts, checking in the VU, and handing
 *      responses over in the VUs' JavaScript (as on a stock k6) instead of the suite's k6 extension,
 *   2. the suite's lifecycle mix (upload → run with a file variable → poll → output, a share aborted),
 *      every response checked in Node, no memo, against the same mix as a bare k6 loop (goal ≥ 0.7),
 *   3. k6 memory per VU (peak RSS at two VU counts),
 *   4. what one contract check costs, in µs, inside k6's runtime and in Node, on the
 *      same response bodies (proof/bench/k6/check-samples.ts), with JSON.parse alone in k6
 *      as the share no checking code can avoid.
 * Each goal's pair runs back to back, its order flipped every round, so drift on a shared machine hits
 * both sides alike; every round's figures and ratios are printed, the verdicts take the median ratio.
 *
 *   npm run bench:load -- [--rounds 3] [--seconds 10] [--connections 10] [--skip-memory]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../foundation/environment/command.ts';
import { positiveInt } from '../foundation/environment/rules.ts';
import { resolveTarget } from '../foundation/environment/target.ts';
import { ensureK6 } from '../load/node/ensure-k6.ts';
import { writeLoadData } from '../load/node/prepare-data.ts';
import { runK6 } from '../load/node/run-k6.ts';
import { LOAD_PROFILES } from '../load/lib/profiles.ts';
import { REPO_ROOT, REPORTS_ROOT } from '../load/node/run-dir.ts';
import { operationRows, table } from '../load/lib/report.ts';
import { checkResponse } from '../contracts/check.ts';
import type { BenchPlan } from '../proof/bench/k6/bare-lifecycle.ts';
import { CHECK_HEADERS, CHECK_SAMPLES, type CheckCost } from '../proof/bench/k6/check-samples.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));
const SEED = 4242;

/** What every measurement of one benchmark run shares. */
interface Bench {
  k6: string;
  baseUrl: string;
  key: string;
  /** Executions whose status the read measurements poll. */
  ids: string[];
  /** Workflows the bare lifecycle loop drives (proof/bench/k6/bare-lifecycle.ts). */
  plan: BenchPlan;
  /** Scratch folder (scripts, data, k6 reports), removed at the end. */
  dir: string;
  rounds: number;
  seconds: number;
  connections: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function api(baseUrl: string, key: string, path: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(baseUrl + path, {
    ...init,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...(init.headers ?? {}) },
  });
  return res.json();
}

/** Executions to read: one run of each workflow without required variables (what a status poller reads). */
async function executions(baseUrl: string, key: string): Promise<string[]> {
  const list = (await api(baseUrl, key, '/openapi/workflows?page=1&pageSize=50')).data as { canvasId: string }[];
  const ids: string[] = [];
  for (const w of list) {
    const r = await api(baseUrl, key, `/openapi/workflow/${w.canvasId}/run`, {
      method: 'POST',
      body: JSON.stringify({ variables: {} }),
    });
    if (r?.data?.executionId) ids.push(r.data.executionId);
  }
  await new Promise((ok) => setTimeout(ok, 1500));
  return ids;
}

interface Variable {
  name: string;
  variableType?: string;
  required?: boolean;
  options?: string[];
}

/**
 * The workflows the bare lifecycle loop drives, found as the suite's discovery finds them: required
 * variables filled (a file variable with an upload's key), one trial run each, only those that finish.
 */
async function lifecyclePlan(baseUrl: string, key: string): Promise<BenchPlan> {
  const form = new FormData();
  form.append('files', new Blob(['load test brief'], { type: 'text/plain' }), 'brief.txt');
  const upload = await fetch(`${baseUrl}/openapi/files/upload`, {
    method: 'POST',
    body: form,
    headers: { Authorization: `Bearer ${key}` },
  });
  const fileKey = ((await upload.json()) as { data: { files: { fileKey: string }[] } }).data.files[0]!.fileKey;
  const list = (await api(baseUrl, key, '/openapi/workflows?page=1&pageSize=50')).data as {
    canvasId: string;
    title: string;
  }[];
  const tried: {
    canvasId: string;
    title: string;
    variables: Record<string, unknown>;
    fileVariables: string[];
    id?: string;
  }[] = [];
  for (const w of list) {
    const vars = ((await api(baseUrl, key, `/openapi/workflows/${w.canvasId}`)).data?.variables ?? []) as Variable[];
    const variables: Record<string, unknown> = {};
    for (const v of vars.filter((x) => x.required))
      variables[v.name] =
        v.variableType === 'option' ? v.options?.[0] : v.variableType === 'resource' ? fileKey : 'load test';
    const r = await api(baseUrl, key, `/openapi/workflow/${w.canvasId}/run`, {
      method: 'POST',
      body: JSON.stringify({ variables }),
    });
    tried.push({
      ...w,
      variables,
      fileVariables: vars.filter((x) => x.variableType === 'resource').map((x) => x.name),
      id: r?.data?.executionId,
    });
  }
  await new Promise((ok) => setTimeout(ok, 12_000)); // the slow workflow's trial run must end
  const finished = [];
  for (const t of tried.filter((x) => x.id))
    if ((await api(baseUrl, key, `/openapi/workflow/${t.id}/status`)).data?.status === 'finish') finished.push(t);
  const slow = finished.filter((w) => /slow|long|batch/i.test(w.title));
  return {
    plain: finished,
    withFile: finished.filter((w) => w.fileVariables.length > 0),
    abortable: slow.length ? slow : finished,
  };
}

function wrk(b: Bench): number {
  const url = new URL(b.baseUrl);
  const script = join(b.dir, 'status.lua');
  // The key lives in a private temp file, not on the command line.
  writeFileSync(
    script,
    [
      `wrk.headers["Authorization"] = "Bearer ${b.key}"`,
      `local ids = { ${b.ids.map((i) => JSON.stringify(i)).join(', ')} }`,
      'local n = 0',
      'request = function()',
      '  n = n % #ids + 1',
      `  return wrk.format("GET", "${url.pathname}/openapi/workflow/" .. ids[n] .. "/status")`,
      'end',
    ].join('\n'),
    { mode: 0o600 },
  );
  const out = execFileSync('wrk', ['-t2', `-c${b.connections}`, `-d${b.seconds}s`, '-s', script, `${url.origin}/`], {
    encoding: 'utf8',
  });
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
async function k6Bare(b: Bench): Promise<number> {
  const script = join(b.dir, 'bare.js');
  writeFileSync(
    script,
    [
      `const ids = ${JSON.stringify(b.ids)};`,
      `const params = { headers: { Authorization: 'Bearer ' + __ENV.API_KEY } };`,
      `export const options = { scenarios: { s: { executor: 'constant-vus', vus: ${b.connections}, duration: '${b.seconds}s' } }, summaryTrendStats: ['count'] };`,
      `import http from 'k6/http';`,
      `let n = 0;`,
      `export default function () { n = (n + 1) % ids.length; http.get('${b.baseUrl}/openapi/workflow/' + ids[n] + '/status', params); }`,
      `export function handleSummary(d) { return { '${join(b.dir, 'bare.json')}': JSON.stringify(d.metrics.http_reqs.values) }; }`,
    ].join('\n'),
    { mode: 0o600 },
  );
  execFileSync(b.k6, ['run', '--quiet', script], {
    env: { ...process.env, API_KEY: b.key, K6_NO_USAGE_REPORT: 'true' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const values = JSON.parse(readFileSync(join(b.dir, 'bare.json'), 'utf8')) as { count: number };
  return values.count / b.seconds;
}

/** The lifecycle mix as a bare k6 loop (proof/bench/k6/bare-lifecycle.ts), same VUs, same poll pause. */
function k6BareLifecycle(b: Bench): number {
  const planFile = join(b.dir, 'plan.json');
  const summary = join(b.dir, 'bare-lifecycle.json');
  writeFileSync(planFile, JSON.stringify(b.plan), { mode: 0o600 });
  execFileSync(b.k6, ['run', '--quiet', join(REPO_ROOT, 'proof', 'bench', 'k6', 'bare-lifecycle.ts')], {
    env: {
      ...process.env,
      K6_NO_USAGE_REPORT: 'true',
      BASE_URL: b.baseUrl,
      API_KEY: b.key,
      BENCH_PLAN: planFile,
      SEED: String(SEED),
      VUS: String(b.connections),
      DURATION: `${b.seconds}s`,
      POLL_S: String(LIFECYCLE_POLL_MS / 1000),
      SUMMARY_FILE: summary,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return (JSON.parse(readFileSync(summary, 'utf8')) as { count: number }).count / b.seconds;
}

/** Poll pause of both lifecycle loops: short, so they measure the generator rather than the workflows' pace. */
const LIFECYCLE_POLL_MS = 1;

interface K6Figures {
  reqPerSec: number;
  peakRssKb?: number;
}

interface SuiteRun {
  vusScale?: number;
  scenarios?: string;
  contractMode?: 'vu' | 'offload';
  /** load/main.ts even on the suite's k6 build: offload mode's hand-over in the VUs' JavaScript, as on a stock k6. */
  portableEntry?: boolean;
}

async function k6Run(b: Bench, name: string, env: Record<string, string>, run: SuiteRun = {}): Promise<K6Figures> {
  const reportDir = join(b.dir, name);
  const dataFile = join(b.dir, 'load-data.json');
  const r = await runK6({
    k6: b.k6,
    baseUrl: b.baseUrl,
    apiKey: b.key,
    profile: 'throughput',
    seed: SEED,
    reportDir,
    dataFile,
    scenarios: run.scenarios ?? 'statusRead',
    duration: `${b.seconds}s`,
    quiet: true,
    vusScale: run.vusScale ?? 1,
    contractMode: run.contractMode ?? 'vu',
    portableEntry: run.portableEntry,
    // Short trial waits: the status-read scenario only needs execution ids.
    env: { WORKFLOW_TIMEOUT_MS: '3000', ...env },
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
  const script = join(REPO_ROOT, 'proof', 'bench', 'k6', 'check-cost.ts');
  const out = spawnSync(k6, ['run', '--quiet', '--summary-mode=disabled', '--no-color', script], {
    encoding: 'utf8',
    env: { ...process.env, K6_NO_USAGE_REPORT: 'true' },
  });
  const line = `${out.stdout}\n${out.stderr}`.split('\n').find((l) => l.includes('msg="CHECK-COST '));
  if (!line) throw new Error(`k6 check-cost run printed no figures (exit ${out.status}):\n${out.stderr.slice(-2000)}`);
  const escaped = line.slice(
    line.indexOf('msg="CHECK-COST ') + 'msg="CHECK-COST '.length,
    line.lastIndexOf('" source=console'),
  );
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

/** Request rates of every round, per tool (wrk only when installed). */
interface Rounds {
  wrk: number[];
  bare: number[];
  on: number[];
  off: number[];
  raw: number[];
  offload: number[];
  offloadJs: number[];
  bareLifecycle: number[];
  lifecycle: number[];
  lifecycleOffload: number[];
  loadAverage: string[];
}

/** Runs two measurements back to back, in the given order. */
async function pair(first: () => Promise<void>, second: () => Promise<void>, flip: boolean): Promise<void> {
  if (flip) {
    await second();
    await first();
  } else {
    await first();
    await second();
  }
}

/**
 * The throughput rounds. Each goal's two measurements (the bare k6 loop and the suite) run back to back at
 * the start of a round, in an order that flips every round: on a shared machine the load drifts within
 * minutes, and a pair measured a minute apart would read that drift as the suite's cost. The other
 * variants follow, for the picture.
 */
async function throughputRounds(b: Bench, hasWrk: boolean): Promise<Rounds> {
  const r: Rounds = {
    wrk: [],
    bare: [],
    on: [],
    off: [],
    raw: [],
    offload: [],
    offloadJs: [],
    bareLifecycle: [],
    lifecycle: [],
    lifecycleOffload: [],
    loadAverage: [],
  };
  const noMemo = { CONTRACT_CHECK_SAMPLE: '1', CONTRACT_CHECK_MEMO: '0' };
  const lifecycleEnv = { ...noMemo, POLL_INTERVAL_MS: String(LIFECYCLE_POLL_MS), WORKFLOW_TIMEOUT_MS: '20000' };
  const lifecycle = { vusScale: b.connections / LOAD_PROFILES.throughput.vus.lifecycle, scenarios: 'lifecycle' };
  for (let round = 1; round <= b.rounds; round++) {
    const note = (what: string, values: number[]) =>
      console.error(`round ${round}: ${what} ${values.at(-1)!.toFixed(0)} req/s`);
    const measure = (what: string, into: number[], rate: () => Promise<number> | number) => async () => {
      into.push(await rate());
      note(what, into);
    };
    const flip = round % 2 === 0;
    await pair(
      measure('k6 bare loop', r.bare, () => k6Bare(b)),
      measure(
        'k6 suite, checks on, no memo, checked in Node',
        r.offload,
        async () => (await k6Run(b, `offload-${round}`, noMemo, { contractMode: 'offload' })).reqPerSec,
      ),
      flip,
    );
    await pair(
      measure('k6 bare lifecycle loop', r.bareLifecycle, () => k6BareLifecycle(b)),
      measure(
        'k6 suite lifecycle mix, checks on, no memo, checked in Node',
        r.lifecycleOffload,
        async () =>
          (await k6Run(b, `lifecycle-offload-${round}`, lifecycleEnv, { ...lifecycle, contractMode: 'offload' }))
            .reqPerSec,
      ),
      flip,
    );
    if (hasWrk) await measure('wrk', r.wrk, () => wrk(b))();
    await measure(
      'k6 suite, checks on (memo)',
      r.on,
      async () => (await k6Run(b, `on-${round}`, { CONTRACT_CHECK_SAMPLE: '1' })).reqPerSec,
    )();
    await measure(
      'k6 suite, checks off',
      r.off,
      async () => (await k6Run(b, `off-${round}`, { CONTRACT_CHECK_SAMPLE: '0' })).reqPerSec,
    )();
    await measure(
      'k6 suite, checks on, no memo, in the VU',
      r.raw,
      async () => (await k6Run(b, `raw-${round}`, noMemo)).reqPerSec,
    )();
    await measure(
      "k6 suite, checks on, no memo, checked in Node, handed over by the VUs' JavaScript",
      r.offloadJs,
      async () =>
        (await k6Run(b, `offload-js-${round}`, noMemo, { contractMode: 'offload', portableEntry: true })).reqPerSec,
    )();
    await measure(
      'k6 suite lifecycle mix, checks on, no memo, in the VU',
      r.lifecycle,
      async () => (await k6Run(b, `lifecycle-${round}`, lifecycleEnv, lifecycle)).reqPerSec,
    )();
    r.loadAverage.push(loadAverage());
    console.error(`round ${round}: load average ${r.loadAverage.at(-1)}`);
  }
  return r;
}

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const LOW_VUS = 10;
const HIGH_VUS = 200;

/** Memory per VU: idle-ish VUs (think time) at two counts; the difference divided by the VU difference. */
async function memoryPerVu(b: Bench): Promise<{ low?: number; high?: number; perVuKb?: number }> {
  const low = (await k6Run(b, 'mem-low', { THINK_TIME_S: '0.5' }, { vusScale: LOW_VUS / 10 })).peakRssKb;
  const high = (await k6Run(b, 'mem-high', { THINK_TIME_S: '0.5' }, { vusScale: HIGH_VUS / 10 })).peakRssKb;
  return { low, high, perVuKb: low && high ? (high - low) / (HIGH_VUS - LOW_VUS) : undefined };
}

type Memory = Awaited<ReturnType<typeof memoryPerVu>>;

/** Medians and ratios of the measurements, as written to the figures file. */
function summarise(
  b: Bench,
  r: Rounds,
  memory: Memory,
  how: string,
  k6Cost: CheckCost[],
  nodeCost: Record<string, number>,
) {
  const hasWrk = r.wrk.length > 0;
  const [k6On, k6Off, k6Raw, bare] = [median(r.on), median(r.off), median(r.raw), median(r.bare)];
  const wrkMedian = hasWrk ? median(r.wrk) : undefined;
  // Ratios within each round (same minute, same machine state) are the fairer comparison on a shared machine.
  const roundRatios = {
    k6VsWrk: hasWrk ? r.on.map((v, i) => v / r.wrk[i]) : [],
    checksOnVsOff: r.on.map((v, i) => v / r.off[i]),
    checksOnWithoutMemoVsOff: r.raw.map((v, i) => v / r.off[i]),
    checkedInVuVsBare: r.raw.map((v, i) => v / r.bare[i]),
    checkedVsBare: r.offload.map((v, i) => v / r.bare[i]),
    checkedJsVsBare: r.offloadJs.map((v, i) => v / r.bare[i]),
    lifecycleInVuVsBare: r.lifecycle.map((v, i) => v / r.bareLifecycle[i]),
    lifecycleVsBare: r.lifecycleOffload.map((v, i) => v / r.bareLifecycle[i]),
  };
  return {
    roundRatios,
    medianRoundRatioK6VsWrk: hasWrk ? median(roundRatios.k6VsWrk) : undefined,
    medianRoundRatioChecksOnVsOff: median(roundRatios.checksOnVsOff),
    medianRoundRatioChecksOnWithoutMemoVsOff: median(roundRatios.checksOnWithoutMemoVsOff),
    medianRoundRatioCheckedVsBare: median(roundRatios.checkedVsBare),
    medianRoundRatioLifecycleVsBare: median(roundRatios.lifecycleVsBare),
    wrkReqPerSec: wrkMedian,
    k6ChecksOnReqPerSec: k6On,
    k6ChecksOffReqPerSec: k6Off,
    k6VsWrk: wrkMedian ? k6On / wrkMedian : undefined,
    k6VsWrkChecksOff: wrkMedian ? k6Off / wrkMedian : undefined,
    checksOnVsOff: k6On / k6Off,
    checksOnWithoutMemoVsOff: k6Raw / k6Off,
    k6ChecksOnWithoutMemoReqPerSec: k6Raw,
    peakRssKb: { [LOW_VUS]: memory.low, [HIGH_VUS]: memory.high },
    memoryPerVuKb: memory.perVuKb,
    k6BareReqPerSec: bare,
    k6BareVsWrk: wrkMedian ? bare / wrkMedian : undefined,
    rounds: r,
    seconds: b.seconds,
    connections: b.connections,
    target: how,
    checkCostUs: k6Cost.map((c) => ({ ...c, nodeCheckUs: nodeCost[c.name] })),
  };
}

type Figures = ReturnType<typeof summarise>;

const f = (n: number | undefined, d = 0) => (n === undefined ? 'n/a' : n.toFixed(d));

const GOAL_CHECKED_VS_BARE = 0.8;
const GOAL_LIFECYCLE_VS_BARE = 0.7;

/** The two goals, round by round, with every variant's rate and the machine's load average. */
function printRounds(x: Figures): void {
  const r = x.rounds;
  const verdict = (v: number, goal: number) => `${f(v, 2)} ${v >= goal ? 'meets' : 'misses'} ≥ ${goal}`;
  console.log(
    table(
      [
        [
          'round',
          'bare',
          'on Node',
          'bare lc',
          'lc Node',
          'Node/bare',
          'lc Node/bare',
          'wrk',
          'off',
          'on memo',
          'on VU',
          'Node JS',
          'lc VU',
          'VU/bare',
          'Node JS/bare',
          'lc VU/bare',
          'load average',
        ],
        ...r.bare.map((_, i) => [
          String(i + 1),
          f(r.bare[i]),
          f(r.offload[i]),
          f(r.bareLifecycle[i]),
          f(r.lifecycleOffload[i]),
          `${f(x.roundRatios.checkedVsBare[i], 2)} ${x.roundRatios.checkedVsBare[i]! >= GOAL_CHECKED_VS_BARE ? '✓' : '✗'}`,
          `${f(x.roundRatios.lifecycleVsBare[i], 2)} ${x.roundRatios.lifecycleVsBare[i]! >= GOAL_LIFECYCLE_VS_BARE ? '✓' : '✗'}`,
          f(r.wrk[i]),
          f(r.off[i]),
          f(r.on[i]),
          f(r.raw[i]),
          f(r.offloadJs[i]),
          f(r.lifecycle[i]),
          f(x.roundRatios.checkedInVuVsBare[i], 2),
          f(x.roundRatios.checkedJsVsBare[i], 2),
          f(x.roundRatios.lifecycleInVuVsBare[i], 2),
          r.loadAverage[i] ?? '',
        ]),
      ],
      1,
    ),
  );
  console.log(
    'req/s per round. bare / bare lc: the bare k6 loop on the status route / the lifecycle mix as a bare k6 loop, each run',
  );
  console.log(
    'back to back with the suite variant it is compared with (on Node / lc Node: every response checked without memo',
  );
  console.log(
    "in Node, --contract-mode offload, handed over by the suite's k6 extension), the order flipped every round. Then, for",
  );
  console.log(
    'the picture: wrk; the suite with checks off, on with memoised verdicts, on without memo in the VU; Node JS: checked',
  );
  console.log(
    "in Node, handed over by the VUs' JavaScript (a stock k6); lc VU: the lifecycle mix checked in the VU. ✓/✗: the",
  );
  console.log(
    `round's ratio against its goal (≥ ${GOAL_CHECKED_VS_BARE} status route, ≥ ${GOAL_LIFECYCLE_VS_BARE} lifecycle mix).`,
  );
  console.log('');
  console.log(
    `suite, every response checked (in Node), no memo / bare k6 loop, status route, median of ${r.bare.length} rounds: ${verdict(x.medianRoundRatioCheckedVsBare, GOAL_CHECKED_VS_BARE)}`,
  );
  console.log(
    `suite lifecycle mix, every response checked (in Node), no memo / the same mix as a bare k6 loop, median of ${r.bare.length} rounds: ${verdict(x.medianRoundRatioLifecycleVsBare, GOAL_LIFECYCLE_VS_BARE)}`,
  );
  console.log(
    `(the hand-over in the VUs' JavaScript instead, as on a stock k6: status route ${f(median(x.roundRatios.checkedJsVsBare), 2)}; checking in the VU: status route ${f(median(x.roundRatios.checkedInVuVsBare), 2)}, lifecycle mix ${f(median(x.roundRatios.lifecycleInVuVsBare), 2)})`,
  );
  console.log('');
}

function printFigures(x: Figures): void {
  printRounds(x);
  const hasWrk = x.rounds.wrk.length > 0;
  const rss = x.peakRssKb;
  console.log(
    table([
      ['measure', 'value', 'goal'],
      ['wrk, status read (req/s, median)', hasWrk ? f(x.wrkReqPerSec) : 'wrk not installed', ''],
      ['k6, bare request loop, no suite code (req/s)', f(x.k6BareReqPerSec), ''],
      ['k6, status read, checks on (req/s)', f(x.k6ChecksOnReqPerSec), ''],
      ['k6, status read, checks off (req/s)', f(x.k6ChecksOffReqPerSec), ''],
      ['k6, status read, checks on, no memo (req/s)', f(x.k6ChecksOnWithoutMemoReqPerSec), ''],
      ['k6 (checks on) / wrk', f(x.k6VsWrk, 2), '≥ 0.5'],
      ['k6 (checks off) / wrk', f(x.k6VsWrkChecksOff, 2), ''],
      ['k6 bare loop / wrk (the engine alone)', f(x.k6BareVsWrk, 2), ''],
      ['k6 (checks on) / wrk, median of per-round ratios', f(x.medianRoundRatioK6VsWrk, 2), '≥ 0.5'],
      ['k6 checks on / off', f(x.checksOnVsOff, 2), ''],
      ['k6 checks on / off, median of per-round ratios', f(x.medianRoundRatioChecksOnVsOff, 2), ''],
      ['k6 checks on without memo / off', f(x.checksOnWithoutMemoVsOff, 2), ''],
      [
        'k6 checks on without memo / off, median of per-round ratios',
        f(x.medianRoundRatioChecksOnWithoutMemoVsOff, 2),
        '',
      ],
      [
        `k6 peak RSS at ${LOW_VUS} / ${HIGH_VUS} VUs (MiB)`,
        rss[LOW_VUS] === undefined
          ? 'not measured (--skip-memory)'
          : `${f((rss[LOW_VUS] ?? 0) / 1024, 1)} / ${f((rss[HIGH_VUS] ?? 0) / 1024, 1)}`,
        '',
      ],
      ['k6 memory per VU (KiB)', f(x.memoryPerVuKb), ''],
    ]),
  );
  console.log('');
  console.log(
    table(
      [
        ['one contract check (µs per response)', 'bytes', 'k6', 'k6 JSON.parse alone', 'Node', 'k6 / Node'],
        ...x.checkCostUs.map((c) => [
          c.name,
          String(c.bytes),
          f(c.checkUs, 1),
          f(c.jsonParseUs, 1),
          f(c.nodeCheckUs, 1),
          f(c.checkUs / (c.nodeCheckUs ?? NaN), 0),
        ]),
      ],
      1,
    ),
  );
}

function writeFigures(x: Figures): void {
  mkdirSync(REPORTS_ROOT, { recursive: true });
  const out = join(REPORTS_ROOT, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(out, `${JSON.stringify(x, null, 2)}\n`);
  console.error(`figures written to ${out}`);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string' },
      seconds: { type: 'string' },
      connections: { type: 'string' },
      'skip-memory': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const shape = {
    rounds: positiveInt(values.rounds, '--rounds', 3),
    seconds: positiveInt(values.seconds, '--seconds', 10),
    connections: positiveInt(values.connections, '--connections', 10),
  };
  const hasWrk = spawnSync('wrk', ['-v']).error === undefined;
  const k6 = await ensureK6();
  const target = await resolveTarget();
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-bench-load-'));
  try {
    writeLoadData(join(dir, 'load-data.json'), SEED);
    const b: Bench = {
      ...shape,
      k6,
      dir,
      baseUrl: target.baseUrl,
      key: target.apiKey,
      ids: await executions(target.baseUrl, target.apiKey),
      plan: await lifecyclePlan(target.baseUrl, target.apiKey),
    };
    console.error(`load average at the start: ${loadAverage()}`);
    console.error(
      `target ${target.how} at ${target.baseUrl}; ${b.ids.length} executions; ${b.rounds} rounds × ${b.seconds}s, ${b.connections} connections/VUs`,
    );
    const rounds = await throughputRounds(b, hasWrk);
    const k6Cost = k6CheckCost(k6);
    const nodeCost = nodeCheckCost();
    const memory = values['skip-memory'] ? {} : await memoryPerVu(b);
    const figures = summarise(b, rounds, memory, target.how, k6Cost, nodeCost);
    printFigures(figures);
    writeFigures(figures);
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await target.stop();
  }
}

runCommand('bench:load', main, { usage: USAGE, failure: (err) => `bench:load failed: ${err.message}`, failureCode: 1 });
