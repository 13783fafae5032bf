/**
 * A conformance run in the run history: its report converted to what the history keeps, recorded,
 * and compared with the previous run on the same target. A shard of a sharded run is not recorded
 * (its verdict is partial); it leaves the target's fingerprint for `npm run report:merge`, which
 * records the merged verdict instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordAndCompare, type ConformanceHistory } from '../../core/history-store/conformance.ts';
import { targetFingerprint } from '../../core/history-store/records.ts';
import { historyPath } from '../../core/history-store/store.ts';
import type { OutputFolder } from '../../core/outputs/output-folder.ts';
import type { Target } from '../../core/settings/target.ts';
import type { ConformanceReport } from '../../core/findings/build-report.ts';
import { historyRecord } from '../../core/findings/history-record.ts';
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
