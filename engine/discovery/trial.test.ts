/**
 * The trial protocol, driven against a scripted server on a virtual clock: what each kind of workflow
 * shows (a 403, a failed node, an execution still running after a few polls, one that finishes), that
 * nothing it started is left running, what it costs, and that the synchronous (k6) and asynchronous
 * (Node) drivers give the same report.
 */
import { expect, test } from '@playwright/test';
import {
  behaviourShown,
  describeOutcome,
  driveAsync,
  driveSync,
  TRIAL_POLLS,
  trialOptions,
  trialRuns,
  type TrialReply,
  type TrialRequest,
} from './trial.ts';
import { rolesOf } from './roles.ts';

/** How a scripted workflow behaves: its run's status, and for an accepted run when it ends and how. */
interface Script {
  run: number;
  endsAtMs?: number;
  ends?: 'finish' | 'failed';
  /** A node fails at this time (the execution may go on). */
  nodeFailsAtMs?: number;
  /** Its status reads answer this instead of 200. */
  statusAnswers?: number;
}

/** A server on a virtual clock: executions progress as the driver sleeps. */
function scriptedServer(scripts: Record<string, Script>) {
  let now = 1_000_000;
  const executions = new Map<string, { canvasId: string; startedAt: number; aborted: boolean }>();
  const sent: TrialRequest[] = [];
  const send = (r: TrialRequest): TrialReply => {
    sent.push(r);
    const script = scripts[r.canvasId]!;
    if (r.op === 'run') {
      if (script.run !== 200) return { status: script.run, body: { success: false, errCode: 'WEBHOOK_DISABLED' } };
      const executionId = `we_${r.canvasId}`;
      executions.set(executionId, { canvasId: r.canvasId, startedAt: now, aborted: false });
      return { status: 200, body: { success: true, data: { executionId, status: 'init' } } };
    }
    const e = executions.get(r.executionId)!;
    if (r.op === 'abort') {
      e.aborted = true;
      return { status: 200, body: { success: true } };
    }
    if (script.statusAnswers) return { status: script.statusAnswers, body: { success: false } };
    const age = now - e.startedAt;
    const ended = e.aborted || (script.endsAtMs !== undefined && age >= script.endsAtMs);
    const nodeFailed = script.nodeFailsAtMs !== undefined && age >= script.nodeFailsAtMs;
    const status = e.aborted ? 'failed' : ended ? script.ends : 'executing';
    return {
      status: 200,
      body: {
        success: true,
        data: {
          executionId: r.executionId,
          status,
          nodeExecutions: [{ nodeId: 'n1', status: nodeFailed ? 'failed' : ended ? 'finish' : 'executing' }],
        },
      },
    };
  };
  const io = {
    send,
    sleep: (ms: number) => {
      now += ms;
    },
    now: () => now,
  };
  return { io, sent, executions };
}

/** One workflow of each kind, none of whose titles would say so. */
const KINDS: Record<string, Script> = {
  'c-payroll': { run: 403 },
  'c-crm-sync': { run: 200, endsAtMs: 400, ends: 'failed', nodeFailsAtMs: 250 },
  'c-seo-audit': { run: 200, endsAtMs: 25_000, ends: 'finish' },
  'c-digest': { run: 200, endsAtMs: 200, ends: 'finish' },
  'c-needs-input': { run: 400 },
};

test('each kind of workflow shows its behaviour; whatever still runs after the polls is aborted', () => {
  const server = scriptedServer(KINDS);
  const options = trialOptions(100);
  const report = driveSync(trialRuns(Object.keys(KINDS), options), server.io);
  const by = Object.fromEntries(report.trials.map((t) => [t.canvasId, t]));
  expect(by['c-payroll']).toMatchObject({ behaviour: 'disabled', outcome: { kind: 'refused', status: 403 } });
  expect(by['c-crm-sync']).toMatchObject({
    behaviour: 'failing',
    outcome: { kind: 'ended', status: 'failed', failedNode: 'n1' },
  });
  expect(by['c-seo-audit']).toMatchObject({
    behaviour: 'long-running',
    outcome: { kind: 'running', polls: TRIAL_POLLS, aborted: true },
  });
  expect(by['c-digest']).toMatchObject({ behaviour: 'finishes', outcome: { kind: 'ended', status: 'finish' } });
  // A refusal other than 403 (a variable the run lacked) shows nothing.
  expect(by['c-needs-input']!.behaviour).toBeUndefined();

  // Nothing left running: the long one was aborted, the others had ended.
  expect(server.sent.filter((r) => r.op === 'abort').map((r) => r.canvasId)).toEqual(['c-seo-audit']);
  expect([...server.executions.values()].find((e) => e.canvasId === 'c-seo-audit')!.aborted).toBe(true);
  // Its cost: 5 runs, at most TRIAL_POLLS status reads per execution, one abort; seconds, not the 25 s it would run.
  expect(report.footprint).toEqual({ executionsStarted: 3, executionsAborted: 1, requests: server.sent.length });
  expect(server.sent.filter((r) => r.op === 'status').length).toBeLessThanOrEqual(3 * TRIAL_POLLS);
  expect(server.io.now() - 1_000_000).toBe(TRIAL_POLLS * options.intervalMs);
  expect(describeOutcome(by['c-seo-audit']!.outcome)).toBe('still executing after 6 polls (0.6 s), aborted');
  expect(describeOutcome(by['c-payroll']!.outcome)).toBe('run answered 403 (API disabled)');
});

