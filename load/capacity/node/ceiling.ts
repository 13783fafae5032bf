/**
 * The ceiling of the generator itself on this machine: the bare k6 loop of load/capacity/k6/bare-loop.ts (the
 * benchmark's loop: one GET per iteration, no suite code) for a few seconds against a server in this
 * process that answers at once, so the rate is k6's and this machine's, not a target's. A capacity whose
 * requests per second come near it may be the generator's limit: the report says so rather than give it
 * as the target's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inheritedEnvironment } from '../../../core/settings/child-environment.ts';
import { CAPACITY_K6_ENV } from '../settings.ts';
import { LOAD_DIR } from '../../node/run-k6.ts';

/** The benchmark's connections (npm run bench:load --connections): enough VUs to keep k6 busy on 2 cores. */
const CEILING_VUS = 10;
/** A status answer's size, so the loop reads what a poll reads. */
const ANSWER = JSON.stringify({ success: true, data: { executionId: 'e_ceiling', status: 'executing' } });

async function nullServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/openapi/workflow/e_ceiling/status`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** Requests per second of the bare k6 loop over `seconds` on this machine. */
export async function measureGeneratorCeiling(k6: string, seconds: number): Promise<number> {
  const server = await nullServer();
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-ceiling-'));
  const out = join(dir, 'count.json');
  try {
    const code = await new Promise<number | null>((done, fail) =>
      // No REST API (--address ''): its port may be taken by another k6 on the machine, which only warns.
      spawn(k6, ['run', '--quiet', '--no-color', '--address', '', join(LOAD_DIR, 'capacity', 'k6', 'bare-loop.ts')], {
        env: {
          ...inheritedEnvironment(),
          K6_NO_USAGE_REPORT: 'true',
          [CAPACITY_K6_ENV.ceilingUrl]: server.url,
          [CAPACITY_K6_ENV.ceilingVus]: String(CEILING_VUS),
          [CAPACITY_K6_ENV.ceilingSeconds]: String(seconds),
          [CAPACITY_K6_ENV.ceilingOut]: out,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      })
        .on('error', fail)
        .on('close', done),
    );
    if (code !== 0) throw new Error(`the bare k6 loop failed (exit ${code})`);
    return (JSON.parse(readFileSync(out, 'utf8')) as { count: number }).count / seconds;
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
