/**
 * Runs `npm run conformance` (scripts/conformance.ts) as a user would — a child process pointed at a
 * target through BASE_URL / API_KEY / API_KEY_B — and reads back the report it wrote.
 *
 * Every run starts from the repository root and writes all its outputs (reports, evidence, Playwright's
 * reports and output dir) under its own `--out` directory, so runs can go in parallel (mutants) without
 * sharing a path, and the user's own reports/conformance/ is left alone.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inheritedEnvironment } from '../core/settings/child-environment.ts';
import { ENV } from '../core/settings/rules.ts';
import type { ConformanceReport } from '../core/findings/build-report.ts';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const SCRATCH = join(REPO_ROOT, '.cache', 'wfcheck-runs');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Scratch dirs named `<what>-<pid>-<n>` whose process is gone (an interrupted run) are removed. */
function sweepStaleScratch(): void {
  if (!existsSync(SCRATCH)) return;
  for (const name of readdirSync(SCRATCH)) {
    const pid = Number(/-(\d+)-\d+$/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !alive(pid)) rmSync(join(SCRATCH, name), { recursive: true, force: true });
  }
}

/** A fresh, empty output directory for one run under .cache/wfcheck-runs/ (remove it when done). */
export function scratchOutDir(name: string): string {
  sweepStaleScratch();
  const dir = join(SCRATCH, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

export interface ConformanceRunOptions {
  /** Where the run writes everything (`--out`); its own per run. */
  outDir: string;
  baseUrl: string;
  apiKey: string;
  apiKeyB?: string;
  seed: number;
  /** Per-run deadline given to the run (--timeout), in seconds. */
  timeoutS: number;
  workers?: number;
  /** Extra arguments (e.g. ['--grep', 'AUTH']). */
  args?: string[];
  env?: Record<string, string>;
  /** The run's stdout+stderr are written here (they are also returned). */
  logFile?: string;
  /** Backstop: the child is killed this long after the run deadline. */
  graceMs?: number;
}

export interface ConformanceRunResult {
  exitCode: number | null;
  wallMs: number;
  /** Killed by the backstop: the run did not end by itself within its bound. */
  hung: boolean;
  output: string;
  report?: ConformanceReport;
  reportDir: string;
}

/** Env that makes an "external" target behave like the local reference: fast polls, the fixture canvases named. */
export const REFERENCE_BEHIND_PROXY_ENV: Record<string, string> = {
  WFCHECK_POLL_INTERVAL_MS: '50',
  WFCHECK_POLL_TIMEOUT_MS: '15000',
  WFCHECK_MAX_RUNS: '200',
  WFCHECK_DISABLED_CANVAS_ID: 'c_acme_api_disabled',
  WFCHECK_ABORT_CANVAS_ID: 'c_acme_slow_batch',
};

/** Process groups of runs in flight: stopped when this process is interrupted, so no run outlives it. */
const active = new Set<number>();
let handlersInstalled = false;

function stopActiveRuns(): void {
  for (const pid of active) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  active.clear();
}

function installSignalHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', stopActiveRuns);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stopActiveRuns();
      process.exit(130);
    });
  }
}

export function runConformance(o: ConformanceRunOptions): Promise<ConformanceRunResult> {
  const reportDir = resolve(o.outDir);
  const started = Date.now();
  const inherited = inheritedEnvironment();
  const env: Record<string, string> = {
    ...inherited,
    ...o.env,
    [ENV.baseUrl]: o.baseUrl,
    [ENV.apiKey]: o.apiKey,
    [ENV.seed]: String(o.seed),
    CI: inherited.CI ?? '',
    FORCE_COLOR: '0',
  };
  // Proof runs (mutants behind proxies, repeated seeds) stay out of the user's run history unless a test names one.
  env[ENV.history] = o.env?.[ENV.history] ?? join(reportDir, 'history.sqlite');
  if (o.apiKeyB) env[ENV.apiKeyB] = o.apiKeyB;
  else delete env[ENV.apiKeyB];
  const args = [
    '--import',
    'tsx',
    join(REPO_ROOT, 'scripts', 'conformance.ts'),
    '--out',
    reportDir,
    '--seed',
    String(o.seed),
    '--timeout',
    String(o.timeoutS),
    ...(o.workers ? ['--workers', String(o.workers)] : []),
    ...(o.args ?? []),
  ];
  rmSync(join(reportDir, 'report.json'), { force: true }); // never read a previous run's verdict
  return new Promise((done) => {
    installSignalHandlers();
    const child = spawn(process.execPath, args, {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    if (child.pid) active.add(child.pid);
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c));
    child.stderr.on('data', (c: Buffer) => (output += c));
    let hung = false;
    const backstop = setTimeout(
      () => {
        hung = true;
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* gone */
        }
      },
      o.timeoutS * 1000 + (o.graceMs ?? 60_000),
    );
    child.on('close', (code) => {
      clearTimeout(backstop);
      if (child.pid) active.delete(child.pid);
      if (o.logFile) {
        mkdirSync(dirname(o.logFile), { recursive: true });
        writeFileSync(o.logFile, output);
      }
      let report: ConformanceReport | undefined;
      try {
        report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as ConformanceReport;
      } catch {
        report = undefined;
      }
      done({ exitCode: code, wallMs: Date.now() - started, hung, output, report, reportDir });
    });
  });
}
