/**
 * The batches of offloaded checks (load/k6/lib/contract.ts, in the VUs' JavaScript) deliver to the Node
 * checker exactly what the VU saw of each response, whatever it holds: tabs and newlines, non-ASCII text,
 * bytes that are not UTF-8, no body, no content type, a content type with a tab.
 */
import { test, expect } from '@playwright/test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureK6 } from './ensure-k6.ts';
import { startNodeChecker } from './node-checker.ts';
import { LOAD_DIR } from './run-k6.ts';
import type { BatchedResponse } from '../k6/lib/check-batch.ts';

interface Case {
  status: number;
  type?: string;
  body: Buffer;
  seen: string;
}

const text = (s: string, type = 'application/json; charset=utf-8', status = 200): Case => ({
  status,
  type,
  body: Buffer.from(s, 'utf8'),
  seen: s,
});

const CASES: Case[] = [
  text('{"success":true,"data":{"executionId":"ex-1","status":"finish"}}'),
  text('line one\nline\ttwo\t\t', 'text/plain'),
  text('{"title":"Übersicht — 概要 🚀"}', 'application/json; charset=utf-8', 201),
  { status: 200, type: 'application/json', body: Buffer.from([0x7b, 0xff, 0x22, 0xfe, 0x7d]), seen: '{\uFFFD"\uFFFD}' },
  { status: 404, body: Buffer.alloc(0), seen: '' },
  text('{"success":false}', 'text/plain;\tq=1', 500),
];

async function serveCases(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const c = CASES[Number(req.url!.split('/').pop())]!;
    res.writeHead(c.status, c.type ? { 'Content-Type': c.type } : {}).end(c.body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/case`,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** A k6 script requesting every case and batching each response, flushing at the end. */
function probeScript(): string {
  const contract = JSON.stringify(join(LOAD_DIR, 'k6', 'lib', 'contract.ts'));
  return [
    `import http from 'k6/http';`,
    `import { checkContract, flushContractChecks } from ${contract};`,
    `export const options = { vus: 1, iterations: 1 };`,
    `const settings = { contractSample: 1, contractMemo: false, nodeCheckerUrl: __ENV.CHECKER, contractBatch: 1000 };`,
    `export default function () {`,
    `  for (let i = 0; i < ${CASES.length}; i++) {`,
    `    const url = __ENV.CASES + '/' + i;`,
    `    const res = http.get(url);`,
    `    checkContract('getExecutionStatus', 'GET', url, res, res.status, settings);`,
    `  }`,
    `  flushContractChecks(settings);`,
    `}`,
  ].join('\n');
}

async function batched(k6: string, casesUrl: string): Promise<BatchedResponse[]> {
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-offloaded-'));
  const seen: BatchedResponse[] = [];
  const checker = await startNodeChecker(join(dir, 'violations.ndjson'), (batch) => seen.push(...batch));
  try {
    const script = join(dir, 'probe.js');
    writeFileSync(script, probeScript());
    // Not spawnSync: the checker answers from this process while k6 runs.
    const child = spawn(k6, ['run', '--quiet', script], {
      env: { ...process.env, CHECKER: checker.url, CASES: casesUrl, K6_NO_USAGE_REPORT: 'true' },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const code = await new Promise<number | null>((ok) => child.on('close', ok));
    expect(code, stderr).toBe(0);
    return seen;
  } finally {
    await checker.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test(
  'the batches deliver status, content type, URL and body of every response as the VU saw them',
  { tag: '@k6' },
  async ({}, info) => {
    info.setTimeout(15 * 60_000); // the first k6 build from source takes minutes
    const k6 = await ensureK6();
    const cases = await serveCases();
    try {
      const expected = CASES.map(
        (c, i): BatchedResponse => ['getExecutionStatus', c.status, c.type ?? '', c.seen, `GET ${cases.url}/${i}`],
      );
      expect(await batched(k6, cases.url)).toEqual(expected);
    } finally {
      await cases.close();
    }
  },
);
