/**
 * The settings of the way to the target, the same in every mode (conformance, explore, load, its
 * distributed runs and capacity search): the certificate authorities to trust besides the system's
 * (`--ca-file`, WFCHECK_CA_FILE; NODE_EXTRA_CA_CERTS honoured as Node honours it), the client certificate
 * a target that asks for one is shown (`--client-cert`, `--client-key`, the key's passphrase from the
 * environment only), `--insecure` for a certificate that cannot be checked at all, and the egress proxies
 * of the environment (proxy-rules.ts).
 *
 * A command reads them once (`readConnectionSettings`), uses them in its own process (connection.ts) and
 * hands them to the processes it starts: the test workers as variables (`connectionEnv`), k6 as a bundle
 * of roots and its own options (load/node/k6-tls.ts).
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { optionOrEnvText } from './option-or-env.ts';
import { readProxyEnv, type ProxyEnv } from './proxy-rules.ts';
import { pathFromWorkDir, WORK_DIR } from './roots.ts';
import { ENV, flag, SettingError, text, type EnvLike } from './rules.ts';

/** The options every mode takes for it, as node:util parseArgs reads them. */
export const CONNECTION_OPTIONS = {
  'ca-file': { type: 'string' },
  'client-cert': { type: 'string' },
  'client-key': { type: 'string' },
  insecure: { type: 'boolean' },
} as const;

/** The lines each command's usage gives them. */
export const CONNECTION_USAGE = `connection (every mode; options take the place of their variables):
  --ca-file FILE      PEM of the CA(s) that signed the target's certificate, trusted besides the
                      system's [${ENV.caFile}; ${ENV.nodeExtraCaCerts} is honoured too]
  --client-cert FILE  client certificate (PEM) for a target that asks for one [${ENV.clientCert}]
  --client-key FILE   its private key (PEM) [${ENV.clientKey}]; an encrypted key's passphrase is read
                      from ${ENV.clientKeyPassphrase} only
  --insecure          do not check the target's certificate at all (every report says so) [${ENV.insecure}=1]
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY are honoured as Go (k6) honours them: a loopback target goes direct.`;

export interface ConnectionArgs {
  'ca-file'?: string;
  'client-cert'?: string;
  'client-key'?: string;
  insecure?: boolean;
}

export interface ConnectionSettings {
  /** The given CA file (absolute), trusted besides the system's roots. */
  caFile?: string;
  /** NODE_EXTRA_CA_CERTS (absolute): Node adds it to its own roots; k6 is handed it too. */
  extraCaFile?: string;
  clientCert?: string;
  clientKey?: string;
  /** The client key's passphrase (WFCHECK_CLIENT_KEY_PASSPHRASE). */
  passphrase?: string;
  /** The target's certificate is not checked. */
  insecure: boolean;
  proxies: ProxyEnv;
  /** SSL_CERT_FILE as given: the roots k6 (Go) trusts in place of the system's; its bundle starts from them. */
  sslCertFile?: string;
}

/** A readable file, named by the option or variable it came from; absolute. */
function fileOf(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  const path = resolve(WORK_DIR, value);
  if (!existsSync(path) || !statSync(path).isFile()) throw new SettingError(`${name}: no file at ${value}`);
  return path;
}

/** The option's name when given on the command line, else its variable's. */
const named = (option: string | boolean | undefined, optionName: string, variable: string) =>
  option !== undefined ? optionName : variable;

export function readConnectionSettings(args: ConnectionArgs = {}, env: EnvLike = process.env): ConnectionSettings {
  const clientCert = fileOf(
    optionOrEnvText(args['client-cert'], env, ENV.clientCert),
    named(args['client-cert'], '--client-cert', ENV.clientCert),
  );
  const clientKey = fileOf(
    optionOrEnvText(args['client-key'], env, ENV.clientKey),
    named(args['client-key'], '--client-key', ENV.clientKey),
  );
  if ((clientCert === undefined) !== (clientKey === undefined))
    throw new SettingError(
      `a client certificate needs both --client-cert and --client-key (${ENV.clientCert}, ${ENV.clientKey}); only ${clientCert ? 'the certificate' : 'the key'} was given`,
    );
  const passphrase = env[ENV.clientKeyPassphrase];
  return {
    caFile: fileOf(optionOrEnvText(args['ca-file'], env, ENV.caFile), named(args['ca-file'], '--ca-file', ENV.caFile)),
    extraCaFile: fileOf(text(env[ENV.nodeExtraCaCerts]), ENV.nodeExtraCaCerts),
    clientCert,
    clientKey,
    ...(passphrase ? { passphrase } : {}),
    insecure: args.insecure === true || flag(env[ENV.insecure], ENV.insecure),
    proxies: readProxyEnv(env),
    ...(text(env.SSL_CERT_FILE) ? { sslCertFile: resolve(WORK_DIR, text(env.SSL_CERT_FILE)!) } : {}),
  };
}

/**
 * The variables that carry the settings to a child process of the harness (the test workers): the
 * options given become their variables, as absolute paths. The passphrase and the proxies are in the
 * environment already and pass on with it.
 */
export function connectionEnv(s: ConnectionSettings): Record<string, string> {
  return {
    ...(s.caFile ? { [ENV.caFile]: s.caFile } : {}),
    ...(s.clientCert ? { [ENV.clientCert]: s.clientCert } : {}),
    ...(s.clientKey ? { [ENV.clientKey]: s.clientKey } : {}),
    ...(s.insecure ? { [ENV.insecure]: '1' } : {}),
  };
}

/**
 * The options a curl reproducer needs to reach the target the same way, naming the variables (never a
 * value): the CA, the client certificate and its passphrase, --insecure. curl reads HTTPS_PROXY and
 * NO_PROXY from the environment by itself.
 */
export function curlConnectionArgs(s: ConnectionSettings): string[] {
  return [
    ...(s.caFile ? ['--cacert', `"\${${ENV.caFile}}"`] : []),
    ...(s.clientCert ? ['--cert', `"\${${ENV.clientCert}}"`, '--key', `"\${${ENV.clientKey}}"`] : []),
    ...(s.passphrase ? ['--pass', `"\${${ENV.clientKeyPassphrase}}"`] : []),
    ...(s.insecure ? ['--insecure'] : []),
  ];
}

/** The options that give a run its way to the target again, for the command line that replays it. */
export function connectionReplayArgs(s: ConnectionSettings): string[] {
  return [
    ...(s.caFile ? ['--ca-file', pathFromWorkDir(s.caFile)] : []),
    ...(s.clientCert ? ['--client-cert', pathFromWorkDir(s.clientCert)] : []),
    ...(s.clientKey ? ['--client-key', pathFromWorkDir(s.clientKey)] : []),
    ...(s.insecure ? ['--insecure'] : []),
  ];
}
