/**
 * The checks list keeps its shape: named checks, and `appliesTo` never hides a finding (checkResponse
 * skips the checks that do not apply, so a wrong `appliesTo` would drop findings silently).
 */
import { test, expect } from '@playwright/test';
import { bodyKindOf, CHECKS, checkTarget, type CheckContext } from './response-checks.ts';
import { OPERATION_IDS, OPERATIONS } from './generated/operations.ts';
import { levelOf } from './requirements.ts';

test('the checks are named, once each', () => {
  expect(CHECKS.map((c) => c.name)).toEqual([
    'status-listed',
    'json-body-schema',
    'json-content-type',
    'error-body',
    'envelope-semantics',
  ]);
});

const BODIES = [
  '',
  'Not found',
  '<html>',
  '[]',
  'null',
  '{}',
  '{"success":true}',
  '{"success":false,"stack":"Error: at x"}',
  '{"success":false,"errCode":"INVALID_REQUEST_BODY","stack":"s"}',
  '{"success":false,"errCode":"E2005"}',
  '{"statusCode":"400","message":1}',
  '{"success":true,"data":{"executionId":1}}',
  '{"success":true,"data":{"executionId":"e","status":"running"}}',
  '{"success":false,"errCode":7,"data":null}',
  '{"success":false,"data":{"status":"done","nodeExecutions":{}}}',
];

/** Every (operation, status, body, headers) combination above, as the context a check sees. */
function* contexts(): Generator<CheckContext> {
  for (const operation of OPERATION_IDS) {
    for (const status of [...OPERATIONS[operation].statuses, 201, 204, 418, 429, 500, 503]) {
      for (const body of BODIES) {
        for (const headers of HEADERS) {
          let json: unknown;
          let parseError: string | undefined;
          try {
            json = JSON.parse(body);
          } catch (err) {
            parseError = String(err);
          }
          yield { ...checkTarget(operation, status), headers, body, json, parseError };
        }
      }
    }
  }
}
const HEADERS: Record<string, string>[] = [
  { 'content-type': 'application/json' },
  { 'Content-Type': 'text/plain' },
  {},
];

test('a check finds nothing in a response of an (operation, status) it does not apply to', () => {
  let skipped = 0;
  // Collected and asserted once: an assertion per pair costs more than the checks themselves.
  const found: string[] = [];
  for (const ctx of contexts()) {
    for (const check of CHECKS) {
      if (check.appliesTo(ctx)) continue;
      skipped++;
      const findings = check.run(ctx);
      if (findings.length > 0)
        found.push(`${check.name} on ${ctx.operation} ${ctx.status} ${ctx.body}: ${JSON.stringify(findings)}`);
    }
  }
  expect(found).toEqual([]);
  expect(skipped).toBeGreaterThan(1000);
});

test('a check judges only what it covers for the kind of body it was given (so a clean response credits no more)', () => {
  const uncovered: string[] = [];
  for (const ctx of contexts()) {
    const body = bodyKindOf(ctx.json, ctx.parseError);
    // A stack in an error body is found, but a clean error body is no evidence for the clause (covers.ts).
    const foundNotCredited = ctx.listed && !ctx.listed.schema ? 'ENVELOPE-STACK-DEV-ONLY' : undefined;
    for (const check of CHECKS) {
      const covered = new Set(check.covers(ctx, body));
      for (const f of check.run(ctx)) {
        if (levelOf(f.requirementId) === 'observe' || f.requirementId === foundNotCredited) continue;
        if (!covered.has(f.requirementId))
          uncovered.push(`${check.name} on ${ctx.operation} ${ctx.status} (${body}) ${ctx.body}: ${f.requirementId}`);
      }
    }
  }
  expect(uncovered).toEqual([]);
});

test('the body kinds: not JSON, an envelope without its payload, anything else', () => {
  expect(bodyKindOf(undefined, 'Unexpected token')).toBe('unparsed');
  expect(bodyKindOf({ success: false }, undefined)).toBe('no-payload');
  expect(bodyKindOf({ success: false, data: null }, undefined)).toBe('no-payload');
  expect(bodyKindOf({ success: false, data: {} }, undefined)).toBe('payload');
  expect(bodyKindOf({ success: true }, undefined)).toBe('payload');
  expect(bodyKindOf([], undefined)).toBe('payload');
  expect(bodyKindOf(null, undefined)).toBe('payload');
});
