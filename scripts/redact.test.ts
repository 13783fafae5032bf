import { test, expect } from '@playwright/test';
import { containsSecret, redactAuthorization, redactHeaders, redactSecrets, redactValue, registerSecret } from './redact.ts';

const KEY_A = 'wfk_test_tenant_a_0123456789';
const KEY_B = 'wfk_test_tenant_b_9876543210';
registerSecret(KEY_A, 'API_KEY');
registerSecret(KEY_B, 'API_KEY_B');

test('secrets in free text become references to the variable that holds them', () => {
  const text = `curl -H "Authorization: Bearer ${KEY_A}" then ${KEY_B} and ${KEY_A}`;
  const out = redactSecrets(text);
  expect(out).toBe('curl -H "Authorization: Bearer ${API_KEY}" then ${API_KEY_B} and ${API_KEY}');
  expect(containsSecret(out)).toBe(false);
  expect(containsSecret(text)).toBe(true);
});

test('a key that contains another key is replaced whole', () => {
  registerSecret(`${KEY_A}_long`, 'API_KEY_B');
  expect(redactSecrets(`${KEY_A}_long`)).toBe('${API_KEY_B}');
  registerSecret(KEY_B, 'API_KEY_B');
});

test('short values are never treated as secrets', () => {
  registerSecret('abc', 'API_KEY');
  expect(redactSecrets('abc abc')).toBe('abc abc');
});

test('Authorization values keep the scheme and lose the credential', () => {
  expect(redactAuthorization(`Bearer ${KEY_A}`)).toBe('Bearer ***');
  expect(redactAuthorization(`Basic ${KEY_A}`)).toBe('Basic ***');
  expect(redactAuthorization('Bearer ')).toBe('Bearer');
  expect(redactAuthorization('')).toBe('(empty)');
  expect(redactAuthorization(KEY_A)).toBe('***');
});

test('header maps: credentials masked case-insensitively, secrets elsewhere replaced', () => {
  const out = redactHeaders({ AUTHORIZATION: `Bearer ${KEY_A}`, 'x-echo': KEY_B, cookie: 'sid=1', accept: 'application/json' });
  expect(out).toEqual({ AUTHORIZATION: 'Bearer ***', 'x-echo': '${API_KEY_B}', cookie: '***', accept: 'application/json' });
});

test('deep values are redacted without changing their shape', () => {
  const out = redactValue({ a: [KEY_A, 1, { authorization: `Bearer ${KEY_B}` }], b: null, c: true });
  expect(out).toEqual({ a: ['${API_KEY}', 1, { authorization: 'Bearer ***' }], b: null, c: true });
});
