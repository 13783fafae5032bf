/**
 * The harness tested as it is deployed: the reference target behind a TLS-terminating nginx (HTTP/2
 * offered, a certificate from a private CA; the Node stand-in where nginx is not installed), whose second
 * server asks for a client certificate, reached through a CONNECT egress proxy — and every mode against
 * it: conformance, explore, a load smoke, a distributed load and a short capacity search.
 *
 * - Every mode passes, given the CA once (WFCHECK_CA_FILE), a client certificate whose key is encrypted
 *   (its passphrase in WFCHECK_CLIENT_KEY_PASSPHRASE) and HTTPS_PROXY: the target's name resolves in the
 *   proxy only, so a run that reached it went through the proxy, and the server refuses any connection
 *   without the certificate. No answer anywhere is a 502.
 * - Without the CA, without the client certificate, or through a proxy that refuses the tunnel, every
 *   mode ends at once (exit 2) in one line naming the setting that fixes it.
 * - The client key (as given and as decrypted) and its passphrase appear in no output of those runs.
 *
 * One nginx, one target and one proxy serve every case of the file.
 */
import { createPrivateKey } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startConnectProxy, type ConnectProxy } from '../fixtures/deployment/connect-proxy.ts';
import { PROXIED_NAME, privateCa, type Issued, type PrivateCa } from '../fixtures/deployment/private-ca.ts';
import { startReverseProxy, type ReverseProxy } from '../fixtures/deployment/reverse-proxy.ts';
import { startTarget, type StartedTarget } from '../fixtures/reference/server.ts';
import { ENV } from '../core/settings/rules.ts';
import type { RunReport } from '../load/k6/lib/run-report.ts';
import { filesUnder, textsOf } from './artifacts.testkit.ts';
import { REFERENCE_BEHIND_PROXY_ENV, runConformance, scratchOutDir } from './conformance-run.ts';
import { runScriptCli, type LoadCliRun } from './load-run.ts';

const PASSPHRASE = `wfcheck-client-passphrase-${process.pid}`;
const SEED = 4141;

let ca: PrivateCa;
let client: Issued;
let target: StartedTarget;
let nginx: ReverseProxy;
let egress: ConnectProxy;
let scratch: string;
/** Everything the passing runs printed, for the redaction check. */
const printed: { where: string; text: string }[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ca = privateCa();
  client = ca.client('wfcheck ci runner', 30, PASSPHRASE);
  target = await startTarget({});
  nginx = await startReverseProxy({
    upstream: target.baseUrl.replace(/\/v1$/, ''),
    server: ca.server('localhost', 30),
    caFile: ca.caFile,
  });
  egress = await startConnectProxy({ names: { [PROXIED_NAME]: '127.0.0.1' } });
  scratch = scratchOutDir(`deployment-${process.pid}-0`);
});

