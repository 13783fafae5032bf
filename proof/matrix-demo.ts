/**
 * `npm run matrix:demo`: an implementation matrix from real runs. Several implementations are verified
 * night after night (one seed per night) by `wfcheck conformance --name … --target-version …`, as a
 * nightly job would, into one history, and the matrix is built from it:
 *
 * - reference — the reference target;
 * - go, python — the two implementations written apart from the harness (fixtures/independent/); the
 *   python one as a vendor would send it: run against its own history, its report.json imported with
 *   `wfcheck history import`;
 * - entries of the fault catalogue served by the mutating proxy in front of the reference target, as
 *   implementations of their own: two bugs, a should-level deviation and a legal variant. One bug is
 *   fixed after the second night (its vendor ships a new version that behaves like the reference), so the
 *   matrix shows it newly passing, its score rising and its finding gone.
 *
 * Writes reports/matrix-demo/ (--out): history.sqlite, each run's report.json under runs/, the site under
 * site/, and site.png (the "differs" view) when /usr/bin/chromium is there.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { OptionValues } from '../core/settings/command.ts';
import { WORK_DIR } from '../core/settings/roots.ts';
import { positiveInt, wholeNumber } from '../core/settings/rules.ts';
import { mutantById } from '../fixtures/faults/catalogue.ts';
import { startMutatingProxy } from '../fixtures/faults/proxy.ts';
import { independentMissing, startIndependent, type IndependentKind } from '../fixtures/independent/launch.ts';
import { buildMatrixSite, type SiteOutcome } from '../matrix/site.ts';
import { startTarget } from '../fixtures/reference/server.ts';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing } from './browser.ts';
import { REFERENCE_BEHIND_PROXY_ENV, REPO_ROOT, runConformance, scratchOutDir } from './conformance-run.ts';

/** A running implementation: where it answers, with which keys, and how to stop it. */
interface Served {
  baseUrl: string;
  apiKey: string;
  apiKeyB?: string;
  env: Record<string, string>;
  stop(): Promise<void>;
}

export interface DemoImplementation {
  name: string;
  /** Its version on a night (0-based). */
  version(night: number): string;
  what: string;
  /** Its runs are made against a history of its own and imported, as a vendor's report would be. */
  imported?: boolean;
  serve(night: number): Promise<Served>;
}

/** The independents run at their own pace; polls as for the reference (their workflows take about a second). */
const FAST_POLLS = { WFCHECK_POLL_INTERVAL_MS: '50', WFCHECK_POLL_TIMEOUT_MS: '15000' };

async function reference(): Promise<Served> {
  const t = await startTarget({});
  return {
    baseUrl: t.baseUrl,
    apiKey: t.tenants[0]!.apiKey,
    apiKeyB: t.tenants[1]?.apiKey,
    env: REFERENCE_BEHIND_PROXY_ENV,
    stop: () => t.close(),
  };
}

/** The reference target behind the mutating proxy serving catalogue entry `id` (`control-passthrough`: as it is). */
async function entry(id: string): Promise<Served> {
  const t = await startTarget({});
  const [a, b] = t.tenants;
  const proxy = await startMutatingProxy(t.baseUrl, { A: a!.apiKey, B: b?.apiKey }, mutantById(id));
  return {
    baseUrl: proxy.baseUrl,
    apiKey: a!.apiKey,
    apiKeyB: b?.apiKey,
    env: { ...REFERENCE_BEHIND_PROXY_ENV, WFCHECK_REQUEST_TIMEOUT_MS: '5000' },
    stop: async () => {
      await proxy.close();
      await t.close();
    },
  };
}

async function independent(kind: IndependentKind): Promise<Served> {
  const t = await startIndependent(kind);
  return { baseUrl: t.baseUrl, apiKey: t.apiKey, apiKeyB: t.apiKeyB, env: FAST_POLLS, stop: () => t.stop() };
}

/** The night after which the fixed bug is fixed: from this night on its vendor serves the corrected version. */
export const FIXED_FROM_NIGHT = 2;

