/**
 * The contract checks of a load run, done in Node instead of in k6's VUs. The runner starts this checker
 * when the checks are offloaded — runK6's `contractMode: 'offload'`, set by `npm run load -- --contract-mode
 * offload` (its default) — and gives the VUs its address in CONTRACT_CHECK_SINK.
 *
 * Why: JSON.parse and schema validation are costly in k6's interpreter, about as costly as k6's own work
 * for a request, so checking inside the VU loop cuts what a generator can send; Node runs the same check
 * far faster. The VUs send their responses in batches (one POST of up to CONTRACT_CHECK_BATCH responses,
 * in the format of load/k6/lib/check-batch.ts); this server checks each with the same checking API
 * (contracts/check.ts) and answers, per operation, how many it checked, how many break a `must` clause
 * and how many carry warnings (the VU records these counts in contract_checked, contract_violations and
 * contract_warnings, so the same gates judge both places). It keeps a redacted example of the first
 * responses with findings per operation, with the clauses they break, in violations.ndjson.
 */
import http from 'node:http';
import { appendFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { checkResponse } from '../../contracts/check.ts';
import { parseFrames, type BatchVerdict, type BatchedResponse } from '../k6/lib/check-batch.ts';
import { redactSecrets } from '../../core/settings/redact.ts';

export interface NodeChecker {
  /** Where the VUs POST their batches. */
  url: string;
  /** Responses checked and responses with a must-level finding, per operation. */
  totals(): Record<string, { checked: number; violating: number }>;
  close(): Promise<void>;
}

const MAX_LOGGED_PER_OPERATION = 5;
const MAX_BATCH_BYTES = 64 * 1024 * 1024;

type Findings = ReturnType<typeof checkResponse>;

/** The highest level among a response's findings: must, should, or none (observe findings never count). */
function worstLevel(findings: Findings): 'must' | 'should' | undefined {
  let should = false;
  for (const f of findings) {
    if (f.level === 'must') return 'must';
    if (f.level === 'should') should = true;
  }
  return should ? 'should' : undefined;
}

const increment = (counts: Partial<Record<string, number>>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

function judge(batch: BatchedResponse[], record: (entry: BatchedResponse, findings: Findings) => void): BatchVerdict {
  const verdict: BatchVerdict = { checked: {}, must: {}, should: {} };
  for (const entry of batch) {
    const [operation, status, contentType, body] = entry;
    // The content type is the only header the checks read; an empty one says no more than a missing one.
    const findings = checkResponse({
      operation,
      status,
      headers: contentType ? { 'content-type': contentType } : {},
      body,
    });
    increment(verdict.checked, operation);
    if (findings.length === 0) continue;
    const level = worstLevel(findings);
    if (level) increment(verdict[level], operation);
    record(entry, findings);
  }
  return verdict;
}

/** `observe` sees every batch as parsed (the suite's own tests compare it with what was sent). */
export async function startNodeChecker(
  violationsFile: string,
  observe?: (batch: BatchedResponse[]) => void,
): Promise<NodeChecker> {
  const totals: Record<string, { checked: number; violating: number }> = {};
  const logged: Record<string, number> = {};
  const record = ([operation, status, , body, request]: BatchedResponse, findings: Findings) => {
    const reported = findings.filter((f) => f.level !== 'observe');
    if (reported.length === 0 || (logged[operation] ?? 0) >= MAX_LOGGED_PER_OPERATION) return;
    logged[operation] = (logged[operation] ?? 0) + 1;
    appendFileSync(
      violationsFile,
      `${redactSecrets(JSON.stringify({ operation, request, status, bodyExcerpt: body.slice(0, 500), violations: reported }))}\n`,
    );
  };
  const count = (verdict: BatchVerdict) => {
    for (const [operation, n] of Object.entries(verdict.checked)) {
      const total = totals[operation] ?? { checked: 0, violating: 0 };
      total.checked += n ?? 0;
      totals[operation] = total;
    }
    for (const [operation, n] of Object.entries(verdict.must)) totals[operation]!.violating += n ?? 0;
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BATCH_BYTES) chunks.push(c);
    });
    req.on('end', () => {
      try {
        const batch = parseFrames(Buffer.concat(chunks).toString('utf8'));
        observe?.(batch);
        const verdict = judge(batch, record);
        count(verdict);
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
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
