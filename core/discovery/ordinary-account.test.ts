/**
 * Discovery on ordinary accounts: every title a plain business title, the disabled, failing and slow
 * workflows anywhere in the listing. The trial's cost follows the need, not a fixed dozen: on an account
 * of 30 it finds all three wherever they stand; on one of 300 it still ends in seconds, inside its
 * budget, and says what it cost. The seeds are the reference target's own workflows, retitled, among
 * plain ones; which position each special one takes is drawn from the test's seed.
 */
import { expect, test } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { faker } from '@faker-js/faker';
import { loadRunConfig } from '../settings/run-config.ts';
import { DEFAULT_SEED_FILE } from '../../fixtures/reference/config.ts';
import { seedFrom, type SeedFile, type SeedWorkflow } from '../../fixtures/reference/seed.ts';
import { startTarget, type StartedTarget } from '../../fixtures/reference/server.ts';
import { ApiClient } from '../client/client.ts';
import { EvidenceWriter } from '../evidence/records.ts';
import { Verdict } from '../evidence/verdict.ts';
import { discoverWorkflows } from './discovery.ts';
import { ROLE_NAMES } from './roles.ts';
import { describeDiscovery } from './summary.ts';

/** Business titles that say nothing of how a workflow behaves. */
const RETITLED: Record<string, string> = {
  c_acme_api_disabled: 'Payroll Export to Accounting',
  c_acme_flaky_import: 'Supplier Catalogue Sync',
  c_acme_slow_batch: 'Quarterly Revenue Reconciliation',
};

/** An account of `size` workflows: the reference seed's, retitled, scattered among plain ones. */
function ordinaryAccount(size: number, seed: number): ReturnType<typeof seedFrom> {
  const file = JSON.parse(readFileSync(DEFAULT_SEED_FILE, 'utf8')) as SeedFile;
  const own = file.tenants[0]!.workflows.slice(0, 10).map((w) => ({
    ...w,
    plan: { ...w.plan, title: RETITLED[w.canvasId] ?? `${w.plan.title} for the ${w.canvasId.slice(7)} team` },
  }));
  faker.seed(seed);
  const plain: SeedWorkflow[] = Array.from({ length: size - own.length }, (_, i) => ({
    canvasId: `c_plain_${i}`,
    createdAt: new Date(Date.UTC(2026, 2, 1) + i * 3_600_000).toISOString(),
    updatedAt: new Date(Date.UTC(2026, 2, 1) + i * 3_600_000).toISOString(),
    plan: {
      title: `${faker.company.buzzNoun()} ${faker.commerce.department()} review`.replace(/^./, (c) => c.toUpperCase()),
      tasks: Array.from({ length: 1 + (i % 3) }, (_, t) => ({
        id: `t${t}`,
        title: `Step ${t + 1}`,
        prompt: 'Do the step',
        toolsets: [],
        dependentTasks: t > 0 ? [`t${t - 1}`] : [],
      })),
      variables: [],
    },
  }));
  file.tenants[0]!.workflows = faker.helpers.shuffle([...own, ...plain]);
  return seedFrom(file, `ordinary account of ${size}`);
}

async function discover(target: StartedTarget, dir: string) {
  const config = loadRunConfig({
    BASE_URL: target.baseUrl,
    API_KEY: target.tenants[0]!.apiKey,
    SEED: '7',
    WFCHECK_POLL_INTERVAL_MS: '100',
    WFCHECK_EVIDENCE_DIR: join(dir, 'evidence'),
    WFCHECK_CACHE_DIR: 'off',
  });
  const writer = new EvidenceWriter(config.evidenceDir, 'discovery');
  const api = new ApiClient({
    config,
    caller: { name: 'A', apiKey: config.apiKey },
    writer,
    verdict: Verdict.detached(writer),
  });
  return discoverWorkflows(api, config);
}

for (const [size, seed] of [
  [17, 1],
  [30, 2],
  [30, 3],
  [300, 4],
] as const) {
  test(`an ordinary account of ${size} workflows (layout ${seed}): every role filled by running, inside the budget`, async () => {
    test.setTimeout(90_000);
    const target = await startTarget({ seed: ordinaryAccount(size, seed) });
    const dir = mkdtempSync(join(tmpdir(), 'wfcheck-ordinary-'));
    try {
      const found = await discover(target, dir);
      const s = found.summary!;
      const line = describeDiscovery(found);
      test.info().annotations.push({ type: 'discovery', description: line });
      expect(s.missingRoles, line).toEqual([]);
      expect(Object.keys(s.roles).sort()).toEqual([...ROLE_NAMES].sort());
      expect(s.roles).toMatchObject({
        'API disabled': 'c_acme_api_disabled',
        'failing task': 'c_acme_flaky_import',
        'slow (to abort)': 'c_acme_slow_batch',
      });
      const f = s.trialFootprint;
      expect(f.executionsStarted).toBeLessThanOrEqual(f.budget!.executions);
      expect(f.requests).toBeLessThanOrEqual(f.budget!.requests);
      expect(f.ms, line).toBeLessThan(20_000);
      expect(line).toMatch(/trial of \d+ workflow\(s\) \(budget \d+ executions, \d+ requests, \d+ s\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await target.close();
    }
  });
}