export const DEMO_IMPLEMENTATIONS: readonly DemoImplementation[] = [
  { name: 'reference', what: 'the reference target', version: () => '0.1.0', serve: reference },
  { name: 'go', what: 'fixtures/independent/go', version: () => '1.0', serve: () => independent('go') },
  {
    name: 'python',
    what: 'fixtures/independent/python, its report imported',
    version: () => '1.0',
    imported: true,
    serve: () => independent('python'),
  },
  {
    name: 'bug/api-disabled-ignored',
    what: `fault entry api-disabled-ignored on nights 1–${FIXED_FROM_NIGHT}, fixed from night ${FIXED_FROM_NIGHT + 1}`,
    version: (n) => (n < FIXED_FROM_NIGHT ? '2.3.0' : '2.3.1'),
    serve: (n) => entry(n < FIXED_FROM_NIGHT ? 'api-disabled-ignored' : 'control-passthrough'),
  },
  {
    name: 'bug/keyword-ignored',
    what: 'fault entry keyword-ignored',
    version: () => '5.0',
    serve: () => entry('keyword-ignored'),
  },
  {
    name: 'should/stack-in-errors',
    what: 'fault entry stack-in-errors (should-level)',
    version: () => '0.9',
    serve: () => entry('stack-in-errors'),
  },
  {
    name: 'legal/order-reversed',
    what: 'legal variant order-reversed',
    version: () => '1.1',
    serve: () => entry('order-reversed'),
  },
];

export interface DemoOptions {
  outDir: string;
  nights: number;
  firstSeed: number;
  parallel: number;
  log: (line: string) => void;
}

export interface DemoRun {
  name: string;
  night: number;
  seed: number;
  version: string;
  exitCode: number | null;
  wallMs: number;
  findings?: number;
  problem?: string;
}

/** Records the python runs' reports as a vendor's would be: `wfcheck history import` into the matrix's history. */
function importReport(report: string, history: string): string | undefined {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(REPO_ROOT, 'scripts', 'history-import.ts'), report, '--db', history],
    { cwd: REPO_ROOT, encoding: 'utf8' },
  );
  return r.status === 0 ? undefined : `import failed (exit ${r.status}): ${r.stderr.trim().slice(-400)}`;
}

async function runNight(impl: DemoImplementation, night: number, o: DemoOptions, slot: number): Promise<DemoRun> {
  const seed = o.firstSeed + night;
  const version = impl.version(night);
  const history = join(o.outDir, 'history.sqlite');
  const served = await impl.serve(night);
  const outDir = scratchOutDir(`matrix-demo-${process.pid}-${slot}`);
  try {
    const run = await runConformance({
      outDir,
      baseUrl: served.baseUrl,
      apiKey: served.apiKey,
      apiKeyB: served.apiKeyB,
      seed,
      timeoutS: 240,
      workers: 2,
      args: ['--name', impl.name, '--target-version', version],
      env: {
        ...served.env,
        WFCHECK_HISTORY: impl.imported ? join(o.outDir, 'vendor-history.sqlite') : history,
      },
    });
    const kept = join(o.outDir, 'runs', impl.name.replace(/[^\w.-]+/g, '-'), `night-${night + 1}.report.json`);
    let problem: string | undefined = run.report ? undefined : `no report (exit ${run.exitCode})`;
    if (run.report) {
      mkdirSync(join(kept, '..'), { recursive: true });
      cpSync(join(run.reportDir, 'report.json'), kept);
      if (impl.imported) problem = importReport(kept, history);
    }
    return {
      name: impl.name,
      night,
      seed,
      version,
      exitCode: run.exitCode,
      wallMs: run.wallMs,
      findings: run.report?.summary.findings.failures,
      ...(problem ? { problem } : {}),
    };
  } finally {
    await served.stop();
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** Runs `tasks` with at most `parallel` at once, each given its slot. */
async function pooled<T>(tasks: ((slot: number) => Promise<T>)[], parallel: number): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, tasks.length) }, async (_, slot) => {
      while (next < tasks.length) {
        const i = next++;
        out[i] = await tasks[i]!(slot);
      }
    }),
  );
  return out;
}

