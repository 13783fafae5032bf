/**
 * Fair to implementations nobody here wrote: the Go and the Python implementations of doubles/independent/,
 * written from the specification alone by implementers who never saw the harness, pass both modes (the
 * scripted suites and the generative mode at its default budget) with every role filled and no finding
 * at all. A must failure on one of them would be either a deviation its CHOICES.md documents (then it is
 * listed here, with the choice) or a defect of the harness; there is none today, so the lists are empty.
 *
 * They run at 1/20 of their own durations (their slow workflow then takes about a second).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { independentMissing, startIndependent, type IndependentKind } from '../doubles/independent/launch.ts';
import { explore } from '../explore/explore.ts';
import { exploreOptionsOf } from '../explore/run.ts';
import { readExploreSettings } from '../foundation/environment/config.ts';
import { ENV } from '../foundation/environment/rules.ts';
import { runConformance } from './conformance-run.ts';

/** Deviations a CHOICES.md documents, by the clause they fail: none has been found. */
const DOCUMENTED: Record<IndependentKind, string[]> = { go: [], python: [] };

const SEED = 20260101;

for (const kind of ['go', 'python'] as const) {
  test.describe(`the ${kind} implementation, written from the specification alone`, () => {
    test.describe.configure({ mode: 'serial' });
    test.beforeAll(() => test.skip(!!independentMissing(kind), independentMissing(kind) ?? ''));

    test('passes the conformance run: every role filled, no failing finding and no warning', {
      tag: '@conformance-run',
    }, async () => {
      test.setTimeout(240_000);
      const target = await startIndependent(kind);
      const outDir = mkdtempSync(join(tmpdir(), `wfcheck-independent-${kind}-`));
      try {
        const run = await runConformance({
          outDir,
          baseUrl: target.baseUrl,
          apiKey: target.apiKey,
          apiKeyB: target.apiKeyB,
          seed: SEED,
          timeoutS: 180,
          env: { WFCHECK_POLL_INTERVAL_MS: '100', WFCHECK_CACHE_DIR: 'off' },
        });
        const report = run.report;
        expect(report, run.output.slice(-2000)).toBeDefined();
        const flagged = report!.findings.map((f) => `${f.id} ${f.clauses.join(',')}: ${f.behaviour}`);
        const undocumented = report!.findings.filter((f) => !f.clauses.every((c) => DOCUMENTED[kind].includes(c)));
        expect(undocumented.length, flagged.join('\n')).toBe(0);
        expect(run.exitCode, run.output.slice(-2000)).toBe(0);
        expect(report!.discovery ?? '', 'discovery').toContain('all 9 roles filled');
      } finally {
        rmSync(outDir, { recursive: true, force: true });
        await target.stop();
      }
    });

    test('passes the generative mode at its default budget: no deviation, nothing left unjudged', {
      tag: '@conformance-run',
    }, async () => {
      test.setTimeout(180_000);
      const target = await startIndependent(kind);
      try {
        const s = readExploreSettings(
          {},
          { [ENV.baseUrl]: target.baseUrl, [ENV.apiKey]: target.apiKey, [ENV.seed]: String(SEED) },
        );
        const { report } = await explore(
          { baseUrl: target.baseUrl, apiKey: target.apiKey, apiKeyB: target.apiKeyB, kind: 'external', how: kind },
          exploreOptionsOf(s),
        );
        const seen = report.findings.map((f) => `${f.operation} [${f.clause}] ${f.message}`);
        expect(
          report.findings.filter((f) => !DOCUMENTED[kind].includes(f.clause)),
          seen.join('\n'),
        ).toEqual([]);
        expect(report.incomplete).toEqual([]);
        expect(report.exitCode).toBe(0);
        expect(report.operations).toHaveLength(8);
      } finally {
        await target.stop();
      }
    });
  });
}
