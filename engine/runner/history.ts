/**
 * A conformance run in the run history: its report converted to what the history keeps, recorded,
 * and compared with the previous run on the same target. A shard of a sharded run is not recorded
 * (its verdict is partial); it leaves the target's fingerprint for `npm run report:merge`, which
 * records the merged verdict instead.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordAndCompare, type ConformanceHistory } from '../../foundation/history/conformance.ts';
import { harnessVersion, targetFingerprint, type ConformanceRunRecord } from '../../foundation/history/records.ts';
import { historyPath } from '../../foundation/history/store.ts';
import type { Target } from '../../foundation/environment/target.ts';
import { readEvidence, type TestEndRecord } from '../evidence/records.ts';
import type { ConformanceReport } from '../verdict/report.ts';

/** Written by each shard: who the target was, without its key or address in clear. */
export const SHARD_META = 'shard.json';

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

export function historyRecord(report: ConformanceReport, target: string, evidenceDirs: string[]): ConformanceRunRecord {
  const tests = evidenceDirs
    .flatMap((dir) => readEvidence(dir).records)
    .filter((r): r is TestEndRecord => r.kind === 'test-end')
    .map((t) => ({ title: t.test.title, status: t.status, durationMs: t.durationMs }));
  return {
    startedAt: report.meta.startedAt,
    seed: report.meta.seed,
    harnessVersion: harnessVersion(),
    target,
    wallMs: report.meta.wallTimeMs,
    exitCode: report.exitCode,
    requirements: report.requirements.map((r) => ({
      id: r.id,
      verdict: r.verdict,
      rawVerdict: r.rawVerdict,
      waived: Boolean(r.waiver),
      blockedBy: r.blockedBy.join(', ') || undefined,
      evidence: r.passes + r.failureCount,
    })),
    tests,
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

/** Records the run (or, for a shard, leaves its fingerprint); a history that cannot be used is reported, never fatal. */
export function recordRunHistory(
  report: ConformanceReport,
  target: Target,
  outDir: string,
  extra: readonly string[],
  warn: (line: string) => void,
): ConformanceHistory | undefined {
  const fingerprint = targetFingerprint(target.baseUrl, target.apiKey, target.kind);
  const shard = shardOf(extra);
  if (shard) {
    writeFileSync(
      join(outDir, SHARD_META),
      JSON.stringify({ target: fingerprint, shard } satisfies ShardMeta, null, 2),
    );
    return undefined;
  }
  const history = recordAndCompare(historyPath(), historyRecord(report, fingerprint, [join(outDir, 'evidence')]));
  if (history.skipped) warn(`${history.skipped}; the report is complete without it`);
  return history;
}

export function readShardMeta(dir: string): ShardMeta | undefined {
  const file = join(dir, SHARD_META);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ShardMeta) : undefined;
}
