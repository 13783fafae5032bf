/**
 * A target whose executions never end costs the run seconds, not its deadline. Behind the mutating proxy,
 * the reference target's executions stay "executing" for good, and after a failed node the nodes that
 * depended on it stay waiting (so not every node ever shows an end). Run as a foreign target is run —
 * polls a second apart, a two-minute poll deadline — conformance ends in under a minute, its verdict is that
 * warning (exit 0: a should), no test is cut off by the runner, and what needed an end is blocked by it.
 * A minute, not less: a run that waited out even one poll deadline takes over two, and the bound must hold
 * beside another test on a busy 2-core runner (27 s seen there).
 */
import { expect, test } from '@playwright/test';
import { mutantById } from '../fixtures/faults/catalogue.ts';
import { startMutatingProxy } from '../fixtures/faults/proxy.ts';
import { startTarget } from '../fixtures/reference/server.ts';
import { runConformance, scratchOutDir } from './conformance-run.ts';

for (const id of ['never-ends', 'never-ends-after-failure']) {
  test(`executions that never end (${id}): under a minute, the warning heads the verdict, exit 0, nothing unfinished`, {
    tag: '@conformance-run',
  }, async () => {
    test.setTimeout(180_000);
    const target = await startTarget({});
    const [a, b] = target.tenants;
    const proxy = await startMutatingProxy(target.baseUrl, { A: a!.apiKey, B: b?.apiKey }, mutantById(id));
    try {
      const run = await runConformance({
        outDir: scratchOutDir(`never-ends-${id}`),
        baseUrl: proxy.baseUrl,
        apiKey: a!.apiKey,
        apiKeyB: b?.apiKey,
        seed: 20260101,
        timeoutS: 150,
        // A foreign target's pace: polls a second apart, two minutes before a poll gives up.
        env: { WFCHECK_CACHE_DIR: 'off' },
      });
      const report = run.report;
      expect(report, run.output.slice(-3000)).toBeDefined();
      expect(run.wallMs, run.output.slice(-1500)).toBeLessThan(60_000);
      expect(run.exitCode).toBe(0);
      expect(report!.summary.tests.unfinished).toBe(0);
      expect(report!.findings.map((f) => [f.strength, f.clauses])).toEqual([
        ['warning', ['STATE-ENDS-WHEN-NODES-SETTLE']],
      ]);
      expect(report!.findings[0]!.blocked).toContain('STATE-EXEC-FINISH-NODES-FINISHED');
    } finally {
      await proxy.close();
      await target.close();
    }
  });
}
