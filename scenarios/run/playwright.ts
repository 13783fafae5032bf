/**
 * The Playwright runner of the conformance suites: its environment and arguments for one run, and
 * the child process itself, bounded by a hard deadline and stopped with this process.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ConformanceSettings } from '../../core/settings/run-config.ts';
import { connectionEnv } from '../../core/settings/connection-settings.ts';
import { PACKAGE_ROOT, WORK_DIR } from '../../core/settings/roots.ts';
import { redactSecrets } from '../../core/settings/redact.ts';
import { ENV } from '../../core/settings/rules.ts';
import type { Target } from '../../core/settings/target.ts';
import { shardOf } from './run-history.ts';

export interface RunnerResult {
  exitCode: number | null;
  killedAtDeadline: boolean;
  interrupted: boolean;
  stderrTail: string;
}

/** The runner stops itself when the process that started it is gone (playwright.config.ts reads it). */
export const OWNER_PID_ENV = 'WFCHECK_OWNER_PID';

/**
 * What the suites read (core/settings/run-config.ts loadRunConfig), plus Playwright's
 * report destinations, all in the run's own place `outDir`.
 */
export function runnerEnv(
  base: NodeJS.ProcessEnv,
  target: Target,
  settings: ConformanceSettings,
  outDir: string,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...base,
    // The options of the way to the target reach the workers as their variables.
    ...connectionEnv(settings.connection),
    [ENV.baseUrl]: target.baseUrl,
    [ENV.apiKey]: target.apiKey,
    [ENV.seed]: String(settings.seed),
    [ENV.targetKind]: target.kind,
    [ENV.evidenceDir]: join(outDir, 'evidence'),
    [ENV.strict]: settings.strict ? '1' : '0',
    PLAYWRIGHT_HTML_OUTPUT_DIR: join(outDir, 'html'),
    PLAYWRIGHT_HTML_OPEN: 'never',
    PLAYWRIGHT_JUNIT_OUTPUT_FILE: join(outDir, 'junit.xml'),
    PLAYWRIGHT_JSON_OUTPUT_FILE: join(outDir, 'playwright.json'),
    // A shard's blob report is what `npm run report:merge` merges into one Playwright report.
    PLAYWRIGHT_BLOB_OUTPUT_DIR: join(outDir, 'blob-report'),
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    FORCE_COLOR: process.stdout.isTTY ? '1' : '0',
    [OWNER_PID_ENV]: String(process.pid),
  };
  // The reference target is hermetic and thrown away after the run: overwriting its canvases harms nothing.
  if (target.kind === 'reference' && env[ENV.allowOverwrite] === undefined) env[ENV.allowOverwrite] = '1';
  if (target.apiKeyB) env[ENV.apiKeyB] = target.apiKeyB;
  else delete env[ENV.apiKeyB];
  if (settings.requestTimeoutMs) env[ENV.requestTimeoutMs] = String(settings.requestTimeoutMs);
  return env;
}

/** Resolved as Node resolves it: an installed harness finds it hoisted beside itself, not in its own folder. */
export const PLAYWRIGHT_CLI = createRequire(import.meta.url).resolve('@playwright/test/cli');

export function playwrightArgs(settings: ConformanceSettings, outDir: string): string[] {
  return [
    'test',
    // Named, since the runner runs in the work dir, not beside its configuration.
    `--config=${join(PACKAGE_ROOT, 'playwright.config.ts')}`,
    '--project=conformance',
    `--reporter=list,html,junit,json${shardOf(settings.extra) ? ',blob' : ''}`,
    `--workers=${settings.workers}`,
    `--global-timeout=${settings.runTimeoutS * 1000}`,
    `--output=${join(outDir, 'test-results')}`,
    ...(settings.grep ? ['--grep', settings.grep] : []),
    ...settings.extra,
  ];
}

/**
 * Runs the Playwright CLI in its own process group (so a stuck runner and its workers can be stopped
 * together); stderr is echoed with keys redacted and its tail kept for the report. `started` is told
 * the group's id.
 */
export function runPlaywright(
  args: string[],
  env: NodeJS.ProcessEnv,
  hardDeadlineMs: number,
  warn: (line: string) => void,
  started?: (pgid: number) => void,
): Promise<RunnerResult> {
  return new Promise((res) => {
    const child = spawn(process.execPath, [PLAYWRIGHT_CLI, ...args], {
      cwd: WORK_DIR,
      env,
      stdio: ['ignore', 'inherit', 'pipe'],
      detached: true,
    });
    if (child.pid) started?.(child.pid);
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
      process.stderr.write('\n');
      warn('the test runner outlived the run deadline; stopping it (report will mark unreached tests "not run")');
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
export function playwrightErrors(path: string): string[] {
  try {
    const json = JSON.parse(readFileSync(path, 'utf8')) as { errors?: { message?: string }[] };
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the ANSI colour codes of Playwright's messages
    return (json.errors ?? []).map((e) => (e.message ?? '').replace(/\u001b\[[0-9;]*m/g, ''));
  } catch {
    return [];
  }
}
