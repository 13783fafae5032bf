/**
 * A conformance report as the run history keeps it: each clause's verdict with one line of its reasons
 * and the first failing check's exchange, the tests' outcomes read from the evidence, the findings. The
 * same for a run made here and for a report imported from elsewhere (`wfcheck history import`).
 */
import {
  harnessVersion,
  type ConformanceRunRecord,
  type EvidenceExample,
  type OpenPointOutcome,
  type RequirementOutcome,
  type RunOrigin,
} from '../history-store/records.ts';
import { readEvidence, type TestEndRecord } from '../evidence/records.ts';
import type { ConformanceReport, RequirementResult } from './build-report.ts';

export function historyRecord(
  report: ConformanceReport,
  target: string,
  evidenceDirs: string[],
  origin: RunOrigin = 'run',
): ConformanceRunRecord {
  const tests = evidenceDirs
    .flatMap((dir) => readEvidence(dir).records)
    .filter((r): r is TestEndRecord => r.kind === 'test-end')
    .map((t) => ({ title: t.test.title, status: t.status, durationMs: t.durationMs }));
  const implementation = report.meta.implementation;
  return {
    startedAt: report.meta.startedAt,
    seed: report.meta.seed,
    // A report made elsewhere says which harness made it; this harness records its own runs.
    harnessVersion: origin === 'import' ? (report.meta.harnessVersion ?? 'unknown') : harnessVersion(),
    target,
    wallMs: report.meta.wallTimeMs,
    exitCode: report.exitCode,
    origin,
    ...(implementation ? { name: implementation.name } : {}),
    ...(implementation?.version ? { targetVersion: implementation.version } : {}),
    requirements: report.requirements.map((r) => ({
      id: r.id,
      verdict: r.verdict,
      rawVerdict: r.rawVerdict,
      waived: Boolean(r.waiver),
      blockedBy: r.blockedBy.join(', ') || undefined,
      evidence: r.passes + r.failureCount,
      ...noteAndExample(r),
    })),
    tests,
    openPoints: openPointOutcomes(report),
    findings: report.findings.map((f) => ({
      id: f.id,
      signature: f.signature,
      strength: f.strength,
      severity: f.severity,
      waived: f.waived,
      behaviour: f.behaviour,
      clauses: f.clauses,
    })),
  };
}

/** A report's answers to the open points as the history keeps them (none in a report made before they were). */
function openPointOutcomes(report: ConformanceReport): OpenPointOutcome[] {
  return (report.openPoints ?? []).flatMap((p) =>
    p.values.map((v) => ({
      point: p.point,
      requirementId: p.requirementId,
      value: v.value,
      count: v.count,
      sentence: v.sentence,
      ...(v.evidence
        ? {
            example: {
              message: v.sentence,
              ...(v.evidence.operation !== undefined ? { operation: v.evidence.operation } : {}),
              ...(v.evidence.status !== undefined ? { status: v.evidence.status } : {}),
              request: clip(v.evidence.request),
              response: clip(v.evidence.response),
              curl: clip(v.evidence.curl),
            },
          }
        : {}),
    })),
  );
}

/** Longest excerpt of a request, response or reproducer the history keeps for a verdict. */
const MAX_EXCERPT = 4000;
const clip = (text: string | undefined) =>
  text === undefined ? undefined : text.length > MAX_EXCERPT ? `${text.slice(0, MAX_EXCERPT)}…` : text;

/** What the history keeps of a verdict's reasons: one line, and the first failing check's exchange. */
function noteAndExample(r: RequirementResult): Pick<RequirementOutcome, 'note' | 'example'> {
  const first = r.failures[0];
  const observed = r.observations
    .map((o) => `${o.key}: ${o.values.map((v) => `${v.value} (${v.count})`).join(', ')}`)
    .join('; ');
  const note =
    r.rawVerdict === 'not-run'
      ? r.notRunReasons[0]
      : r.waiver
        ? `waived: ${r.waiver.reason}`
        : (first?.message ?? (observed || undefined));
  if (!first) return note === undefined ? {} : { note: clip(note) };
  const example: EvidenceExample = {
    message: first.message,
    ...(first.expected !== undefined ? { expected: first.expected } : {}),
    ...(first.actual !== undefined ? { actual: first.actual } : {}),
    ...(first.operation !== undefined ? { operation: first.operation } : {}),
    ...(first.status !== undefined ? { status: first.status } : {}),
    ...(first.pointer !== undefined ? { pointer: first.pointer } : {}),
    ...(first.probe !== undefined ? { probe: first.probe } : {}),
    ...(first.request !== undefined ? { request: clip(first.request) } : {}),
    ...(first.response !== undefined ? { response: clip(first.response) } : {}),
    ...(first.curl !== undefined ? { curl: clip(first.curl) } : {}),
  };
  return { ...(note === undefined ? {} : { note: clip(note) }), example };
}
