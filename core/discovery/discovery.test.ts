/**
 * Discovery on a crowded, long-lived account: it fills every role the suites need from a listing of
 * thousands, at a bounded cost (the roles of behaviour by a short trial of the workflows whose titles
 * name them); it remembers what it found (by base URL and key fingerprint, never the
 * key) and the next run only re-validates; a remembered canvas that is gone sends it searching again;
 * configured canvases are used whether search lists them or not.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRunConfig, type RunConfig } from '../settings/run-config.ts';
import { seedWithPreload } from '../../fixtures/reference/crowded.ts';
import { startTarget, type StartedTarget } from '../../fixtures/reference/server.ts';
import { EvidenceWriter, readEvidence, type EvidenceRecord, type ExchangeRecord } from '../evidence/records.ts';
import { Verdict } from '../evidence/verdict.ts';
import { ApiClient } from '../client/client.ts';
import { discoverWorkflows } from './discovery.ts';
import { memoryFile } from './memory.ts';
import { oncePerRun } from '../transport/shared-by-workers.ts';
import { ROLE_NAMES } from './roles.ts';
import { describeDiscovery } from './summary.ts';

let target: StartedTarget;
let dir: string;

test.beforeAll(async () => {
  target = await startTarget({ seed: seedWithPreload(5000) });
});
test.afterAll(async () => target?.close());
test.beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wfcheck-discovery-'));
});
test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

function setup(env: Record<string, string> = {}, on: StartedTarget = target): { config: RunConfig; api: ApiClient } {
  const config = loadRunConfig({
    BASE_URL: on.baseUrl,
    API_KEY: on.tenants[0].apiKey,
    SEED: '1',
    WFCHECK_EVIDENCE_DIR: join(dir, 'evidence'),
    WFCHECK_CACHE_DIR: join(dir, 'cache'),
    // The trial polls at the interval: the reference target's own, not a foreign target's second.
    WFCHECK_POLL_INTERVAL_MS: '100',
    ...env,
  });
  const evidence = new EvidenceWriter(config.evidenceDir, 'discovery');
  const verdict = Verdict.detached(evidence);
  return {
    config,
    api: new ApiClient({ config, caller: { name: 'A', apiKey: config.apiKey }, writer: evidence, verdict }),
  };
}

test('in an account of 5,000 workflows every role is filled at a bounded cost, and remembered without the key', async () => {
  const { config, api } = setup();
  const first = await discoverWorkflows(api, config);
  expect(first.summary?.missingRoles).toEqual([]);
  expect(Object.keys(first.summary!.roles).sort()).toEqual([...ROLE_NAMES].sort());
  // 101 pages of 50: a walk of the listing would be 101 searches; sampling is logarithmic.
  expect(first.summary!.searches).toBeLessThanOrEqual(30);
  expect(first.summary!.details).toBeLessThanOrEqual(80);
  expect(first.summary!.memory).toBe('none');
  // The roles of behaviour by running the seeded workflows, not the thousands whose titles say "Archived".
  expect(first.summary!.roles).toMatchObject({
    'API disabled': 'c_acme_api_disabled',
    'failing task': 'c_acme_flaky_import',
    'slow (to abort)': 'c_acme_slow_batch',
  });
  expect(first.summary!.tried.map((t) => t.canvasId).sort()).toEqual([
    'c_acme_api_disabled',
    'c_acme_flaky_import',
    'c_acme_slow_batch',
  ]);
  expect(first.summary!.trialFootprint).toMatchObject({ executionsStarted: 2, executionsAborted: 1 });
  const file = memoryFile(config.cacheDir!, config.baseUrl, config.apiKey);
  const saved = readFileSync(file, 'utf8');
  expect(saved).not.toContain(config.apiKey);
  expect(JSON.parse(saved).workflows.map((w: { canvasId: string }) => w.canvasId)).toEqual(
    first.workflows.map((w) => w.canvasId),
  );

  const second = await discoverWorkflows(api, config);
  expect(second.summary).toMatchObject({ memory: 'used', searches: 0, gone: 0 });
  // What the trial showed is remembered: the next night runs nothing to know it.
  expect(second.summary!.trialFootprint.executionsStarted).toBe(0);
  expect(second.summary!.roles).toEqual(first.summary!.roles);
  expect(second.workflows.map((w) => w.canvasId)).toEqual(first.workflows.map((w) => w.canvasId));
});

test('a remembered canvas that is gone is dropped and the roles are searched for again', async () => {
  const { config, api } = setup();
  const first = await discoverWorkflows(api, config);
  const file = memoryFile(config.cacheDir!, config.baseUrl, config.apiKey);
  const memory = JSON.parse(readFileSync(file, 'utf8'));
  // The canvas that filled "slow (to abort)" is replaced by one the target does not know.
  const slow = first.summary!.roles['slow (to abort)'];
  memory.workflows = memory.workflows.map((w: { canvasId: string }) =>
    w.canvasId === slow ? { ...w, canvasId: 'c_deleted_since' } : w,
  );
  writeFileSync(file, JSON.stringify(memory));
  const again = await discoverWorkflows(api, config);
  expect(again.summary).toMatchObject({ memory: 'used and extended', gone: 1, missingRoles: [] });
  expect(again.summary!.roles['slow (to abort)']).toBe(slow);
});

test('configured canvases are read and come first, listed or not; another key never reads this memory', async () => {
  const { config, api } = setup({
    WFCHECK_ABORT_CANVAS_ID: 'c_acme_slow_batch',
    WFCHECK_CANVAS_IDS: 'c_preload_00007',
  });
  const found = await discoverWorkflows(api, config);
  expect(
    found.workflows
      .slice(0, 2)
      .map((w) => w.canvasId)
      .sort(),
  ).toEqual(['c_acme_slow_batch', 'c_preload_00007']);
  const b = setup({ API_KEY: target.tenants[1].apiKey });
  const other = await discoverWorkflows(b.api, b.config);
  expect(other.summary!.memory).toBe('none');
  expect(readdirSync(join(dir, 'cache', 'discovery'))).toHaveLength(2);
});

const trialRunsIn = (records: EvidenceRecord[]) =>
  records.filter((r): r is ExchangeRecord => r.kind === 'exchange' && r.label === 'discovery trial run');

/** A target of its own for a test that makes workflows in the second tenant (the shared one keeps what is made). */
async function withOwnTarget(body: (t: StartedTarget) => Promise<void>): Promise<void> {
  const own = await startTarget({});
  try {
    await body(own);
  } finally {
    await own.close();
  }
}

