/**
 * The harness's own deadline is never the target's failure. The reference target (a correct
 * implementation) sits behind the mutating proxy, which never answers one operation — reading an
 * execution's output — so every such request ends at the harness's per-request deadline. The run must
 * then fail no requirement (exit 0 or 2, never 1), and the clauses the hang kept from being judged must
 * be "not run" with the timeout named, neither failed nor blocked (nothing deviated to block them).
 */
import { expect, test } from '@playwright/test';
import { startTarget } from '../fixtures/reference/server.ts';
import { startMutatingProxy, type MutantBehaviour } from '../fixtures/faults/proxy.ts';
import { REFERENCE_BEHIND_PROXY_ENV, runConformance, scratchOutDir } from './conformance-run.ts';

const REQUEST_TIMEOUT_MS = 1_500;
const RUN_TIMEOUT_S = 150;

/** Answers everything but an execution's output, which is left hanging for ever (no timer, nothing to clean up). */
const HANG_OUTPUT: MutantBehaviour = {
  request: (req, ctx) => (ctx.op === 'getExecutionOutput' ? new Promise<never>(() => undefined) : req),
};

test('an operation that never answers makes its clauses "not run" with the timeout named, and fails nothing', {
  tag: '@conformance-run',
}, async () => {
  test.setTimeout((RUN_TIMEOUT_S + 90) * 1000);
  const target = await startTarget({});
  const [a, b] = target.tenants;
  const proxy = await startMutatingProxy(target.baseUrl, { A: a.apiKey, B: b?.apiKey }, HANG_OUTPUT);
  try {
    const run = await runConformance({
      outDir: scratchOutDir(`harness-deadline-${process.pid}-0`),
      baseUrl: proxy.baseUrl,
      apiKey: a.apiKey,
      apiKeyB: b?.apiKey,
      seed: 4242,
      timeoutS: RUN_TIMEOUT_S,
      workers: 2,
      args: ['--request-timeout', String(REQUEST_TIMEOUT_MS)],
      env: REFERENCE_BEHIND_PROXY_ENV,
    });
    const tail = run.output.split('\n').slice(-25).join('\n');
    expect(run.hung, tail).toBe(false);
    expect([0, 2], `exit ${run.exitCode}:\n${tail}`).toContain(run.exitCode);
    const report = run.report!;
    expect(report, tail).toBeDefined();

    const judgedAgainst = report.requirements.filter(
      (r) => r.verdict === 'fail' || r.verdict === 'warn' || r.verdict === 'blocked',
    );
    expect(
      judgedAgainst.map((r) => `${r.id} ${r.verdict}: ${r.failures[0]?.message ?? r.blockedBy.join(', ')}`),
    ).toEqual([]);

    // The hang was met, as our deadline, on the output operation.
    const timeouts = report.faults.filter((f) => f.kind === 'timeout');
    expect(timeouts.length, JSON.stringify(report.faults.slice(0, 3))).toBeGreaterThan(0);
    expect(
      timeouts.every((f) => /\/output\b/.test(f.request)),
      JSON.stringify(timeouts.slice(0, 3)),
    ).toBe(true);

    // The clauses about output were kept from being judged: not run, with the timeout in the reason.
    const output = report.requirements.find((r) => r.id === 'OUTPUT-HTTP-STATUS-LISTED')!;
    expect(output.verdict).toBe('not-run');
    const timedOutReason = new RegExp(`no complete response within ${REQUEST_TIMEOUT_MS} ms`);
    const namedTimeout = report.requirements.filter(
      (r) => r.verdict === 'not-run' && r.notRunReasons.some((why) => timedOutReason.test(why)),
    );
    expect(namedTimeout.length, 'clauses not run because of the timeout').toBeGreaterThan(0);
    // The run cannot vouch for them: it is incomplete, and its headline names the operation it lost.
    expect(report.exitCode).toBe(2);
    expect(report.meta.incomplete ?? '').toMatch(
      /^getExecutionOutput gave no complete answer within the request deadline/,
    );
    // Other operations still answer and are judged.
    expect(report.requirements.find((r) => r.id === 'SEARCH-HTTP-STATUS-LISTED')!.verdict).toBe('pass');
  } finally {
    await proxy.close();
    await target.close();
  }
});
