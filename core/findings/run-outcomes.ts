/**
 * What the run did, read from its evidence: the responses per operation and status, what it created on
 * the target, how its tests ended, and the operation it gave up on at the harness's own limit.
 */
import {
  FAULT_REMEMBERED,
  type EvidenceRecord,
  type ExchangeRecord,
  type NoteRecord,
  type TestEndRecord,
} from '../evidence/records.ts';
import { testEvidence } from './evidence-index.ts';
import type { ConformanceReport, CoverageRow, Footprint, RequirementResult } from './report-model.ts';

const accepted2xx = (x: ExchangeRecord) =>
  x.response !== undefined && x.response.status >= 200 && x.response.status < 300;

/** What the run created on the target, read from the exchanges it recorded. */
export function footprintOf(exchanges: Iterable<ExchangeRecord>): Footprint {
  const out: Footprint = { canvasesCreated: 0, canvasesOverwritten: 0, executionsStarted: 0, filesUploaded: 0 };
  for (const x of exchanges) {
    if (!accepted2xx(x)) continue;
    const body = x.request.bodyExcerpt ?? '';
    if (x.operation === 'runWorkflow') out.executionsStarted++;
    else if (x.operation === 'generateWorkflow') {
      if (/"canvasId"\s*:\s*"/.test(body)) out.canvasesOverwritten++;
      else out.canvasesCreated++;
    } else if (x.operation === 'uploadFiles') {
      // The client records a multipart body as "(multipart: name bytes B type, …)".
      const listed = /^\(multipart: (.*)\)$/.exec(body)?.[1];
      out.filesUploaded += listed ? listed.split(/, (?=\S+ \d+ B )/).length : 0;
    }
  }
  return out;
}

/**
 * Responses per operation and status (a transport fault counts under `fault:<kind>`); every
 * operation with listed statuses gets a row, so a listed status never seen stands out.
 */
export function coverageOf(
  exchanges: Iterable<ExchangeRecord>,
  listedStatuses: Record<string, number[]>,
): { coverage: CoverageRow[]; faults: number } {
  const byOperation = new Map<string, Record<string, number>>();
  let faults = 0;
  for (const x of exchanges) {
    const op = x.operation ?? '(outside the interface)';
    const key = x.response ? String(x.response.status) : `fault:${x.fault?.kind ?? 'unknown'}`;
    if (!x.response) faults++;
    const counts = byOperation.get(op) ?? {};
    counts[key] = (counts[key] ?? 0) + 1;
    byOperation.set(op, counts);
  }
  const coverage = [...new Set([...Object.keys(listedStatuses), ...byOperation.keys()])].map(
    (operation): CoverageRow => {
      const counts = byOperation.get(operation) ?? {};
      const listed = listedStatuses[operation] ?? [];
      return { operation, counts, listed, listedUnseen: listed.filter((s) => !counts[String(s)]) };
    },
  );
  return { coverage, faults };
}

export function testOutcomes(records: readonly EvidenceRecord[]): {
  tests: ConformanceReport['summary']['tests'];
  failedTests: ConformanceReport['failedTests'];
} {
  const testEnds = records.filter((r): r is TestEndRecord => r.kind === 'test-end');
  const { firstFailure } = testEvidence(records);
  const begun = new Set(
    records.filter((r) => r.kind === 'test-begin').map((r) => (r as { test: { id: string } }).test.id),
  );
  const endedIds = new Set(testEnds.map((t) => t.test.id));
  const failedTests = testEnds
    .filter((t) => t.status === 'failed' || t.status === 'timedOut')
    .map((t) => ({ test: t.test.title, status: t.status, error: t.error?.slice(0, 1500) }));
  const tests = {
    total: begun.size,
    passed: testEnds.filter((t) => t.status === 'passed').length,
    failed: failedTests.length,
    skipped: testEnds.filter((t) => t.status === 'skipped').length,
    unfinished:
      [...begun].filter((id) => !endedIds.has(id)).length + testEnds.filter((t) => t.status === 'interrupted').length,
    harnessErrors: testEnds.filter(
      (t) => (t.status === 'failed' || t.status === 'timedOut') && !firstFailure.has(t.test.id),
    ).length,
  };
  return { tests, failedTests };
}

/**
 * The operation the run gave up on at the harness's own limit (no complete answer within its deadline),
 * said first: what could not be judged without it was not run, so the run is incomplete, and that
 * operation is why. A fault of the target's making is its status clause's failure instead.
 */
export function operationLost(
  records: readonly EvidenceRecord[],
  requirements: readonly RequirementResult[],
): string | undefined {
  const lost = records.filter(
    (r): r is NoteRecord & { fault: NonNullable<NoteRecord['fault']> } =>
      r.kind === 'note' && r.topic === FAULT_REMEMBERED && !!r.fault && !r.fault.clause,
  );
  if (lost.length === 0) return undefined;
  const said = lost.map(({ fault }) => {
    const where = fault.exchangeId ? `exchange ${fault.exchangeId}` : fault.operation;
    const stopped = requirements.filter((q) => q.notRunReasons.some((t) => t.includes(where))).length;
    return (
      `${fault.operation} gave no complete answer within the request deadline (${fault.message}); ` +
      `it is not asked again in this run, and ${stopped} clause(s) could not be judged without it`
    );
  });
  return said.join('; ');
}