test.afterAll(async () => {
  await egress?.close();
  await nginx?.close();
  await target?.close();
  ca?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const keys = () => ({ A: target.tenants[0]!.apiKey, B: target.tenants[1]!.apiKey });

/** The mtls server by a name only the egress proxy resolves: reachable through it and nowhere else. */
const proxiedBase = () => `https://${PROXIED_NAME}:${nginx.mtls.port}/v1`;

/** The way a CI runner behind an egress proxy, trusting the company CA and holding a client certificate, is set. */
function deployedEnv(): Record<string, string> {
  return {
    [ENV.caFile]: ca.caFile,
    [ENV.clientCert]: client.certFile,
    [ENV.clientKey]: client.keyFile,
    [ENV.clientKeyPassphrase]: PASSPHRASE,
    HTTPS_PROXY: egress.url,
    https_proxy: '',
    NO_PROXY: '',
    no_proxy: '',
  };
}

/** A run's own outputs, out of the user's reports and history. */
function ownOutputs(name: string): { dir: string; env: Record<string, string> } {
  const dir = join(scratch, name);
  return {
    dir,
    env: { [ENV.history]: join(dir, 'history.sqlite'), [ENV.cacheDir]: 'off', [ENV.allowOverwrite]: '1' },
  };
}

type Mode = 'explore' | 'load' | 'load distributed' | 'load capacity';
const SCRIPTS: Record<Mode, { script: string; args: string[] }> = {
  explore: { script: 'explore.ts', args: ['--budget-s', '30', '--requests', '40'] },
  load: { script: 'load.ts', args: ['--profile', 'smoke', '--duration', '5s', '--no-dashboard'] },
  'load distributed': {
    script: 'load-distributed.ts',
    args: ['--profile', 'smoke', '--duration', '5s', '--instances', '2'],
  },
  // Short steps, a coarse precision and a low top rate: a search that ends confirmed within a minute, its
  // point being the way to the target, not the target's capacity.
  'load capacity': {
    script: 'load-capacity.ts',
    args: ['--budget', '89s', '--precision', '45', '--start-rate', '2', '--max-rate', '8', '--ceiling', 'off'],
  },
};

function runMode(mode: Mode, name: string, baseUrl: string, env: Record<string, string>): Promise<LoadCliRun> {
  const own = ownOutputs(name);
  return runScriptCli(SCRIPTS[mode].script, {
    baseUrl,
    apiKey: keys().A,
    args: [...SCRIPTS[mode].args, '--seed', String(SEED), '--out', own.dir],
    env: { ...REFERENCE_BEHIND_PROXY_ENV, ...own.env, ...env },
    killAfterMs: 160_000,
  });
}

/** The run reached the target through the egress proxy: tunnels to the target's name were opened meanwhile. */
async function throughTheProxy<T>(run: () => Promise<T>): Promise<T> {
  const before = egress.tunnels.length;
  const result = await run();
  const opened = egress.tunnels.slice(before);
  expect(opened.length, 'no tunnel was opened: the run did not go through HTTPS_PROXY').toBeGreaterThan(0);
  expect(new Set(opened)).toEqual(new Set([`${PROXIED_NAME}:${nginx.mtls.port}`]));
  return result;
}

function loadReport(dir: string): RunReport {
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as RunReport;
}

test('conformance passes behind nginx with the CA given once, a client certificate and an egress proxy', {
  tag: '@conformance-run',
}, async () => {
  const own = ownOutputs('conformance');
  const run = await throughTheProxy(() =>
    runConformance({
      outDir: own.dir,
      baseUrl: proxiedBase(),
      apiKey: keys().A,
      apiKeyB: keys().B,
      seed: SEED,
      timeoutS: 120,
      workers: 2,
      env: { ...REFERENCE_BEHIND_PROXY_ENV, ...own.env, ...deployedEnv() },
    }),
  );
  printed.push({ where: 'conformance output', text: run.output });
  expect(run.exitCode, run.output.slice(-3000)).toBe(0);
  const report = run.report!;
  expect(report.findings.filter((f) => f.strength === 'failure')).toEqual([]);
  expect(report.summary.tests.failed).toBe(0);
  const c = report.meta.connection!;
  expect(c.proxy).toBe(egress.url.replace('http://', ''));
  expect(c.tls?.alpn).toBe('h2');
  expect(c.clientCertificate).toContain('CN=wfcheck ci runner');
  // A certificate valid for 30 days: the certificate's clause is met.
  expect(report.requirements.find((r) => r.id === 'TLS-CERT-NOT-EXPIRING')?.verdict).toBe('pass');
  // Every answer the suites got is the target's: not one is the proxy's 502.
  for (const row of report.coverage) expect(Object.keys(row.counts), row.operation).not.toContain('502');
});

for (const mode of ['explore', 'load', 'load distributed', 'load capacity'] as const) {
  test(`${mode} passes behind nginx with the CA given once, a client certificate and an egress proxy`, {
    tag: '@k6',
  }, async () => {
    if (mode === 'load capacity') test.setTimeout(170_000);
    const name = mode.replace(/ /g, '-');
    const run = await throughTheProxy(() => runMode(mode, name, proxiedBase(), deployedEnv()));
    printed.push({ where: `${mode} output`, text: run.output });
    expect(run.code, run.output.slice(-3000)).toBe(0);
    expect(run.output).toContain(`connection: HTTPS via proxy ${egress.url.replace('http://', '')}`);
    if (mode === 'explore') return;
    const dir = ownOutputs(name).dir;
    const k6 = mode === 'load capacity' ? undefined : loadReport(dir).meta.connection?.k6;
    // k6 (Go) takes the HTTP/2 nginx offers; the Node modes speak HTTP/1.1 to it.
    if (k6) expect(k6.proto).toBe('HTTP/2.0');
    else expect(readFileSync(join(dir, 'report.txt'), 'utf8')).toContain('k6 spoke HTTP/2.0');
  });
}

test("no answer anywhere was the proxy's 502", { tag: '@k6' }, () => {
  expect(nginx.statuses().length).toBeGreaterThan(500);
  expect(nginx.statuses().filter((s) => s >= 500)).toEqual([]);
});

test('the client key, as given and as decrypted, and its passphrase appear in no output of those runs', {
  tag: '@k6',
}, () => {
  const given = readFileSync(client.keyFile, 'utf8');
  const decrypted = createPrivateKey({ key: given, passphrase: PASSPHRASE }).export({ type: 'pkcs8', format: 'pem' });
  const needles = [
    PASSPHRASE,
    ...[given, decrypted.toString()].flatMap((pem) =>
      pem.split('\n').filter((l) => l.length >= 16 && !l.startsWith('-----')),
    ),
  ];
  const sources = [...filesUnder(scratch).flatMap(textsOf), ...printed];
  // Not vacuous: the runs wrote their reports, and the search finds what it looks for.
  expect(sources.filter((s) => s.where.endsWith('report.json')).length).toBeGreaterThanOrEqual(4);
  // The run's own place keeps its evidence (runs/<run id>/evidence), which the search reads too.
  expect(sources.some((s) => /conformance\/runs\/[^/]+\/evidence\//.test(s.where))).toBe(true);
  const leaks = (texts: { where: string; text: string }[]) =>
    texts.flatMap((s) => needles.filter((n) => s.text.includes(n)).map((n) => `${s.where}: ${n.slice(0, 12)}…`));
  expect(leaks([{ where: 'probe', text: `a ${needles[1]} b` }])).not.toEqual([]);
  expect(leaks(sources)).toEqual([]);
});

/** Every mode against one base URL and way; their output. */
async function everyMode(name: string, baseUrl: string, env: Record<string, string>) {
  const own = ownOutputs(`${name}-conformance`);
  const conformance = runConformance({
    outDir: own.dir,
    baseUrl,
    apiKey: keys().A,
    seed: SEED,
    timeoutS: 60,
    workers: 1,
    env: { ...own.env, ...env },
  }).then((r) => ({ code: r.exitCode, output: r.output }));
  const others = (['explore', 'load', 'load distributed', 'load capacity'] as const).map((mode) =>
    runMode(mode, `${name}-${mode.replace(/ /g, '-')}`, baseUrl, env).then((r) => ({ code: r.code, output: r.output })),
  );
  const runs = await Promise.all([conformance, ...others]);
  return ['conformance', 'explore', 'load', 'load distributed', 'load capacity'].map((mode, i) => ({
    mode,
    ...runs[i]!,
  }));
}

/** Each mode ended (exit 2) with a line that says the problem and the setting that fixes it, nothing else failing. */
function endsInOneLine(runs: Awaited<ReturnType<typeof everyMode>>, line: RegExp): void {
  for (const r of runs) {
    expect(r.code, `${r.mode}: ${r.output.slice(-1500)}`).toBe(2);
    expect(
      r.output.split('\n').some((l) => line.test(l)),
      `${r.mode}: ${r.output.slice(-1500)}`,
    ).toBe(true);
    // Nothing was judged on the way: no test ran, no k6 started, no input was sent.
    expect(r.output, r.mode).not.toMatch(/\bFAIL\b|passed \(|VERDICT|deviation\(s\)/);
  }
}

test('without the CA every mode ends in one line naming --ca-file', { tag: '@k6' }, async () => {
  const runs = await everyMode('no-ca', `${nginx.tls.origin}/v1`, {});
  endsInOneLine(runs, /certificate signed by an unknown CA: pass it with --ca-file FILE \(WFCHECK_CA_FILE/);
});

test('without a client certificate every mode is refused cleanly, in one line naming --client-cert', {
  tag: '@k6',
}, async () => {
  const runs = await everyMode('no-client-cert', `${nginx.mtls.origin}/v1`, { [ENV.caFile]: ca.caFile });
  endsInOneLine(runs, /the server asks for a client certificate: pass one with --client-cert FILE --client-key FILE/);
});

test('through a proxy that refuses the tunnel every mode ends in one line naming HTTPS_PROXY', {
  tag: '@k6',
}, async () => {
  const env = { ...deployedEnv() };
  const runs = await everyMode('refused-tunnel', `https://not-a-target.test:${nginx.mtls.port}/v1`, env);
  endsInOneLine(
    runs,
    /the proxy at 127\.0\.0\.1:\d+ refused CONNECT not-a-target\.test:\d+: HTTP\/1\.1 403 .*check HTTPS_PROXY/,
  );
  expect(egress.refused).toContain(`not-a-target.test:${nginx.mtls.port}`);
});
