/**
 * The contract checks of a load run, done in Node instead of in k6's VUs (CONTRACT_CHECK_MODE=offload).
 *
 * Why: in k6's interpreter one check of a status response costs ~120 µs (JSON.parse alone ~45 µs), about
 * as much as k6's own work for the request, so checking inside the VU loop halves what a generator can
 * send. In Node the same check costs ~4 µs. The VUs hand their responses over in batches (one POST of
 * up to CONTRACT_CHECK_BATCH responses framed as load/lib/handover.ts says); this server checks each with the same
 * checking API (contracts/check.ts), answers which ones violate a `must` clause (the VU records them in
 * the contract_violations rate, so the gate is judged on this result), and keeps a redacted example of
 * the first violating responses per operation in violations.ndjson.
 */
import http from 'node:http';
import { appendFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { checkResponse } from '../../contracts/check.ts';
import { parseFrames, type BatchVerdict, type HandedOver } from '../lib/handover.ts';
import { redactSecrets } from '../../fixtures/environment/redact.ts';

export interface CheckSink {
  url: string;
  /** Responses checked and responses with a must-level finding, per operation. */
  totals(): Record<string, { checked: number; violating: number }>;
  close(): Promise<void>;
}

const MAX_LOGGED_PER_OPERATION = 5;
const MAX_BATCH_BYTES = 64 * 1024 * 1024;

function judge(batch: HandedOver[], record: (entry: HandedOver, findings: ReturnType<typeof checkResponse>) => void): BatchVerdict {
  const verdict: BatchVerdict = { must: [], should: [] };
  batch.forEach((entry, i) => {
    const [operation, status, contentType, body] = entry;
    const findings = checkResponse({ operation, status, headers: { 'Content-Type': contentType }, body });
    const must = findings.some((f) => f.level === 'must');
    if (must) verdict.must.push(i);
    else if (findings.some((f) => f.level === 'should')) verdict.should.push(i);
    record(entry, findings);
  });
  return verdict;
}

export async function startCheckSink(violationsFile: string): Promise<CheckSink> {
  const totals: Record<string, { checked: number; violating: number }> = {};
  const logged: Record<string, number> = {};
  const record = ([operation, status, , body, request]: HandedOver, findings: ReturnType<typeof checkResponse>) => {
    const t = (totals[operation] ??= { checked: 0, violating: 0 });
    t.checked++;
    const reported = findings.filter((f) => f.level !== 'observe');
    if (findings.some((f) => f.level === 'must')) t.violating++;
    if (reported.length === 0 || (logged[operation] ?? 0) >= MAX_LOGGED_PER_OPERATION) return;
    logged[operation] = (logged[operation] ?? 0) + 1;
    appendFileSync(violationsFile, `${redactSecrets(JSON.stringify({ operation, request, status, bodyExcerpt: body.slice(0, 500), violations: reported }))}\n`);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => { size += c.length; if (size <= MAX_BATCH_BYTES) chunks.push(c); });
    req.on('end', () => {
      try {
        const verdict = judge(parseFrames(Buffer.concat(chunks).toString('utf8')), record);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(verdict));
      } catch (err) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(`cannot check this batch: ${(err as Error).message}`);
      }
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/check`,
    totals: () => totals,
    close: () => new Promise<void>((ok) => { server.closeAllConnections(); server.close(() => ok()); }),
  };
}
