/**
 * The relation checks over an execution's history and a plan (relations.ts, visibility.ts, plans.ts) on
 * hand-made snapshots: each judges the data it reads wherever it is in hand, leaves a clause not run
 * when the specification makes that data optional, and is blocked by the failure on the very answer it
 * needed.
 */
import { test, expect } from '@playwright/test';
import type { OutputData, Snapshot, StatusData, WorkflowPlan } from './payloads.ts';
import { checkExecutionHistory } from './relations.ts';
import { checkNodesMatchPlan } from './plans.ts';
import { at, recorder, snap } from './answers.testkit.ts';

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
  // The output lists the node as executing next to its file, and the read right after it still has it executing.
  const running: Partial<OutputData> = { output: [{ nodeId: 'n1', status: 'executing', messages: [] }], files: [file] };
  checkExecutionHistory(verdict, 'e1', undefined, [
    withConfirm(snap({ nodeExecutions: nodes('executing') }, running), nodes('executing')),
    snap({ status: 'finish', nodeExecutions: nodes('finish') }, running),
  ]);
  expect(outcomes('OUTPUT-FILES-ONLY-AFTER-FINISH')).toEqual(['pass', 'pass', 'fail', 'fail']);
});

test('an output whose node status lags its files is recorded, not failed: the read right after shows the node ended', () => {
  const { verdict, outcomes, observations } = recorder();
  const file = { name: 'a.md', type: 'text/markdown', nodeId: 'n1' };
  const nodes = (s: string) => [{ nodeId: 'n1', status: s }] as StatusData['nodeExecutions'];
  const running: Partial<OutputData> = { output: [{ nodeId: 'n1', status: 'executing', messages: [] }], files: [file] };
  // Statuses and files read in two queries, the node finishing between them: the confirming read shows finish.
  checkExecutionHistory(verdict, 'e1', undefined, [
    withConfirm(snap({ nodeExecutions: nodes('executing') }, running), nodes('finish')),
    snap(
      { status: 'finish', nodeExecutions: nodes('finish') },
      { output: [{ nodeId: 'n1', status: 'finish', messages: [] }], files: [file] },
    ),
  ]);
  expect(outcomes('OUTPUT-FILES-ONLY-AFTER-FINISH')).toEqual(['pass']);
  expect(observations('OUTPUT-FILES-ONLY-AFTER-FINISH').map((o) => o.key)).toEqual([
    'node status in the output older than its files',
  ]);
});

/** The snapshot with the confirming status read poll.ts makes after an output listing a running node's file. */
function withConfirm(s: Snapshot, nodeExecutions: StatusData['nodeExecutions']): Snapshot {
  return { ...s, confirm: { status: { ...s.status, nodeExecutions }, exchange: s.statusExchange } };
}

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
    blockedBy: 'EXEC-STATUS-ENUM' as const,
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

test('which nodes a finished output lists is recorded against the status; one node or a failed end cannot tell', () => {
  const { verdict, observations } = recorder();
  const three = [
    { nodeId: 'n1', status: 'finish' },
    { nodeId: 'n2', status: 'finish' },
    { nodeId: 'n3', status: 'finish' },
  ] as StatusData['nodeExecutions'];
  const listing = (ids: string[]) => ({ output: ids.map((nodeId) => ({ nodeId })) }) as Partial<OutputData>;
  const every = checkExecutionHistory(verdict, 'e1', undefined, [
    snap({ nodeExecutions: three }, listing(['n1'])),
    snap({ status: 'finish', nodeExecutions: three }, listing(['n1', 'n2', 'n3'])),
  ]);
  // Only the output read once finish counts: while executing, an output lists what has run so far.
  const last = checkExecutionHistory(verdict, 'e2', undefined, [
    snap({ status: 'finish', nodeExecutions: three }, listing(['n3'])),
  ]);
  expect(observations('OUTPUT-NODES-LISTED').map((o) => [o.value, o.points?.[0]?.value])).toEqual([
    ['3 of 3 nodes', 'every node'],
    ['1 of 3 nodes', 'output nodes only'],
  ]);
  expect([every.outputNodesUnread, last.outputNodesUnread]).toEqual([undefined, undefined]);
  const one = checkExecutionHistory(verdict, 'e3', undefined, [
    snap({ status: 'finish', nodeExecutions: [{ nodeId: 'n1' }] }, listing(['n1'])),
  ]);
  const failed = checkExecutionHistory(verdict, 'e4', undefined, [
    snap({ status: 'failed', nodeExecutions: three }, listing(['n1'])),
  ]);
  const unread = checkExecutionHistory(verdict, 'e5', undefined, [snap({ status: 'finish', nodeExecutions: three })]);
  expect(one.outputNodesUnread).toMatch(/lists 1 node\(s\)/);
  expect(failed.outputNodesUnread).toMatch(/ended failed/);
  expect(unread.outputNodesUnread).toMatch(/not read/);
  expect(observations('OUTPUT-NODES-LISTED')).toHaveLength(2);
});
