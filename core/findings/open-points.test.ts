/**
 * The report's answers to the open points, from records written by the verdict as a run writes them:
 * every observation and every judged should clause with another reading carries its value besides its
 * sentence; the report gathers them per point with one example exchange each; and the same behaviour
 * recorded in another order, with other ids, times and durations, gives the same answers.
 */
import { expect, test } from '@playwright/test';
import { REQUIREMENTS, type ClauseId } from '../../contracts/requirements.ts';
import type { EvidenceRecord, ExchangeRecord, ObservationRecord } from '../evidence/records.ts';
import { Verdict } from '../evidence/verdict.ts';
import { buildReport } from './build-report.ts';
import { emptyWaivers } from './waivers.ts';

function exchange(id: string, status: number, at: string): ExchangeRecord {
  return {
    kind: 'exchange',
    id,
    at,
    tenant: 'A',
    method: 'POST',
    url: 'http://127.0.0.1:1/v1/openapi/workflow/c_1/run',
    operation: 'runWorkflow',
    request: { headers: { authorization: 'Bearer $API_KEY' }, bodyBytes: 120_000 },
    response: {
      status,
      headers: {},
      bodyExcerpt: '{"success":false,"errCode":"E2005"}',
      bodyBytes: 40,
      truncated: false,
    },
    violations: [],
    durationMs: 12,
    curl: `curl -X POST 'http://127.0.0.1:1/v1/openapi/workflow/c_1/run' -H "Authorization: Bearer \${API_KEY}"`,
  };
}

/** One run's records of the same behaviour: `ids` and `ms` vary what a second run varies. */
function runRecords(ids: string, ms: number): EvidenceRecord[] {
  const records: EvidenceRecord[] = [];
  const v = Verdict.detached({ write: (r) => records.push(r) });
  const at = new Date(Date.UTC(2026, 0, 1) + ms * 1000).toISOString();
  records.push(exchange(`${ids}-1`, 413, at), exchange(`${ids}-2`, 413, at));
  v.observe('LIMIT-OPERATIONS', 'run over 100KB', 'HTTP 413 (E2005)', `${ids}-1`);
  v.observe('LIMIT-OPERATIONS', 'generate over 100KB', 'HTTP 413 (E2005)', `${ids}-2`);
  v.observe('STATE-TRANSITIONS', 'status the run answers', 'executing');
  v.observe(
    'STATE-EXEC-FORWARD-ONLY',
    'execution status sequence across polls',
    ms % 2 ? 'executing → finish' : 'init → executing → finish',
  );
  v.observe('LIMIT-RATE', 'searchWorkflows answered 429', `Retry-After 1; retried after ${ms * 97} ms`);
  v.observe('ABORT-OUTCOME', 'node statuses after an accepted abort', ms % 2 ? 'finish, failed' : 'failed');
  v.check('DATETIME-OFFSET', true, { message: 'getExecutionStatus 200 response conforms' });
  v.check('DATETIME-OFFSET', false, { message: 'createdAt has no offset', actual: '2026-11-22T09:00:00.125' });
  v.check('DATETIME-OFFSET', true, { message: 'getExecutionOutput 200 response conforms' });
  return records;
}

function reportOf(records: EvidenceRecord[]) {
  return buildReport({
    catalogue: REQUIREMENTS,
    records,
    waivers: emptyWaivers(),
    meta: {
      seed: 1,
      baseUrl: 'http://127.0.0.1:1/v1',
      targetKind: 'external',
      strict: false,
      startedAt: '2026-01-01T00:00:00Z',
    },
    listedStatuses: { runWorkflow: [200, 400, 401, 403, 404] },
  });
}

const answers = (records: EvidenceRecord[]) =>
  reportOf(records).openPoints.map((p) => ({ point: p.point, values: p.values.map((v) => [v.value, v.count]) }));

test('each observation carries, besides its sentence, the value of every point it answers', () => {
  const records = runRecords('a', 1);
  const limit = records.find((r): r is ObservationRecord => r.kind === 'observation' && r.key === 'run over 100KB')!;
  expect(limit.points).toEqual([{ point: 'limit-status-E2005', value: '413' }]);
  const offset = records.filter((r) => r.kind === 'check' && r.requirementId === 'DATETIME-OFFSET');
  expect(offset.map((c) => (c as { points?: unknown }).points)).toEqual([
    [{ point: 'date-time-offset', value: 'with an offset (RFC 3339)' }],
    [{ point: 'date-time-offset', value: 'without an offset (ISO 8601 local time)' }],
    [{ point: 'date-time-offset', value: 'with an offset (RFC 3339)' }],
  ]);
  // A should clause without another reading answers no point; neither does a must clause's check.
  const plain: EvidenceRecord[] = [];
  const v = Verdict.detached({ write: (r) => plain.push(r) });
  v.check('RUN-WITHOUT-BODY' as ClauseId, true, { message: 'ran' });
  expect((plain[0] as { points?: unknown }).points).toBeUndefined();
});

test('the report answers each point once, with one example exchange per value', () => {
  const report = reportOf(runRecords('a', 1));
  const limit = report.openPoints.find((p) => p.point === 'limit-status-E2005')!;
  expect(limit).toMatchObject({ requirementId: 'LIMIT-OPERATIONS', values: [{ value: '413', count: 2 }] });
  expect(limit.values[0]!.sentence).toBe('generate over 100KB: HTTP 413 (E2005)');
  expect(limit.values[0]!.evidence).toMatchObject({ operation: 'runWorkflow', status: 413 });
  expect(limit.values[0]!.evidence!.curl).toContain('${API_KEY}');
  // A should clause that failed once answers with its other reading, however often it passed.
  expect(report.openPoints.find((p) => p.point === 'date-time-offset')!.values.map((v) => v.value)).toEqual([
    'without an offset (ISO 8601 local time)',
  ]);
  expect(report.openPoints.find((p) => p.point === 'rate-limit')!.values.map((v) => v.value)).toEqual([
    '429 with Retry-After',
  ]);
  // In the table's order.
  expect(report.openPoints.map((p) => p.point)).toEqual([
    'run-status',
    'abort-nodes',
    'execution-status-order',
    'limit-status-E2005',
    'rate-limit',
    'date-time-offset',
  ]);
});

test('stable: another run of the same behaviour, its records in another order, with other ids, times and durations', () => {
  const first = answers(runRecords('a', 1));
  const second = runRecords('zz9', 2);
  const shuffled = [...second].reverse();
  expect(answers(shuffled)).toEqual(first);
  // Records written before values were recorded (an older harness's evidence) are read the same.
  const bare = second.map((r) => {
    if (r.kind !== 'observation' && r.kind !== 'check') return r;
    const { points: _, ...rest } = r;
    return rest as EvidenceRecord;
  });
  expect(answers(bare)).toEqual(first);
});
