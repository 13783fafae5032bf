/**
 * The connection settings are refused before anything is sent, each in words naming its setting: a CA file
 * without a certificate, half a client certificate, an encrypted key without its passphrase or with a wrong
 * one, a key that is not the certificate's, a proxy address the harness cannot use.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { privateCa, type PrivateCa } from '../../fixtures/deployment/private-ca.ts';
import {
  connectionEnv,
  connectionReplayArgs,
  curlConnectionArgs,
  readConnectionSettings,
} from './connection-settings.ts';
import { TargetConnection } from '../connection/connection.ts';

let ca: PrivateCa;
test.beforeAll(() => {
  ca = privateCa();
});
test.afterAll(() => ca.close());

const open = (args: Parameters<typeof readConnectionSettings>[0], env: Record<string, string> = {}) =>
  new TargetConnection(readConnectionSettings(args, env));

test('options take the place of their variables and reach a child as variables, as absolute paths', () => {
  const s = readConnectionSettings({ 'ca-file': ca.caFile, insecure: true }, { WFCHECK_CLIENT_KEY_PASSPHRASE: 'p' });
  expect(connectionEnv(s)).toEqual({ WFCHECK_CA_FILE: ca.caFile, WFCHECK_INSECURE: '1' });
  expect(readConnectionSettings({}, { WFCHECK_CA_FILE: ca.caFile }).caFile).toBe(ca.caFile);
  expect(() => readConnectionSettings({ 'ca-file': '/no/such/ca.pem' }, {})).toThrow(
    '--ca-file: no file at /no/such/ca.pem',
  );
  expect(() => readConnectionSettings({}, { WFCHECK_CA_FILE: '/no/such/ca.pem' })).toThrow(
    'WFCHECK_CA_FILE: no file at',
  );
});

test('a CA file must hold a certificate; the given CA is added to the roots, never in their place', () => {
  const empty = join(ca.dir, 'empty.pem');
  writeFileSync(empty, 'not a certificate\n');
  expect(() => open({ 'ca-file': empty })).toThrow(/WFCHECK_CA_FILE: .*holds no PEM certificate/);
  const c = open({ 'ca-file': ca.caFile });
  expect(c.tls.ca!.length).toBeGreaterThan(100);
  expect(c.tls.ca!.at(-1)).toContain('BEGIN CERTIFICATE');
  expect(c.tls.givenCas[0]!.subject).toContain('CN=wfcheck test CA');
});

test("a client certificate: both halves, the right passphrase, a key that is the certificate's", () => {
  const plain = ca.client('plain client', 30);
  const locked = ca.client('locked client', 30, 'the-right-passphrase');
  const other = ca.client('other client', 30);
  expect(() => readConnectionSettings({ 'client-cert': plain.certFile }, {})).toThrow(
    /needs both --client-cert and --client-key .* only the certificate was given/,
  );
  expect(open({ 'client-cert': plain.certFile, 'client-key': plain.keyFile }).tls.client?.subject).toBe(
    'CN=plain client',
  );
  const args = { 'client-cert': locked.certFile, 'client-key': locked.keyFile };
  expect(() => open(args)).toThrow(
    'WFCHECK_CLIENT_KEY: the key is encrypted: set its passphrase in WFCHECK_CLIENT_KEY_PASSPHRASE',
  );
  expect(() => open(args, { WFCHECK_CLIENT_KEY_PASSPHRASE: 'wrong' })).toThrow(/does not open the key|passphrase/);
  expect(open(args, { WFCHECK_CLIENT_KEY_PASSPHRASE: 'the-right-passphrase' }).tls.client?.key).toContain(
    'BEGIN PRIVATE KEY',
  );
  expect(() => open({ 'client-cert': plain.certFile, 'client-key': other.keyFile })).toThrow(/do not belong together/);
});

test('a proxy the Node modes cannot use is refused naming its variable', () => {
  expect(() => open({}, { HTTPS_PROXY: 'socks5://127.0.0.1:1080' })).toThrow(
    'HTTPS_PROXY: a proxy reached over socks5 is not supported; give its http:// address',
  );
  expect(() => open({}, { http_proxy: 'http://[bad' })).toThrow(/http_proxy: "http:\/\/\[bad" is not a proxy address/);
  expect(open({}, { HTTPS_PROXY: 'proxy.corp:3128' }).proxyOf(new URL('https://api.example/v1'))?.href).toBe(
    'http://proxy.corp:3128/',
  );
});

test('a curl reproducer reaches the target the same way, naming the variables and never a value', () => {
  const plain = ca.client('curl client', 30);
  const s = readConnectionSettings(
    { 'ca-file': ca.caFile, 'client-cert': plain.certFile, 'client-key': plain.keyFile, insecure: true },
    { WFCHECK_CLIENT_KEY_PASSPHRASE: 'never-shown' },
  );
  expect(curlConnectionArgs(s).join(' ')).toBe(
    '--cacert "${WFCHECK_CA_FILE}" --cert "${WFCHECK_CLIENT_CERT}" --key "${WFCHECK_CLIENT_KEY}" --pass "${WFCHECK_CLIENT_KEY_PASSPHRASE}" --insecure',
  );
  expect(curlConnectionArgs(readConnectionSettings({}, {}))).toEqual([]);
});

test('the command line that replays a run gives it the same way to the target', () => {
  const plain = ca.client('replay client', 30);
  const s = readConnectionSettings(
    { 'ca-file': ca.caFile, 'client-cert': plain.certFile, 'client-key': plain.keyFile },
    {},
  );
  expect(connectionReplayArgs(s)).toEqual([
    '--ca-file',
    ca.caFile,
    '--client-cert',
    plain.certFile,
    '--client-key',
    plain.keyFile,
  ]);
  expect(connectionReplayArgs(readConnectionSettings({ insecure: true }, {}))).toEqual(['--insecure']);
});

test("a proxy's credentials are never said back, even in a refusal", () => {
  expect(() => open({}, { HTTPS_PROXY: 'http://ci:hunter2-secret@[bad' })).toThrow(
    /HTTPS_PROXY: "http:\/\/\*\*\*@\[bad" is not a proxy address/,
  );
});
