/**
 * The checks list keeps its shape: named checks, and `appliesTo` never hides a finding (checkResponse
 * skips the checks that do not apply, so a wrong `appliesTo` would drop findings silently).
 */
import { test, expect } from '@playwright/test';
import { CHECKS, checkTarget, type CheckContext } from './checks.ts';
import { OPERATION_IDS, OPERATIONS } from './generated/operations.ts';

test('the checks are named, once each', () => {
  expect(CHECKS.map((c) => c.name)).toEqual(['status-listed', 'json-body-schema', 'json-content-type', 'error-body', 'envelope-semantics']);
});

const BODIES = [
  '', 'Not found', '<html>', '[]', 'null', '{}',
  '{"success":true}',
  '{"success":false,"stack":"Error: at x"}',
  '{"success":false,"errCode":"INVALID_REQUEST_BODY","stack":"s"}',
  '{"success":false,"errCode":"E2005"}',
  '{"statusCode":"400","message":1}',
  '{"success":true,"data":{"executionId":1}}',
];
const HEADERS: Record<string, string>[] = [{ 'content-type': 'application/json' }, { 'Content-Type': 'text/plain' }, {}];

test('a check finds nothing in a response of an (operation, status) it does not apply to', () => {
  let skipped = 0;
  for (const operation of OPERATION_IDS) {
    for (const status of [...OPERATIONS[operation].statuses, 201, 418, 429, 500, 503]) {
      for (const body of BODIES) {
        for (const headers of HEADERS) {
          let json: unknown;
          let parseError: string | undefined;
          try {
            json = JSON.parse(body);
          } catch (err) {
            parseError = String(err);
          }
          const ctx: CheckContext = { ...checkTarget(operation, status), headers, body, json, parseError };
          for (const check of CHECKS) {
            if (check.appliesTo(ctx)) continue;
            skipped++;
            expect(check.run(ctx), `${check.name} on ${operation} ${status} ${body}`).toEqual([]);
          }
        }
      }
    }
  }
  expect(skipped).toBeGreaterThan(1000);
});
