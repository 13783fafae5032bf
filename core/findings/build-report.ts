/**
 * Builds the conformance verdict from the evidence the suites wrote: the
 * findings (one per deviation, however many clauses and operations show it;
 * findings.ts), and under them each requirement of the catalogue → pass /
 * fail / warn / waived / blocked / observed / not run, with evidence; waivers
 * applied; failures in order of severity; operation × status coverage; the
 * values observed for every point the spec leaves open.
 *
 * One deviation, one failure: only an explicit verdict on evidence fails a
 * clause. A clause a test could not reach after a failure is "blocked by"
 * that failure; one it could not reach for the harness's own reasons (its
 * exception, its deadline, a missing setup) is "not run" with the reason.
 *
 * Pure: takes the catalogue, records and waivers as input, so it can be unit
 * tested without running anything. Its parts, one job each: the evidence index
 * (evidence-index.ts), the result of each requirement (requirement-results.ts),
 * what the run did (run-outcomes.ts), how the waivers fared (waiver-outcome.ts);
 * the report's shape is report-model.ts, re-exported here for its readers.
 */
import type { CheckRecord, EvidenceRecord, NoteRecord } from '../evidence/records.ts';
import { OPERATION_PREFIX } from '../../contracts/requirements.ts';
import { evidenceItemOf, indexEvidence, type EvidenceIndex } from './evidence-index.ts';
import {
  findingsOf,
  SEVERITY_ORDER,
  summariseFindings,
  type EvidenceItem,
  type FailedCheck,
  type Finding,
  type FindingsSummary,
  type Severity,
} from './findings.ts';
import type { BuildInput, ConformanceReport, RequirementResult, RunMeta, VerdictValue } from './report-model.ts';
import { openPointsOf } from './open-points.ts';
import { requirementResult } from './requirement-results.ts';
import { coverageOf, footprintOf, operationLost, testOutcomes } from './run-outcomes.ts';
import { waiverOutcome } from './waiver-outcome.ts';

export { SEVERITY_ORDER };
export type { EvidenceItem, Finding, FindingsSummary, Severity };
export type {
  BuildInput,
  CatalogueEntry,
  ConformanceReport,
  CoverageRow,
  Footprint,
  ObservedValue,
  RequirementResult,
  RunMeta,
  VerdictValue,
} from './report-model.ts';
export { inSeverityOrder, rawVerdictOf } from './requirement-results.ts';
export { coverageOf, footprintOf } from './run-outcomes.ts';
export type { OpenPointAnswer, OpenPointValue } from './report-model.ts';

/**
 * Every failing check of a must or should clause (also of an ID the catalogue lacks), as the findings
 * read it: a failure when it counts against the run (must, or should under strict), else a warning.
 */
function failedChecks(ix: EvidenceIndex, strict: boolean): FailedCheck[] {
  return ix.checks
    .filter((c) => c.outcome === 'fail' && c.level !== 'observe')
    .map((c) => ({
      requirementId: c.requirementId,
      strength: c.level === 'must' || strict ? 'failure' : 'warning',
      evidence: evidenceItemOf(c, ix),
    }));
}

/** Requirement IDs the evidence names that the catalogue lacks, and the failures recorded against them. */
function unknownEvidence(
  catalogue: BuildInput['catalogue'],
  ix: EvidenceIndex,
  strict: boolean,
): { unknownRequirementIds: string[]; unknownFailures: CheckRecord[] } {
  const known = new Set(catalogue.map((c) => c.id));
  const unknownRequirementIds = [
    ...new Set(
      [...ix.checks.map((c) => c.requirementId), ...ix.observations.map((o) => o.requirementId)].filter(
        (id) => !known.has(id),
      ),
    ),
  ].sort();
  // A failure recorded against an ID the catalogue lacks must not vanish: it fails the run too.
  const unknownFailures = ix.checks.filter(
    (c) => c.outcome === 'fail' && !known.has(c.requirementId) && (c.level === 'must' || strict),
  );
  return { unknownRequirementIds, unknownFailures };
}

