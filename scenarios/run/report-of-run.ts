/**
 * The verdict of a run from its evidence, as an unsharded run and a merge of shards both build it: the
 * catalogue, the waivers the run was given, and the statuses each operation lists.
 */
import { existsSync } from 'node:fs';
import { OPERATION_IDS, operationInfo } from '../../contracts/check.ts';
import { REQUIREMENTS } from '../../contracts/requirements.ts';
import type { EvidenceRecord } from '../../core/evidence/records.ts';
import { buildReport, type ConformanceReport, type RunMeta } from '../../core/findings/build-report.ts';
import { emptyWaivers, loadWaivers } from '../../core/findings/waivers.ts';

export interface RunEvidence {
  records: EvidenceRecord[];
  unreadableLines: number;
}

/**
 * `waiverFile` is the file the run was given; a merge names the one its shards used, which may not be on
 * the machine that merges (`whenPresent`): then no waiver applies. A file the run was given and cannot
 * read is a problem the report states.
 */
export function verdictOfRun(
  evidence: RunEvidence,
  meta: RunMeta,
  waiverFile: string | undefined,
  whenPresent = false,
): ConformanceReport {
  const waivers =
    waiverFile && (!whenPresent || existsSync(waiverFile))
      ? loadWaivers(waiverFile, new Set(REQUIREMENTS.map((r) => r.id)))
      : emptyWaivers();
  const listedStatuses = Object.fromEntries(OPERATION_IDS.map((op) => [op, operationInfo(op).listedStatuses]));
  return buildReport({
    catalogue: REQUIREMENTS,
    records: evidence.records,
    waivers,
    meta,
    listedStatuses,
    unreadableEvidenceLines: evidence.unreadableLines,
  });
}
