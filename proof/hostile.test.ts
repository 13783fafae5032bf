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
 * A target where one operation alone is hostile (fixtures/faults/catalogue/latency-errors.ts, "single-operation
 * faults": the status endpoint never answers, the output body drips slower than the request deadline,
 * executions end in a status outside the enum) costs the run one wait at most per worker: the fault is
 * met once, named the same way in every verdict it stops, and the run ends about as soon as a healthy one.
 *
 * Runs go two at a time (each in its own workspace) to keep the whole file short.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { REQUIREMENTS } from '../contracts/requirements.ts';
import { HOSTILE_KINDS, startHostile, type HostileKind } from '../fixtures/hostile/servers.ts';
import { mutantById } from '../fixtures/faults/catalogue.ts';
import { startMutatingProxy } from '../fixtures/faults/proxy.ts';
import { startTarget } from '../fixtures/reference/server.ts';
import {
  REFERENCE_BEHIND_PROXY_ENV,
  runConformance,
  scratchOutDir,
  type ConformanceRunResult,
} from './conformance-run.ts';
import type { ConformanceReport } from '../core/findings/build-report.ts';
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

test('conformance against each hostile target ends within its bound, names the fault and writes the full report', {
  tag: '@conformance-run',
}, async () => {
  test.setTimeout((BOUND_S + MARGIN_S + 30) * 1000 * Math.ceil(HOSTILE_KINDS.length / CONCURRENCY));
  const runs = inPool(HOSTILE_KINDS, CONCURRENCY, runAgainst);
  for (const kind of HOSTILE_KINDS) {
    await test.step(`${kind} target`, async () => checkRun(kind, await runs.get(kind)!));
  }
});

// ---- one operation hostile, the others healthy -----------------------------------------------------

/** The run's workers: each may meet the fault once before the run knows it. */
const FAULT_WORKERS = 2;
/** The faulty operation, and the clauses the run may flag (none: an unanswered wait is the harness's limit). */
const SINGLE_OPERATION: Record<string, { operation: string; flags: string[] }> = {
  'status-hangs': { operation: 'getExecutionStatus', flags: [] },
  'output-drips': { operation: 'getExecutionOutput', flags: [] },
  'status-unknown-value': { operation: 'getExecutionStatus', flags: ['EXEC-STATUS-ENUM'] },
  'detail-drips': { operation: 'getWorkflowDetail', flags: [] },
  'never-ends': { operation: 'getExecutionStatus', flags: ['STATE-ENDS-WHEN-NODES-SETTLE'] },
};
/**
 * The bound on such a run: 30 s while a healthy run (the control: the same target behind the proxy,
 * unchanged) takes under about 17 s; on a machine so busy that it does not, half as long again as the
 * control and one wait per worker. A run that waited for the faulty operation at every call takes minutes.
 */
const SINGLE_OPERATION_BOUND_S = 30;
const boundFor = (controlMs: number) =>
  Math.max(SINGLE_OPERATION_BOUND_S * 1000, 1.5 * controlMs + FAULT_WORKERS * REQUEST_TIMEOUT_MS);

async function runWithFault(id: string): Promise<ConformanceRunResult> {
  const target = await startTarget({});
  const [a, b] = target.tenants;
  const proxy = await startMutatingProxy(target.baseUrl, { A: a.apiKey, B: b?.apiKey }, mutantById(id));
  const outDir = scratchOutDir(`single-${id}-${process.pid}-0`);
  try {
    // The report is read into the result: the run's folder is not needed afterwards.
    return await runConformance({
      outDir,
      baseUrl: proxy.baseUrl,
      apiKey: a.apiKey,
      apiKeyB: b?.apiKey,
      seed: 7,
      timeoutS: 120,
      workers: FAULT_WORKERS,
      env: { ...REFERENCE_BEHIND_PROXY_ENV, WFCHECK_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) },
    });
  } finally {
    await proxy.close();
    await target.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

function checkSingleOperation(id: string, run: ConformanceRunResult, control: ConformanceRunResult): void {
  const { operation, flags } = SINGLE_OPERATION[id];
  const report = run.report;
  const say = (what: string) => `[${id}] ${what}`;
  console.log(
    `${id}: exit ${run.exitCode}, ${(run.wallMs / 1000).toFixed(1)} s; ${report?.meta.incomplete ?? 'complete'}`,
  );
  expect(report, say(`no report.json:\n${run.output.slice(-1500)}`)).toBeDefined();
  if (!report) return;
  expect
    .soft(run.wallMs, say(`one faulty operation kept the run waiting (the control took ${control.wallMs} ms)`))
    .toBeLessThan(boundFor(control.wallMs));
  const flagged = report.requirements.filter((r) => r.verdict === 'fail' || r.verdict === 'warn').map((r) => r.id);
  expect.soft(flagged, say('flagged clauses')).toEqual(flags);
  // Waited for at most once per worker: later calls were answered without being sent.
  const waits = report.faults.filter((f) => f.kind === 'timeout');
  expect.soft(waits.length, say(`timeouts: ${JSON.stringify(waits)}`)).toBeLessThanOrEqual(FAULT_WORKERS);
  // Named once: every verdict the fault stopped names the same fault, on the same exchange.
  const reasons = report.requirements.flatMap((r) => r.notRunReasons).filter((t) => t.includes(operation));
  const exchanges = new Set(reasons.map((t) => /exchange (\d+-\d+)/.exec(t)?.[1]));
  if (flags.length === 0) expect.soft(reasons.length, say('nothing names the fault')).toBeGreaterThan(0);
  // A wait the harness gave up on makes the run incomplete, and its headline says which operation.
  if (flags.length === 0)
    expect.soft(report.meta.incomplete ?? '', say('the headline')).toMatch(new RegExp(`^${operation} `));
  expect
    .soft([...exchanges], say(`the fault is named differently: ${[...new Set(reasons)].join(' | ')}`))
    .toHaveLength(Math.min(1, reasons.length));
  // What needed the end of an execution outside the enum is blocked by that one clause.
  for (const r of report.requirements.filter((q) => q.verdict === 'blocked'))
    expect.soft(r.blockedBy, say(`${r.id} blocked by`)).toEqual(flags);
}

test('one operation never answering, dripping or never terminal costs the run one wait, named once', {
  tag: '@conformance-run',
}, async () => {
  const ids = Object.keys(SINGLE_OPERATION);
  test.setTimeout((SINGLE_OPERATION_BOUND_S + 60) * 1000 * Math.ceil((ids.length + 1) / CONCURRENCY));
  const runs = inPool(['control-passthrough', ...ids], CONCURRENCY, runWithFault);
  const control = await runs.get('control-passthrough')!;
  expect(control.exitCode, `the control run failed:\n${control.output.slice(-1500)}`).toBe(0);
  for (const id of ids) await test.step(id, async () => checkSingleOperation(id, await runs.get(id)!, control));
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
  test(`the load run against a "${kind}" target stops cleanly with its reason`, {
    tag: '@conformance-run',
  }, async () => {
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
