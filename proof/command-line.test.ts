/**
 * One command line: every subcommand of `wfcheck` takes --out and writes there, or refuses it when it
 * writes no file; its help says where its outputs go; and the hints a run prints (the fresh seed's
 * replay, the console summary, report.md, the usage) name the command as the user started it:
 * `wfcheck …` through bin/wfcheck.mjs (as the installed command, the image and the action start it),
 * `npm run … --` through the repository's npm scripts.
 *
 * Kept fast: runs point at a closed port (a conformance run and an exploration then write their reports
 * within a second), a load run stops after preparing its data (--prepare-only, or a k6 that is not
 * there), and the baseline comparison reads a summary written here. Each run starts in its own scratch
 * folder, outside the repository, with its own run history.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { SUBCOMMANDS } from '../core/settings/command-line.ts';
import type { ConformanceReport } from '../core/findings/build-report.ts';
import { DEFAULT_PROFILE } from '../load/k6/lib/profiles.ts';
import type { RunReport } from '../load/k6/lib/run-report.ts';
import { REPO_ROOT } from './conformance-run.ts';

const BIN = join(REPO_ROOT, 'bin', 'wfcheck.mjs');

interface Ran {
  code: number | null;
  stdout: string;
  /** stdout and stderr as they came. */
  output: string;
}

/** A user's shell: no target, no settings of the harness, no npm script context of this test run. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  for (const name of Object.keys(env))
    if (/^(WFCHECK_|npm_)/.test(name) || ['BASE_URL', 'API_KEY', 'API_KEY_B', 'SEED', 'K6_BIN'].includes(name))
      delete env[name];
  return { ...env, ...extra };
}

function spawned(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      output += d;
    });
    child.stderr.on('data', (d: Buffer) => (output += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, output }));
  });
}

/** `wfcheck <args>` started in `cwd`, as the installed command runs. */
const wfcheck = (cwd: string, args: string[], env = userEnv()) => spawned(process.execPath, [BIN, ...args], cwd, env);

/** `npm run <script> -- <args>` in the repository, as a clone runs it. */
const npmScript = (script: string, args: string[], env = userEnv()) =>
  spawned('npm', ['run', '-s', script, '--', ...args], REPO_ROOT, env);

/** A port nothing listens on: a target that cannot be reached fails the first probe, and the run reports at once. */
async function closedTarget(): Promise<Record<string, string>> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  await new Promise((ok) => server.close(ok));
  return { BASE_URL: `http://127.0.0.1:${port}/v1`, API_KEY: 'wfk_command_line_test', WFCHECK_CACHE_DIR: 'off' };
}

let scratch: string;
test.beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'wfcheck-command-line-'));
});
test.afterEach(() => rmSync(scratch, { recursive: true, force: true }));

const readJson = <T>(path: string) => JSON.parse(readFileSync(path, 'utf8')) as T;

test('wfcheck conformance --out: the verdict there, every replay hint in the wfcheck form', {
  tag: '@slow',
}, async () => {
  const env = userEnv({ ...(await closedTarget()), WFCHECK_HISTORY: join(scratch, 'history.sqlite') });
  const ran = await wfcheck(scratch, ['conformance', '--out', 'verdict', '--request-timeout', '2000'], env);
  expect(ran.code, ran.output).toBe(2);
  const seed = /seed (\d+) \(fresh; replay: wfcheck conformance --seed \1 --out verdict\)/.exec(ran.output)?.[1];
  expect(seed, ran.output).toBeDefined();
  const replay = `wfcheck conformance --seed ${seed} --out verdict`;
  expect(ran.stdout).toContain(`(replay: ${replay})`);
  const report = readJson<ConformanceReport>(join(scratch, 'verdict', 'report.json'));
  expect(report.meta.command).toBe(replay);
  expect(readFileSync(join(scratch, 'verdict', 'report.md'), 'utf8')).toContain(`replay with \`${replay}\``);
  expect(readFileSync(join(scratch, 'verdict', 'report.html'), 'utf8')).toContain(`replay with <code>${replay}</code>`);
  expect(existsSync(join(scratch, 'reports')), 'nothing written outside --out but the history').toBe(false);
  expect(ran.output).not.toContain('npm run');
});

