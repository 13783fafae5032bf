/**
 * Runs `npm run load` (scripts/load.ts) as a user would — a child process pointed at a target through
 * BASE_URL / API_KEY — and gives back its exit code and output. Shared by the tests that judge how a
 * load run ends (abort reasons, hostile targets, redaction), and, for any other command of scripts/, by
 * those that run every mode (a deployment behind a reverse proxy).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { inheritedEnvironment } from '../core/settings/child-environment.ts';
import { PACKAGE_ROOT } from '../core/settings/roots.ts';
import { ENV } from '../core/settings/rules.ts';

export interface LoadCliRun {
  code: number | null;
  /** stdout and stderr, interleaved as they came. */
  output: string;
  /** The last line printed: the run's closing message. */
  closing: string;
  wallMs: number;
}

export interface LoadCliOptions {
  baseUrl: string;
  apiKey: string;
  /** Arguments after `scripts/load.ts`, e.g. ['--duration', '5s', '--run', name]. */
  args: string[];
  env?: Record<string, string>;
  /** Backstop: the child is killed after this long, so a hanging run cannot hang the test. */
  killAfterMs: number;
}

export function runLoadCli(opts: LoadCliOptions): Promise<LoadCliRun> {
  return runScriptCli('load.ts', opts);
}

/** Runs a command of scripts/ (`load-distributed.ts`, `load-capacity.ts`, `explore.ts`…) the same way. */
export function runScriptCli(script: string, opts: LoadCliOptions): Promise<LoadCliRun> {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(PACKAGE_ROOT, 'scripts', script), ...opts.args], {
      cwd: PACKAGE_ROOT,
      env: { ...inheritedEnvironment(), ...opts.env, [ENV.baseUrl]: opts.baseUrl, [ENV.apiKey]: opts.apiKey },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c));
    child.stderr.on('data', (c: Buffer) => (output += c));
    const kill = setTimeout(() => child.kill('SIGKILL'), opts.killAfterMs);
    child.on('close', (code) => {
      clearTimeout(kill);
      const lines = output.trim().split('\n');
      done({ code, output, closing: lines[lines.length - 1] ?? '', wallMs: Date.now() - started });
    });
  });
}