test('an account where no workflow shows a behaviour: each such role is named with what was tried, and nothing is failed', () =>
  withOwnTarget(async (own) => {
    // The second tenant's three workflows all run and finish.
    const { config, api } = setup({ API_KEY: own.tenants[1].apiKey }, own);
    const found = await discoverWorkflows(api, config);
    const s = found.summary!;
    // A role a plan fills that the account lacks is made through generate: only the roles of behaviour stay empty.
    expect([...s.missingRoles].sort()).toEqual(['API disabled', 'failing task', 'slow (to abort)']);
    expect(s.made).toEqual([{ canvasId: expect.any(String), roles: expect.arrayContaining(['no required variable']) }]);
    const made = found.workflows.find((w) => w.canvasId === s.made![0]!.canvasId);
    expect(made).toMatchObject({ made: true, plan: { variables: [] } });
    expect(s.roles['no required variable']).toBe(made!.canvasId);
    expect(s.tried).toHaveLength(3);
    for (const t of s.tried)
      expect(t).toMatchObject({ behaviour: 'finishes', shown: expect.stringMatching(/^ended finish/) });
    expect(s.unfilled['API disabled']).toMatch(/^tried 3: c_globex_\w+ "[^"]+" ended finish after/);
    const line = describeDiscovery(found);
    expect(line).toContain(
      'trial of 3 workflow(s) (budget 60 executions, 600 requests, 60 s): 3 execution(s) started, 0 aborted',
    );
    // What was tried is said once for the three roles it left empty, with the setting of each.
    expect(line).toMatch(
      /failing task, slow \(to abort\), API disabled \(tried 3: [^()]*ended finish[^()]*; add one to WFCHECK_CANVAS_IDS, set WFCHECK_ABORT_CANVAS_ID to one, set WFCHECK_DISABLED_CANVAS_ID to one\)$/,
    );
    expect(line).toContain(
      `made through generate for shapes the account lacked: ${made!.canvasId} (no required variable`,
    );
    // The trial's answers went through the contract checks like any other, and none of them failed a clause.
    const { records } = readEvidence(config.evidenceDir);
    const trialRuns = trialRunsIn(records).map((r) => r.id);
    expect(trialRuns).toHaveLength(3);
    const checks = records.filter((r) => r.kind === 'check');
    expect(checks.some((c) => c.exchangeId !== undefined && trialRuns.includes(c.exchangeId))).toBe(true);
    expect(checks.filter((c) => c.outcome === 'fail')).toEqual([]);
  }));

test('told not to make workflows, discovery names the shape the account lacks and the setting that supplies it', () =>
  withOwnTarget(async (own) => {
    const { config, api } = setup({ API_KEY: own.tenants[1].apiKey, WFCHECK_CACHE_DIR: 'off' }, own);
    const found = await discoverWorkflows(api, config, { make: false });
    const s = found.summary!;
    expect(s.missingRoles).toContain('no required variable');
    expect(s.made).toEqual([]);
    expect(s.unfilled['no required variable']).toBe('none of the 3 plan(s) read has one');
    expect(describeDiscovery(found)).toContain(
      'no required variable (none of the 3 plan(s) read has one; add one to WFCHECK_CANVAS_IDS)',
    );
  }));

test('a trial answered 403 is the disabled workflow, judged nowhere as a failure', async () => {
  const { config, api } = setup();
  await discoverWorkflows(api, config);
  const { records } = readEvidence(config.evidenceDir);
  const refused = trialRunsIn(records).find((r) => r.response?.status === 403);
  expect(refused?.url).toMatch(/c_acme_api_disabled\/run$/);
  expect(records.filter((r) => r.kind === 'check' && r.outcome === 'fail')).toEqual([]);
});

test('with the cache off nothing is kept', async () => {
  const { config, api } = setup({ WFCHECK_CACHE_DIR: 'off' });
  const found = await discoverWorkflows(api, config);
  expect(found.summary!.memory).toBe('off');
});

test('work done once per run: concurrent callers share one computation', async () => {
  let computed = 0;
  const compute = async () => {
    computed++;
    await new Promise((r) => setTimeout(r, 200));
    return { value: 42 };
  };
  const results = await Promise.all([1, 2, 3].map(() => oncePerRun(dir, 'shared', compute, 5_000)));
  expect(results).toEqual([{ value: 42 }, { value: 42 }, { value: 42 }]);
  expect(computed).toBe(1);
});