test('npm run conformance -- --out: the same hints as npm scripts', { tag: '@slow' }, async () => {
  const env = userEnv({ ...(await closedTarget()), WFCHECK_HISTORY: join(scratch, 'history.sqlite') });
  const out = join(scratch, 'verdict');
  const ran = await npmScript('conformance', ['--seed', '31', '--strict', '--out', out], env);
  expect(ran.code, ran.output).toBe(2);
  // An output folder outside the directory the command runs in is named in full.
  const replay = `npm run conformance -- --seed 31 --strict --out ${out}`;
  expect(ran.stdout).toContain(`(replay: ${replay})`);
  expect(readJson<ConformanceReport>(join(out, 'report.json')).meta.command).toBe(replay);
  expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain(`replay with \`${replay}\``);
  expect(ran.output).not.toMatch(/\bwfcheck (conformance|report merge) --/);
});

test('wfcheck report merge --out: the merged verdict there, never in a shard; its command in the report', {
  tag: '@slow',
}, async () => {
  const env = userEnv({ ...(await closedTarget()), WFCHECK_HISTORY: join(scratch, 'history.sqlite') });
  const shard = await wfcheck(scratch, ['conformance', '--seed', '5', '--shard', '1/2', '--out', 'shard-1'], env);
  expect(shard.code, shard.output).toBe(2);
  const merged = await wfcheck(scratch, ['report', 'merge', 'shard-1', '--out', 'merged'], env);
  expect(merged.code, merged.output).toBe(2);
  expect(readJson<ConformanceReport>(join(scratch, 'merged', 'report.json')).meta.seed).toBe(5);
  expect(readFileSync(join(scratch, 'merged', 'report.md'), 'utf8')).toContain(
    'replay with `wfcheck report merge shard-1 --out merged`',
  );
  const intoShard = await wfcheck(scratch, ['report', 'merge', 'shard-1', '--out', 'shard-1'], env);
  expect(intoShard.code).toBe(2);
  expect(intoShard.output).toContain('--out shard-1 is one of the shards');
  const { runId } = readJson<ConformanceReport>(join(scratch, 'shard-1', 'report.json')).meta;
  expect(existsSync(join(scratch, 'shard-1', 'runs', runId!, 'evidence')), 'the shard is left as it was').toBe(true);
});

test('wfcheck explore --out: the report there; the fresh seed replayed in the form the user ran', {
  tag: '@slow',
}, async () => {
  const env = userEnv({ ...(await closedTarget()), WFCHECK_HISTORY: join(scratch, 'history.sqlite') });
  const ran = await wfcheck(scratch, ['explore', '--out', 'explored', '--budget-s', '5'], env);
  expect(ran.code, ran.output).toBe(2);
  expect(ran.output).toMatch(/seed (\d+) \(fresh; replay: wfcheck explore --seed \1 --budget-s 5\)/);
  expect(readJson<{ kind: string }>(join(scratch, 'explored', 'report.json')).kind).toBe('wfcheck-explore');
  expect(existsSync(join(scratch, 'explored', 'report.md'))).toBe(true);

  const npm = await npmScript('explore', ['--out', join(scratch, 'explored-npm'), '--only', 'SEARCH'], env);
  expect(npm.code, npm.output).toBe(2);
  expect(npm.output).toMatch(/seed (\d+) \(fresh; replay: npm run explore -- --seed \1 --only SEARCH\)/);
  expect(existsSync(join(scratch, 'explored-npm', 'report.json'))).toBe(true);
});

test('wfcheck load --out is the folder of the run (no longer refused), beside --run refused', {
  tag: '@slow',
}, async () => {
  const ran = await wfcheck(scratch, ['load', '--out', 'perf', '--prepare-only', '--seed', '5']);
  expect(ran.code, ran.output).toBe(0);
  expect(ran.stdout.trim()).toBe(join(scratch, 'perf', 'load-data.json'));
  expect(existsSync(join(scratch, 'perf', 'load-data.json'))).toBe(true);
  expect(ran.output).toContain(`seed 5 (replay: wfcheck load --profile ${DEFAULT_PROFILE} --seed 5); reports in perf/`);

  const npm = await npmScript('load', ['--out', join(scratch, 'perf-npm'), '--prepare-only', '--seed', '5']);
  expect(npm.code, npm.output).toBe(0);
  expect(npm.output).toContain(`seed 5 (replay: npm run load -- --profile ${DEFAULT_PROFILE} --seed 5)`);
  expect(existsSync(join(scratch, 'perf-npm', 'load-data.json'))).toBe(true);

  const both = await wfcheck(scratch, ['load', '--out', 'perf', '--run', 'nightly', '--prepare-only']);
  expect(both.code).toBe(2);
  expect(both.output).toContain('--out and --run both name the folder of the run');
});

