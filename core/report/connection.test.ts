/**
 * The way to the target in every report's header: `--insecure` first, in the headline's weight, the
 * connection in one line, and (for a mode without a clause table) the certificate's clause.
 */
import { expect, test } from '@playwright/test';
import type { ConnectionFacts } from '../connection/connection-facts.ts';
import { loadConnection } from '../../load/node/connection-view.ts';
import { connectionBlocks } from './connection.ts';
import { renderMarkdown } from './render/markdown.ts';

const DAY = 24 * 60 * 60 * 1000;
const seenAt = '2026-06-01T00:00:00.000Z';
const facts = (days: number, insecure = false): ConnectionFacts => ({
  baseUrl: 'https://api.staging.internal/v1',
  scheme: 'https',
  proxy: '10.0.0.5:3128',
  tls: {
    version: 'TLSv1.3',
    alpn: 'h2',
    cipher: 'TLS_AES_128_GCM_SHA256',
    subject: 'CN=api.staging.internal',
    issuer: 'CN=Corp CA',
    validTo: new Date(Date.parse(seenAt) + days * DAY + 1000).toISOString(),
    authorized: !insecure,
    ...(insecure ? { authorizationError: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' } : {}),
  },
  insecure,
  seenAt,
});

test('--insecure heads the header; the connection follows in one line', () => {
  const md = renderMarkdown(connectionBlocks(facts(90, true), { speaks: 'HTTP/1.1 spoken' }));
  const lines = md.split('\n').filter(Boolean);
  expect(lines[0]).toBe(
    "**INSECURE: --insecure: the target's certificate was not checked (it would have failed: UNABLE_TO_VERIFY_LEAF_SIGNATURE)**",
  );
  expect(lines[1]).toBe(
    'Connection: HTTPS via proxy 10.0.0.5:3128 · TLSv1.3 · HTTP/1.1 spoken; the server: HTTP/2 (h2) offered · certificate CN=api.staging.internal, issued by CN=Corp CA, valid until 2026-08-30 (90 days)',
  );
  expect(renderMarkdown(connectionBlocks(facts(90), { speaks: 'HTTP/1.1 spoken' }))).not.toContain('INSECURE');
  expect(connectionBlocks(undefined, { speaks: 'x' })).toEqual([]);
});

test('the certificate clause in the header of a mode without a clause table, and in the load report', () => {
  const warn = renderMarkdown(connectionBlocks(facts(5), { speaks: 'HTTP/1.1 spoken', certificate: true }));
  expect(warn).toContain(
    '[WARN] `TLS-CERT-NOT-EXPIRING` the certificate (CN=api.staging.internal) expires on 2026-06-06, in 5 day(s)',
  );
  const pass = renderMarkdown(connectionBlocks(facts(30), { speaks: 'HTTP/1.1 spoken', certificate: true }));
  expect(pass).toContain('[PASS] `TLS-CERT-NOT-EXPIRING`');
  const load = loadConnection(facts(5, true), { proto: 'HTTP/2.0', tls: 'tls1.3' })!;
  expect(load.lines[0]).toMatch(/^INSECURE: --insecure/);
  expect(load.lines[1]).toContain('k6 spoke HTTP/2.0 over tls1.3; the server: HTTP/2 (h2) offered');
  expect(load.lines[2]).toMatch(/^\[WARN\] TLS-CERT-NOT-EXPIRING the certificate .* in 5 day\(s\)/);
});
