/**
 * Following executions: polls back off while nothing changes and come close again after a change;
 * an execution is followed until its nodes stopped, not just until its status says it ended, and not
 * waited for when it can never end (a status outside the enum, or one that stays put while every node
 * has settled — once seen, the next execution like it is stopped at first sight); a read that faults
 * stops the poll with the fault's own stop;
 * executions handed to followTogether are polled side by side and each is judged as soon as it ends;
 * the plan's chain of dependencies orders workflows by how soon they should end.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import type { CheckRecord, EvidenceRecord } from '../evidence/records.ts';
import type { ClauseId } from '../../contracts/requirements.ts';
import { Verdict } from '../evidence/verdict.ts';
import type { ApiClient } from '../client/client.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { RunConfig } from '../settings/run-config.ts';
import { ENDS_WHEN_NODES_SETTLE, MAX_BACKOFF, nextGap, pollExecution, PollStopped, STUCK_POLLS } from './poll.ts';
import { faultsSeen } from '../transport/faults-seen.ts';
import { followTogether, quickestFirst, sequentialSteps, type Outcome } from './runs.ts';
import type { WorkflowPlan } from '../judging/payloads.ts';

const verdict = () => Verdict.detached({ write: (_r: EvidenceRecord) => undefined } as never);
const config = {
  pollIntervalMs: 1,
  pollTimeoutMs: 5_000,
  evidenceDir: join(mkdtempSync(join(tmpdir(), 'wfcheck-follow-')), 'evidence'),
} as RunConfig;

let seq = 0;
function statusAnswer(executionId: string, status: string, nodes: string[] = []): Exchange {
  const body = {
    success: true,
    data: { executionId, status, nodeExecutions: nodes.map((st, i) => ({ nodeId: `n${i}`, status: st })) },
  };
  return {
    record: { id: `x${++seq}` } as Exchange['record'],
    status: 200,
    headers: {},
    text: JSON.stringify(body),
    json: body,
    parsed: true,
    operation: 'getExecutionStatus',
    violations: [],
  };
}

/** A target whose executions read as `executing` a given number of times, then `finish`; it logs every read. */
function target(readsBeforeEnd: Record<string, number>, log: string[]): ApiClient {
  const reads = new Map<string, number>();
  return {
    status: async (id: string) => {
      const n = (reads.get(id) ?? 0) + 1;
      reads.set(id, n);
      log.push(id);
      return statusAnswer(id, n > readsBeforeEnd[id] ? 'finish' : 'executing');
    },
    abort: async () => statusAnswer('', 'finish'),
  } as unknown as ApiClient;
}

test('polls come further apart while nothing changes, up to a cap, and close again after a change', () => {
  const opts = { intervalMs: 50 };
  const gaps: number[] = [];
  let gap = 50;
  for (let i = 0; i < 6; i++) {
    gap = nextGap(gap, false, opts);
    gaps.push(gap);
  }
  expect(gaps).toEqual([100, 200, 400, 400, 400, 400].map((g) => Math.min(g, MAX_BACKOFF * 50)));
  expect(nextGap(400, true, opts)).toBe(50);
  // A cap below the interval never makes polls closer than configured.
  expect(nextGap(1000, false, { intervalMs: 1000, maxIntervalMs: 500 })).toBe(1000);
});

test('a terminal status whose nodes still execute is read on until they stop, or judged as read at the deadline', async () => {
  const answers = [
    statusAnswer('e1', 'executing', ['executing', 'waiting']),
    statusAnswer('e1', 'finish', ['finish', 'executing']),
    statusAnswer('e1', 'failed', ['finish', 'failed']),
  ];
  let i = 0;
  const lagging = { status: async () => answers[Math.min(i++, answers.length - 1)] } as unknown as ApiClient;
  const read = await pollExecution(lagging, verdict(), 'e1', { intervalMs: 1, timeoutMs: 5_000 });
  expect(read.map((s) => s.status.status)).toEqual(['executing', 'finish', 'failed']);

  const stuck = { status: async () => statusAnswer('e1', 'finish', ['executing']) } as unknown as ApiClient;
  const asRead = await pollExecution(stuck, verdict(), 'e1', { intervalMs: 1, timeoutMs: 20 });
  expect(asRead.length).toBeGreaterThan(1);
  expect(asRead.every((s) => s.status.status === 'finish')).toBe(true);

  // Nodes that never started may stay waiting in a failed execution: that is its end.
  const failed = { status: async () => statusAnswer('e1', 'failed', ['failed', 'waiting']) } as unknown as ApiClient;
  expect((await pollExecution(failed, verdict(), 'e1', { intervalMs: 1, timeoutMs: 5_000 })).length).toBe(1);
});

