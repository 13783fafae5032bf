/**
 * `npm run conformance`: runs the conformance suites (scenarios/) against a
 * target and writes a verdict for people and CI.
 *
 * - Without BASE_URL the reference target is booted hermetically (fixtures/target/boot/:
 *   container when a Docker engine is reachable, else a local process) and its
 *   two tenants' keys are used.
 * - With BASE_URL + API_KEY (+ optional API_KEY_B) any implementation is checked.
 *
 * Outputs (--out <dir>, default reports/conformance/): report.json, report.md, report.html,
 * Playwright HTML (html/), JUnit (junit.xml), Playwright JSON (playwright.json),
 * evidence/*.jsonl, request bodies (bodies/) and Playwright's output dir (test-results/).
 * One request probes the target first: when it cannot be reached at all, the report
 * (every requirement "not run", the fault named) is written at once instead of every
 * test timing out against it.
 * Exit code: 0 = no unwaived failure; 1 = unwaived failures; 2 = the run was
 * incomplete (deadline hit, runner crashed, nothing ran, target unreachable) or could not start.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { REQUIREMENTS } from '../contracts/requirements.ts';
import { OPERATION_IDS, operationInfo } from '../contracts/check.ts';
import { parseSeed, randomSeed } from '../fixtures/data/seeded.ts';
import { buildReport, type RunMeta } from '../scenarios/verdict/report.ts';
import { readEvidence } from '../scenarios/verdict/evidence.ts';
import { renderConsoleSummary, renderHtml, renderMarkdown } from '../scenarios/verdict/render.ts';
import { emptyWaivers, loadWaivers } from '../scenarios/verdict/waivers.ts';
import { containsSecret, redactSecrets, registerSecret } from '../fixtures/environment/redact.ts';
import { EvidenceWriter } from '../scenarios/verdict/evidence.ts';
import { ApiClient } from '../scenarios/support/client.ts';
import { loadConfig } from '../scenarios/support/config.ts';
import { Verdict } from '../scenarios/verdict/verdict.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const DEFAULT_OUT = join(ROOT, 'reports', 'conformance');
/** What a run writes into its output directory (and clears there first; nothing else in it is touched). */
const OUTPUTS = ['report.json', 'report.md', 'report.html', 'html', 'junit.xml', 'playwright.json', 'evidence', 'bodies', 'test-results'];
/** Transport faults that mean the target cannot be reached at all (an answer of any kind is reachable). */
const UNREACHABLE = new Set(['connection-refused', 'connection-reset', 'timeout', 'network-error']);

const USAGE = `usage: npm run conformance -- [options] [-- <extra playwright args>]

options (env equivalent in brackets):
  --seed <n>          replay a run with this seed [SEED]; default: a fresh seed, printed
  --waivers <file>    YAML file of known deviations [WFCHECK_WAIVERS]
  --strict            should-level warnings become failures [WFCHECK_STRICT=1]
  --timeout <s>       per-run deadline in seconds, default 300 [WFCHECK_RUN_TIMEOUT_S]
  --request-timeout <ms>  per-request deadline, default 10000 [WFCHECK_REQUEST_TIMEOUT_MS]
  --workers <n>       parallel workers, default 4 [WFCHECK_WORKERS]
  --grep <regex>      only tests whose title matches (e.g. a requirement ID)
  --out <dir>         where every output goes, default reports/conformance [WFCHECK_OUT_DIR]
  -h, --help          this text

target: BASE_URL (ends in /v1) and API_KEY select an implementation; API_KEY_B enables
isolation tests. Without BASE_URL the reference target is booted (TARGET_SEED_FILE: its seed file).`;

interface Options {
  seed: number;
  seedGiven: boolean;
  waivers?: string;
  strict: boolean;
  runTimeoutS: number;
  requestTimeoutMs?: number;
  workers: number;
  grep?: string;
  outDir: string;
  extra: string[];
}