test('reads slowed by a busy target still see a long execution running: the watch is six intervals, not six reads', () => {
  const server = scriptedServer({ 'c-seo-audit': { run: 200, endsAtMs: 1_100, ends: 'finish' } });
  const options = trialOptions(100);
  // Every status read takes 150 ms: the sixth read would come after the execution ended.
  const report = driveSync(trialRuns(['c-seo-audit'], options), {
    ...server.io,
    send: (r) => {
      if (r.op === 'status') server.io.sleep(150);
      return server.io.send(r);
    },
  });
  expect(report.trials[0]).toMatchObject({ behaviour: 'long-running', outcome: { kind: 'running', aborted: true } });
  expect(server.sent.filter((r) => r.op === 'status').length).toBeLessThan(TRIAL_POLLS);
});

test('a candidate whose title says nothing fills the role its trial showed', () => {
  const server = scriptedServer({ 'c-onboarding': { run: 403 }, 'c-pipeline': KINDS['c-crm-sync']! });
  const report = driveSync(trialRuns(['c-onboarding', 'c-pipeline'], trialOptions(100)), server.io);
  const plan = { title: 'x', tasks: [{ id: 't', title: 't', prompt: 'p', toolsets: [] }] };
  const [onboarding, pipeline] = report.trials;
  expect(rolesOf({ title: 'Customer Onboarding Emails', plan, behaviour: onboarding!.behaviour })).toEqual([
    'API disabled',
  ]);
  expect(rolesOf({ title: 'Competitor Analysis Pipeline', plan, behaviour: pipeline!.behaviour })).toEqual([
    'failing task',
  ]);
});

test('followed to the end (the load run), a long execution that finishes is long-running and finished', () => {
  const server = scriptedServer({
    'c-seo-audit': KINDS['c-seo-audit']!,
    'c-endless': { run: 200 },
  });
  const options = trialOptions(250, 30_000);
  const report = driveSync(trialRuns(['c-seo-audit', 'c-endless'], options), server.io);
  const [audit, endless] = report.trials;
  expect(audit).toMatchObject({
    behaviour: 'long-running',
    outcome: { kind: 'ended', status: 'finish', longRunning: true },
  });
  // One that never ends is followed up to followMs, then aborted.
  expect(endless).toMatchObject({ behaviour: 'long-running', outcome: { kind: 'running', aborted: true } });
  expect(server.io.now() - 1_000_000).toBeLessThanOrEqual(options.followMs);
  expect(server.sent.filter((r) => r.op === 'abort').map((r) => r.canvasId)).toEqual(['c-endless']);
});

test('an execution whose status cannot be read shows nothing and is aborted; a run without an answer shows nothing', () => {
  const server = scriptedServer({ 'c-broken': { run: 200, statusAnswers: 500 }, 'c-digest': KINDS['c-digest']! });
  const protocol = trialRuns(['c-broken', 'c-digest', 'c-gone'], trialOptions(100));
  const report = driveSync(protocol, {
    ...server.io,
    send: (r) => (r.canvasId === 'c-gone' ? { error: 'connection reset' } : server.io.send(r)),
  });
  const [broken, digest, gone] = report.trials;
  expect(broken).toMatchObject({ outcome: { kind: 'unreadable', status: 500 } });
  expect(broken!.behaviour).toBeUndefined();
  expect(digest!.behaviour).toBe('finishes');
  expect(gone).toMatchObject({ outcome: { kind: 'refused', error: 'connection reset' } });
  expect(gone!.behaviour).toBeUndefined();
  expect(server.sent.filter((r) => r.op === 'abort').map((r) => r.canvasId)).toEqual(['c-broken']);
});

test('an execution whose status is outside the enum is no long-running one: nothing can be told, it is aborted', () => {
  const server = scriptedServer({ 'c-renamed': { run: 200, endsAtMs: 60_000, ends: 'finish' } });
  const protocol = trialRuns(['c-renamed'], trialOptions(100));
  const report = driveSync(protocol, {
    ...server.io,
    send: (r) => {
      const reply = server.io.send(r);
      const data = (reply.body as { data?: { status?: string } }).data;
      if (r.op === 'status' && data?.status === 'executing') data.status = 'running';
      return reply;
    },
  });
  expect(report.trials[0]).toMatchObject({ outcome: { kind: 'unreadable', status: 200, seen: 'running' } });
  expect(report.trials[0]!.behaviour).toBeUndefined();
  expect(server.sent.filter((r) => r.op === 'abort')).toHaveLength(1);
});

test('the asynchronous driver gives the report the synchronous one gives', async () => {
  const sync = driveSync(trialRuns(Object.keys(KINDS), trialOptions(100)), scriptedServer(KINDS).io);
  const server = scriptedServer(KINDS);
  const async = await driveAsync(trialRuns(Object.keys(KINDS), trialOptions(100)), {
    send: async (requests) => requests.map(server.io.send),
    sleep: async (ms) => server.io.sleep(ms),
    now: server.io.now,
  });
  expect(async).toEqual(sync);
});

test('behaviour from an outcome: a failed node counts even when the execution finished', () => {
  expect(behaviourShown({ kind: 'ended', status: 'finish', failedNode: 'n2', afterMs: 10, longRunning: false })).toBe(
    'failing',
  );
  expect(behaviourShown({ kind: 'no execution', status: 200 })).toBeUndefined();
  expect(behaviourShown({ kind: 'refused', status: 404 })).toBeUndefined();
});
