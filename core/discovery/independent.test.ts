/**
 * Discovery against the implementations written apart from the harness (fixtures/independent/): their
 * titles do not announce their roles ("Payroll Export to Accounting" is the disabled one, "Nightly CRM
 * Lead Sync" the failing one, "Website SEO Audit" the slow one), so the roles of behaviour are filled
 * by the trial alone. Every role is filled, by the workflows their READMEs name, at a small, reported
 * footprint; the next night, from the memory, without running anything.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  independentMissing,
  INDEPENDENT_KINDS,
  STACKS,
  startIndependent,
  TEST_SPEED,
  type IndependentKind,
  type IndependentTarget,
} from '../../fixtures/independent/launch.ts';
import { loadRunConfig } from '../settings/run-config.ts';
import { EvidenceWriter } from '../evidence/records.ts';
import { Verdict } from '../evidence/verdict.ts';
import { ApiClient } from '../client/client.ts';
import { discoverWorkflows } from './discovery.ts';
import { ROLE_NAMES } from './roles.ts';
import { describeDiscovery } from './summary.ts';

/** The canvases each README gives the three roles of behaviour (ids are fixed by the seed). */
const BEHAVING: Record<IndependentKind, Record<'API disabled' | 'failing task' | 'slow (to abort)', string>> = {
  go: {
    'API disabled': 'c-8617aa73dc85715ef403',
    'failing task': 'c-0060783f9ee0b23ba253',
    'slow (to abort)': 'c-ad686cf117458c492171',
  },
  python: {
    'API disabled': 'c-h9pa3ud6ym2cb8ke',
    'failing task': 'c-f2wz6nb9kt3mh7qr',
    'slow (to abort)': 'c-r6jc1xs8pe5vn4gb',
  },
  spring: {
    'API disabled': 'c-la29yw3qdlrz3iq1',
    'failing task': 'c-7zcx73qbule5bubt',
    'slow (to abort)': 'c-6ma94f9qspvynghy',
  },
  nest: {
    'API disabled': 'c-pf4nvayw3n6ngin2f7mahr',
    'failing task': 'c-zsuvjj51xsyoczh0ng8h2n',
    'slow (to abort)': 'c-caqu42dz9h9n12666xq0yl',
  },
  django: {
    'API disabled': 'c-nj2xxukzt1fxcxrfusmo',
    'failing task': 'c-qew0s59kfl4qn5u85i24',
    'slow (to abort)': 'c-0wyvp0tnbe7ok60jo706',
  },
  fastapi: {
    'API disabled': 'c-d4e2bd1bb0bed8045f8504a2',
    'failing task': 'c-8bee64268e95692d40df6a32',
    'slow (to abort)': 'c-025249d809b5cbc0e9f91c01',
  },
  aiohttp: {
    'API disabled': 'c-1e6b4f5d0180d8a285be',
    'failing task': 'c-aaf1b1e3439f16427b35',
    'slow (to abort)': 'c-eedd64a1bf713e06a3da',
  },
  quarkus: {
    'API disabled': 'c-pfo2lxmw32inc3xb2wq2e2al',
    'failing task': 'c-i6wgn537umuw22kankujyi2z',
    'slow (to abort)': 'c-pv5h7qrcxvrfg34antt5ptek',
  },
  php: {
    'API disabled': 'c-7wcugxt3pmd3mhmct0dc',
    'failing task': 'c-er1dxf8yt3evkqfro51d',
    'slow (to abort)': 'c-ccdmzgag7ydswr38w2fb',
  },
};

for (const kind of INDEPENDENT_KINDS) {
  test.describe(`the ${kind} implementation`, () => {
    let target: IndependentTarget | undefined;
    let dir: string;
    test.beforeAll(async () => {
      test.skip(!!independentMissing(kind), independentMissing(kind) ?? '');
      // Its first start builds it (a Maven build, an npm install, a virtualenv).
      test.setTimeout(STACKS[kind].startMs + 30_000);
      target = await startIndependent(kind, { speed: TEST_SPEED[kind] });
    });
    test.afterAll(async () => target?.stop());
    test.beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), `wfcheck-independent-${kind}-`));
    });
    test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

    const setup = () => {
      const config = loadRunConfig({
        BASE_URL: target!.baseUrl,
        API_KEY: target!.apiKey,
        SEED: '1',
        WFCHECK_POLL_INTERVAL_MS: '100',
        WFCHECK_EVIDENCE_DIR: join(dir, 'evidence'),
        WFCHECK_CACHE_DIR: join(dir, 'cache'),
      });
      const evidence = new EvidenceWriter(config.evidenceDir, 'discovery');
      const verdict = Verdict.detached(evidence);
      return {
        config,
        api: new ApiClient({ config, caller: { name: 'A', apiKey: config.apiKey }, writer: evidence, verdict }),
      };
    };

    test('every role is filled, the roles of behaviour by running, nothing left running; the next run runs nothing', {
      tag: '@slow',
    }, async () => {
      const { config, api } = setup();
      const found = await discoverWorkflows(api, config);
      const s = found.summary!;
      expect(s.missingRoles, describeDiscovery(found)).toEqual([]);
      expect(Object.keys(s.roles).sort()).toEqual([...ROLE_NAMES].sort());
      // The disabled and the failing one are the README's; the slow one is the longest the trial saw, and
      // where several pass the bar (two poll intervals, at least 0.5 s) any of them may be it.
      const { 'slow (to abort)': slowest, ...named } = BEHAVING[kind];
      expect(s.roles).toMatchObject(named);
      const slow = found.workflows.find((w) => w.canvasId === s.roles['slow (to abort)']);
      expect(slow?.ranMs, `${slow?.canvasId}: ${slow?.shown}`).toBeGreaterThanOrEqual(500);
      if (kind === 'go' || kind === 'python') expect(slow?.canvasId).toBe(slowest);
      // Bounded by its budget, a few seconds; what still ran was aborted, the slow one among them.
      const f = s.trialFootprint;
      expect(f.executionsStarted).toBeLessThanOrEqual(f.budget!.executions);
      expect(f.requests).toBeLessThanOrEqual(f.budget!.requests);
      expect(f.executionsAborted).toBeLessThanOrEqual(f.executionsStarted);
      // Every candidate tried, or stopped once all was shown: never for a budget spent.
      expect(f.stoppedBy === 'every behaviour shown' || f.untried === 0, JSON.stringify(f)).toBe(true);
      expect(f.ms).toBeLessThan(15_000);
      expect(describeDiscovery(found)).toMatch(
        /trial of \d+ workflow\(s\) \(budget [^)]*\): \d+ execution\(s\) started, \d+ aborted/,
      );

      const again = await discoverWorkflows(api, config);
      expect(again.summary).toMatchObject({ memory: 'used', missingRoles: [], searches: 0 });
      expect(again.summary!.trialFootprint).toEqual({ executionsStarted: 0, executionsAborted: 0, requests: 0, ms: 0 });
      expect(again.summary!.roles).toEqual(s.roles);
    });
  });
}
