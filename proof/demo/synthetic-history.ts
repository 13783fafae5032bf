/**
 * A made-up history of conformance runs, for the browser test of the trend page and for the
 * screenshot reviewers get (`npm run report:screenshot -- --demo`): deterministic, with a few
 * requirements that fail for a while, one that flips every night, and wall times that drift.
 */
import type { ConformanceRunRecord } from '../../core/history-store/records.ts';

export const SYNTHETIC_TARGET = 'reference:synthetic';

export function syntheticRuns(requirementIds: readonly string[], nights = 10): ConformanceRunRecord[] {
  const start = Date.UTC(2026, 0, 1, 2, 17);
  return Array.from({ length: nights }, (_, night) => ({
    startedAt: new Date(start + night * 86_400_000).toISOString(),
    seed: 1000 + night,
    harnessVersion: '0.1.0',
    target: SYNTHETIC_TARGET,
    wallMs: 14_000 + ((night * 1_700) % 5_000),
    exitCode: night % 3 === 0 ? 1 : 0,
    requirements: requirementIds.map((id, i) => {
      const verdict = syntheticVerdict(i, night);
      return {
        id,
        verdict,
        rawVerdict: verdict,
        waived: false,
        evidence: 3 + (i % 5),
        ...(verdict === 'blocked' ? { blockedBy: requirementIds[0] } : {}),
      };
    }),
    tests: [{ title: 'synthetic test', status: 'passed', durationMs: 1200 + night * 10 }],
  }));
}

/** Mostly passing; requirement 1 flips every night, 2–3 fail for nights 3–5, every 7th warns, every 11th is blocked or not run. */
function syntheticVerdict(i: number, night: number): string {
  if (i === 1) return night % 2 === 0 ? 'pass' : 'fail';
  if ((i === 2 || i === 3) && night >= 3 && night <= 5) return 'fail';
  if (i % 7 === 0) return 'warn';
  if (i % 11 === 0) return night % 4 === 0 ? 'not-run' : 'blocked';
  return 'pass';
}
