/**
 * The harness works as an installed command, not only from its clone: the package `npm pack` makes is
 * installed into an empty project outside the repository, and there `npx wfcheck` lists its commands,
 * runs the conformance suites against the reference target it boots, and against a target booted on
 * its own (`wfcheck target`) named by BASE_URL and the keys; a load run's --out folder is honoured, and
 * the replay hints name `wfcheck`, not the repository's npm scripts. Every output lands under the project;
 * the installed package is left exactly as installed. The figures a user meets (tarball size, install
 * time, conformance wall time) are printed and attached to the test.
 *
 * Installing uses the registry and builds better-sqlite3 from source: a couple of minutes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expect, test } from '@playwright/test';
import { PACKAGE_ROOT } from '../core/settings/roots.ts';
import type { ConformanceReport } from '../core/findings/build-report.ts';
import { DEFAULT_PROFILE } from '../load/k6/lib/profiles.ts';

interface Ran {
  code: number | null;
  stdout: string;
  /** stdout and stderr as they came. */
  output: string;
  ms: number;
}

/**
 * The environment of a user's shell: none of this run's target, outputs or npm script context (npm
 * would otherwise take the harness's own package for the project's).
 */
function userEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
  for (const name of Object.keys(env))
    if (
      /^(npm_package_|npm_lifecycle_|WFCHECK_)/.test(name) ||
      ['npm_command', 'npm_config_local_prefix', 'INIT_CWD', 'BASE_URL', 'API_KEY', 'API_KEY_B', 'SEED'].includes(name)
    )
      delete env[name];
  return { ...env, ...extra };
}

function run(command: string, args: string[], cwd: string, env = userEnvironment()): Promise<Ran> {
  const started = Date.now();
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, output, ms: Date.now() - started }));
  });
}

