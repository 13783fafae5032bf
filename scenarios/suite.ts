/**
 * The conformance test fixture. Suites import `test` from here, never from
 * @playwright/test: it gives them tenant-scoped, contract-checked clients
 * (`api`, `apiB`) and a `verdict` that ties every result to a requirement ID.
 * Playwright's own `request` fixture is disabled so no response can bypass
 * the contract checks.
 */
import { test as base, expect, type TestInfo } from '@playwright/test';
import type { Faker } from '@faker-js/faker';
import { seededFaker } from '../core/data/seeded.ts';
import { citedClauses, citedRequirements, EvidenceWriter, type TestRef } from '../core/evidence/records.ts';
import type { ClauseId } from '../contracts/requirements.ts';
import { redactSecrets } from '../core/settings/redact.ts';
import { ApiClient } from '../core/client/client.ts';
import { TransportFault } from '../core/transport/exchange.ts';
import { loadRunConfig, type RunConfig } from '../core/settings/run-config.ts';
import { FailureLedger, Verdict } from '../core/evidence/verdict.ts';
import type { Discovery } from '../core/discovery/workflows.ts';
import { discoverWorkflows } from '../core/discovery/discovery.ts';
import { describeDiscovery } from '../core/discovery/summary.ts';
import { oncePerRun } from '../core/transport/shared-by-workers.ts';

export { expect };

interface WorkerFixtures {
  config: RunConfig;
  evidence: EvidenceWriter;
  /** Failures by exchange, shared by the worker's discovery and its tests (a test blocked by what discovery saw fail). */
  ledger: FailureLedger;
  discovery: Discovery;
}

interface TestFixtures {
  testRef: TestRef;
  verdict: Verdict;
  api: ApiClient;
  /** Second tenant's client; undefined when API_KEY_B is not given. */
  apiB: ApiClient | undefined;
  /** Faker seeded from the run seed and this test's title: same values on every replay. */
  faker: Faker;
}

/**
 * A client whose transport faults, when they end the test's flow, are noted on the verdict: the clauses
 * the test had not judged yet needed what that exchange would have answered.
 */
function watched(client: ApiClient, verdict: Verdict): ApiClient {
  const send = client.send.bind(client);
  client.send = async (spec) => {
    try {
      return await send(spec);
    } catch (err) {
      if (!(err instanceof TransportFault)) throw err;
      verdict.stoppedAt ??= { exchangeId: err.exchange.record.id, message: err.message.split('\n')[0] };
      // A fault the run remembers stopped the test's clauses already (blocked or not run, in its words): the
      // test ends as skipped, not failed, so the runner keeps its worker instead of starting another.
      if (err.exchange.faulted) test.skip(true, err.message.split('\n')[0]);
      throw err;
    }
  };
  return client;
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim()
      .slice(0, 300) ?? ''
  );
}

/**
 * The clauses a failed test cites but never judged get a verdict of their own, so that no failure
 * elsewhere in the test is taken for their cause: blocked by the failure of the exchange at which a
 * transport fault ended the flow; else not run, with the error that stopped the test, or because the
 * test ended without reaching a step that judges them.
 */
function judgeLeftovers(verdict: Verdict, cited: readonly ClauseId[], info: TestInfo, error: string): void {
  if (info.status !== 'failed' && info.status !== 'timedOut') return;
  const thrown = info.status === 'timedOut' || info.errors.length > verdict.softFailures;
  const stopped = verdict.stoppedAt;
  const skip = info.annotations.find((a) => a.type === 'skip')?.description;
  for (const id of new Set(cited)) {
    if (verdict.recorded.has(id)) continue;
    if (stopped)
      verdict.blocked(id, { exchangeIds: [stopped.exchangeId], reason: `the test stopped at ${stopped.message}` });
    else if (skip) verdict.notRun(id, `skipped: ${skip}`);
    else if (thrown)
      verdict.notRun(
        id,
        `the test stopped before judging it (${info.status === 'timedOut' ? 'its deadline' : 'an error of the harness'}): ${firstLine(error)}`,
      );
    else verdict.notRun(id, 'the test ended without reaching a step that judges it on this target');
  }
}

