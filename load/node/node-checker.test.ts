/**
 * The Node checker of offloaded checks: frames survive any content type, URL and body (newlines, tabs,
 * non-ASCII), and a batch's verdict counts per operation the responses checked, breaking a must clause
 * and carrying warnings, with a redacted example of each kept.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { batchText, parseFrames, pushFrame, type BatchVerdict } from '../k6/lib/check-batch.ts';
import type { OperationId } from '../k6/lib/operations.ts';
import { startNodeChecker } from './node-checker.ts';
import { registerSecret } from '../../core/settings/redact.ts';

const STATUS_OK = JSON.stringify({
  success: true,
  data: { executionId: 'ex-1', status: 'finish', createdAt: '2026-11-22T09:00:00.000Z', nodeExecutions: [] },
});

type Response = [OperationId, number, string, string, string];

/** A batch as a VU builds it: each response's fields pushed, the whole joined. */
function batchOf(responses: readonly Response[]): string {
  const fields: unknown[] = [];
  for (const [operation, status, type, url, body] of responses)
    pushFrame(fields, operation, status, 'GET', type, url, body);
  return batchText(fields);
}

test('frames round-trip content types, URLs and bodies with newlines, tabs and non-ASCII text', () => {
  const bodies = ['', 'a\nb\tc', '{"title":"Übersicht — 概要 🚀"}', STATUS_OK, '\t\t'];
  const responses = bodies.map(
    (b, i): Response => [
      'getExecutionStatus',
      200 + i,
      i === 1 ? 'text/plain;\tx=\ty' : i === 4 ? '' : 'application/json',
      `http://h/v1/x${i}?q=\t`,
      b,
    ],
  );
  const parsed = parseFrames(batchOf(responses));
  expect(parsed.map((f) => f[3])).toEqual(bodies);
  expect(parsed[1]).toEqual(['getExecutionStatus', 201, 'text/plain;\tx=\ty', bodies[1], 'GET http://h/v1/x1?q=\t']);
  expect(parsed[4]).toEqual(['getExecutionStatus', 204, '', '\t\t', 'GET http://h/v1/x4?q=\t']);
  expect(parseFrames('')).toEqual([]);
  expect(() => parseFrames('getExecutionStatus\t200\tGET\t0\t3\t99\t\tu\tshort')).toThrow(/malformed/);
  expect(() => parseFrames('getExecutionStatus\t200\tGET\t0\t1\t2\t\tu\tab\textra')).toThrow(/malformed/);
});

test('the checker counts per operation what it checked and what breaks the contract, and keeps a redacted example', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-node-checker-'));
  const secret = 'wfk_checker_test_secret_key_0123456789';
  registerSecret(secret, 'API_KEY');
  const checker = await startNodeChecker(join(dir, 'violations.ndjson'));
  try {
    const batch = batchOf([
      ['getExecutionStatus', 200, 'application/json', 'http://h/v1/ok', STATUS_OK],
      [
        'getExecutionStatus',
        200,
        'application/json',
        'http://h/v1/bad',
        JSON.stringify({ success: 'injected', data: null, note: secret }),
      ],
      ['getExecutionOutput', 500, 'application/json', 'http://h/v1/unlisted', '{"success":false}'],
      [
        'getExecutionStatus',
        200,
        'application/json',
        'http://h/v1/warned',
        JSON.stringify({ success: true, stack: 'at x', data: { executionId: 'ex-1', status: 'finish' } }),
      ],
      ['getExecutionStatus', 200, '', 'http://h/v1/untyped', STATUS_OK],
    ]);
    const res = await fetch(checker.url, { method: 'POST', body: batch });
    const verdict = (await res.json()) as BatchVerdict;
    expect(verdict).toEqual({
      checked: { getExecutionStatus: 4, getExecutionOutput: 1 },
      must: { getExecutionStatus: 1, getExecutionOutput: 1 },
      should: { getExecutionStatus: 2 },
    });
    expect(checker.totals()).toEqual({
      getExecutionStatus: { checked: 4, violating: 1 },
      getExecutionOutput: { checked: 1, violating: 1 },
    });
    const logged = readFileSync(join(dir, 'violations.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            operation: string;
            request: string;
            violations: { requirementId: string; level: string }[];
          },
      );
    const bad = logged.find((l) => l.request === 'GET http://h/v1/bad')!;
    expect(bad.operation).toBe('getExecutionStatus');
    expect(bad.violations.some((v) => v.level === 'must' && v.requirementId.length > 0)).toBe(true);
    // A response without a content type is warned about under the JSON media type clause, as it is checked in a VU.
    expect(logged.find((l) => l.request === 'GET http://h/v1/untyped')!.violations.map((v) => v.requirementId)).toEqual(
      ['JSON-CONTENT-TYPE'],
    );
    expect(
      logged.find((l) => l.request === 'GET http://h/v1/warned')!.violations.every((v) => v.level === 'should'),
    ).toBe(true);
    expect(readFileSync(join(dir, 'violations.ndjson'), 'utf8')).not.toContain(secret);
    expect((await fetch(checker.url, { method: 'POST', body: 'garbage' })).status).toBe(400);
  } finally {
    await checker.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