function countByVerdict(requirements: readonly RequirementResult[]): Record<VerdictValue, number> {
  const byVerdict: Record<VerdictValue, number> = {
    pass: 0,
    fail: 0,
    warn: 0,
    waived: 0,
    blocked: 0,
    observed: 0,
    'not-run': 0,
  };
  for (const r of requirements) byVerdict[r.verdict]++;
  return byVerdict;
}

/**
 * Why the run is incomplete, when it is: as its runner said, else the operation it gave up on, else
 * tests that stopped for the harness's own reasons: they judged nothing, so the run cannot vouch for
 * their clauses.
 */
function incompleteReason(
  meta: RunMeta,
  records: readonly EvidenceRecord[],
  requirements: readonly RequirementResult[],
  tests: ConformanceReport['summary']['tests'],
): string | undefined {
  return (
    meta.incomplete ??
    operationLost(records, requirements) ??
    (tests.harnessErrors > 0
      ? `${tests.harnessErrors} test(s) stopped for reasons of the harness (deadline, exception, missing setup); their clauses are not run`
      : undefined)
  );
}

/** The transport faults of the run (the first 50), each with the request that met it. */
function faultsOf(ix: EvidenceIndex): ConformanceReport['faults'] {
  return [...ix.exchanges.values()]
    .filter((x) => x.fault)
    .slice(0, 50)
    .map((x) => ({
      test: x.test?.title,
      kind: x.fault!.kind,
      message: x.fault!.message,
      request: `${x.method} ${x.url}`,
      curl: x.curl,
    }));
}

export function buildReport(input: BuildInput): ConformanceReport {
  const { catalogue, records, waivers, meta } = input;
  const ix = indexEvidence(catalogue, records);
  const waiverOf = new Map(waivers.active.map((w) => [w.id, w]));
  const requirements = catalogue.map((entry) => requirementResult(entry, ix, waiverOf.get(entry.id), meta.strict));
  const { unknownRequirementIds, unknownFailures } = unknownEvidence(catalogue, ix, meta.strict);
  const newFailures = requirements.filter((r) => r.verdict === 'fail').length + unknownFailures.length;
  const waiverReport = waiverOutcome(requirements, unknownFailures, waivers);
  const { coverage, faults } = coverageOf(ix.exchanges.values(), input.listedStatuses);
  const { tests, failedTests } = testOutcomes(records);
  const findings = findingsOf({
    checks: failedChecks(ix, meta.strict),
    clauses: requirements,
    listedStatuses: input.listedStatuses,
    prefixes: OPERATION_PREFIX,
  });
  const incomplete = incompleteReason(meta, records, requirements, tests);

  return {
    meta: incomplete ? { ...meta, incomplete } : meta,
    summary: {
      findings: summariseFindings(findings),
      catalogue: catalogue.length,
      // Judged on evidence of their own: a blocked clause was reached but not judged.
      exercised: requirements.filter((r) => r.rawVerdict !== 'not-run' && r.rawVerdict !== 'blocked').length,
      byVerdict: countByVerdict(requirements),
      newFailures,
      waivedFailures: waiverReport.waivedFailures.length,
      waiversNowPassing: waiverReport.nowPassing.length,
      tests,
      exchanges: ix.exchanges.size,
      faults,
    },
    findings,
    requirements,
    waivers: waiverReport,
    coverage,
    footprint: footprintOf(ix.exchanges.values()),
    discovery: records.find((r): r is NoteRecord => r.kind === 'note' && r.topic === 'discovery')?.message,
    observations: requirements
      .filter((r) => r.observations.length > 0)
      .map((r) => ({ requirementId: r.id, text: r.text, observed: r.observations })),
    openPoints: openPointsOf(ix),
    faults: faultsOf(ix),
    failedTests,
    unknownRequirementIds,
    unreadableEvidenceLines: input.unreadableEvidenceLines ?? 0,
    exitCode: newFailures > 0 ? 1 : incomplete ? 2 : 0,
  };
}
