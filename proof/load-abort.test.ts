/**
 * `npm run load` against a target that cannot be driven at all must stop fast with exit 2 and
 * close with the real cause (refused connection, a gateway's HTML 502, no answer within the
 * request timeout), not with a consequence such as "nothing to run".
 */
import { test, expect } from '@playwright/test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startHostile, type HostileKind } from '../fixtures/hostile/servers.ts';
import { ensureK6 } from '../load/node/ensure-k6.ts';
import { REPORTS_ROOT } from '../load/node/run-dir.ts';
import { runLoadCli, type LoadCliRun } from './load-run.ts';

const KEY = 'wfk_abort_test_0123456789abcdef';

test.beforeAll(async ({}, info) => {
  info.setTimeout(15 * 60_000); // the first k6 build from source takes minutes
  await ensureK6();
});

async function runLoad(baseUrl: string, run: string, env: Record<string, string> = {}): Promise<LoadCliRun> {
  const result = await runLoadCli({
    baseUrl,
    apiKey: KEY,
    env,
    args: ['--duration', '5s', '--run', run, '--no-dashboard'],
    killAfterMs: 100_000,
  });
  rmSync(join(REPORTS_ROOT, run), { recursive: true, force: true });
  return result;
}

const CASES: {
  kind: HostileKind;
  env?: Record<string, string>;
  closing: (baseUrl: string) => RegExp;
  boundMs: number;
}[] = [
  {
    kind: 'down',
    closing: (url) =>
      new RegExp(`^load run aborted: target unreachable: connection refused at ${url.replace(/[.]/g, '\\.')}$`),
    boundMs: 30_000,
  },
  {
    kind: 'html-502',
    closing: (url) =>
      new RegExp(
        `^load run aborted: search answered 502 \\(text/html[^)]*\\) at GET ${url.replace(/[.]/g, '\\.')}/openapi/workflows\\?\\S+: HTML page "502 Bad Gateway"$`,
      ),
    boundMs: 30_000,
  },
  {
    // k6 alone would wait 60 s for the first answer; REQUEST_TIMEOUT bounds every request.
    kind: 'hang',
    env: { REQUEST_TIMEOUT: '2s' },
    closing: () => /^load run aborted: target unreachable: no answer within 2000 ms \(REQUEST_TIMEOUT\) at /,
    boundMs: 35_000,
  },
];

for (const c of CASES) {
  test(
    `a "${c.kind}" target: exit 2, the cause as the closing message, within ${c.boundMs / 1000} s`,
    { tag: '@k6' },
    async ({}, info) => {
      info.setTimeout(120_000);
      const target = await startHostile(c.kind);
      try {
        const run = await runLoad(target.baseUrl, `abort-test-${c.kind}-${process.pid}`, c.env);
        expect(run.code, run.output.slice(-3000)).toBe(2);
        expect(run.closing).toMatch(c.closing(target.baseUrl));
        expect(run.output).not.toMatch(/no workflow whose required variables/);
        expect(run.output).not.toContain(KEY);
        expect(run.wallMs).toBeLessThan(c.boundMs);
      } finally {
        await target.close();
      }
    },
  );
}

test(
  'a malformed REQUEST_TIMEOUT: exit 2, the setting named as the closing message',
  { tag: '@k6' },
  async ({}, info) => {
    info.setTimeout(60_000);
    const run = await runLoad('http://127.0.0.1:9/v1', `abort-test-config-${process.pid}`, { REQUEST_TIMEOUT: 'soon' });
    expect(run.code, run.output.slice(-3000)).toBe(2);
    expect(run.closing).toBe(
      'load run could not start: REQUEST_TIMEOUT must be a duration such as 10s or 1500ms, got "soon"',
    );
  },
);
