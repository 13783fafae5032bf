/**
 * What a run saw of the way to its target, as every mode's report says it: the scheme, the proxy, the
 * TLS version and what the server offers over ALPN (HTTP/2 or only 1.1), the certificate's subject,
 * issuer and expiry, the client certificate shown, the trust given, and `--insecure` when the
 * certificate was not checked. Pure: the reports of every mode render it, and the certificate's clause is
 * decided here once (`certificateDecision`), whichever mode saw the certificate.
 */

export interface TlsFacts {
  /** TLSv1.3, TLSv1.2… */
  version: string;
  /** What the server chose of the harness's offer (h2, http/1.1): `none` when it takes no ALPN. */
  alpn: string;
  cipher: string;
  /** The server certificate's subject and issuer, in one line (CN=…, O=…). */
  subject: string;
  issuer: string;
  /** When it stops being valid (ISO 8601). */
  validTo: string;
  /** Whether the certificate was verified; with --insecure it may not be, and why is kept. */
  authorized: boolean;
  authorizationError?: string;
}

export interface ConnectionFacts {
  baseUrl: string;
  scheme: 'http' | 'https';
  /** The egress proxy the target is reached through (host:port), when one is. */
  proxy?: string;
  tls?: TlsFacts;
  /** The client certificate shown to a server that asks for one (its subject). */
  clientCertificate?: string;
  /** The CA file given (--ca-file), and NODE_EXTRA_CA_CERTS. */
  caFile?: string;
  extraCaFile?: string;
  insecure: boolean;
  /** When the facts were seen (ISO 8601): the expiry is counted from it. */
  seenAt: string;
}

/** What the Node modes (the suites, explore) speak: Node's http client speaks HTTP/1.1, whatever is offered. */
export const NODE_CLIENT_SPEAKS = 'HTTP/1.1 spoken';

/** The clause the certificate's expiry is judged under. */
export const CERTIFICATE_CLAUSE = 'TLS-CERT-NOT-EXPIRING' as const;

/** How far ahead a certificate must stay valid: the horizon of a nightly gate between two looks at it. */
export const CERTIFICATE_HORIZON_DAYS = 14;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days from `seenAt` to the certificate's end (negative once it has passed). */
export function daysLeft(f: ConnectionFacts): number | undefined {
  if (!f.tls) return undefined;
  return Math.floor((Date.parse(f.tls.validTo) - Date.parse(f.seenAt)) / DAY_MS);
}

export interface CertificateDecision {
  pass: boolean;
  message: string;
}

/** The certificate's clause: it stays valid over the horizon. Undefined for a target without TLS. */
export function certificateDecision(f: ConnectionFacts): CertificateDecision | undefined {
  const days = daysLeft(f);
  if (!f.tls || days === undefined) return undefined;
  const until = f.tls.validTo.slice(0, 10);
  if (days < 0) return { pass: false, message: `the certificate (${f.tls.subject}) expired on ${until}` };
  if (days < CERTIFICATE_HORIZON_DAYS)
    return {
      pass: false,
      message: `the certificate (${f.tls.subject}) expires on ${until}, in ${days} day(s): within ${CERTIFICATE_HORIZON_DAYS} days, every client that checks it will then fail to connect`,
    };
  return { pass: true, message: `the certificate (${f.tls.subject}) is valid until ${until}, ${days} days from now` };
}

/** HTTP/2 or 1.1 as the server offers it, and what the mode speaks (`speaks`: "HTTP/1.1 spoken", "k6 spoke HTTP/2.0"). */
function protocolText(t: TlsFacts, speaks: string | undefined): string {
  const offers = t.alpn === 'h2' ? 'HTTP/2 (h2) offered' : t.alpn === 'none' ? 'no ALPN' : `${t.alpn} only`;
  return speaks ? `${speaks}; the server: ${offers}` : `the server: ${offers}`;
}

/**
 * The connection in one line, for a report's header: "HTTPS via proxy 10.0.0.1:3128 · TLSv1.3 · HTTP/1.1
 * spoken; the server: HTTP/2 (h2) offered · certificate CN=api, issued by CN=Corp CA, valid until
 * 2027-01-01 (90 days) · client certificate CN=ci · CA from --ca-file ca.pem". `speaks` says the mode's
 * protocol.
 */
export function connectionLine(f: ConnectionFacts, speaks?: string): string {
  const via = f.proxy ? ` via proxy ${f.proxy}` : '';
  if (!f.tls) return `HTTP (no TLS)${via}${speaks ? ` · ${speaks}` : ''}`;
  const t = f.tls;
  const days = daysLeft(f);
  const parts = [
    `HTTPS${via}`,
    t.version,
    protocolText(t, speaks),
    `certificate ${t.subject}, issued by ${t.issuer}, valid until ${t.validTo.slice(0, 10)} (${days} days)`,
    ...(f.clientCertificate ? [`client certificate ${f.clientCertificate}`] : []),
    ...(f.caFile ? [`CA from --ca-file ${f.caFile}`] : []),
  ];
  return parts.join(' · ');
}

/** The warning every report's header carries when the certificate was not checked. */
export function insecureLine(f: Pick<ConnectionFacts, 'insecure' | 'tls'>): string | undefined {
  if (!f.insecure) return undefined;
  const why =
    f.tls && !f.tls.authorized && f.tls.authorizationError
      ? ` (it would have failed: ${f.tls.authorizationError})`
      : '';
  return `INSECURE: --insecure: the target's certificate was not checked${why}`;
}