function refOf(info: TestInfo): TestRef {
  return {
    id: info.testId,
    file: info.file.replace(/^.*\/scenarios\//, 'scenarios/'),
    title: info.titlePath.slice(1).join(' › '),
  };
}

/** What a test may do besides its longest poll (start runs, read outputs, judge). */
const POLL_MARGIN_MS = 30_000;

export const test = base.extend<TestFixtures, WorkerFixtures>({
  config: [async ({}, use) => use(loadRunConfig()), { scope: 'worker' }],

  evidence: [
    async ({ config }, use, workerInfo) =>
      use(new EvidenceWriter(config.evidenceDir, `worker-${workerInfo.parallelIndex}-${process.pid}`)),
    { scope: 'worker' },
  ],

  ledger: [async ({}, use) => use(new FailureLedger()), { scope: 'worker' }],

  discovery: [
    async ({ config, evidence, ledger }, use) => {
      const verdict = Verdict.detached(evidence, config.strict, ledger);
      const api = new ApiClient({ config, caller: { name: 'A', apiKey: config.apiKey }, writer: evidence, verdict });
      // Once per run, shared by the workers: one walk of the account, and every worker sees the same workflows.
      const discover = async () => {
        const found = await discoverWorkflows(api, config);
        evidence.write({
          kind: 'note',
          topic: 'discovery',
          message: describeDiscovery(found),
          at: new Date().toISOString(),
        });
        return found;
      };
      await use(await oncePerRun(config.evidenceDir, 'discovery', discover, 90_000));
    },
    { scope: 'worker', timeout: 120_000 },
  ],

  testRef: async ({}, use, info) => use(refOf(info)),

  verdict: [
    async ({ config, evidence, ledger, testRef }, use, info) => {
      // A test's deadline leaves room for the longest poll it may make, so that a poll ends with its own
      // reason (not run, blocked) before the runner cuts the test off as unfinished.
      info.setTimeout(Math.max(info.timeout, config.pollTimeoutMs + POLL_MARGIN_MS));
      const cited = citedRequirements(info.titlePath.join(' '));
      const started = Date.now();
      evidence.write({ kind: 'test-begin', test: testRef, citedRequirements: cited, at: new Date().toISOString() });
      const verdict = new Verdict({
        writer: evidence,
        test: testRef,
        strict: config.strict,
        ledger,
        hooks: {
          softFail: (message) => expect.soft(false, message).toBe(true),
          annotate: (type, description) => info.annotations.push({ type, description }),
        },
      });
      await use(verdict);
      const skip = info.annotations.find((a) => a.type === 'skip' || a.type === 'fixme');
      const error = info.errors
        .map((e) => e.message ?? e.value ?? '')
        .join('\n')
        .trim();
      const citedIds = citedClauses(info.titlePath.join(' '));
      // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the ANSI colour codes of Playwright's messages
      judgeLeftovers(verdict, citedIds, info, redactSecrets(error.replace(/\u001b\[[0-9;]*m/g, '')));
      evidence.write({
        kind: 'test-end',
        test: testRef,
        citedRequirements: cited,
        status: info.status ?? 'failed',
        // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the ANSI colour codes of Playwright's messages
        error: error ? redactSecrets(error.replace(/\u001b\[[0-9;]*m/g, '')).slice(0, 4000) : undefined,
        skipReason: skip?.description,
        durationMs: Date.now() - started,
        at: new Date().toISOString(),
      });
    },
    { auto: true },
  ],

  api: async ({ config, evidence, verdict, testRef }, use) => {
    await use(
      watched(
        new ApiClient({
          config,
          caller: { name: 'A', apiKey: config.apiKey },
          writer: evidence,
          verdict,
          test: testRef,
        }),
        verdict,
      ),
    );
  },

  apiB: async ({ config, evidence, verdict, testRef }, use) => {
    await use(
      config.apiKeyB
        ? watched(
            new ApiClient({
              config,
              caller: { name: 'B', apiKey: config.apiKeyB },
              writer: evidence,
              verdict,
              test: testRef,
            }),
            verdict,
          )
        : undefined,
    );
  },

  faker: async ({ config }, use, info) => use(seededFaker(config.seed, info.titlePath.slice(1).join(' › '))),

  // Every response must go through the contract-checked client.
  request: async ({}, use) => {
    await use(
      new Proxy({} as never, {
        get() {
          throw new Error('use the `api` fixture (contract-checked) instead of `request` in conformance suites');
        },
      }),
    );
  },
});
