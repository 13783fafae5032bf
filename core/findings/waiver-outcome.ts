/**
 * How the waivers fared against the requirement results: the failures they waived, the failures no
 * waiver covers, the waivers whose requirement now passes or was not exercised, and those expired.
 */
import type { CheckRecord } from '../evidence/records.ts';
import type { ConformanceReport, RequirementResult } from './report-model.ts';
import { inSeverityOrder } from './requirement-results.ts';
import type { WaiverSet } from './waivers.ts';

/** How the waivers fared; `unknownFailures` are failures against IDs the catalogue lacks, never waivable. */
export function waiverOutcome(
  requirements: RequirementResult[],
  unknownFailures: CheckRecord[],
  waivers: WaiverSet,
): ConformanceReport['waivers'] {
  const waived = requirements.filter((r) => r.waiver);
  return {
    source: waivers.source,
    waivedFailures: requirements
      .filter((r) => r.verdict === 'waived')
      .map((r) => ({ id: r.id, reason: r.waiver!.reason, verdict: r.rawVerdict })),
    newFailures: [
      ...inSeverityOrder(requirements.filter((r) => r.verdict === 'fail')).map((r) => r.id),
      ...new Set(unknownFailures.map((c) => c.requirementId)),
    ],
    nowPassing: waived.filter((r) => r.rawVerdict === 'pass').map((r) => ({ id: r.id, reason: r.waiver!.reason })),
    notExercised: waived
      .filter((r) => r.rawVerdict === 'not-run' || r.rawVerdict === 'blocked' || r.rawVerdict === 'observed')
      .map((r) => ({ id: r.id, reason: r.waiver!.reason })),
    expired: waivers.expired,
    problems: waivers.problems,
  };
}
