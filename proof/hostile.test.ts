/**
 * The harness against hostile targets (fixtures/hostile/): down, hang, connection reset, a 502 HTML
 * page, invalid JSON, a 20 MB body, a slow drip. For each, the conformance run must
 * - end by itself within its bound (--timeout) plus a margin for start-up and report writing,
 * - exit non-zero,
 * - write the full report (every catalogue requirement with a verdict),
 * - name the fault (its transport-fault kind, or the failing clause that shows it).
 * A target that cannot be reached at all (refused, hang, reset, a body that never completes) fails the
 * run's first probe request, and one that answers every operation unusably (a 502 page, a body that is
 * not JSON) fails its probes: the run must then stop within seconds with exit 2, not run its tests, and
 * leave every requirement "not run" with the fault named.
 * The load run must stop cleanly with its reason against a refused and a 502 target.
 *
 * Runs go two at a time (each in its own workspace) to keep the whole file near two minutes.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { REQUIREMENTS } from '../contracts/requirements.ts';
import { HOSTILE_KINDS, startHostile, type HostileKind } from '../fixtures/hostile/servers.ts';
import { runConformance, scratchOutDir, type ConformanceRunResult } from './conformance-run.ts';
import type { ConformanceReport } from '../scenarios/verdict/report.ts';
import { runLoadCli, type LoadCliRun } from './load-run.ts';

/** The run's own deadline. */
const BOUND_S = 25;
/** Start-up of the runner and its workers, the backstop's grace and report writing, on a busy 2-core machine. */
const MARGIN_S = 45;
const REQUEST_TIMEOUT_MS = 2_000;
const CONCURRENCY = 2;
const FAKE_KEY = 'wfk_hostile_0123456789abcdef';
/** Targets the probe request finds unreachable, and the bound on such a run: start-up, one request timeout, the report. */
const UNREACHABLE: ReadonlySet<HostileKind> = new Set(['down', 'hang', 'reset', 'slow-drip']);
const UNREACHABLE_BOUND_S = 15;
/** Targets that answer, but no operation usably: the probes stop the run within 20 s. */
const BROKEN: ReadonlySet<HostileKind> = new Set(['html-502', 'invalid-json']);
const BROKEN_BOUND_S = 20;

/** How each fault must show in the report. */
const NAMED: Record<HostileKind, (r: ConformanceReport) => boolean> = {
  down: (r) => r.faults.some((f) => f.kind === 'connection-refused'),
  hang: (r) => r.faults.some((f) => f.kind === 'timeout'),
  reset: (r) => r.faults.some((f) => f.kind === 'connection-reset'),
  'html-502': (r) => /the target is broken .*502 text\/html/.test(r.meta.incomplete ?? ''),
  'invalid-json': (r) => /the target is broken .*not JSON/.test(r.meta.incomplete ?? ''),
  'huge-body': (r) => r.faults.some((f) => f.kind === 'body-too-large'),
  'slow-drip': (r) => r.faults.some((f) => f.kind === 'timeout'),
};

function failureMessages(r: ConformanceReport): string[] {
  return [
    ...r.requirements.flatMap((q) => q.failures.map((f) => f.message)),
    ...r.failedTests.map((t) => t.error ?? ''),
  ];
}

async function runAgainst(kind: HostileKind): Promise<ConformanceRunResult> {
  const target = await startHostile(kind);
  try {
    return await runConformance({
      outDir: scratchOutDir(`hostile-${kind}-${process.pid}-0`),
      baseUrl: target.baseUrl,
      apiKey: FAKE_KEY,
      apiKeyB: `${FAKE_KEY}_b`,
      seed: 7,
      timeoutS: BOUND_S,
      workers: 2,
      env: { WFCHECK_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), WFCHECK_POLL_TIMEOUT_MS: '5000' },
      graceMs: (MARGIN_S + 30) * 1000,
    });
  } finally {
    await target.close();
  }
}

/** Runs `fn` over `keys`, at most `size` at a time; each key's promise settles with its own run. */
function inPool<K, T>(keys: readonly K[], size: number, fn: (k: K) => Promise<T>): Map<K, Promise<T>> {
  let free = size;
  const waiting: (() => void)[] = [];
  const acquire = (): Promise<void> => {
    if (free > 0) {
      free--;
      return Promise.resolve();
    }
    return new Promise<void>((r) => waiting.push(r));
  };
  const release = () => {
    const w = waiting.shift();
    if (w) w();
    else free++;
  };
  return new Map(
    keys.map((k) => [
      k,
      acquire()
        .then(() => fn(k))
        .finally(release),
    ]),
  );
}