function fail(message: string): never {
  console.error(`conformance: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function parseArgs(argv: string[], env: NodeJS.ProcessEnv): Options {
  const seedText = env.SEED;
  const opts: Options = {
    seed: 0,
    seedGiven: false,
    waivers: env.WFCHECK_WAIVERS || undefined,
    strict: /^(1|true|yes)$/i.test(env.WFCHECK_STRICT ?? ''),
    runTimeoutS: Number(env.WFCHECK_RUN_TIMEOUT_S || 300),
    requestTimeoutMs: env.WFCHECK_REQUEST_TIMEOUT_MS ? Number(env.WFCHECK_REQUEST_TIMEOUT_MS) : undefined,
    workers: Number(env.WFCHECK_WORKERS || 4),
    outDir: env.WFCHECK_OUT_DIR || DEFAULT_OUT,
    extra: [],
  };
  let seed = parseSeed(seedText);
  if (seedText && seed === undefined) fail(`SEED must be a non-negative integer, got "${seedText}"`);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) fail(`${arg} needs a value`);
      return v;
    };
    switch (arg) {
      case '--seed': {
        const v = value();
        seed = parseSeed(v);
        if (seed === undefined) fail(`--seed must be a non-negative integer, got "${v}"`);
        break;
      }
      case '--waivers': opts.waivers = value(); break;
      case '--strict': opts.strict = true; break;
      case '--timeout': opts.runTimeoutS = Number(value()); break;
      case '--request-timeout': opts.requestTimeoutMs = Number(value()); break;
      case '--workers': opts.workers = Number(value()); break;
      case '--grep': opts.grep = value(); break;
      case '--out': opts.outDir = value(); break;
      case '-h': case '--help': console.log(USAGE); process.exit(0);
      case '--': opts.extra = argv.slice(i + 1); i = argv.length; break;
      default: fail(`unknown option ${arg}`);
    }
  }
  if (!Number.isFinite(opts.runTimeoutS) || opts.runTimeoutS <= 0) fail('--timeout must be a positive number of seconds');
  if (!Number.isInteger(opts.workers) || opts.workers < 1) fail('--workers must be a positive integer');
  if (opts.requestTimeoutMs !== undefined && !(opts.requestTimeoutMs > 0)) fail('--request-timeout must be a positive number of ms');
  opts.outDir = resolve(opts.outDir);
  opts.seedGiven = seed !== undefined;
  opts.seed = seed ?? randomSeed();
  return opts;
}

interface Target {
  baseUrl: string;
  apiKey: string;
  apiKeyB?: string;
  kind: 'reference' | 'external';
  how: string;
  stop(): Promise<void>;
}

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`${what} did not complete within ${ms / 1000} s`)), ms);
    promise.then((v) => (clearTimeout(timer), res(v)), (e) => (clearTimeout(timer), rej(e)));
  });
}

async function resolveTarget(env: NodeJS.ProcessEnv): Promise<Target> {
  if (env.BASE_URL) {
    if (!env.API_KEY) fail('BASE_URL is set but API_KEY is not');
    return { baseUrl: env.BASE_URL.replace(/\/+$/, ''), apiKey: env.API_KEY, apiKeyB: env.API_KEY_B || undefined, kind: 'external', how: 'given by BASE_URL', stop: async () => undefined };
  }
  const forceInProcess = env.WFCHECK_TARGET_BOOT === 'inprocess';
  if (!forceInProcess) {
    const { bootTarget } = await import('../fixtures/target/boot/boot.ts');
    // A custom seed file (tenants, keys, workflows) reaches the booted target, e.g. for canary-key runs.
    const bootEnv = env.TARGET_SEED_FILE ? { TARGET_SEED_FILE: env.TARGET_SEED_FILE } : undefined;
    const t = await withDeadline(bootTarget({ env: bootEnv }), 120_000, 'booting the reference target');
    if (t.tenants.length === 0) throw new Error('the reference target reported no tenants');
    return { baseUrl: t.baseUrl, apiKey: t.tenants[0].apiKey, apiKeyB: t.tenants[1]?.apiKey, kind: 'reference', how: t.how, stop: () => t.stop() };
  }
  // In-process fallback: the run wrapper only waits on the test runner, so serving from here costs nothing.
  const { startTarget } = await import('../fixtures/target/server.ts');
  const t = await startTarget(env.TARGET_SEED_FILE ? { seedFile: resolve(env.TARGET_SEED_FILE) } : {});
  return { baseUrl: t.baseUrl, apiKey: t.tenants[0].apiKey, apiKeyB: t.tenants[1]?.apiKey, kind: 'reference', how: 'in-process', stop: () => t.close() };
}

interface RunnerResult {
  exitCode: number | null;
  killedAtDeadline: boolean;
  interrupted: boolean;
  stderrTail: string;
}

function runPlaywright(args: string[], env: NodeJS.ProcessEnv, hardDeadlineMs: number): Promise<RunnerResult> {
  return new Promise((res) => {
    const cli = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
    const child = spawn(process.execPath, [cli, ...args], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'pipe'], detached: true });
    let stderrTail = '';
    child.stderr.on('data', (chunk: Buffer) => {
      const text = redactSecrets(chunk.toString());
      process.stderr.write(text);
      stderrTail = (stderrTail + text).slice(-4000);
    });
    let killedAtDeadline = false;
    let interrupted = false;
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, signal);
      } catch {
        /* already gone */
      }
    };
    // Playwright's own --global-timeout ends the run cleanly first; this is the backstop for a stuck runner.
    const hard = setTimeout(() => {
      killedAtDeadline = true;
      console.error(`\nconformance: the test runner outlived the run deadline; stopping it (report will mark unreached tests "not run")`);
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), 5000).unref();
    }, hardDeadlineMs);
    const onSignal = () => {
      interrupted = true;
      killGroup('SIGINT');
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    child.on('close', (code) => {
      clearTimeout(hard);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      res({ exitCode: code, killedAtDeadline, interrupted, stderrTail });
    });
  });
}

/** Playwright JSON report's top-level errors (global timeout, config errors), if the report exists. */
function playwrightErrors(path: string): string[] {
  try {
    const json = JSON.parse(readFileSync(path, 'utf8')) as { errors?: { message?: string }[] };
    return (json.errors ?? []).map((e) => (e.message ?? '').replace(/\u001b\[[0-9;]*m/g, ''));
  } catch {
    return [];
  }
}

/** Final safety net: no artifact may contain a key. Scrubs text artifacts and says so. */
function scrubArtifacts(dir: string): string[] {
  const scrubbed: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.size < 50 * 1024 * 1024 && /\.(json|jsonl|md|html|xml|txt|log)$/.test(name)) {
        const text = readFileSync(p, 'utf8');
        if (containsSecret(text)) {
          writeFileSync(p, redactSecrets(text));
          scrubbed.push(p);
        }
      }
    }
  };
  if (existsSync(dir)) walk(dir);
  return scrubbed;
}

/**
 * One authenticated search through the contract-checked client (its exchange lands in the evidence).
 * Returns the transport fault when the target cannot be reached at all: then no test could do more
 * than time out against it.
 */
async function probeTarget(env: NodeJS.ProcessEnv, evidenceDir: string, strict: boolean): Promise<{ kind: string; message: string } | undefined> {
  const writer = new EvidenceWriter(evidenceDir, 'probe');
  const config = loadConfig({ ...env });
  const api = new ApiClient(config, { name: 'A', apiKey: config.apiKey }, writer, new Verdict(writer, undefined, strict, undefined), undefined);
  const ex = await api.search({}, { label: 'reachability probe', allowFault: true });
  return ex.fault && UNREACHABLE.has(ex.fault.kind) ? ex.fault : undefined;
}

async function main(): Promise<void> {
  const started = Date.now();
  const opts = parseArgs(process.argv.slice(2), process.env);
  const OUT = opts.outDir;
  const EVIDENCE = join(OUT, 'evidence');
  for (const name of OUTPUTS) rmSync(join(OUT, name), { recursive: true, force: true });
  mkdirSync(EVIDENCE, { recursive: true });

  console.log(`conformance: seed ${opts.seed}${opts.seedGiven ? ' (given)' : ' (fresh; replay with --seed ' + opts.seed + ')'}`);
  const bootStart = Date.now();
  let target: Target;
  try {
    target = await resolveTarget(process.env);
  } catch (err) {
    console.error(`conformance: cannot start the reference target: ${(err as Error).message}`);
    process.exit(2);
  }
  const bootMs = Date.now() - bootStart;
  registerSecret(target.apiKey, 'API_KEY');
  registerSecret(target.apiKeyB, 'API_KEY_B');
  console.log(`conformance: target ${target.baseUrl} — ${target.kind === 'reference' ? `reference target (${target.how}), booted in ${(bootMs / 1000).toFixed(1)} s` : target.how}`);
  console.log(`conformance: tenants: A (API_KEY)${target.apiKeyB ? ', B (API_KEY_B) — isolation tests enabled' : ' only — isolation tests will be "not run" (set API_KEY_B)'}`);

  const runTimeoutMs = opts.runTimeoutS * 1000;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BASE_URL: target.baseUrl,
    API_KEY: target.apiKey,
    SEED: String(opts.seed),
    WFCHECK_TARGET_KIND: target.kind,
    WFCHECK_EVIDENCE_DIR: EVIDENCE,
    WFCHECK_STRICT: opts.strict ? '1' : '0',
    PLAYWRIGHT_HTML_OUTPUT_DIR: join(OUT, 'html'),
    PLAYWRIGHT_HTML_OPEN: 'never',
    PLAYWRIGHT_JUNIT_OUTPUT_FILE: join(OUT, 'junit.xml'),
    PLAYWRIGHT_JSON_OUTPUT_FILE: join(OUT, 'playwright.json'),
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    FORCE_COLOR: process.stdout.isTTY ? '1' : '0',
  };
  // The reference target is hermetic and thrown away after the run: overwriting its canvases harms nothing.
  if (target.kind === 'reference' && env.WFCHECK_ALLOW_OVERWRITE === undefined) env.WFCHECK_ALLOW_OVERWRITE = '1';
  if (target.apiKeyB) env.API_KEY_B = target.apiKeyB;
  else delete env.API_KEY_B;
  if (opts.requestTimeoutMs) env.WFCHECK_REQUEST_TIMEOUT_MS = String(opts.requestTimeoutMs);

  const args = [
    'test',
    '--project=conformance',
    '--reporter=list,html,junit,json',
    `--workers=${opts.workers}`,
    `--global-timeout=${runTimeoutMs}`,
    `--output=${join(OUT, 'test-results')}`,
    ...(opts.grep ? ['--grep', opts.grep] : []),
    ...opts.extra,
  ];
  let runner: RunnerResult | undefined;
  let unreachable: { kind: string; message: string } | undefined;
  try {
    unreachable = await probeTarget(env, EVIDENCE, opts.strict);
    if (unreachable) console.error(`conformance: the target cannot be reached (${unreachable.kind}: ${redactSecrets(unreachable.message)}); no test is run`);
    else runner = await runPlaywright(args, env, runTimeoutMs + 30_000);
  } finally {
    await target.stop().catch((err) => console.error(`conformance: stopping the target failed: ${(err as Error).message}`));
  }

  const { records, unreadableLines } = readEvidence(EVIDENCE);
  const pwErrors = playwrightErrors(join(OUT, 'playwright.json'));
  const deadlineHit = !!runner?.killedAtDeadline || pwErrors.some((e) => /timed out waiting .*for the (entire )?test (suite|run)/i.test(e));
  const testsRan = records.some((r) => r.kind === 'test-begin');
  let incomplete: string | undefined;
  if (unreachable || !runner) incomplete = `the target cannot be reached (${unreachable?.kind}: ${unreachable?.message}); no test was run`;
  else if (deadlineHit) incomplete = `the run deadline (${opts.runTimeoutS} s) was reached before every test ran`;
  else if (runner.interrupted) incomplete = 'the run was interrupted';
  else if (!testsRan) incomplete = `no test ran (runner exit ${runner.exitCode}): ${pwErrors.join(' ') || runner.stderrTail.trim().split('\n').slice(-5).join(' ')}`;
  else if (runner.exitCode === null) incomplete = 'the test runner was killed';

  const meta: RunMeta = {
    seed: opts.seed,
    baseUrl: target.baseUrl,
    targetKind: target.kind,
    targetHow: target.how,
    strict: opts.strict,
    startedAt: new Date(started).toISOString(),
    bootMs: target.kind === 'reference' ? bootMs : undefined,
    incomplete,
    runnerExitCode: runner ? runner.exitCode : null,
    command: `npm run conformance -- --seed ${opts.seed}${opts.strict ? ' --strict' : ''}${opts.waivers ? ` --waivers ${opts.waivers}` : ''}${opts.outDir !== DEFAULT_OUT ? ` --out ${opts.outDir}` : ''}`,
  };
  const known = new Set(REQUIREMENTS.map((r) => r.id));
  const waivers = opts.waivers ? loadWaivers(opts.waivers, known) : emptyWaivers();
  const listedStatuses = Object.fromEntries(OPERATION_IDS.map((op) => [op, operationInfo(op).listedStatuses]));
  const build = () => buildReport({ catalogue: REQUIREMENTS, records, waivers, meta, listedStatuses, unreadableEvidenceLines: unreadableLines });
  let report = build();
  meta.wallTimeMs = Date.now() - started;
  report = build();

  const paths = {
    markdown: join(OUT, 'report.md'),
    html: join(OUT, 'report.html'),
    json: join(OUT, 'report.json'),
    playwright: join(OUT, 'html', 'index.html'),
    junit: join(OUT, 'junit.xml'),
    evidence: EVIDENCE,
  };
  writeFileSync(paths.json, redactSecrets(JSON.stringify(report, null, 2)));
  writeFileSync(paths.markdown, renderMarkdown(report));
  writeFileSync(paths.html, renderHtml(report));
  const scrubbed = scrubArtifacts(OUT);
  if (scrubbed.length) console.error(`conformance: removed API keys found in ${scrubbed.length} artifact(s): ${scrubbed.join(', ')}`);

  const rel = (p: string) => p.replace(ROOT + '/', '');
  console.log(renderConsoleSummary(report, Object.fromEntries(Object.entries(paths).map(([k, v]) => [k, rel(v)]))));
  if (report.waivers.problems.length) console.log(`  waiver file problems: ${report.waivers.problems.join('; ')}`);
  process.exit(report.exitCode);
}

main().catch((err) => {
  console.error(`conformance: ${redactSecrets((err as Error).stack ?? String(err))}`);
  process.exit(2);
});
