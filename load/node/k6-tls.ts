/**
 * The way to the target for k6, from the same settings as every mode's (connection-settings.ts). k6 is a
 * Go program and reads none of Node's: it trusts the file SSL_CERT_FILE names *instead of* the system's
 * roots, so it is handed a bundle of the system roots (the file Go would read, or the one SSL_CERT_FILE
 * already named), NODE_EXTRA_CA_CERTS and the given CA, never the given CA alone; `--insecure` is
 * K6_INSECURE_SKIP_TLS_VERIFY; the client certificate is k6's `tlsAuth` option, read from a k6 config file
 * that is a named pipe in a private folder: the key (decrypted in memory, k6 opens no encrypted PKCS#8
 * key) goes from this process to k6 and is written to no disk. The proxies of the environment reach k6 as
 * they are: Go reads HTTPS_PROXY, HTTP_PROXY and NO_PROXY by the rules the Node modes follow.
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  createWriteStream,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import type { TargetConnection } from '../../core/connection/connection.ts';
import { certificatesIn } from '../../core/connection/tls-material.ts';

/** Where Go looks for the system's roots on Linux (crypto/x509 root_linux.go), in its order. */
export const GO_ROOT_FILES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/ca-bundle.pem',
  '/etc/pki/tls/cacert.pem',
  '/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem',
  '/etc/ssl/cert.pem',
];

/** The roots k6 would trust on its own: SSL_CERT_FILE's, else the system's file, else (none there) Node's bundled ones. */
function systemRoots(given: string | undefined): { pems: string[]; from: string } {
  if (given && existsSync(given)) return { pems: certificatesIn(given, 'SSL_CERT_FILE'), from: given };
  const file = GO_ROOT_FILES.find((f) => existsSync(f));
  if (file)
    return {
      pems: readFileSync(file, 'utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [],
      from: file,
    };
  return { pems: [...rootCertificates], from: "Node's bundled roots (no system bundle found)" };
}

/**
 * The bundle k6 trusts, as PEM text: the system roots, NODE_EXTRA_CA_CERTS, the given CA. Undefined when
 * neither is given and the system has roots of its own: k6 then trusts what it would on its own. (A
 * machine without a system bundle, such as the harness's image, gets Node's roots: Go would trust none.)
 */
export function k6CaBundle(c: TargetConnection): string | undefined {
  const s = c.settings;
  const systemHasRoots = s.sslCertFile !== undefined || GO_ROOT_FILES.some((f) => existsSync(f));
  if (!s.caFile && !s.extraCaFile && systemHasRoots) return undefined;
  const roots = systemRoots(s.sslCertFile);
  const parts = [
    `# The roots k6 trusts for this run, written by wfcheck: the system's (${roots.from}),`,
    '# NODE_EXTRA_CA_CERTS and --ca-file (WFCHECK_CA_FILE). Certificates only: nothing secret.',
    ...roots.pems,
    ...(s.extraCaFile ? certificatesIn(s.extraCaFile, 'NODE_EXTRA_CA_CERTS') : []),
    ...(s.caFile ? certificatesIn(s.caFile, 'WFCHECK_CA_FILE') : []),
  ];
  return `${parts.join('\n')}\n`;
}

/** k6's tlsAuth option for the client certificate, as its config file holds it (`domains` left out: every host). */
export function k6TlsAuthConfig(c: TargetConnection): string | undefined {
  const client = c.tls.client;
  return client ? JSON.stringify({ tlsAuth: [{ cert: client.cert, key: client.key }] }) : undefined;
}

/** What one k6 process is given: its environment, its arguments, and the config to write once it started. */
export interface K6Tls {
  env: Record<string, string>;
  args: string[];
  /** Writes the client certificate's config into the pipe k6 reads (once k6 opens it); call after spawning. */
  hand(): void;
  /** Removes the pipe and its folder (after k6 ended), unblocking a write k6 never read. */
  done(): void;
}

let bundleFile: string | undefined;

/** The bundle written once per process into a private folder, removed when the process ends. */
function bundlePath(text: string): string {
  if (bundleFile && readFileSync(bundleFile, 'utf8') === text) return bundleFile;
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-k6-roots-'));
  bundleFile = join(dir, 'ca-bundle.pem');
  writeFileSync(bundleFile, text);
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return bundleFile;
}

export function k6TlsFor(c: TargetConnection): K6Tls {
  const bundle = k6CaBundle(c);
  const tlsAuth = k6TlsAuthConfig(c);
  const out: Record<string, string> = {
    ...(bundle ? { SSL_CERT_FILE: bundlePath(bundle) } : {}),
    ...(c.settings.insecure ? { K6_INSECURE_SKIP_TLS_VERIFY: 'true' } : {}),
  };
  if (!tlsAuth) return { env: out, args: [], hand: () => undefined, done: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-k6-tls-'));
  const pipe = join(dir, 'tls-auth.json');
  execFileSync('mkfifo', ['-m', '600', pipe]);
  let writer: ReturnType<typeof createWriteStream> | undefined;
  return {
    env: out,
    args: ['--config', pipe],
    hand: () => {
      writer = createWriteStream(pipe);
      writer.on('error', () => undefined);
      writer.end(tlsAuth);
    },
    done: () => {
      // A k6 that ended before reading leaves the writer waiting for a reader: one opens and closes the pipe.
      if (writer && !writer.writableFinished) {
        try {
          closeSync(openSync(pipe, constants.O_RDONLY | constants.O_NONBLOCK));
        } catch {
          /* nothing waited */
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Where the k6-operator manifests mount the Secret `wfcheck-tls` (load/k8s/). */
export const K8S_TLS_DIR = '/etc/wfcheck/tls';

/**
 * What an archive for load/k8s needs beside it for the way to the target: the bundle of roots written into
 * the run's folder (certificates only) for the Secret `wfcheck-tls`, and the steps for the client
 * certificate, which wfcheck writes nowhere. The lines to print.
 */
export function k8sTlsSteps(c: TargetConnection, dir: string): string[] {
  const lines: string[] = [];
  const bundle = k6CaBundle(c);
  const secret = ['kubectl create secret generic wfcheck-tls'];
  if (bundle) {
    const file = join(dir, 'ca-bundle.pem');
    writeFileSync(file, bundle);
    secret.push(`--from-file=ca-bundle.pem=${file}`);
  }
  if (c.tls.client) secret.push('--from-file=tls-auth.json=<the tlsAuth file load/k8s/README.md shows how to make>');
  if (secret.length > 1)
    lines.push(
      `the way to the target for the runners (mounted at ${K8S_TLS_DIR}): ${secret.join(' ')}${c.tls.client ? '; then uncomment K6_CONFIG in the manifest' : ''}`,
    );
  if (c.settings.insecure)
    lines.push('--insecure: set K6_INSECURE_SKIP_TLS_VERIFY to "true" in the manifest\'s runner.env');
  return lines;
}
