/**
 * The trial protocol, driven against a scripted server on a virtual clock: what each kind of workflow
 * shows (a 403, a failed node, an execution still running long enough to be aborted after a poll, one
 * that finishes), that nothing it started is left running, that its cost follows the need and stays in
 * its budget, and that the synchronous (k6) and asynchronous (Node) drivers give the same report.
 */
import { expect, test } from '@playwright/test';
import {
  behaviourShown,
  describeOutcome,
  driveAsync,
  driveSync,
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
  /** The files its output lists once it ended (none by default). */
  files?: number;
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
    if (r.op === 'output') {
      const files = Array.from({ length: script.files ?? 0 }, (_, i) => ({ name: `f${i}.md`, type: 'text/markdown' }));
      return { status: 200, body: { success: true, data: { output: [], files } } };
    }
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

const abortedIds = (sent: TrialRequest[]) => sent.filter((r) => r.op === 'abort').map((r) => r.canvasId);
const elapsed = (server: ReturnType<typeof scriptedServer>) => server.io.now() - 1_000_000;

test('each kind of workflow shows its behaviour; the slow one is aborted once it ran long enough, not at its end', () => {
  // Thirty ordinary workflows besides: tried only until every behaviour was shown.
  const scripts: Record<string, Script> = { ...KINDS };
  for (let i = 0; i < 30; i++) scripts[`c-digest-${i}`] = KINDS['c-digest']!;
  const server = scriptedServer(scripts);
  const options = trialOptions(100);
  const report = driveSync(trialRuns(Object.keys(scripts), options), server.io);
  const by = Object.fromEntries(report.trials.map((t) => [t.canvasId, t]));
  expect(by['c-payroll']).toMatchObject({ behaviour: 'disabled', outcome: { kind: 'refused', status: 403 } });
  expect(by['c-crm-sync']).toMatchObject({
    behaviour: 'failing',
    outcome: { kind: 'ended', status: 'failed', failedNode: 'n1' },
  });
  expect(by['c-seo-audit']).toMatchObject({
    behaviour: 'long-running',
    outcome: { kind: 'running', aborted: true, longRunning: true, why: 'outlasted the others' },
  });
  expect(by['c-seo-audit']!.ranMs).toBeGreaterThanOrEqual(options.slowEnoughMs);
  expect(by['c-digest']).toMatchObject({ behaviour: 'finishes', outcome: { kind: 'ended', status: 'finish' } });
  // A refusal other than 403 (a variable the run lacked) shows nothing.
  expect(by['c-needs-input']!.behaviour).toBeUndefined();

  // Nothing left running; every behaviour shown, so the trial stopped: seconds, not the 25 s it would run.
  // What still ran once all was shown is aborted, not waited for.
  const aborted = abortedIds(server.sent);
  expect(aborted).toContain('c-seo-audit');
  for (const id of aborted.filter((a) => a.startsWith('c-digest')))
    expect(by[id]).toMatchObject({ outcome: { kind: 'running', why: 'nothing more sought' } });
  expect(report.footprint).toMatchObject({ executionsAborted: aborted.length, requests: server.sent.length });
  expect(report.footprint.executionsStarted).toBe(report.trials.filter((t) => t.executionId).length);
  // The slow one is watched until it clearly outlasts the others (three times the longest that ended).
  expect(elapsed(server)).toBeLessThanOrEqual(3 * 400 + 2 * options.slowEnoughMs + 2 * options.intervalMs);
  expect(report.stoppedBy).toBe('every behaviour shown');
  expect(report.untried).toBeGreaterThan(0);
  expect(describeOutcome(by['c-seo-audit']!.outcome)).toMatch(
    /^still executing after \d\.\d s \(outlasted the others\), aborted$/,
  );
  expect(describeOutcome(by['c-payroll']!.outcome)).toBe('run answered 403 (API disabled)');
});

test("at the run's poll interval: a 3 s workflow is slow enough to abort after one poll; a 0.5 s one is not", () => {
  const server = scriptedServer({
    'c-short': { run: 200, endsAtMs: 500, ends: 'finish' },
    'c-strict-longest': { run: 200, endsAtMs: 3_000, ends: 'finish' },
  });
  const options = trialOptions(1000);
  expect(options.slowEnoughMs).toBe(2000);
  const report = driveSync(trialRuns(['c-short', 'c-strict-longest'], options), server.io);
  const [short, longest] = report.trials;
  expect(short).toMatchObject({ behaviour: 'finishes' });
  expect(longest).toMatchObject({ behaviour: 'long-running', outcome: { kind: 'ended', longRunning: true } });
  const endless = scriptedServer({ 'c-endless': { run: 200 } });
  const cut = driveSync(trialRuns(['c-endless'], options), endless.io);
  expect(cut.trials[0]).toMatchObject({
    behaviour: 'long-running',
    outcome: { kind: 'running', why: 'outlasted the others' },
  });
  expect(elapsed(endless)).toBeLessThanOrEqual(5 * options.slowEnoughMs + 2 * options.intervalMs);
});

test('reads slowed by a busy target see what a quiet machine sees: the watch is measured in time, not reads', () => {
  const scripts = { 'c-seo-audit': { run: 200, endsAtMs: 1_500, ends: 'finish' as const } };
  const quiet = driveSync(trialRuns(['c-seo-audit'], trialOptions(100)), scriptedServer(scripts).io);
  const server = scriptedServer(scripts);
  // Every status read takes 400 ms.
  const busy = driveSync(trialRuns(['c-seo-audit'], trialOptions(100)), {
    ...server.io,
    send: (r) => {
      if (r.op === 'status') server.io.sleep(400);
      return server.io.send(r);
    },
  });
  expect(quiet.trials[0]).toMatchObject({ behaviour: 'long-running' });
  expect(busy.trials[0]).toMatchObject({ behaviour: 'long-running' });
  expect(server.sent.filter((r) => r.op === 'status').length).toBeLessThan(6);
});

test('while only the 403 is sought, a run that starts is aborted at once: no status read, no wait', () => {
  const scripts: Record<string, Script> = { 'c-payroll': { run: 403 } };
  for (let i = 0; i < 20; i++) scripts[`c-ordinary-${i}`] = { run: 200, endsAtMs: 5_000, ends: 'finish' };
  const server = scriptedServer(scripts);
  const ids = [...Object.keys(scripts).slice(1), 'c-payroll'];
  const report = driveSync(trialRuns(ids, trialOptions(100, { seek: ['disabled'] })), server.io);
  expect(report.trials.find((t) => t.canvasId === 'c-payroll')?.behaviour).toBe('disabled');
  expect(server.sent.filter((r) => r.op === 'status')).toEqual([]);
  expect(abortedIds(server.sent)).toHaveLength(20);
  expect(elapsed(server)).toBe(0);
  expect(report.footprint.requests).toBe(41);
});

test('the budget bounds the trial: executions, requests and time; it says which was spent and how many went untried', () => {
  const scripts: Record<string, Script> = {};
  for (let i = 0; i < 300; i++) scripts[`c-${i}`] = { run: 200, endsAtMs: 300, ends: 'finish' };
  const ids = Object.keys(scripts);
  const cases = [
    [{ executions: 10, requests: 10_000, ms: 600_000 }, 'execution budget'],
    [{ executions: 1000, requests: 50, ms: 600_000 }, 'request budget'],
    [{ executions: 1000, requests: 10_000, ms: 2_000 }, 'time budget'],
  ] as const;
  for (const [budget, spent] of cases) {
    const server = scriptedServer(scripts);
    const report = driveSync(trialRuns(ids, trialOptions(100, { budget })), server.io);
    expect(report.stoppedBy, spent).toBe(spent);
    expect(report.footprint.executionsStarted).toBeLessThanOrEqual(budget.executions);
    expect(report.footprint.requests).toBeLessThanOrEqual(budget.requests);
    expect(elapsed(server)).toBeLessThanOrEqual(budget.ms + 1_000);
    expect(report.untried).toBe(300 - report.trials.length);
    expect(report.untried).toBeGreaterThan(0);
  }
});

test('a slow one that fails late is watched on while a failure is sought: it shows the failure, not a cut', () => {
  const server = scriptedServer({
    'c-payroll': KINDS['c-payroll']!,
    'c-late-failure': { run: 200, endsAtMs: 3_000, ends: 'failed', nodeFailsAtMs: 2_900 },
    'c-digest': { run: 200, endsAtMs: 1_500, ends: 'finish' },
  });
  const report = driveSync(trialRuns(['c-payroll', 'c-late-failure', 'c-digest'], trialOptions(100)), server.io);
  expect(report.trials.find((t) => t.canvasId === 'c-late-failure')).toMatchObject({
    behaviour: 'failing',
    outcome: { kind: 'ended', status: 'failed' },
  });
});

test('of those that ended after running long, only the longest is the slow one; the others are ordinary', () => {
  const server = scriptedServer({
    'c-two-seconds': { run: 200, endsAtMs: 2_000, ends: 'finish' },
    'c-five-seconds': { run: 200, endsAtMs: 5_000, ends: 'finish' },
    'c-three-seconds': { run: 200, endsAtMs: 3_000, ends: 'finish' },
  });
  const report = driveSync(
    trialRuns(['c-two-seconds', 'c-five-seconds', 'c-three-seconds'], trialOptions(100, { seek: ['failing'] })),
    server.io,
  );
  const by = Object.fromEntries(report.trials.map((t) => [t.canvasId, t.behaviour]));
  expect(by).toEqual({ 'c-two-seconds': 'finishes', 'c-five-seconds': 'long-running', 'c-three-seconds': 'finishes' });
});

test('ranked candidates: those of a later rank start only once every earlier one was seen to its end', () => {
  const server = scriptedServer({
    'c-named-fails': { run: 200, endsAtMs: 300, ends: 'finish' },
    'c-silent-1': KINDS['c-crm-sync']!,
    'c-silent-2': KINDS['c-digest']!,
  });
  const options = trialOptions(100, { seek: ['failing'], ranks: [0, 1, 1] });
  const report = driveSync(trialRuns(['c-named-fails', 'c-silent-1', 'c-silent-2'], options), server.io);
  const runs = server.sent.filter((r) => r.op === 'run').map((r) => r.canvasId);
  expect(runs).toEqual(['c-named-fails', 'c-silent-1', 'c-silent-2']);
  // The silent ones were run together, after the named one had ended.
  const firstSilent = server.sent.findIndex((r) => r.canvasId === 'c-silent-1');
  expect(server.sent.slice(0, firstSilent).some((r) => r.op === 'status' && r.canvasId === 'c-named-fails')).toBe(true);
  expect(report.trials.find((t) => t.canvasId === 'c-silent-1')?.behaviour).toBe('failing');
});

test('when the slow one is known, a long execution is watched for a failure until it clearly outlasts the others', () => {
  const server = scriptedServer({
    'c-digest': KINDS['c-digest']!,
    'c-endless': { run: 200 },
  });
  const options = trialOptions(100, { seek: ['failing'] });
  const report = driveSync(trialRuns(['c-digest', 'c-endless'], options), server.io);
  expect(report.trials[1]).toMatchObject({
    behaviour: 'long-running',
    outcome: { kind: 'running', aborted: true, why: 'outlasted the others' },
  });
  expect(elapsed(server)).toBeLessThanOrEqual(2 * options.slowEnoughMs + 2 * options.intervalMs);
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
  const options = trialOptions(250, { followMs: 30_000, seek: 'every', window: 40 });
  const report = driveSync(trialRuns(['c-seo-audit', 'c-endless'], options), server.io);
  const [audit, endless] = report.trials;
  // It finished: the one that never ended ran longer, so that one is the slow one, and this one ordinary.
  expect(audit).toMatchObject({
    behaviour: 'finishes',
    outcome: { kind: 'ended', status: 'finish', longRunning: true },
  });
  // One that never ends is followed up to followMs, then aborted.
  expect(endless).toMatchObject({ behaviour: 'long-running', outcome: { kind: 'running', aborted: true } });
  expect(elapsed(server)).toBeLessThanOrEqual(options.followMs);
  expect(abortedIds(server.sent)).toEqual(['c-endless']);
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
  expect(abortedIds(server.sent)).toEqual(['c-broken']);
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

test('with outputs read, the trial sees which executions wrote files, and seeks one that does within its budget', () => {
  // Every behaviour is shown by the first three; only the twentieth ordinary workflow writes files.
  const scripts: Record<string, Script> = {
    'c-payroll': KINDS['c-payroll']!,
    'c-crm-sync': KINDS['c-crm-sync']!,
    'c-seo-audit': KINDS['c-seo-audit']!,
  };
  for (let i = 0; i < 30; i++) scripts[`c-digest-${i}`] = { ...KINDS['c-digest']!, files: i === 19 ? 2 : 0 };
  const order = Object.keys(scripts);
  const server = scriptedServer(scripts);
  const report = driveSync(trialRuns(order, trialOptions(100, { readOutput: true })), server.io);
  const by = Object.fromEntries(report.trials.map((t) => [t.canvasId, t]));
  expect(by['c-digest-19']).toMatchObject({ behaviour: 'finishes', wroteFiles: true });
  expect(by['c-digest-0']).toMatchObject({ wroteFiles: false });
  // Once a writer was seen nothing more was sought: the trial stopped before the rest.
  expect(report.stoppedBy).toBe('every behaviour shown');
  expect(report.untried).toBeGreaterThan(0);
  expect(server.sent.filter((r) => r.op === 'output').length).toBeLessThanOrEqual(report.trials.length);
  expect(report.footprint.requests).toBe(server.sent.length);

  // Without outputs read, the same trial stops as soon as the behaviours are shown, and knows nothing of files.
  const quiet = scriptedServer(scripts);
  const plain = driveSync(trialRuns(order, trialOptions(100)), quiet.io);
  expect(quiet.sent.some((r) => r.op === 'output')).toBe(false);
  expect(plain.trials.every((t) => t.wroteFiles === undefined)).toBe(true);
  expect(plain.trials.length).toBeLessThan(report.trials.length);
});

test('an account where no workflow writes files: the search for one ends at the budget, nothing left running', () => {
  const scripts: Record<string, Script> = { ...KINDS };
  for (let i = 0; i < 40; i++) scripts[`c-digest-${i}`] = KINDS['c-digest']!;
  const server = scriptedServer(scripts);
  const budget = { executions: 12, requests: 200, ms: 60_000 };
  const report = driveSync(trialRuns(Object.keys(scripts), trialOptions(100, { readOutput: true, budget })), server.io);
  expect(report.stoppedBy).toBe('execution budget');
  expect(report.footprint.executionsStarted).toBeLessThanOrEqual(budget.executions);
  expect(report.trials.some((t) => t.wroteFiles)).toBe(false);
  const started = new Set(server.sent.filter((r) => r.op === 'run').map((r) => r.canvasId));
  const settled = report.trials.filter((t) => t.executionId).map((t) => t.canvasId);
  expect(new Set(settled)).toEqual(new Set([...started].filter((id) => scripts[id]!.run === 200)));
});
