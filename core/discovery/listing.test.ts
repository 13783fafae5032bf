/**
 * Reading a search answer whatever shape it comes in: the shape is the contract checks' finding on
 * that response (SEARCH-200-ENVELOPE, SEARCH-200-DATA), the list it plainly carries is still read.
 */
import { expect, test } from '@playwright/test';
import { checkResponse } from '../../contracts/check.ts';
import type { Exchange } from '../transport/exchange.ts';
import { listOf } from './listing.ts';

const ITEMS = [
  { canvasId: 'c_1', title: 'Weekly digest' },
  { canvasId: 'c_2', title: 'Invoices' },
];

function answer(body: unknown, status = 200): Exchange {
  const text = JSON.stringify(body);
  const headers = { 'content-type': 'application/json' };
  return {
    record: { id: 'x-1', url: 'http://target/v1/openapi/workflows?page=1&pageSize=50' } as Exchange['record'],
    status,
    headers,
    text,
    json: body,
    parsed: true,
    operation: 'searchWorkflows',
    violations: checkResponse({ operation: 'searchWorkflows', status, headers, body: text }),
  };
}

test('the envelope, a bare array and a list wrapped in data are read as the list; the contract checks name the shape', () => {
  const shapes: [unknown, string, string[]][] = [
    [{ success: true, data: ITEMS }, 'envelope', []],
    [ITEMS, 'bare array', ['SEARCH-200-ENVELOPE']],
    [{ success: true, data: { items: ITEMS, total: 2 } }, 'wrapped in data.items', ['SEARCH-200-DATA']],
    [{ success: true, data: { list: ITEMS, total: 2 } }, 'wrapped in data.list', ['SEARCH-200-DATA']],
    [{ success: true, data: { rows: ITEMS, page: 1, pageSize: 50 } }, 'wrapped in data.rows', ['SEARCH-200-DATA']],
  ];
  for (const [body, shape, flagged] of shapes) {
    const ex = answer(body);
    expect(listOf(ex), shape).toEqual({ items: ITEMS, shape });
    expect(
      ex.violations.filter((v) => v.level === 'must').map((v) => v.requirementId),
      shape,
    ).toEqual(flagged);
  }
});

test('an answer carrying no one list stops the reading, blocked by the clause the answer failed', () => {
  const twoLists = listOf(answer({ success: true, data: { items: ITEMS, archived: ITEMS } }));
  expect(twoLists.items).toBeUndefined();
  expect(twoLists.stop?.blockedBy).toBe('SEARCH-200-DATA');
  const nothing = listOf(answer({ success: true, data: null }));
  expect(nothing.items).toBeUndefined();
  expect(nothing.stop?.blockedBy).toBe('SEARCH-200-DATA');
  const refused = listOf(answer({ success: false, errCode: 'E5000' }, 500));
  expect(refused.stop?.blockedBy).toBe('SEARCH-HTTP-STATUS-LISTED');
});
