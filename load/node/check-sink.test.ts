/**
 * The Node checker of offload mode: frames survive any body (newlines, tabs, non-ASCII), and a batch's
 * verdict names exactly the responses that break a must clause, with a redacted example kept.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { frame, parseFrames, type BatchVerdict } from '../lib/handover.ts';
import { startCheckSink } from './check-sink.ts';
import { registerSecret } from '../../fixtures/environment/redact.ts';

const STATUS_OK = JSON.stringify({ success: true, data: { executionId: 'ex-1', status: 'finish', createdAt: '2026-11-22T09:00:00.000Z', nodeExecutions: [] } });

test('frames round-trip bodies with newlines, tabs and non-ASCII text', () => {
  const bodies = ['', 'a\nb\tc', '{"title":"Übersicht — 概要 🚀"}', STATUS_OK];
  const text = bodies.map((b, i) => frame('getExecutionStatus', 200 + i, 'application/json', `GET http://h/v1/x${i}`, b)).join('');
  expect(parseFrames(text).map((f) => f[3])).toEqual(bodies);
  expect(parseFrames(text)[2]).toEqual(['getExecutionStatus', 202, 'application/json', bodies[2], 'GET http://h/v1/x2']);
  expect(() => parseFrames('getExecutionStatus\t200\tx\tGET u\t99\nshort')).toThrow(/malformed/);
});

test('the checker flags exactly the violating responses and keeps a redacted example', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-sink-'));
  const secret = 'wfk_sink_test_secret_key_0123456789';
  registerSecret(secret, 'API_KEY');
  const sink = await startCheckSink(join(dir, 'violations.ndjson'));
  try {
    const batch = [
      frame('getExecutionStatus', 200, 'application/json', 'GET http://h/v1/ok', STATUS_OK),
      frame('getExecutionStatus', 200, 'application/json', 'GET http://h/v1/bad', JSON.stringify({ success: 'injected', data: null, note: secret })),
      frame('getExecutionStatus', 500, 'application/json', 'GET http://h/v1/unlisted', '{"success":false}'),
    ].join('');
    const res = await fetch(sink.url, { method: 'POST', body: batch });
    const verdict = (await res.json()) as BatchVerdict;
    expect(verdict.must).toEqual([1, 2]);
    expect(sink.totals().getExecutionStatus).toEqual({ checked: 3, violating: 2 });
    const logged = readFileSync(join(dir, 'violations.ndjson'), 'utf8');
    const first = JSON.parse(logged.split('\n')[0]!) as { operation: string; request: string; violations: { requirementId: string; level: string }[] };
    expect(first.operation).toBe('getExecutionStatus');
    expect(first.request).toBe('GET http://h/v1/bad');
    expect(first.violations.some((v) => v.level === 'must')).toBe(true);
    expect(logged).not.toContain(secret);
    expect((await fetch(sink.url, { method: 'POST', body: 'garbage' })).status).toBe(400);
  } finally {
    await sink.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
