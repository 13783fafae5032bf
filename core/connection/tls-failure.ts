/**
 * A failure to reach a target over TLS, named in one line with the setting that fixes it: "certificate
 * signed by an unknown CA: pass it with --ca-file FILE (WFCHECK_CA_FILE)". The same failure reads the same
 * whichever client met it: Node's error codes and OpenSSL's alerts (the conformance and generative modes),
 * Go's messages (k6, the load modes), and the answer a TLS-terminating nginx gives in place of an alert.
 *
 * Pure (no Node API): the Node side reads k6's abort reasons with it too.
 */
import { ENV } from '../settings/rules.ts';

export interface TlsFailure {
  /** What went wrong, in words. */
  problem: string;
  /** The setting that fixes it, or what to change. */
  fix: string;
}

const TRUST_CA = `pass it with --ca-file FILE (${ENV.caFile}; ${ENV.nodeExtraCaCerts} is honoured too)`;
const CLIENT_CERT = `pass one with --client-cert FILE --client-key FILE (${ENV.clientCert}, ${ENV.clientKey}; an encrypted key's passphrase in ${ENV.clientKeyPassphrase})`;
const INSECURE = '--insecure skips the check (every report then says so)';

/** The failures told apart, each by the codes and texts that show it (Node, OpenSSL, Go, nginx). */
const FAILURES: readonly { match: RegExp; failure: (detail: string) => TlsFailure }[] = [
  {
    match:
      /UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT|SELF_SIGNED_CERT_IN_CHAIN|signed by unknown authority/i,
    failure: () => ({ problem: 'certificate signed by an unknown CA', fix: TRUST_CA }),
  },
  {
    match: /DEPTH_ZERO_SELF_SIGNED_CERT/,
    failure: () => ({ problem: 'the certificate is self-signed', fix: `${TRUST_CA}, or ${INSECURE}` }),
  },
  {
    match: /CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|certificate has expired|not yet valid/i,
    failure: () => ({
      problem: "the target's certificate has expired (or is not valid yet)",
      fix: `renew it on the target; ${INSECURE}`,
    }),
  },
  {
    match:
      /ERR_TLS_CERT_ALTNAME_INVALID|certificate is valid for|certificate is not valid for any names|Hostname\/IP does not match/i,
    failure: (detail) => ({
      problem: `the certificate does not name the host of BASE_URL${detail ? ` (${detail})` : ''}`,
      fix: 'use a host the certificate names in BASE_URL',
    }),
  },
  {
    match:
      /certificate required|CERTIFICATE_REQUIRED|No required SSL certificate was sent|peer did not return a certificate/i,
    failure: () => ({ problem: 'the server asks for a client certificate', fix: CLIENT_CERT }),
  },
  {
    match:
      /alert unknown ca|ALERT_UNKNOWN_CA|unknown certificate authority|bad certificate|ALERT_BAD_CERTIFICATE|The SSL certificate error/i,
    failure: () => ({
      problem: 'the server refused the client certificate',
      fix: `give one its CA signed with --client-cert FILE --client-key FILE (${ENV.clientCert}, ${ENV.clientKey})`,
    }),
  },
  {
    match: /handshake failure|HANDSHAKE_FAILURE/i,
    failure: () => ({
      problem: 'the TLS handshake failed (alert handshake failure)',
      fix: `the server may ask for a client certificate: ${CLIENT_CERT}`,
    }),
  },
  {
    match:
      /wrong version number|WRONG_VERSION_NUMBER|server gave HTTP response to HTTPS client|first record does not look like a TLS handshake/i,
    failure: () => ({
      problem: 'the server does not speak TLS on this port',
      fix: 'use http:// in BASE_URL, or the port that serves TLS',
    }),
  },
  {
    match: /bad decrypt|BAD_DECRYPT|unable to load private key|ERR_OSSL_EVP/i,
    failure: () => ({
      problem: 'the client key cannot be read',
      fix: `check ${ENV.clientKey} and, for an encrypted key, its passphrase in ${ENV.clientKeyPassphrase}`,
    }),
  },
];

/** The host names a certificate is for, when the message says them (Node's and Go's wording). */
function namesIn(message: string): string {
  const go = /certificate is valid for ([^,]+(?:, [^,]+)*), not (\S+)/.exec(message);
  if (go) return `it is for ${go[1]}, not ${go[2]}`;
  const node = /Host: (\S+?)\. is not in the cert's altnames: (.+)$/.exec(message);
  return node ? `it is for ${node[2]}, not ${node[1]}` : '';
}

/** The TLS failure a code or message shows, or undefined when it is no TLS failure. */
export function tlsFailureOf(codeOrMessage: string): TlsFailure | undefined {
  const found = FAILURES.find((f) => f.match.test(codeOrMessage));
  return found?.failure(namesIn(codeOrMessage));
}

/** The one line: "problem: fix". */
export function tlsFailureLine(f: TlsFailure): string {
  return `${f.problem}: ${f.fix}`;
}
