/**
 * A conformance run in the run history: its report converted to what the history keeps, recorded,
 * and compared with the previous run on the same target. A shard of a sharded run is not recorded
 * (its verdict is partial); it leaves the target's fingerprint for `npm run report:merge`, which
 * records the merged verdict instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordAndCompare, type ConformanceHistory } from '../../core/history-store/conformance.ts';
import {
  harnessVersion,
  targetFingerprint,
  type ConformanceRunRecord,
  type EvidenceExample,
  type OpenPointOutcome,
  type RequirementOutcome,
  type RunOrigin,
} from '../../core/history-store/records.ts';
import { historyPath } from '../../core/history-store/store.ts';
import type { OutputFolder } from '../../core/outputs/output-folder.ts';
import type { Target } from '../../core/settings/target.ts';
import { readEvidence, type TestEndRecord } from '../../core/evidence/records.ts';
import type { ConformanceReport, RequirementResult } from '../../core/findings/report.ts';
import { runPlace, SHARD_FILE, writeShardFile } from './outputs.ts';

export interface ShardMeta {
  target: string;
  shard: string;
}

/** `--shard=i/n` (or `--shard i/n`) among the runner's extra arguments. */
export function shardOf(extra: readonly string[]): string | undefined {
  const i = extra.findIndex((a) => a === '--shard' || a.startsWith('--shard='));
  if (i < 0) return undefined;
  return extra[i].includes('=') ? extra[i].slice('--shard='.length) : extra[i + 1];
}

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

/** Records the run (or, for a shard, leaves its fingerprint); a history that cannot be used is reported, never fatal. */
export function recordRunHistory(
  report: ConformanceReport,
  target: Target,
  folder: OutputFolder,
  extra: readonly string[],
  warn: (line: string) => void,
): ConformanceHistory | undefined {
  const fingerprint = targetFingerprint(target.baseUrl, target.apiKey, target.kind);
  const shard = shardOf(extra);
  if (shard) {
    writeShardFile(folder, JSON.stringify({ target: fingerprint, shard } satisfies ShardMeta, null, 2));
    return undefined;
  }
  const evidence = join(runPlace(folder), 'evidence');
  const history = recordAndCompare(historyPath(), historyRecord(report, fingerprint, [evidence]));
  if (history.skipped) warn(`${history.skipped}; the report is complete without it`);
  return history;
}

export function readShardMeta(dir: string): ShardMeta | undefined {
  const file = join(dir, SHARD_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ShardMeta) : undefined;
}
