/**
 * The suites' judging helpers on hand-made answers: each check fails on an answer that breaks its
 * clause, stays quiet on legal variants, and is "blocked" — never failed a second time — when an
 * earlier clause already failed on the same deviation.
 */
import { test, expect } from '@playwright/test';
import type { CheckRecord, EvidenceRecord, ObservationRecord } from '../verdict/evidence.ts';
import { Verdict } from '../verdict/verdict.ts';
import type { ApiClient, Exchange } from './client.ts';
import type { OperationId } from '../../contracts/check.ts';
import { accepted, clientError, expectStatus, type OutputData, type StatusData } from './judging.ts';
import { checkExecutionHistory } from './relations.ts';
import { LOCALES, localesForRun } from './locales.ts';
import { pollExecution, PollStopped, type Snapshot } from './poll.ts';

function recorder() {
  const records: EvidenceRecord[] = [];
  const verdict = new Verdict({ write: (r: EvidenceRecord) => records.push(r) } as never, undefined, false, undefined);
  const checks = (id: string) => records.filter((r): r is CheckRecord => r.kind === 'check' && r.requirementId === id);
  const outcomes = (id: string) =>
    checks(id).map((c) => (c.outcome === 'blocked' ? `blocked by ${c.blockedBy}` : c.outcome));
  const observations = (id: string) =>
    records.filter((r): r is ObservationRecord => r.kind === 'observation' && r.requirementId === id);
  return { verdict, records, outcomes, observations };
}

let seq = 0;
/** An answer as the client hands it over: `violations` are what the contract checks found (must level). */
function answer(
  operation: OperationId,
  status: number | undefined,
  body?: unknown,
  violations: string[] = [],
  fault?: string,
): Exchange {
  return {
    record: { id: `x${++seq}` } as Exchange['record'],
    status,
    headers: {},
    text: body === undefined ? '' : JSON.stringify(body),
    json: body,
    parsed: body !== undefined,
    operation,
    violations: violations.map((requirementId) => ({
      requirementId,
      level: 'must',
      pointer: '',
      expected: '',
      actual: '',
      message: '',
    })),
    ...(fault ? { fault: { kind: fault, message: fault } } : {}),
  };
}

const WITH_ID = {
  carries: 'an executionId',
  read: (d: unknown) => (d as { executionId?: string } | undefined)?.executionId,
  judgedBy: 'RUN-RETURNS-EXECUTION-ID',
};

test('accepted: any 2xx carrying the payload passes, a listed refusal fails, a deviation already judged blocks, a 429 says nothing', () => {
  const { verdict, outcomes } = recorder();
  const ok = accepted(
    verdict,
    'RUN-VARIABLES-WRAPPER',
    answer('runWorkflow', 201, { success: true, data: { executionId: 'e1', status: 'init' } }, [
      'RUN-HTTP-STATUS-LISTED',
    ]),
    WITH_ID,
    'a 201 with the right body',
  );
  expect(ok).toEqual({ ok: true, value: 'e1' });
  const refused = accepted(
    verdict,
    'RUN-VARIABLES-WRAPPER',
    answer('runWorkflow', 400, { success: false }),
    WITH_ID,
    'a listed refusal',
  );
  expect(refused.ok ? undefined : refused.stop.blockedBy).toBe('RUN-VARIABLES-WRAPPER');
  const crashed = accepted(
    verdict,
    'RUN-VARIABLES-WRAPPER',
    answer('runWorkflow', 500, { success: false }, ['RUN-HTTP-STATUS-LISTED']),
    WITH_ID,
    'an unlisted 500',
  );
  expect(crashed.ok ? undefined : crashed.stop.blockedBy).toBe('RUN-HTTP-STATUS-LISTED');
  accepted(
    verdict,
    'RUN-VARIABLES-WRAPPER',
    answer('runWorkflow', 200, { success: true, data: {} }, ['RUN-200-DATA']),
    WITH_ID,
    'no id, schema failed',
  );
  accepted(
    verdict,
    'RUN-VARIABLES-WRAPPER',
    answer('runWorkflow', 201, { success: true, data: {} }),
    WITH_ID,
    'no id, nothing failed yet',
  );
  accepted(
    verdict,
    'RUN-VARIABLES-WRAPPER',
    answer('runWorkflow', undefined, undefined, [], 'connection-reset'),
    WITH_ID,
    'no answer',
  );
  accepted(
    verdict,
    'RUN-VARIABLES-WRAPPER',
    answer('runWorkflow', 429, { errCode: 'WEBHOOK_RATE_LIMITED' }),
    WITH_ID,
    'still rate limited',
  );
  expect(outcomes('RUN-VARIABLES-WRAPPER')).toEqual([
    'pass',
    'fail',
    'blocked by RUN-HTTP-STATUS-LISTED',
    'blocked by RUN-200-DATA',
    'blocked by RUN-RETURNS-EXECUTION-ID',
    'blocked by RUN-HTTP-STATUS-LISTED',
    'not-run',
  ]);
});

