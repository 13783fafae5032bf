/**
 * The figures of `npm run bench:load`: medians and per-round ratios of the rounds' rates, the verdicts
 * against the two goals, printed as tables and written as JSON under reports/load/.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { table } from '../../load/k6/lib/run-report.ts';
import { REPORTS_ROOT } from '../../load/node/run-dir.ts';
import type { CheckCost } from './k6/check-samples.ts';

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** The two VU counts memory is measured at. */
export const LOW_VUS = 10;
export const HIGH_VUS = 200;

/** Peak RSS (KiB) at the two VU counts, and what one VU adds; empty when memory was not measured. */
export interface Memory {
  low?: number;
  high?: number;
  perVuKb?: number;
}

/** Request rates of every round, per tool (wrk only when installed). */
export interface Rounds {
  wrk: number[];
  bare: number[];
  on: number[];
  off: number[];
  raw: number[];
  offload: number[];
  bareLifecycle: number[];
  lifecycle: number[];
  lifecycleOffload: number[];
  loadAverage: string[];
}

/** Medians and ratios of the measurements, as written to the figures file. */
export function summarise(
  b: { seconds: number; connections: number },
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

export type Figures = ReturnType<typeof summarise>;

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
          'lc VU',
          'VU/bare',
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
          f(r.lifecycle[i]),
          f(x.roundRatios.checkedInVuVsBare[i], 2),
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
    'in Node, --contract-mode offload), the order flipped every round. Then, for the picture: wrk; the suite with checks',
  );
  console.log(
    'off, on with memoised verdicts, on without memo in the VU; lc VU: the lifecycle mix checked in the VU. ✓/✗: the',
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
    `(checking in the VU instead, as distributed and Kubernetes runs do: status route ${f(median(x.roundRatios.checkedInVuVsBare), 2)}, lifecycle mix ${f(median(x.roundRatios.lifecycleInVuVsBare), 2)})`,
  );
  console.log('');
}

export function printFigures(x: Figures): void {
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

export function writeFigures(x: Figures): void {
  mkdirSync(REPORTS_ROOT, { recursive: true });
  const out = join(REPORTS_ROOT, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(out, `${JSON.stringify(x, null, 2)}\n`);
  console.error(`figures written to ${out}`);
}