test('executions handed to followTogether are polled side by side and each is judged when it ends', async () => {
  const log: string[] = [];
  const api = target({ slow: 6, quick: 1 }, log);
  const judged: string[] = [];
  const outcomes: Outcome[] = [];
  await followTogether({ api, verdict: verdict(), config }, async (follow) => {
    for (const id of ['slow', 'quick'])
      follow(
        { executionId: id },
        {
          judge: (o) => {
            judged.push(id);
            outcomes.push(o);
          },
        },
      );
    follow(
      { stop: { reason: 'the run was refused' } },
      {
        judge: (o) => {
          judged.push('refused');
          outcomes.push(o);
        },
      },
    );
  });
  expect(judged).toEqual(['refused', 'quick', 'slow']);
  // The quick execution was read to its end while the slow one was still being polled.
  expect(log.lastIndexOf('quick')).toBeLessThan(log.lastIndexOf('slow'));
  expect(log.indexOf('quick')).toBeLessThan(log.indexOf('slow') + 2);
  const slow = outcomes.find((o) => o.executionId === 'slow')!;
  expect(slow.snaps.map((s) => s.status.status)).toEqual([...Array(6).fill('executing'), 'finish']);
  expect(outcomes.find((o) => !o.executionId)?.stop?.reason).toBe('the run was refused');
});

test('followTogether waits for every execution already handed over when a later start throws', async () => {
  const log: string[] = [];
  let judgedFirst = false;
  const run = followTogether({ api: target({ first: 3 }, log), verdict: verdict(), config }, async (follow) => {
    follow(
      { executionId: 'first' },
      {
        judge: () => {
          judgedFirst = true;
        },
      },
    );
    throw new Error('upload failed');
  });
  await expect(run).rejects.toThrow('upload failed');
  expect(judgedFirst).toBe(true);
});

test('the longest chain of dependencies orders workflows by how soon they should end', () => {
  const plan = (tasks: [string, string[]][]) =>
    ({
      title: 't',
      tasks: tasks.map(([id, dependentTasks]) => ({ id, title: id, prompt: '', toolsets: [], dependentTasks })),
    }) as unknown as WorkflowPlan;
  const chain = plan([
    ['a', []],
    ['b', ['a']],
    ['c', ['b']],
  ]);
  const wide = plan([
    ['a', []],
    ['b', []],
    ['c', ['a', 'b']],
  ]);
  const cyclic = plan([
    ['a', ['b']],
    ['b', ['a']],
  ]);
  expect([
    sequentialSteps(chain),
    sequentialSteps(wide),
    sequentialSteps(cyclic),
    sequentialSteps(plan([])),
    sequentialSteps(undefined),
  ]).toEqual([3, 2, 2, 0, 0]);
  expect(sequentialSteps(plan([['a', ['gone']]]))).toBe(1);
  const order = quickestFirst([
    { canvasId: 'chain', title: '', plan: chain },
    { canvasId: 'wide', title: '', plan: wide },
    { canvasId: 'none', title: '', plan: plan([]) },
  ]);
  expect(order.map((w) => w.canvasId)).toEqual(['none', 'wide', 'chain']);
});

/** The stop of a poll that must not end normally, and the reads it took. */
async function stopped(api: ApiClient, executionId = 'e1', faults = faultsSeen(config.evidenceDir)) {
  const err = await pollExecution(api, verdict(), executionId, { intervalMs: 1, timeoutMs: 5_000, faults }).catch(
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PollStopped);
  return err as PollStopped;
}

/** A status client that answers `answers` in turn (the last one repeats) and counts its reads. */
function scripted(...answers: Exchange[]): ApiClient & { reads: number } {
  const api = {
    reads: 0,
    // Each read is an exchange of its own, as the same answer read twice would be.
    status: async () => {
      const answer = answers[Math.min(api.reads++, answers.length - 1)]!;
      return { ...answer, record: { ...answer.record, id: `x${++seq}` } };
    },
  };
  return api as unknown as ApiClient & { reads: number };
}

