/**
 * The suites' judging helpers on hand-made answers: each check fails on an answer that breaks its
 * clause, stays quiet on legal variants, and is "blocked" — never failed a second time — when an
 * earlier clause already failed on the same deviation.
 */
import { test, expect } from '@playwright/test';
import type { CheckRecord, EvidenceRecord, ObservationRecord } from '../evidence/records.ts';
import { Verdict } from '../evidence/verdict.ts';
import type { ApiClient } from '../client/client.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { OperationId } from '../../contracts/check.ts';
import { OPERATION_PREFIX } from '../../contracts/requirements.ts';
import {
  accepted,
  clientError,
  dependsOn,
  expectStatus,
  stopAll,
  type OutputData,
  type StatusData,
  type WorkflowPlan,
} from './judging.ts';
import { checkExecutionHistory } from './relations.ts';
import { checkNodesMatchPlan } from './plans.ts';
import { LOCALES, localesForRun } from '../discovery/locales.ts';
import { pollExecution, PollStopped, type Snapshot } from '../execution/poll.ts';
import { judgeRun } from '../execution/runs.ts';

/** The verdict answers are recorded on as they arrive, as the client records them (see `answer`). */
let current: Verdict | undefined;

function recorder() {
  const records: EvidenceRecord[] = [];
  const verdict = Verdict.detached({ write: (r: EvidenceRecord) => records.push(r) } as never);
  current = verdict;
  const checks = (id: string) => records.filter((r): r is CheckRecord => r.kind === 'check' && r.requirementId === id);
  const outcomes = (id: string) =>
    checks(id).map((c) => (c.outcome === 'blocked' ? `blocked by ${c.blockedBy}` : c.outcome));
  const messages = (id: string) => checks(id).map((c) => c.message);
  const observations = (id: string) =>
    records.filter((r): r is ObservationRecord => r.kind === 'observation' && r.requirementId === id);
  return { verdict, records, checks, outcomes, messages, observations };
}

let seq = 0;
/**
 * An answer as the client hands it over: `violations` are what the contract checks found (must level),
 * recorded on the current verdict against the answer, as the client records them.
 */
function answer(
  operation: OperationId,
  status: number | undefined,
  body?: unknown,
  violations: string[] = [],
  fault?: string,
): Exchange {
  const id = `x${++seq}`;
  for (const requirementId of violations)
    current?.contract(requirementId, 'must', false, { message: 'contract check', exchangeId: id });
  // A transport fault of the target fails the operation's status clause (the client's judgeFault).
  if (fault)
    current?.contract(`${OPERATION_PREFIX[operation]}-HTTP-STATUS-LISTED`, 'must', false, {
      message: fault,
      exchangeId: id,
    });
  return {
    record: { id } as Exchange['record'],
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
  verdict.must('RUN-RETURNS-EXECUTION-ID', true, { message: 'known' });
  stopAll(verdict, ['OUTPUT-FILE-TYPE-VALUES'], { blockedBy: 'RUN-RETURNS-EXECUTION-ID', reason: 'elsewhere' });
  expect(outcomes('OUTPUT-FILE-URL-SERVES')).toEqual(['not-run']);
  expect(outcomes('OUTPUT-FILE-TYPE-VALUES')).toEqual(['not-run']);
});

const PLAN = {
  title: 'Digest',
  tasks: [
    { id: 'task-1', title: 'Collect', prompt: 'p', toolsets: [] },
    { id: 'task-2', title: 'Summarise', prompt: 'p', toolsets: [] },
  ],
} as WorkflowPlan;

test('nodes match the plan by id or title; without titles and with ids of their own they cannot be judged', () => {
  const { verdict, outcomes, messages } = recorder();
  checkNodesMatchPlan(verdict, PLAN, [{ nodeId: 'node_task-1' }, { nodeId: 'node_task-2' }], 'x');
  checkNodesMatchPlan(
    verdict,
    PLAN,
    [
      { nodeId: 'a', title: 'Collect' },
      { nodeId: 'b', title: 'Summarise' },
    ],
    'x',
  );
  checkNodesMatchPlan(verdict, PLAN, [{ nodeId: 'n_91ac' }, { nodeId: 'n_07fe' }], 'x');
  checkNodesMatchPlan(verdict, PLAN, [{ nodeId: 'n_91ac' }], 'x');
  checkNodesMatchPlan(verdict, PLAN, [{ nodeId: 'node_task-1' }, { nodeId: 'node_task-9' }], 'x');
  checkNodesMatchPlan(verdict, PLAN, undefined, 'x');
  expect(outcomes('STATE-NODES-MATCH-PLAN')).toEqual(['pass', 'pass', 'not-run', 'fail', 'fail', 'not-run']);
  expect(messages('STATE-NODES-MATCH-PLAN')[2]).toBe(
    'cannot judge: nodeExecutions[].title absent and node ids are not task ids',
  );
});

