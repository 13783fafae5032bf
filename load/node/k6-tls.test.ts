/**
 * What k6 is handed for the way to the target: a bundle of the system's roots with the CA added (never
 * the CA alone), --insecure as k6's own variable, and the client certificate as its tlsAuth option through
 * a named pipe that k6 reads once (here: the test reads it) and that is gone afterwards, even unread.
 */
import { createReadStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { privateCa, type PrivateCa } from '../../fixtures/deployment/private-ca.ts';
import { readConnectionSettings } from '../../core/settings/connection-settings.ts';
import { TargetConnection } from '../../core/connection/connection.ts';
import { GO_ROOT_FILES, k6CaBundle, k6TlsFor, k8sTlsSteps } from './k6-tls.ts';

let ca: PrivateCa;
test.beforeAll(() => {
  ca = privateCa();
});
test.afterAll(() => ca.close());

const connection = (args: Parameters<typeof readConnectionSettings>[0], env: Record<string, string> = {}) =>
  new TargetConnection(readConnectionSettings(args, env));

test("k6's roots: the system's with the CA added, never the CA alone; SSL_CERT_FILE kept as the system's", () => {
  const bundle = k6CaBundle(connection({ 'ca-file': ca.caFile }))!;
  const count = (text: string) => text.match(/-----BEGIN CERTIFICATE-----/g)?.length ?? 0;
  expect(count(bundle)).toBeGreaterThan(50);
  expect(bundle.trimEnd().endsWith(readFileSync(ca.caFile, 'utf8').trim())).toBe(true);
  // A SSL_CERT_FILE the user set is what k6 would trust: the bundle starts from it, not from the system's.
  const own = k6CaBundle(connection({ 'ca-file': ca.caFile }, { SSL_CERT_FILE: ca.caFile }))!;
  expect(count(own)).toBe(2);
  // Nothing given on a machine with roots of its own: k6 keeps its own.
  if (GO_ROOT_FILES.some(existsSync)) expect(k6CaBundle(connection({}))).toBeUndefined();
  expect(k6TlsFor(connection({ 'ca-file': ca.caFile })).env.SSL_CERT_FILE).toMatch(
    /wfcheck-k6-roots-.*ca-bundle\.pem$/,
  );
  expect(k6TlsFor(connection({ insecure: true })).env).toMatchObject({ K6_INSECURE_SKIP_TLS_VERIFY: 'true' });
});

test('the client certificate reaches k6 through a pipe read once, the key decrypted; the pipe is gone after', async () => {
  const client = ca.client('k6 client', 30, 'pipe-passphrase');
  const c = connection(
    { 'client-cert': client.certFile, 'client-key': client.keyFile },
    { WFCHECK_CLIENT_KEY_PASSPHRASE: 'pipe-passphrase' },
  );
  const tls = k6TlsFor(c);
  expect(tls.args[0]).toBe('--config');
  const pipe = tls.args[1]!;
  tls.hand();
  const text = await new Promise<string>((ok) => {
    let read = '';
    createReadStream(pipe, 'utf8')
      .on('data', (d) => (read += d))
      .on('end', () => ok(read));
  });
  const config = JSON.parse(text) as { tlsAuth: { cert: string; key: string }[] };
  expect(config.tlsAuth[0]!.cert).toContain('BEGIN CERTIFICATE');
  expect(config.tlsAuth[0]!.key).toContain('-----BEGIN PRIVATE KEY-----');
  expect(text).not.toContain('pipe-passphrase');
  tls.done();
  expect(existsSync(dirname(pipe))).toBe(false);
  // A k6 that ended before reading: done() releases the waiting write and removes the pipe.
  const unread = k6TlsFor(c);
  unread.hand();
  unread.done();
  expect(existsSync(dirname(unread.args[1]!))).toBe(false);
});

test('for Kubernetes: the bundle beside the archive, the Secret to make, nothing of the key', () => {
  const client = ca.client('k8s client', 30);
  const dir = join(ca.dir, 'archive');
  mkdirSync(dir);
  const lines = k8sTlsSteps(
    connection({ 'ca-file': ca.caFile, 'client-cert': client.certFile, 'client-key': client.keyFile }),
    dir,
  );
  expect(existsSync(join(dir, 'ca-bundle.pem'))).toBe(true);
  expect(lines.join('\n')).toMatch(
    /kubectl create secret generic wfcheck-tls --from-file=ca-bundle\.pem=.*ca-bundle\.pem/,
  );
  expect(lines.join('\n')).toContain('uncomment K6_CONFIG');
  expect(readFileSync(join(dir, 'ca-bundle.pem'), 'utf8')).not.toContain('PRIVATE KEY');
});