test('wfcheck load distributed --out: the run and its data there before k6 is needed', { tag: '@slow' }, async () => {
  // A k6 that is not there stops the run after it prepared its folder: what --out moves, without k6.
  const env = userEnv({ K6_BIN: join(scratch, 'no-k6') });
  const ran = await wfcheck(
    scratch,
    ['load', 'distributed', '--out', 'spread', '--instances', '2', '--seed', '8', '--duration', '5s'],
    env,
  );
  expect(ran.code, ran.output).toBe(2);
  expect(ran.output).toContain(
    `seed 8 (replay: wfcheck load distributed --profile ${DEFAULT_PROFILE} --duration 5s --instances 2 --seed 8); 2 k6 processes; reports in spread/`,
  );
  expect(ran.output).toContain('is not a working k6 binary');
  expect(existsSync(join(scratch, 'spread', 'load-data.json'))).toBe(true);
  expect(existsSync(join(scratch, 'reports')), 'nothing under the default folder').toBe(false);
});

test('wfcheck load compare --out: the baseline saved there and read from there', { tag: '@slow' }, async () => {
  const summary: RunReport = {
    meta: {
      profile: 'smoke',
      scenarios: ['readMix'],
      seed: 1,
      baseUrl: 'http://127.0.0.1:1/v1',
      contractSample: 1,
      durationMs: 10_000,
      evaluation: 'single',
    },
    passed: true,
    thresholds: [],
    metrics: {
      'http_req_duration{operation:searchWorkflows}': {
        type: 'trend',
        values: { med: 10, 'p(95)': 20, 'p(99)': 30, count: 100 },
      },
    },
  };
  mkdirSync(join(scratch, 'run'));
  writeFileSync(join(scratch, 'run', 'report.json'), JSON.stringify(summary));
  const saved = await wfcheck(scratch, ['load', 'compare', 'run', '--save-baseline', '--out', 'baselines']);
  expect(saved.code, saved.output).toBe(0);
  expect(saved.stdout).toContain('saved run/report.json as baseline baselines/baseline-smoke.json');
  expect(readJson<RunReport>(join(scratch, 'baselines', 'baseline-smoke.json'))).toEqual(summary);
  const compared = await wfcheck(scratch, ['load', 'compare', 'run', '--out', 'baselines']);
  expect(compared.code, compared.output).toBe(0);
  expect(compared.stdout).toContain('baseline baselines/baseline-smoke.json vs run run/report.json');
});

test('the commands that write no file refuse --out, saying so in the form the user ran', { tag: '@slow' }, async () => {
  const refusals = await Promise.all([
    wfcheck(scratch, ['history', '--out', 'x']),
    wfcheck(scratch, ['target', '--out', 'x']),
    wfcheck(scratch, ['target', 'image', '--out', 'x']),
    npmScript('history', ['--out', 'x']),
  ]);
  const said = [
    'wfcheck history writes no file',
    'wfcheck target writes no file',
    'wfcheck target image writes no file',
    'npm run history writes no file',
  ];
  for (const [i, ran] of refusals.entries()) {
    expect(ran.code, ran.output).toBe(2);
    expect(ran.output).toContain(`--out does not apply: ${said[i]}`);
  }
  expect(existsSync(join(scratch, 'x'))).toBe(false);
});

test("every subcommand's help names it as the user ran it, with --out", { tag: '@slow' }, async () => {
  const helps = await Promise.all(SUBCOMMANDS.map((c) => wfcheck(scratch, [...c.split(' '), '--help'])));
  for (const [i, ran] of helps.entries()) {
    const command = SUBCOMMANDS[i];
    expect(ran.code, `${command}: ${ran.output}`).toBe(0);
    expect(ran.stdout, command).toMatch(new RegExp(`^usage: wfcheck ${command}\\b`));
    expect(ran.stdout, command).toContain('--out');
    expect(ran.stdout, command).not.toContain('npm run');
  }
  const npm = await npmScript('load:compare', ['--help']);
  expect(npm.stdout).toMatch(/^usage: npm run load:compare -- \[RUN\]/);
  expect(npm.stdout).not.toMatch(/\bwfcheck load\b/);
});
