import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { curlFor, shellQuote } from './reproducer.ts';
import { registerSecret } from '../settings/redact.ts';

const KEY = 'wfk_reproducer_secret_123456';
registerSecret(KEY, 'API_KEY');

test('quoted text survives a real shell unchanged, references expand', () => {
  const text = `it's "odd" $HOME \\ \` ok \${API_KEY}`;
  const out = execFileSync('sh', ['-c', `printf %s ${shellQuote(text)}`], {
    env: { API_KEY: 'k1', HOME: '/h', PATH: process.env.PATH },
  }).toString();
  expect(out).toBe(`it's "odd" $HOME \\ \` ok k1`);
});

test('the key is a variable reference and the base URL is $BASE_URL', () => {
  const cmd = curlFor(
    {
      method: 'POST',
      url: 'http://127.0.0.1:4010/v1/openapi/workflow/c-1/run',
      headers: { Authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: { kind: 'text', text: '{"variables":{"a":"b"}}' },
    },
    'http://127.0.0.1:4010/v1',
  );
  expect(cmd).not.toContain(KEY);
  expect(cmd).toContain(`'Authorization: Bearer '"\${API_KEY}"`);
  expect(cmd).toContain(`"\${BASE_URL}"'/openapi/workflow/c-1/run'`);
  expect(cmd).toContain(`--data-binary '{"variables":{"a":"b"}}'`);
});

test('multipart bodies name their seeded files and let curl set the boundary', () => {
  const cmd = curlFor({
    method: 'POST',
    url: 'http://x/v1/openapi/files/upload',
    headers: { 'content-type': 'multipart/form-data; boundary=zzz' },
    body: { kind: 'multipart', field: 'files', files: [{ name: 'a.txt', type: 'text/plain', bytes: 16 }] },
  });
  expect(cmd).toContain(`-F 'files=@a.txt;type=text/plain'`);
  expect(cmd).not.toContain('boundary=zzz');
});
