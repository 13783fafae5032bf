/**
 * The run history, end to end: three conformance runs against one target (the reference target behind
 * the mutating proxy, so its address stays the same) with a catalogued bug switched on for the second
 * run only. The second report names exactly the requirements that started failing, the third names
 * them newly passing. A fourth run, with garbage where the history should be, still writes its report
 * and says why the history was skipped.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { RunChange } from '../core/history-store/diff.ts';
import { idsWhere, verdictsOf } from '../core/history-store/verdicts.ts';
import { startTarget } from '../fixtures/reference/server.ts';
import {
  REFERENCE_BEHIND_PROXY_ENV,
  runConformance,
  scratchOutDir,
  type ConformanceRunResult,
} from './conformance-run.ts';
import { mutantById, probesOf } from '../fixtures/faults/catalogue.ts';
import { startMutatingProxy, type MutantBehaviour } from '../fixtures/faults/proxy.ts';
import { grepFor } from './mutation.ts';

const BUG = 'auth-missing-key-accepted';

test('a fault switched on is named newly failing, exactly; switched off, newly passing', {
  tag: '@conformance-run',
}, async () => {
  test.setTimeout(600_000);
  const bug = mutantById(BUG);
  let faulty = false;
  // The same proxy (one address, so one target fingerprint) with the bug switched on and off between runs.
  const switchable: MutantBehaviour = { request: (req, ctx) => (faulty && bug.request ? bug.request(req, ctx) : req) };
  const target = await startTarget({});
  const [a, b] = target.tenants;
  const proxy = await startMutatingProxy(target.baseUrl, { A: a.apiKey, B: b?.apiKey }, switchable);
  const scratch = scratchOutDir(`history-flip-${process.pid}-0`);
  const history = join(scratch, 'history.sqlite');
  const run = (n: number, historyFile = history) =>
    runConformance({
      outDir: join(scratch, `run-${n}`),
      baseUrl: proxy.baseUrl,
      apiKey: a.apiKey,
      apiKeyB: b?.apiKey,
      seed: 4242,
      timeoutS: 240,
      workers: 2,
      args: ['--grep', grepFor(probesOf(bug))],
      env: { ...REFERENCE_BEHIND_PROXY_ENV, WFCHECK_HISTORY: historyFile },
    });
  const changeOf = (r: ConformanceRunResult) =>
    (r.report as unknown as { history?: { change?: RunChange } }).history?.change;
  try {
    const clean = await run(1);
    faulty = true;
    const broken = await run(2);
    faulty = false;
    const fixed = await run(3);

    const failing = (r: ConformanceRunResult) => new Set(idsWhere(verdictsOf(r.report), 'fail'));
    const started = [...failing(broken)].filter((id) => !failing(clean).has(id)).sort();
    expect(started, 'the bug makes clauses fail').toEqual(
      expect.arrayContaining(bug.breaks!.filter((id) => failing(broken).has(id))),
    );
    expect(started.length).toBeGreaterThan(0);
    test.info().annotations.push({ type: 'newly failing with the bug', description: started.join(', ') });
    expect(changeOf(clean)?.from, 'the first run has nothing to compare with').toBeUndefined();
    expect(
      changeOf(broken)
        ?.newlyFailing.map((c) => c.id)
        .sort(),
    ).toEqual(started);
    expect(changeOf(broken)?.newlyPassing).toEqual([]);
    expect(readFileSync(join(broken.reportDir, 'report.md'), 'utf8')).toContain(
      `**Newly failing**: ${changeOf(broken)!
        .newlyFailing.map((c) => `${c.id} (pass → fail)`)
        .join('; ')}`,
    );
    expect(
      changeOf(fixed)
        ?.newlyPassing.map((c) => c.id)
        .sort(),
    ).toEqual(started);
    expect(changeOf(fixed)?.newlyFailing).toEqual([]);

    // Garbage where the history should be: the run's own report is written all the same.
    const garbage = join(scratch, 'garbage.sqlite');
    writeFileSync(garbage, 'not a database'.repeat(200));
    const unrecorded = await run(4, garbage);
    expect(unrecorded.report?.requirements.length).toBeGreaterThan(0);
    expect(unrecorded.output).toMatch(
      /the run history at .*garbage\.sqlite cannot be used \(.*not a database.*\); the report is complete without it/,
    );
    expect(readFileSync(join(unrecorded.reportDir, 'report.md'), 'utf8')).toContain('History skipped:');
    expect(readFileSync(garbage, 'utf8')).toBe('not a database'.repeat(200));
  } finally {
    await proxy.close();
    await target.close();
    rmSync(scratch, { recursive: true, force: true });
  }
});
