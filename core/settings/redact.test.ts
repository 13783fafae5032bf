import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { loadTlsMaterial } from '../connection/tls-material.ts';
import {
  containsSecret,
  redactAuthorization,
  redactHeaders,
  redactSecrets,
  redactValue,
  registerSecret,
  scrubCredentials,
} from './redact.ts';

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
  const out = redactHeaders({
    AUTHORIZATION: `Bearer ${KEY_A}`,
    'x-echo': KEY_B,
    cookie: 'sid=1',
    accept: 'application/json',
  });
  expect(out).toEqual({
    AUTHORIZATION: 'Bearer ***',
    'x-echo': '${API_KEY_B}',
    cookie: '***',
    accept: 'application/json',
  });
});

test('deep values are redacted without changing their shape', () => {
  const out = redactValue({ a: [KEY_A, 1, { authorization: `Bearer ${KEY_B}` }], b: null, c: true });
  expect(out).toEqual({ a: ['${API_KEY}', 1, { authorization: 'Bearer ***' }], b: null, c: true });
});

test('credentials of keys never registered are scrubbed wherever a credential goes; placeholders are kept', () => {
  const foreign = 'sk_live_4f8a9b0c1d2e3f405162';
  const cases: [string, string][] = [
    [`curl -H 'Authorization: Bearer ${foreign}' https://x/v1`, "curl -H 'Authorization: Bearer ***' https://x/v1"],
    [`authorization: ${foreign}\naccept: */*`, 'authorization: ***\naccept: */*'],
    [`{"Authorization": "Token ${foreign}"}`, '{"Authorization": "Token ***"}'],
    [`GET /v1/openapi/workflows?api_key=${foreign}&page=1`, 'GET /v1/openapi/workflows?api_key=***&page=1'],
    [`{"apiKey": "${foreign}"}`, '{"apiKey": "***"}'],
    [`GET https://user:${foreign}@api.example/v1/x`, 'GET https://user:***@api.example/v1/x'],
    [`-H 'authorization: Bearer '"${foreign}" -H 'accept: */*'`, `-H 'authorization: Bearer '"***" -H 'accept: */*'`],
    [`-H 'authorization: Bearer '"\${API_KEY}"`, `-H 'authorization: Bearer '"\${API_KEY}"`],
    ['curl -H "Authorization: Bearer ${API_KEY}"', 'curl -H "Authorization: Bearer ${API_KEY}"'],
    ['authorization: Bearer ***', 'authorization: Bearer ***'],
    ['authorization: Bearer', 'authorization: Bearer'],
    [`curl -H "Authorization: Bearer ${KEY_A}"`, 'curl -H "Authorization: Bearer ${API_KEY}"'],
  ];
  for (const [text, expected] of cases) expect(scrubCredentials(text), text).toBe(expected);
  // Ordinary words near the names are left alone.
  expect(scrubCredentials('the key of tenant A was refused; token bucket full')).toBe(
    'the key of tenant A was refused; token bucket full',
  );
});

test('a client key never shows: its lines, the whole PEM of any private key, and its passphrase', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-redact-key-'));
  try {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const passphrase = 'a-long-client-key-passphrase';
    const encrypted = privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase }).toString();
    const plain = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    writeFileSync(join(dir, 'client.key'), encrypted);
    // The key is opened as the connection opens it: its lines, decrypted too, and the passphrase become secrets.
    expect(() =>
      loadTlsMaterial({
        clientCert: join(dir, 'nope.pem'),
        clientKey: join(dir, 'client.key'),
        passphrase,
        insecure: false,
        proxies: {},
      }),
    ).toThrow(/no such file|nope\.pem/);
    const line = plain.split('\n')[1]!;
    const text = `key line ${line} and passphrase ${passphrase} and encrypted ${encrypted.split('\n')[2]}`;
    const out = redactSecrets(text);
    expect(out).not.toContain(passphrase);
    expect(out).toContain('${WFCHECK_CLIENT_KEY_PASSPHRASE}');
    expect(out).not.toContain(encrypted.split('\n')[2]!);
    expect(containsSecret(text)).toBe(true);
    // A private key pasted whole, whoever's, keeps only its armour; a public key is left as it is.
    const other = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
      type: 'pkcs1',
      format: 'pem',
    });
    const pasted = redactSecrets(`error: bad key\n${other}\n${publicKey.export({ type: 'spki', format: 'pem' })}`);
    expect(pasted).toContain('-----BEGIN RSA PRIVATE KEY----- *** -----END RSA PRIVATE KEY-----');
    expect(pasted).toContain('-----BEGIN PUBLIC KEY-----');
    expect(containsSecret(other.toString())).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