function checkRun(kind: HostileKind, run: ConformanceRunResult): void {
  console.log(
    `${kind}: exit ${run.exitCode}, ${(run.wallMs / 1000).toFixed(1)} s${run.hung ? ', HUNG' : ''}; faults ${[...new Set(run.report?.faults.map((f) => f.kind))].join(', ') || 'none'}; ${run.report?.meta.incomplete ?? 'complete'}`,
  );
  const tail = run.output.split('\n').slice(-15).join('\n');
  const say = (what: string) => `[${kind}] ${what}`;
  expect.soft(run.hung, say(`the run had to be killed:\n${tail}`)).toBe(false);
  expect.soft(run.wallMs, say(`wall time ${run.wallMs} ms over the bound`)).toBeLessThan((BOUND_S + MARGIN_S) * 1000);
  expect.soft([1, 2], say(`exit code ${run.exitCode}:\n${tail}`)).toContain(run.exitCode);
  if (UNREACHABLE.has(kind)) {
    expect.soft(run.exitCode, say(`an unreachable target is an incomplete run:\n${tail}`)).toBe(2);
    expect
      .soft(run.wallMs, say(`an unreachable target took ${run.wallMs} ms`))
      .toBeLessThan(UNREACHABLE_BOUND_S * 1000);
    expect
      .soft(run.report?.meta.incomplete ?? '', say('the report names the target unreachable'))
      .toMatch(/cannot be reached \((connection-refused|timeout|connection-reset)/);
    expect.soft(run.report?.summary.tests.total, say('no test runs against an unreachable target')).toBe(0);
  }
  if (BROKEN.has(kind)) {
    expect.soft(run.exitCode, say(`a broken target is an incomplete run:\n${tail}`)).toBe(2);
    expect.soft(run.wallMs, say(`a broken target took ${run.wallMs} ms`)).toBeLessThan(BROKEN_BOUND_S * 1000);
    expect.soft(run.report?.summary.tests.total, say('no test runs against a broken target')).toBe(0);
    expect
      .soft(
        run.report?.requirements.filter((r) => r.verdict !== 'not-run').map((r) => r.id),
        say('every requirement not run'),
      )
      .toEqual([]);
  }
  expect.soft(run.report, say(`no report.json:\n${tail}`)).toBeDefined();
  const report = run.report;
  if (!report) return;
  expect.soft(existsSync(join(run.reportDir, 'report.md')), say('report.md')).toBe(true);
  expect.soft(existsSync(join(run.reportDir, 'report.html')), say('report.html')).toBe(true);
  // Complete: every clause of the catalogue is in the report with a verdict, none invented.
  expect
    .soft(report.requirements.map((r) => r.id).sort(), say('catalogue coverage'))
    .toEqual(REQUIREMENTS.map((r) => r.id).sort());
  const verdicts = new Set(['pass', 'fail', 'warn', 'waived', 'blocked', 'observed', 'not-run']);
  expect
    .soft(
      report.requirements.filter((r) => !verdicts.has(r.verdict)).map((r) => r.id),
      say('requirements without a verdict'),
    )
    .toEqual([]);
  // Nothing passes against a target that never answers properly.
  expect
    .soft(
      report.requirements.filter((r) => r.verdict === 'pass').map((r) => r.id),
      say('passing requirements'),
    )
    .toEqual([]);
  expect
    .soft(
      NAMED[kind](report),
      say(
        `fault not named; faults: ${JSON.stringify(report.faults.slice(0, 2))}; failures: ${failureMessages(report).slice(0, 2).join(' | ')}`,
      ),
    )
    .toBe(true);
}

test('conformance against each hostile target ends within its bound, names the fault and writes the full report', async () => {
  test.setTimeout((BOUND_S + MARGIN_S + 30) * 1000 * Math.ceil(HOSTILE_KINDS.length / CONCURRENCY));
  const runs = inPool(HOSTILE_KINDS, CONCURRENCY, runAgainst);
  for (const kind of HOSTILE_KINDS) {
    await test.step(`${kind} target`, async () => checkRun(kind, await runs.get(kind)!));
  }
});

// ---- load ---------------------------------------------------------------------------------------

function runLoad(baseUrl: string, name: string): Promise<LoadCliRun> {
  return runLoadCli({
    baseUrl,
    apiKey: FAKE_KEY,
    args: ['--profile', 'smoke', '--duration', '5s', '--run', name, '--no-dashboard'],
    killAfterMs: 120_000,
  });
}

for (const [kind, reasons] of [
  ['down', [/connection refused/]],
  // The reason names the answer, and the response that stopped the run is contract-checked all the same.
  ['html-502', [/search answered 502 \(text\/html[^)]*\)[^\n]*502 Bad Gateway/, /searchWorkflows: breaks \w/]],
] as const) {
  test(`the load run against a "${kind}" target stops cleanly with its reason`, async () => {
    test.setTimeout(180_000);
    const target = await startHostile(kind);
    try {
      const run = await runLoad(target.baseUrl, `hostile-${kind}`);
      expect(run.code, run.output.slice(-2000)).toBe(2); // "the run could not be carried out"
      expect(run.wallMs).toBeLessThan(90_000);
      expect(run.output).toMatch(/test aborted: /);
      for (const reason of reasons) expect(run.output).toMatch(reason);
      expect(run.output).not.toContain(FAKE_KEY);
    } finally {
      await target.close();
    }
  });
}