/** Every file under `dir` with a digest of its content: what "left as installed" is checked against. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(dir, path), createHash('sha1').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(dir);
  return files;
}

/** `wfcheck target` in its own process group, resolved once it printed its address and keys. */
function bootTarget(
  project: string,
): Promise<{ child: ChildProcess; baseUrl: string; apiKey: string; apiKeyB?: string; output: () => string }> {
  const child = spawn('npx', ['--no-install', 'wfcheck', 'target'], {
    cwd: project,
    env: userEnvironment(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  return new Promise((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`wfcheck target printed no address within 3 minutes:\n${output}`)),
      180_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk;
      const baseUrl = /^BASE_URL=(\S+)/m.exec(output)?.[1];
      const apiKey = /^API_KEY=(\S+)/m.exec(output)?.[1];
      if (baseUrl && apiKey && /Ctrl-C/.test(output)) {
        clearTimeout(timer);
        done({ child, baseUrl, apiKey, apiKeyB: /^API_KEY_B=(\S+)/m.exec(output)?.[1], output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', (code) => {
      clearTimeout(timer);
      fail(new Error(`wfcheck target exited (${code}) before printing its address:\n${output}`));
    });
  });
}

/** Ctrl-C for the whole group (npx, the command, the script), then waits until it is gone. */
function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return Promise.resolve();
  return new Promise((done) => {
    const kill = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 20_000);
    child.once('close', () => {
      clearTimeout(kill);
      done();
    });
    process.kill(-child.pid!, 'SIGINT');
  });
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

test(
  'the packed harness, installed into an empty project, runs as `npx wfcheck` and writes only there',
  {
    tag: '@slow',
  },
  async ({}, testInfo) => {
    test.setTimeout(20 * 60_000);
    const scratch = mkdtempSync(join(tmpdir(), 'wfcheck-package-'));
    expect(relative(PACKAGE_ROOT, scratch).startsWith('..'), 'the project lies outside the repository').toBe(true);
    const figures: string[] = [];
    const note = (line: string) => {
      figures.push(line);
      testInfo.annotations.push({ type: 'figure', description: line });
    };
    let target: Awaited<ReturnType<typeof bootTarget>> | undefined;
    try {
      const packed = await run('npm', ['pack', '--json', '--pack-destination', scratch], PACKAGE_ROOT);
      expect(packed.code, packed.output).toBe(0);
      const [{ filename }] = JSON.parse(packed.stdout) as { filename: string }[];
      const tarball = join(scratch, filename);
      note(`tarball ${filename}: ${(statSync(tarball).size / 1024).toFixed(0)} KiB`);

      const project = join(scratch, 'project');
      mkdirSync(project);
      const init = await run('npm', ['init', '-y'], project);
      expect(init.code, init.output).toBe(0);
      const install = await run('npm', ['install', '--no-audit', '--no-fund', tarball], project);
      expect(install.code, install.output.slice(-4000)).toBe(0);
      note(`npm install of the tarball: ${seconds(install.ms)}`);
      const installed = join(project, 'node_modules', 'wfcheck');
      const before = snapshot(installed);

      const help = await run('npx', ['--no-install', 'wfcheck', '--help'], project);
      expect(help.code, help.output).toBe(0);
      for (const command of [
        'conformance',
        'load',
        'load compare',
        'load distributed',
        'history',
        'report merge',
        'target',
      ])
        expect(help.stdout, `wfcheck --help lists ${command}`).toMatch(new RegExp(`^  ${command} `, 'm'));
      const version = await run('npx', ['--no-install', 'wfcheck', '--version'], project);
      expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')).version);
      const conformanceHelp = await run('npx', ['--no-install', 'wfcheck', 'conformance', '--help'], project);
      expect(conformanceHelp.code).toBe(0);
      expect(conformanceHelp.stdout).toContain('usage: wfcheck conformance');
      // Every subcommand that writes takes --out: a load run's folder too (its data, before any k6 runs).
      const load = await run(
        'npx',
        ['--no-install', 'wfcheck', 'load', '--out', 'reports/perf', '--prepare-only', '--seed', '3'],
        project,
      );
      expect(load.code, load.output).toBe(0);
      expect(existsSync(join(project, 'reports', 'perf', 'load-data.json'))).toBe(true);
      expect(load.output, 'the replay hint names the installed command').toContain(
        `replay: wfcheck load --profile ${DEFAULT_PROFILE} --seed 3`,
      );

      // Against the reference target the command boots itself.
      const reference = await run('npx', ['--no-install', 'wfcheck', 'conformance'], project);
      note(`npx wfcheck conformance (reference target booted by the run): ${seconds(reference.ms)} wall`);
      expect(reference.code, reference.output.slice(-4000)).toBe(0);
      expect(reference.stdout, 'the replay hint names the installed command').toMatch(
        /\(replay: wfcheck conformance --seed \d+\)/,
      );
      const report = JSON.parse(
        readFileSync(join(project, 'reports', 'conformance', 'report.json'), 'utf8'),
      ) as ConformanceReport;
      expect(report.exitCode).toBe(0);
      expect(existsSync(join(project, 'reports', 'conformance', 'html', 'index.html'))).toBe(true);
      expect(existsSync(join(project, 'reports', 'history.sqlite')), 'the history is kept in the project').toBe(true);

      // Against a target booted on its own, named through the environment as any implementation is.
      target = await bootTarget(project);
      const external = await run(
        'npx',
        ['--no-install', 'wfcheck', 'conformance', '--out', 'reports/external'],
        project,
        userEnvironment({
          BASE_URL: target.baseUrl,
          API_KEY: target.apiKey,
          ...(target.apiKeyB ? { API_KEY_B: target.apiKeyB } : {}),
        }),
      );
      note(`BASE_URL=… API_KEY=… npx wfcheck conformance (target from wfcheck target): ${seconds(external.ms)} wall`);
      expect(external.code, external.output.slice(-4000)).toBe(0);
      expect(existsSync(join(project, 'reports', 'external', 'report.json'))).toBe(true);
      expect(readdirSync(join(project, 'reports', 'cache')), 'discovery memory is kept in the project').not.toEqual([]);
      await stopGroup(target.child);
      expect(target.output(), 'Ctrl-C stops the target it booted').toContain('target stopped');
      target = undefined;

      const history = await run('npx', ['--no-install', 'wfcheck', 'history', '--list'], project);
      expect(history.code, history.output).toBe(0);
      expect(history.stdout, "the run is in the project's history").toMatch(/^#\d+ .* exit 0 /m);

      expect(snapshot(installed), 'the installed package is left as installed').toEqual(before);
    } finally {
      if (target) await stopGroup(target.child);
      console.log(figures.map((f) => `  ${f}`).join('\n'));
      rmSync(scratch, { recursive: true, force: true });
    }
  },
);
