/**
 * Fair to implementations nobody here wrote: the five implementations of fixtures/independent/ (Go and
 * Python with their standard libraries; Spring Boot, NestJS and Django REST framework, the stacks vendors
 * use), written from the specification alone by implementers who never saw the harness, pass both modes
 * (the scripted suites and the generative mode at its default budget) with every role filled. A finding
 * on one of them is either a deviation its independent review (REVIEW.md beside it) confirms, listed here
 * by the clause it fails with the review's words, or a defect of the harness.
 *
 * They run faster than their own durations (TEST_SPEED): their slow workflow then takes one to three seconds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  INDEPENDENT_KINDS,
  independentMissing,
  STACKS,
  startIndependent,
  TEST_SPEED,
  type IndependentKind,
} from '../fixtures/independent/launch.ts';
import { explore } from '../explore/explore.ts';
import { exploreOptionsOf } from '../explore/run.ts';
import { readExploreSettings } from '../foundation/environment/config.ts';
import { ENV } from '../foundation/environment/rules.ts';
import { runConformance } from './conformance-run.ts';

/** Deviations each independent review (REVIEW.md) confirms, by the clause they fail. */
const DOCUMENTED: Record<IndependentKind, string[]> = { go: [], python: [], spring: [], nest: [], django: [] };

const SEED = 20260101;

for (const kind of INDEPENDENT_KINDS) {
  test.describe(`the ${kind} implementation, written from the specification alone`, () => {
    test.describe.configure({ mode: 'serial' });
    test.beforeAll(() => test.skip(!!independentMissing(kind), independentMissing(kind) ?? ''));

    test('passes the conformance run: every role filled, no failing finding and no warning', {
      tag: '@conformance-run',
    }, async () => {
      test.setTimeout(240_000 + STACKS[kind].startMs);
      const target = await startIndependent(kind, { speed: TEST_SPEED[kind] });
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
      test.setTimeout(180_000 + STACKS[kind].startMs);
      const target = await startIndependent(kind, { speed: TEST_SPEED[kind] });
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