test("expectStatus: a wrong listed status fails, an unlisted one is the status clause's, a legal unlisted 4xx passes, a 429 says nothing", () => {
  const { verdict, outcomes } = recorder();
  expectStatus(
    verdict,
    'DETAIL-404-UNKNOWN-CANVAS',
    answer('getWorkflowDetail', 404, { success: false }),
    404,
    'not found',
  );
  expectStatus(
    verdict,
    'DETAIL-404-UNKNOWN-CANVAS',
    answer('getWorkflowDetail', 200, { success: false, errCode: 'E1000' }),
    404,
    'not found as 200',
  );
  expectStatus(
    verdict,
    'DETAIL-404-UNKNOWN-CANVAS',
    answer('getWorkflowDetail', 503, undefined, ['DETAIL-HTTP-STATUS-LISTED']),
    404,
    'a 503 of a gateway',
  );
  expectStatus(
    verdict,
    'LIMIT-PAYLOAD-100KB',
    answer('runWorkflow', 413, { errCode: 'E2005' }),
    clientError('rejected'),
    '413 with E2005 (observed, not failed)',
  );
  expectStatus(
    verdict,
    'DETAIL-404-UNKNOWN-CANVAS',
    answer('getWorkflowDetail', 429, { errCode: 'WEBHOOK_RATE_LIMITED' }),
    404,
    'still rate limited',
  );
  expect(outcomes('DETAIL-404-UNKNOWN-CANVAS')).toEqual([
    'pass',
    'fail',
    'blocked by DETAIL-HTTP-STATUS-LISTED',
    'not-run',
  ]);
  expect(outcomes('LIMIT-PAYLOAD-100KB')).toEqual(['pass']);
});

const T0 = '2026-01-01T10:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

function snap(status: Partial<StatusData>, output?: Partial<OutputData>): Snapshot {
  return {
    at: 0,
    status: { executionId: 'e1', status: 'executing', createdAt: T0, nodeExecutions: [], ...status } as StatusData,
    statusExchange: answer('getExecutionStatus', 200),
    ...(output
      ? {
          output: { output: [], files: [], ...output } as OutputData,
          outputExchange: answer('getExecutionOutput', 200),
        }
      : {}),
  };
}

test('STATUS-ECHOES-EXECUTION fails on another id; a wrong but constant id is no identity change', () => {
  const { verdict, outcomes } = recorder();
  checkExecutionHistory(verdict, 'e1', undefined, [snap({ status: 'finish' })]);
  checkExecutionHistory(verdict, 'e1', undefined, [
    snap({ executionId: 'run_1' }),
    snap({ executionId: 'run_1', status: 'finish' }),
  ]);
  expect(outcomes('STATUS-ECHOES-EXECUTION')).toEqual(['pass', 'fail']);
  expect(outcomes('STATE-STABLE-IDENTITY')).toEqual(['pass', 'pass']);
});

test('forward-only is recorded, never judged; leaving a terminal status is a warning', () => {
  const { verdict, outcomes, observations } = recorder();
  const nodes = (s: string) => [{ nodeId: 'n1', status: s }] as StatusData['nodeExecutions'];
  checkExecutionHistory(verdict, 'e1', undefined, [
    snap({ status: 'executing', nodeExecutions: nodes('executing') }),
    snap({ status: 'init', nodeExecutions: nodes('waiting') }),
    snap({ status: 'finish', nodeExecutions: nodes('finish') }),
  ]);
  expect(outcomes('STATE-EXEC-FORWARD-ONLY')).toEqual([]);
  expect(observations('STATE-EXEC-FORWARD-ONLY').map((o) => o.value)).toEqual(['executing → init → finish']);
  expect(observations('STATE-NODE-FORWARD-ONLY').map((o) => o.value)).toEqual(['executing → waiting → finish']);
  expect(outcomes('STATE-TERMINAL')).toEqual(['pass', 'pass']);
  checkExecutionHistory(verdict, 'e1', undefined, [
    snap({ status: 'finish', nodeExecutions: nodes('finish') }),
    snap({ status: 'executing', nodeExecutions: nodes('executing') }),
  ]);
  expect(outcomes('STATE-TERMINAL')).toEqual(['pass', 'pass', 'fail', 'fail']);
});

test('files only after their node finished: judged from the output and from the status read after it', () => {
  const { verdict, outcomes } = recorder();
  const file = { name: 'a.md', type: 'text/markdown', nodeId: 'n1' };
  const nodes = (s: string) => [{ nodeId: 'n1', status: s }] as StatusData['nodeExecutions'];
  // The node finished between the status read and the output read: the later status shows it finish.
  checkExecutionHistory(verdict, 'e1', undefined, [
    snap({ nodeExecutions: nodes('executing') }, { files: [file] }),
    snap({ status: 'finish', nodeExecutions: nodes('finish') }, { files: [file] }),
  ]);
  // The output does not list the node; the status read after it has it still executing.
  checkExecutionHistory(verdict, 'e1', undefined, [
    snap({ nodeExecutions: nodes('executing') }, { files: [file] }),
    snap({ nodeExecutions: nodes('executing') }),
    snap({ status: 'finish', nodeExecutions: nodes('finish') }),
  ]);
  // The output lists the node as executing next to its file.
  checkExecutionHistory(verdict, 'e1', undefined, [
    snap(
      { status: 'finish', nodeExecutions: nodes('finish') },
      { output: [{ nodeId: 'n1', status: 'executing', messages: [] }], files: [file] },
    ),
  ]);
  expect(outcomes('OUTPUT-FILES-ONLY-AFTER-FINISH')).toEqual(['pass', 'pass', 'fail', 'fail']);
});

