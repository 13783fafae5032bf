import { expect, test } from '@playwright/test';
import { tlsFailureLine, tlsFailureOf } from './tls-failure.ts';

test('a TLS failure reads the same from Node, Go and nginx, with the setting that fixes it', () => {
  const cases: [seen: string, problem: string, fix: RegExp][] = [
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE unable to verify the first certificate', 'unknown CA', /--ca-file/],
    ['SELF_SIGNED_CERT_IN_CHAIN self-signed certificate in certificate chain', 'unknown CA', /--ca-file/],
    [
      'Get "https://x/v1": tls: failed to verify certificate: x509: certificate signed by unknown authority',
      'unknown CA',
      /WFCHECK_CA_FILE/,
    ],
    ['DEPTH_ZERO_SELF_SIGNED_CERT self-signed certificate', 'self-signed', /--insecure/],
    ['CERT_HAS_EXPIRED certificate has expired', 'has expired', /renew/],
    ['x509: certificate has expired or is not yet valid: current time …', 'has expired', /renew/],
    [
      "ERR_TLS_CERT_ALTNAME_INVALID Hostname/IP does not match certificate's altnames: Host: api.example. is not in the cert's altnames: DNS:localhost",
      'does not name the host',
      /BASE_URL/,
    ],
    ['x509: certificate is valid for localhost, not api.example', 'it is for localhost, not api.example', /BASE_URL/],
    [
      'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED tlsv13 alert certificate required',
      'asks for a client certificate',
      /--client-cert FILE --client-key FILE/,
    ],
    ['remote error: tls: certificate required', 'asks for a client certificate', /WFCHECK_CLIENT_KEY_PASSPHRASE/],
    [
      'HTTP/1.1 400 Bad Request … <title>400 No required SSL certificate was sent</title>',
      'asks for a client certificate',
      /--client-cert/,
    ],
    ['ERR_SSL_TLSV1_ALERT_UNKNOWN_CA tlsv1 alert unknown ca', 'refused the client certificate', /its CA signed/],
    ['remote error: tls: unknown certificate authority', 'refused the client certificate', /its CA signed/],
    ['remote error: tls: bad certificate', 'refused the client certificate', /--client-cert/],
    ['EPROTO ssl3_get_record:wrong version number', 'does not speak TLS', /http:\/\//],
    ['http: server gave HTTP response to HTTPS client', 'does not speak TLS', /http:\/\//],
  ];
  for (const [seen, problem, fix] of cases) {
    const f = tlsFailureOf(seen);
    expect(f, seen).toBeDefined();
    expect(tlsFailureLine(f!), seen).toContain(problem);
    expect(tlsFailureLine(f!), seen).toMatch(fix);
    // One line.
    expect(tlsFailureLine(f!)).not.toContain('\n');
  }
  for (const other of ['ECONNREFUSED connect ECONNREFUSED 127.0.0.1:1', 'ECONNRESET socket hang up', 'ENOTFOUND'])
    expect(tlsFailureOf(other), other).toBeUndefined();
});