/** A picture of the site's "differs" view, taken by chromium itself (its script runs first). */
function photograph(site: string, png: string): string | undefined {
  const missing = chromiumMissing();
  if (missing) return missing;
  const profile = join(site, '..', '.chromium-profile');
  try {
    execFileSync(
      CHROMIUM,
      [
        ...CHROMIUM_ARGS,
        '--hide-scrollbars',
        '--window-size=1600,1400',
        '--virtual-time-budget=3000',
        `--user-data-dir=${profile}`,
        `--screenshot=${png}`,
        `${pathToFileURL(join(site, 'index.html')).href}#differs=1`,
      ],
      { stdio: 'pipe' },
    );
    return undefined;
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

export async function matrixDemo(o: DemoOptions): Promise<{ runs: DemoRun[]; site: SiteOutcome; screenshot?: string }> {
  for (const kind of ['go', 'python'] as const) {
    const missing = independentMissing(kind);
    if (missing) throw new Error(missing);
  }
  for (const name of ['history.sqlite', 'vendor-history.sqlite', 'runs', 'site', 'site.png'])
    rmSync(join(o.outDir, name), { recursive: true, force: true, maxRetries: 3 });
  for (const suffix of ['-wal', '-shm'])
    for (const db of ['history.sqlite', 'vendor-history.sqlite']) rmSync(join(o.outDir, db + suffix), { force: true });
  mkdirSync(o.outDir, { recursive: true });
  const runs: DemoRun[] = [];
  for (let night = 0; night < o.nights; night++) {
    const started = Date.now();
    const tonight = await pooled(
      DEMO_IMPLEMENTATIONS.map((impl) => (slot: number) => runNight(impl, night, o, slot)),
      o.parallel,
    );
    runs.push(...tonight);
    o.log(`night ${night + 1} (seed ${o.firstSeed + night}) in ${((Date.now() - started) / 1000).toFixed(0)} s:`);
    for (const r of tonight)
      o.log(
        `  ${r.name.padEnd(28)} ${r.version.padEnd(6)} exit ${r.exitCode}  ${r.findings ?? '?'} failing finding(s)  ${(r.wallMs / 1000).toFixed(1)} s${r.problem ? `  PROBLEM: ${r.problem}` : ''}`,
      );
  }
  const siteDir = join(o.outDir, 'site');
  const site = buildMatrixSite({ historyFile: join(o.outDir, 'history.sqlite'), outDir: siteDir });
  const png = join(o.outDir, 'site.png');
  const skipped = photograph(siteDir, png);
  if (skipped) o.log(`screenshot skipped: ${skipped}`);
  return { runs, site, ...(skipped || !existsSync(png) ? {} : { screenshot: png }) };
}

export const MATRIX_DEMO_OPTIONS = {
  nights: { type: 'string' },
  seed: { type: 'string' },
  parallel: { type: 'string' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * `npm run matrix:demo` (scripts/matrix-demo.ts parses its command line): the demo of the options
 * `values`, said as it goes; the exit code (1: a run had a problem).
 */
export async function runMatrixDemo(values: OptionValues<typeof MATRIX_DEMO_OPTIONS>): Promise<number> {
  const log = (line: string) => console.log(`matrix:demo: ${line}`);
  const started = Date.now();
  const outDir = resolve(WORK_DIR, values.out ?? 'reports/matrix-demo');
  const nights = positiveInt(values.nights, '--nights', 3);
  log(`${DEMO_IMPLEMENTATIONS.length} implementations × ${nights} night(s):`);
  for (const impl of DEMO_IMPLEMENTATIONS) log(`  ${impl.name.padEnd(28)} ${impl.what}`);
  const { runs, site, screenshot } = await matrixDemo({
    outDir,
    nights,
    firstSeed: wholeNumber(values.seed, '--seed', 20260301),
    parallel: positiveInt(values.parallel, '--parallel', 3),
    log,
  });
  const rel = (p: string) => relative(process.cwd(), p);
  log(
    `matrix: ${site.implementations} implementations × ${site.requirements} requirements, ${site.files} files, ` +
      `built in ${site.ms.load + site.ms.render + site.ms.write} ms: ${rel(`${site.outDir}/index.html`)}`,
  );
  if (screenshot) log(`screenshot of the "differs" view: ${rel(screenshot)}`);
  log(`${runs.length} runs in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return runs.some((r) => r.problem) ? 1 : 0;
}