test('a node status outside the enum blocks what reads it, by NODE-STATUS-ENUM', () => {
  const { verdict, outcomes } = recorder();
  const file = { name: 'a.md', type: 'text/markdown', nodeId: 'n1' };
  const done = [{ nodeId: 'n1', status: 'done' }] as unknown as StatusData['nodeExecutions'];
  checkExecutionHistory(verdict, 'e1', undefined, [
    snap(
      { status: 'finish', nodeExecutions: done },
      { output: [{ nodeId: 'n1', status: 'done', messages: [] }] as unknown as OutputData['output'], files: [file] },
    ),
  ]);
  expect(outcomes('OUTPUT-FILES-ONLY-AFTER-FINISH')).toEqual(['blocked by NODE-STATUS-ENUM']);
  expect(outcomes('STATE-EXEC-FINISH-NODES-FINISHED')).toEqual(['blocked by NODE-STATUS-ENUM']);
});

test('TIMES-ORDERED: end before start or start before creation warns; whole seconds get a second of slack', () => {
  const { verdict, outcomes } = recorder();
  const node = (startTime: string, endTime: string) =>
    ({ output: [{ nodeId: 'n1', status: 'finish', startTime, endTime, messages: [] }] }) as Partial<OutputData>;
  checkExecutionHistory(verdict, 'e1', undefined, [snap({ status: 'finish' }, node(at(10), at(20)))]);
  checkExecutionHistory(verdict, 'e1', undefined, [snap({ status: 'finish' }, node(at(20), at(10)))]);
  checkExecutionHistory(verdict, 'e1', undefined, [snap({ status: 'finish' }, node(at(-5000), at(10)))]);
  checkExecutionHistory(verdict, 'e1', undefined, [
    snap({ status: 'finish', createdAt: '2026-01-01T10:00:01Z' }, node(at(400), at(500))),
  ]);
  checkExecutionHistory(verdict, 'e1', undefined, [snap({ status: 'finish' }, node('yesterday', 'today'))]);
  expect(outcomes('TIMES-ORDERED')).toEqual(['pass', 'fail', 'fail', 'pass', 'blocked by DATETIME-FORMAT']);
});

/** A client whose status endpoint answers from a list (the last answer repeats). */
function statusClient(answers: Exchange[]): ApiClient {
  let i = 0;
  return { status: async () => answers[Math.min(i++, answers.length - 1)] } as unknown as ApiClient;
}

async function stopOf(answers: Exchange[], timeoutMs = 0) {
  const { verdict, outcomes } = recorder();
  const err = await pollExecution(statusClient(answers), verdict, 'e1', { intervalMs: 1, timeoutMs }).catch(
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PollStopped);
  return { stop: (err as PollStopped).stop, outcomes };
}

test('a poll that cannot go on names the clause that stopped it, or none when the deadline was ours', async () => {
  const executing = answer('getExecutionStatus', 200, {
    success: true,
    data: { executionId: 'e1', status: 'executing', nodeExecutions: [] },
  });
  const gone = await stopOf([executing, answer('getExecutionStatus', 404, { success: false })], 50);
  expect(gone.stop.blockedBy).toBe('RUN-RETURNS-EXECUTION-ID');
  expect(gone.outcomes('RUN-RETURNS-EXECUTION-ID')).toEqual(['fail']);
  expect(
    (await stopOf([answer('getExecutionStatus', 502, undefined, ['STATUS-HTTP-STATUS-LISTED'])])).stop.blockedBy,
  ).toBe('STATUS-HTTP-STATUS-LISTED');
  expect(
    (
      await stopOf([
        answer('getExecutionStatus', 200, { success: true, data: { executionId: 'e1', status: 'queued' } }, [
          'EXEC-STATUS-ENUM',
        ]),
      ])
    ).stop.blockedBy,
  ).toBe('EXEC-STATUS-ENUM');
  const slow = await stopOf([executing]);
  expect(slow.stop.blockedBy).toBeUndefined();
  expect(slow.stop.reason).toMatch(/WFCHECK_POLL_TIMEOUT_MS/);
});

test('without overwrite a run generates in English and two rotated locales, and ten successive seeds cover all twenty', () => {
  expect(localesForRun(7, true)).toEqual([...LOCALES]);
  const seen = new Set<string>();
  for (let seed = 1000; seed < 1010; seed++) {
    const run = localesForRun(seed, false);
    expect(run.length).toBe(3);
    expect(run[0]).toBe('en');
    expect(new Set(run).size).toBe(3);
    for (const l of run) seen.add(l);
  }
  expect([...seen].sort()).toEqual([...LOCALES].sort());
});
