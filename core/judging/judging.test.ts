/**
 * The judging helpers on hand-made answers: each check fails on an answer that breaks its clause, stays
 * quiet on legal variants, and is "blocked" (never failed a second time) when an earlier clause already
 * failed on the same deviation.
 */
import { test, expect } from '@playwright/test';
import { accepted, clientError, expectStatus } from './expect.ts';
import { dependsOn, stopAll } from './stops.ts';
import { answer, recorder } from './answers.testkit.ts';
import { judgeFiles, judgeRunAnswer, observeUndeclared, type FileRead } from './lifecycle.ts';

const WITH_ID = {
  carries: 'an executionId',
  read: (d: unknown) => (d as { executionId?: string } | undefined)?.executionId,
  judgedBy: 'RUN-RETURNS-EXECUTION-ID' as const,
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

test('a clause is blocked by the failure recorded on the answer it needed, never by one elsewhere in the test', () => {
  const { verdict, outcomes, checks } = recorder();
  // A timestamp of a status answer deviates; the output answer the files clause needed is fine.
  answer('getExecutionStatus', 200, {}, ['DATETIME-FORMAT']);
  const output = answer('getExecutionOutput', 200, {});
  stopAll(verdict, ['OUTPUT-FILE-SIZE-UNIT'], { exchangeIds: [output.record.id], reason: 'files unread' });
  // Named, but not what failed on that answer: still not its cause.
  verdict.blocked('OUTPUT-FILE-TYPE-VALUES', {
    blockedBy: 'DATETIME-FORMAT',
    exchangeIds: [output.record.id],
    reason: 'files unread',
  });
  expect(outcomes('OUTPUT-FILE-SIZE-UNIT')).toEqual(['not-run']);
  expect(outcomes('OUTPUT-FILE-TYPE-VALUES')).toEqual(['not-run']);
  // Several failures on the needed answer: the status line's first, since it loses the whole answer.
  const broken = answer('getExecutionOutput', 500, {}, ['OUTPUT-200-ENVELOPE', 'OUTPUT-HTTP-STATUS-LISTED']);
  stopAll(verdict, ['OUTPUT-FILE-NODE-EXISTS'], { exchangeIds: [broken.record.id], reason: 'output unread' });
  expect(outcomes('OUTPUT-FILE-NODE-EXISTS')).toEqual(['blocked by OUTPUT-HTTP-STATUS-LISTED']);
  expect(checks('OUTPUT-FILE-NODE-EXISTS')[0]).toMatchObject({
    needed: { exchangeIds: [broken.record.id] },
    blockedChain: [{ requirementId: 'OUTPUT-HTTP-STATUS-LISTED', outcome: 'fail', exchangeId: broken.record.id }],
  });
});

test('a step never taken passes its cause on as a chain: A blocked by B blocked by C', () => {
  const { verdict, outcomes, checks } = recorder();
  const upload = answer('uploadFiles', 200, { success: true, data: { files: [{ fileKey: 'k1', fileName: 'a' }] } });
  const keys = accepted(
    verdict,
    'UPLOAD-KEY-PER-FILE',
    upload,
    { carries: '2 distinct fileKeys', read: () => undefined },
    'upload of 2 files',
  );
  expect(keys.ok).toBe(false);
  const stop = keys.ok ? { reason: '' } : keys.stop;
  // The run was never sent: its clause is blocked by the upload's failure…
  stopAll(verdict, ['RUN-VARIABLES-WRAPPER'], stop);
  // …and what needed the run is blocked by the run's clause, itself blocked by the upload's.
  stopAll(verdict, ['OUTPUT-FILE-SIZE-UNIT'], dependsOn('RUN-VARIABLES-WRAPPER', stop, 'the run (never sent)'));
  expect(outcomes('RUN-VARIABLES-WRAPPER')).toEqual(['blocked by UPLOAD-KEY-PER-FILE']);
  expect(outcomes('OUTPUT-FILE-SIZE-UNIT')).toEqual(['blocked by RUN-VARIABLES-WRAPPER']);
  expect(checks('OUTPUT-FILE-SIZE-UNIT')[0]).toMatchObject({
    needed: { step: 'the run (never sent)' },
    blockedChain: [
      { requirementId: 'RUN-VARIABLES-WRAPPER', outcome: 'blocked' },
      { requirementId: 'UPLOAD-KEY-PER-FILE', outcome: 'fail', exchangeId: upload.record.id },
    ],
  });
  // A stop of the harness's own stays "not run"; so does a stop naming a clause this test judged clean.
  stopAll(verdict, ['OUTPUT-FILE-URL-SERVES'], dependsOn('RUN-VARIABLES-WRAPPER', { reason: 'our deadline' }, 'x'));
  verdict.check('RUN-RETURNS-EXECUTION-ID', true, { message: 'known' });
  stopAll(verdict, ['OUTPUT-FILE-TYPE-VALUES'], { blockedBy: 'RUN-RETURNS-EXECUTION-ID', reason: 'elsewhere' });
  expect(outcomes('OUTPUT-FILE-URL-SERVES')).toEqual(['not-run']);
  expect(outcomes('OUTPUT-FILE-TYPE-VALUES')).toEqual(['not-run']);
});

test('an accepted run records the status it answers with, the open point of the first status; a refusal records none', () => {
  const { verdict, observations } = recorder();
  const ok = judgeRunAnswer(
    verdict,
    ['wrapper'],
    answer('runWorkflow', 200, { success: true, data: { executionId: 'e1', status: 'executing' } }),
    'run c_1',
    undefined,
  );
  expect(ok.ok).toBe(true);
  expect(observations('STATE-TRANSITIONS').map((o) => [o.key, o.value, o.points])).toEqual([
    ['status the run answers', 'executing', [{ point: 'run-status', value: 'executing' }]],
  ]);
  judgeRunAnswer(verdict, ['wrapper'], answer('runWorkflow', 404, { success: false }), 'run c_2', undefined);
  expect(observations('STATE-TRANSITIONS')).toHaveLength(1);
});

test('an undeclared variable: ignored or refused is recorded; a refusal counts only when the run without it is accepted', () => {
  const { verdict, outcomes, observations } = recorder();
  const ok = answer('runWorkflow', 200, { success: true, data: { executionId: 'e1', status: 'init' } });
  const refused = () => answer('runWorkflow', 400, { success: false, errCode: 'INVALID_REQUEST_BODY' });
  observeUndeclared(verdict, { ex: ok, message: 'run with x' });
  observeUndeclared(verdict, { ex: refused(), message: 'run with x' }, ok);
  expect(observations('RUN-UNDECLARED-VARIABLES').map((o) => [o.value, o.points?.[0]?.value])).toEqual([
    ['HTTP 200', 'ignored'],
    ['HTTP 400 (INVALID_REQUEST_BODY)', '400'],
  ]);
  // Refused without it too: the refusal is of something else (a value guessed for a declared variable).
  observeUndeclared(verdict, { ex: refused(), message: 'run with x' }, refused());
  observeUndeclared(verdict, { ex: refused(), message: 'run with x' });
  // A 5xx is the status clause's finding: blocked by it, never a value.
  observeUndeclared(verdict, {
    ex: answer('runWorkflow', 500, { success: false }, ['RUN-HTTP-STATUS-LISTED']),
    message: 'run with x',
  });
  expect(outcomes('RUN-UNDECLARED-VARIABLES')).toEqual(['not-run', 'not-run', 'blocked by RUN-HTTP-STATUS-LISTED']);
  expect(observations('RUN-UNDECLARED-VARIABLES')).toHaveLength(2);
});

test('a file url read without the key is recorded, on a url that served its file with the key', () => {
  const file = { name: 'report.md', type: 'text/markdown', url: 'http://127.0.0.1:1/f/1' };
  const fetched = (status: number, body?: unknown) => ({
    ...answer('getExecutionOutput', status, body),
    operation: undefined,
  });
  const answerTo = (reads: FileRead[]) => {
    const { verdict, outcomes, observations } = recorder();
    judgeFiles(verdict, 'c1', [file], reads);
    const [o] = observations('OUTPUT-FILE-URL-KEY');
    return o ? o.points?.[0]?.value : outcomes('OUTPUT-FILE-URL-KEY')[0];
  };
  expect(answerTo([{ file, got: fetched(200), keyed: true, unkeyed: fetched(200) }])).toBe('served without the key');
  expect(answerTo([{ file, got: fetched(200), keyed: true, unkeyed: fetched(401, { errCode: 'E0004' }) }])).toBe(
    'needs the key',
  );
  // On another origin the key was never sent: the first read is the read without it.
  expect(answerTo([{ file, got: fetched(200), keyed: false }])).toBe('served without the key');
  expect(answerTo([{ file, got: fetched(401), keyed: false }])).toBe('not-run');
  // A url that does not serve its file with the key tells nothing: blocked by that warning.
  expect(answerTo([{ file, got: fetched(404), keyed: true, unkeyed: fetched(404) }])).toBe(
    'blocked by OUTPUT-FILE-URL-SERVES',
  );
  expect(answerTo([{ file, notRead: 'no url' }])).toBe('not-run');
});