test('optional fields absent leave their clauses not run: executionId, node statuses, file nodeIds, dependencies', () => {
  const { verdict, outcomes } = recorder();
  const nodes = [{ nodeId: 'n1' }, { nodeId: 'n2' }] as StatusData['nodeExecutions'];
  checkExecutionHistory(verdict, 'e1', undefined, [
    snap({ executionId: undefined, nodeExecutions: nodes }),
    snap({ executionId: undefined, status: 'finish', nodeExecutions: nodes }, { files: [{ name: 'a', type: 't' }] }),
  ]);
  expect(outcomes('STATUS-ECHOES-EXECUTION')).toEqual(['not-run']);
  expect(outcomes('STATE-EXEC-FINISH-NODES-FINISHED')).toEqual(['not-run']);
  expect(outcomes('OUTPUT-FILE-NODE-EXISTS')).toEqual(['not-run']);
  expect(outcomes('OUTPUT-FILES-ONLY-AFTER-FINISH')).toEqual(['not-run']);
  // createdAt still tells the identity is stable.
  expect(outcomes('STATE-STABLE-IDENTITY')).toEqual(['pass']);
});

const T0 = '2026-01-01T10:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

/** One poll: its status (and output) answers, with what their contract checks found. */
function snap(
  status: Partial<StatusData>,
  output?: Partial<OutputData>,
  found: { status?: string[]; output?: string[] } = {},
): Snapshot {
  return {
    at: 0,
    status: { executionId: 'e1', status: 'executing', createdAt: T0, nodeExecutions: [], ...status } as StatusData,
    statusExchange: answer('getExecutionStatus', 200, undefined, found.status),
    ...(output
      ? {
          output: { output: [], files: [], ...output } as OutputData,
          outputExchange: answer('getExecutionOutput', 200, undefined, found.output),
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
  // One poll says nothing of stability.
  expect(outcomes('STATE-STABLE-IDENTITY')).toEqual(['not-run', 'pass']);
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

test('a finish reported while a node still ran, later failed: one warning, STATE-TERMINAL blocked by it', () => {
  const { verdict, outcomes } = recorder();
  const nodes = (second: string) =>
    [
      { nodeId: 'n1', status: 'finish' },
      { nodeId: 'n2', status: second },
    ] as StatusData['nodeExecutions'];
  checkExecutionHistory(verdict, 'e1', undefined, [
    snap({ status: 'finish', nodeExecutions: nodes('executing') }),
    snap({ status: 'failed', nodeExecutions: nodes('failed') }),
  ]);
  expect(outcomes('STATE-EXEC-FINISH-NODES-FINISHED')).toEqual(['fail']);
  // Its nodes stayed in their terminal statuses (pass); the execution's own status is blocked.
  expect(outcomes('STATE-TERMINAL')).toEqual(['pass', 'blocked by STATE-EXEC-FINISH-NODES-FINISHED']);
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

test('a file of a node that failed is recorded, not judged: "finished" may be read as "ended"', () => {
  const { verdict, outcomes, observations } = recorder();
  const file = { name: 'partial.md', type: 'text/markdown', nodeId: 'n1' };
  checkExecutionHistory(verdict, 'e1', undefined, [
    snap(
      { status: 'failed', nodeExecutions: [{ nodeId: 'n1', status: 'failed' }] as StatusData['nodeExecutions'] },
      { output: [{ nodeId: 'n1', status: 'failed', messages: [] }], files: [file] },
    ),
  ]);
  expect(outcomes('OUTPUT-FILES-ONLY-AFTER-FINISH')).toEqual([]);
  expect(observations('OUTPUT-FILES-ONLY-AFTER-FINISH').map((o) => o.key)).toEqual(['file of a node that failed']);
});

test('a node status outside the enum blocks what reads it, by NODE-STATUS-ENUM', () => {
  const { verdict, outcomes } = recorder();
  const file = { name: 'a.md', type: 'text/markdown', nodeId: 'n1' };
  const done = [{ nodeId: 'n1', status: 'done' }] as unknown as StatusData['nodeExecutions'];
  checkExecutionHistory(verdict, 'e1', undefined, [
    snap(
      { status: 'finish', nodeExecutions: done },
      { output: [{ nodeId: 'n1', status: 'done', messages: [] }] as unknown as OutputData['output'], files: [file] },
      { status: ['NODE-STATUS-ENUM'], output: ['NODE-STATUS-ENUM'] },
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
  checkExecutionHistory(verdict, 'e1', undefined, [
    snap({ status: 'finish' }, node('yesterday', 'today'), { output: ['DATETIME-FORMAT'] }),
  ]);
  // Times absent (optional) say nothing: not run, never passed.
  checkExecutionHistory(verdict, 'e1', undefined, [
    snap({ status: 'finish', createdAt: undefined }, { output: [{ nodeId: 'n1', status: 'finish', messages: [] }] }),
  ]);
  expect(outcomes('TIMES-ORDERED')).toEqual(['pass', 'fail', 'fail', 'pass', 'blocked by DATETIME-FORMAT', 'not-run']);
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

test('a history cut short by a status outside the enum is judged for what it shows; only what needs the end is blocked', () => {
  const { verdict, outcomes } = recorder();
  const file = { name: 'a.md', type: 'text/markdown', nodeId: 'n1' };
  const nodes = (s: string) => [{ nodeId: 'n1', status: s }] as StatusData['nodeExecutions'];
  const finished = snap(
    { status: 'finished' as StatusData['status'], nodeExecutions: nodes('executing') },
    { output: [{ nodeId: 'n1', status: 'executing', messages: [] }], files: [file] },
    { status: ['EXEC-STATUS-ENUM'] },
  );
  const cutShort = {
    blockedBy: 'EXEC-STATUS-ENUM',
    exchangeIds: [finished.statusExchange.record.id],
    reason: 'executions report status "finished", outside the enum',
  };
  checkExecutionHistory(verdict, 'e1', undefined, [finished], cutShort);
  // The file listed beside a node still executing is in hand: a breach of §3, whatever came after.
  expect(outcomes('OUTPUT-FILES-ONLY-AFTER-FINISH')).toEqual(['fail']);
  // What needs the end of the execution was never read: blocked by the reason the poll stopped.
  expect(outcomes('STATE-TERMINAL')).toEqual(['blocked by EXEC-STATUS-ENUM']);
  expect(outcomes('STATE-EXEC-FINISH-NODES-FINISHED')).toEqual(['blocked by EXEC-STATUS-ENUM']);
});

test('a refusal a guessed value could explain is judged once its control, the other form, is accepted', async () => {
  const { verdict, outcomes, messages } = recorder();
  // An untyped variable: what it takes is left open, so a 400 could be the refusal of the harness's guess.
  const wf = {
    canvasId: 'c1',
    title: 'Digest',
    plan: { title: 'Digest', tasks: [], variables: [{ name: 'topic' }] } as WorkflowPlan,
  };
  const refused = () => answer('runWorkflow', 400, { success: false, errCode: 'INVALID_REQUEST_BODY' });
  const started = answer('runWorkflow', 200, { success: true, data: { executionId: 'e9', status: 'init' } });
  const api = {
    status: async () =>
      answer('getExecutionStatus', 200, { success: true, data: { executionId: 'e9', status: 'init' } }),
    abort: async () => answer('abortExecution', 200, { success: true }),
  } as unknown as ApiClient;
  // The same values in the wrapper form are accepted: the legacy form itself was refused.
  await judgeRun(api, verdict, ['RUN-LEGACY-TOP-LEVEL'], refused(), 'run of c1 (legacy form)', wf, {
    form: 'wrapper',
    send: async () => started,
  });
  // Refused in both forms: the refusal may be of the guess, and says nothing of the form.
  await judgeRun(api, verdict, ['RUN-LEGACY-TOP-LEVEL'], refused(), 'run of c1 (legacy form)', wf, {
    form: 'wrapper',
    send: async () => refused(),
  });
  expect(outcomes('RUN-LEGACY-TOP-LEVEL')).toEqual(['fail', 'not-run']);
  expect(messages('RUN-LEGACY-TOP-LEVEL')[0]).toMatch(/the same values in the wrapper form were accepted/);
  expect(messages('RUN-LEGACY-TOP-LEVEL')[1]).toMatch(/cannot judge: refused .* a value the harness guessed/);
});
