/**
 * The certificates and key of the connection settings, read and checked once, before anything is sent:
 * a CA file that holds no certificate, a key its passphrase does not open, or a certificate the key does
 * not belong to is refused in one line naming the setting, not met as a handshake failure later.
 *
 * Trust is added, never replaced: Node's `ca` option replaces its roots when given, so the given CAs go
 * in beside Node's own roots and NODE_EXTRA_CA_CERTS' (k6 gets the same, with the system's bundle:
 * load/node/k6-tls.ts). The client key is kept decrypted in memory only, and every line of it (and its
 * passphrase) is registered as a secret: whatever prints it prints `${WFCHECK_CLIENT_KEY}` instead.
 */
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { ConnectionSettings } from '../settings/connection-settings.ts';
import { registerSecret } from '../settings/redact.ts';
import { ENV, SettingError } from '../settings/rules.ts';

export interface TlsMaterial {
  /** What to trust, when it differs from Node's own store (a CA was given); undefined: Node's own. */
  ca?: string[];
  /** The certificates of the given CA file, for the report (their subjects). */
  givenCas: X509Certificate[];
  /** The client certificate (PEM) and its key, decrypted (PEM, in memory only). */
  client?: { cert: string; key: string; subject: string; validTo: string };
  /** False with --insecure: the target's certificate is not checked. */
  rejectUnauthorized: boolean;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM file, each as PEM; refused naming `name` when there is none or one is broken. */
export function certificatesIn(path: string, name: string): string[] {
  const pems = readFileSync(path, 'utf8').match(PEM_CERTIFICATE) ?? [];
  if (pems.length === 0)
    throw new SettingError(`${name}: ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  for (const pem of pems) {
    try {
      new X509Certificate(pem);
    } catch (err) {
      throw new SettingError(`${name}: ${path} holds a certificate that cannot be read (${(err as Error).message})`);
    }
  }
  return pems;
}

/** Every line of a key's PEM (and the PEM whole) is a secret. */
function registerKeyMaterial(pem: string): void {
  registerSecret(pem.trim(), ENV.clientKey);
  for (const line of pem.split(/\r?\n/)) if (!line.startsWith('-----')) registerSecret(line.trim(), ENV.clientKey);
}

/** The key, opened with its passphrase; refused in words that say which setting to fix. */
function openKey(path: string, passphrase: string | undefined): KeyObject {
  const pem = readFileSync(path, 'utf8');
  registerKeyMaterial(pem);
  if (passphrase) registerSecret(passphrase, ENV.clientKeyPassphrase);
  // PKCS#8 (ENCRYPTED PRIVATE KEY) and the older PEM encryption (Proc-Type: 4,ENCRYPTED) both say so.
  const encrypted = /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: *4, *ENCRYPTED/.test(pem);
  if (encrypted && !passphrase)
    throw new SettingError(`${ENV.clientKey}: the key is encrypted: set its passphrase in ${ENV.clientKeyPassphrase}`);
  try {
    return createPrivateKey({ key: pem, format: 'pem', ...(passphrase ? { passphrase } : {}) });
  } catch (err) {
    if (encrypted) throw new SettingError(`${ENV.clientKey}: ${ENV.clientKeyPassphrase} does not open the key`);
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new SettingError(`${ENV.clientKey}: ${path} holds no private key that can be read (${code})`);
  }
}

function clientMaterial(s: ConnectionSettings): TlsMaterial['client'] {
  if (!s.clientCert || !s.clientKey) return undefined;
  // The key first: its lines are secrets before anything (a certificate that cannot be read) can print.
  const key = openKey(s.clientKey, s.passphrase);
  const [cert] = certificatesIn(s.clientCert, ENV.clientCert);
  const x509 = new X509Certificate(cert!);
  if (!x509.checkPrivateKey(key))
    throw new SettingError(
      `${ENV.clientCert} and ${ENV.clientKey} do not belong together: the key is not the certificate's`,
    );
  const decrypted = key.export({ type: 'pkcs8', format: 'pem' }).toString();
  registerKeyMaterial(decrypted);
  return { cert: cert!, key: decrypted, subject: x509.subject.replace(/\n/g, ', '), validTo: x509.validTo };
}

/** Node's own roots, with NODE_EXTRA_CA_CERTS' (which Node adds to them at start). */
function nodeRoots(s: ConnectionSettings): string[] {
  return [...rootCertificates, ...(s.extraCaFile ? certificatesIn(s.extraCaFile, ENV.nodeExtraCaCerts) : [])];
}

export function loadTlsMaterial(s: ConnectionSettings): TlsMaterial {
  const given = s.caFile ? certificatesIn(s.caFile, ENV.caFile) : [];
  return {
    ...(given.length ? { ca: [...nodeRoots(s), ...given] } : {}),
    givenCas: given.map((pem) => new X509Certificate(pem)),
    client: clientMaterial(s),
    rejectUnauthorized: !s.insecure,
  };
}

/** The options of tls.connect (and of an https agent) the material gives. */
export function tlsOptionsOf(m: TlsMaterial): {
  ca?: string[];
  cert?: string;
  key?: string;
  rejectUnauthorized: boolean;
} {
  return {
    ...(m.ca ? { ca: m.ca } : {}),
    ...(m.client ? { cert: m.client.cert, key: m.client.key } : {}),
    rejectUnauthorized: m.rejectUnauthorized,
  };
}