test('a status outside the enum ends the poll at the read that shows it, blocked by EXEC-STATUS-ENUM', async () => {
  const finished = { ...statusAnswer('e1', 'finished', ['finish']), violations: [] as Exchange['violations'] };
  finished.violations.push({
    requirementId: 'EXEC-STATUS-ENUM',
    level: 'must',
    message: 'status outside the enum',
  } as Exchange['violations'][number]);
  const api = scripted(statusAnswer('e1', 'executing', ['executing']), finished);
  const { stop, snapshots } = await stopped(api);
  expect([api.reads, snapshots.length]).toEqual([2, 2]);
  expect(stop.blockedBy).toBe('EXEC-STATUS-ENUM');
  expect(stop.reason).toMatch(/"finished", outside the enum/);
});

test('unchanged while every node settled: cannot finish; the next one like it stops at first sight', async () => {
  const faults = faultsSeen(join(mkdtempSync(join(tmpdir(), 'wfcheck-stuck-')), 'evidence'));
  const stuck = scripted(
    statusAnswer('e1', 'executing', ['executing', 'waiting']),
    statusAnswer('e1', 'executing', ['finish', 'failed']),
  );
  const records: EvidenceRecord[] = [];
  const told = Verdict.detached({ write: (r: EvidenceRecord) => records.push(r) });
  const poll = (api: ApiClient, id: string) =>
    pollExecution(api, told, id, { intervalMs: 1, timeoutMs: 5_000, faults }).catch(
      (e: unknown) => e,
    ) as Promise<PollStopped>;
  const first = await poll(stuck, 'e1');
  expect(first.snapshots.length).toBe(1 + STUCK_POLLS);
  // A warning, once, with the polls that show it; what needed the end is blocked by it.
  expect(first.stop.blockedBy).toBe(ENDS_WHEN_NODES_SETTLE);
  expect(first.stop.reason).toMatch(/^executions cannot finish on this target: status "executing" stays unchanged/);
  const warned = records.filter((r): r is CheckRecord => r.kind === 'check' && r.outcome === 'fail');
  expect(warned.map((r) => [r.requirementId, r.level, r.exchangeIds?.length])).toEqual([
    [ENDS_WHEN_NODES_SETTLE, 'should', STUCK_POLLS],
  ]);
  const next = scripted(statusAnswer('e2', 'executing', ['finish']));
  const second = await poll(next, 'e2');
  expect(next.reads).toBe(1);
  expect(second.stop).toMatchObject({ blockedBy: ENDS_WHEN_NODES_SETTLE, reason: first.stop.reason });
  expect(records.filter((r) => r.kind === 'check' && r.outcome === 'fail')).toHaveLength(1);
  // A node still executing, or no nodes at all, shows nothing settled: such executions are followed on.
  const working = scripted(statusAnswer('e3', 'executing', ['finish', 'executing']), statusAnswer('e3', 'finish'));
  expect(await pollExecution(working, verdict(), 'e3', { intervalMs: 1, timeoutMs: 5_000, faults })).toHaveLength(2);
  const bare = await pollExecution(scripted(statusAnswer('e4', 'init')), verdict(), 'e4', {
    intervalMs: 1,
    timeoutMs: 30,
    faults,
  }).catch((e: unknown) => e as PollStopped);
  expect((bare as PollStopped).stop.reason).toMatch(/WFCHECK_POLL_TIMEOUT_MS/);
});

test("a read that faults ends the poll with the fault's stop: blocked by its clause, or not run", async () => {
  const faulted = (kind: string, clause?: ClauseId): Exchange => ({
    record: { id: `x${++seq}` } as Exchange['record'],
    headers: {},
    text: '',
    operation: 'getExecutionStatus',
    violations: [],
    fault: { kind: 'operation-faulted', message: 'm' },
    faulted: {
      operation: 'getExecutionStatus',
      scope: 'call',
      kind,
      message: 'no answer',
      ...(clause ? { clause } : {}),
      at: '',
    },
  });
  const limit = await stopped(scripted(faulted('timeout')));
  expect(limit.stop.blockedBy).toBeUndefined();
  expect(limit.stop.reason).toMatch(/^getExecutionStatus ran into the harness's request deadline/);
  const reset = await stopped(scripted(faulted('connection-reset', 'STATUS-HTTP-STATUS-LISTED')));
  expect(reset.stop.blockedBy).toBe('STATUS-HTTP-STATUS-LISTED');
});
