/**
 * The harness runs as a container image (`npm run harness:image`, image/Dockerfile): `docker run …
 * wfcheck conformance` boots the reference target inside the container as a local process and passes,
 * `-e BASE_URL -e API_KEY` points it at a target outside, `load --profile smoke` runs the k6 inside,
 * and every report lands in the mounted folder, owned by the user the container runs as. No key is in
 * the image: neither the reference target's fixture keys nor what the building shell held in API_KEY,
 * in its history or in any of its files. The figures (image size, build time, containerised run wall
 * times) are printed and attached to the tests.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { PACKAGE_ROOT } from '../core/settings/roots.ts';
import type { ConformanceReport } from '../core/findings/build-report.ts';
import { loadSeed } from '../fixtures/reference/seed.ts';
import { startTarget } from '../fixtures/reference/server.ts';

test.describe.configure({ mode: 'serial' });

const VERSION = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const IMAGE = `wfcheck:${VERSION}`;
const FIXTURE_KEYS = (
  JSON.parse(readFileSync(join(PACKAGE_ROOT, 'fixtures', 'reference', 'seed.json'), 'utf8')) as {
    tenants: { apiKey: string }[];
  }
).tenants.map((t) => t.apiKey);
/**
 * Keys the building shell holds, as a user's may: they must not reach the image. Fixed, so that an
 * image reused from an earlier build by this test was built with them too.
 */
const BUILD_SHELL_KEYS = { API_KEY: 'wfk_buildshell_5d1e0c7a9b3f4e2d', API_KEY_B: 'wfk_buildshell_8a6c4e2b0d9f7153' };
/** Found in the image's files (the reference target's seed, keys emptied): proves the scan reads them. */
const PRESENT_IN_FILES = 'c_acme_market_research';

interface Ran {
  code: number | null;
  output: string;
  ms: number;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Ran> {
  const started = Date.now();
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: PACKAGE_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d));
    child.stderr.on('data', (d: Buffer) => (output += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, output, ms: Date.now() - started }));
  });
}

/** Which of `needles` occur in the stream `docker save` writes (layer tars, configs, history). */
function foundInSavedImage(image: string, needles: string[]): Promise<Set<string>> {
  const wanted = needles.map((n) => Buffer.from(n));
  const overlap = Math.max(...wanted.map((n) => n.length)) - 1;
  const found = new Set<string>();
  return new Promise((done, fail) => {
    const child = spawn('docker', ['save', image], { stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = Buffer.alloc(0);
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const window = Buffer.concat([tail, chunk]);
      wanted.forEach((n, i) => {
        if (window.includes(n)) found.add(needles[i]);
      });
      tail = window.subarray(Math.max(0, window.length - overlap));
    });
    child.stderr.on('data', (d: Buffer) => (errors += d));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(found) : fail(new Error(`docker save failed: ${errors}`))));
  });
}

/**
 * The uid:gid the container runs as, as `--user "$(id -u):$(id -g)"` gives it. Run as root, that would
 * be 0:0, which can write anywhere and proves nothing about ownership: a stand-in uid, absent from the
 * image's /etc/passwd like most callers' uids, takes its place, owning the folder as a caller would.
 */
function caller(): { uid: number; gid: number } {
  const uid = process.getuid?.() ?? 0;
  return uid === 0 ? { uid: 4321, gid: 4321 } : { uid, gid: process.getgid?.() ?? uid };
}

function reportsFolder(owner: { uid: number; gid: number }): string {
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-image-reports-'));
  if (process.getuid?.() === 0) chownSync(dir, owner.uid, owner.gid);
  return dir;
}

/** Every path under `dir` whose owner is not `owner`. */
function ownedByOthers(dir: string, owner: { uid: number; gid: number }): string[] {
  const others: string[] = [];
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      const s = statSync(path);
      if (s.uid !== owner.uid || s.gid !== owner.gid) others.push(`${path} (${s.uid}:${s.gid})`);
      if (entry.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return others;
}

/** `docker run` as the README gives it; `env` is passed by name (`-e NAME`), as from a user's shell. */
function dockerRun(
  reports: string,
  owner: { uid: number; gid: number },
  args: string[],
  env: Record<string, string> = {},
): Promise<Ran> {
  const names = Object.keys(env).flatMap((name) => ['-e', name]);
  const user = `${owner.uid}:${owner.gid}`;
  return run(
    'docker',
    ['run', '--rm', '--network', 'host', '--user', user, ...names, '-v', `${reports}:/work/reports`, IMAGE, ...args],
    { ...process.env, ...env },
  );
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

test.beforeAll(async () => {
  const engine = await run('docker', ['version', '--format', '{{.Server.Version}}']).catch((err: Error) => ({
    code: 1,
    output: err.message,
    ms: 0,
  }));
  test.skip(
    engine.code !== 0,
    `no Docker engine reachable (${engine.output.trim().split('\n')[0]}): the harness image cannot be built or run`,
  );
});

test(
  'npm run harness:image builds wfcheck with no key in its history or files',
  { tag: '@container' },
  async ({}, testInfo) => {
    test.setTimeout(20 * 60_000);
    const built = await run('npm', ['run', '-s', 'harness:image'], { ...process.env, ...BUILD_SHELL_KEYS });
    expect(built.code, built.output.slice(-6000)).toBe(0);
    const how = /^(built|reused) /m.exec(built.output)?.[1];
    const size = Number((await run('docker', ['image', 'inspect', '--format', '{{.Size}}', IMAGE])).output.trim());
    for (const line of [
      `image ${IMAGE}: ${(size / 1e6).toFixed(0)} MB`,
      `npm run harness:image: ${seconds(built.ms)} (${how})`,
      ...built.output.split('\n').filter((l) => /^(installed in|docker build took)/.test(l)),
    ]) {
      console.log(line);
      testInfo.annotations.push({ type: 'figure', description: line });
    }

    const version = await run('docker', ['run', '--rm', '--network', 'host', IMAGE, '--version']);
    expect(version.output.trim(), 'the entrypoint is wfcheck').toBe(VERSION);
    const k6 = await run('docker', [
      'run',
      '--rm',
      '--network',
      'host',
      '--entrypoint',
      '/usr/local/bin/k6',
      IMAGE,
      'version',
    ]);
    expect(k6.output, 'the k6 the harness found or built').toMatch(/^k6 v\d/);
    const config = JSON.parse(
      (await run('docker', ['image', 'inspect', '--format', '{{json .Config}}', IMAGE])).output,
    ) as { User: string; WorkingDir: string; Env: string[] };
    expect(config.User, 'not root by default').toBe('node');
    expect(config.WorkingDir).toBe('/work');
    expect(config.Env).toContain('K6_BIN=/usr/local/bin/k6');
    expect(config.Env.filter((e) => /^(BASE_URL|API_KEY|API_KEY_B)=/.test(e))).toEqual([]);

    const keys = [...FIXTURE_KEYS, ...Object.values(BUILD_SHELL_KEYS)];
    const history = await run('docker', ['history', '--no-trunc', '--format', '{{.CreatedBy}}', IMAGE]);
    expect(history.code, history.output).toBe(0);
    expect(
      keys.filter((k) => history.output.includes(k)),
      'keys in docker history',
    ).toEqual([]);
    expect(history.output, 'no key variable is set by a layer').not.toMatch(/API_KEY/);

    const found = await foundInSavedImage(IMAGE, [...keys, PRESENT_IN_FILES]);
    expect(found.has(PRESENT_IN_FILES), 'the scan of `docker save` reads the files of the layers').toBe(true);
    expect(
      keys.filter((k) => found.has(k)),
      'keys in the saved image',
    ).toEqual([]);
  },
);

test(
  'docker run … wfcheck conformance boots the reference target inside and leaves a passing report owned by the caller',
  { tag: '@container' },
  async ({}, testInfo) => {
    test.setTimeout(10 * 60_000);
    const owner = caller();
    const reports = reportsFolder(owner);
    try {
      const ran = await dockerRun(reports, owner, ['conformance']);
      const line = `containerised conformance run (reference target inside): ${seconds(ran.ms)} wall`;
      console.log(line);
      testInfo.annotations.push({ type: 'figure', description: line });
      expect(ran.code, ran.output.slice(-6000)).toBe(0);
      expect(ran.output, 'no Docker inside Docker: the target runs as a local process').toContain(
        'running the target as a local process',
      );
      expect(ran.output, 'the replay hint names the command the image runs').toMatch(
        /\(replay: wfcheck conformance --seed \d+\)/,
      );
      expect(ran.output).not.toContain('npm run');

      const report = JSON.parse(readFileSync(join(reports, 'conformance', 'report.json'), 'utf8')) as ConformanceReport;
      expect(report.exitCode).toBe(0);
      expect(report.meta.targetKind).toBe('reference');
      expect(report.meta.incomplete).toBeUndefined();
      expect(report.summary.tests.failed).toBe(0);
      expect(report.summary.tests.passed).toBeGreaterThan(0);
      expect(report.summary.findings.failures).toBe(0);
      expect(ownedByOthers(reports, owner), 'files not owned by the calling user').toEqual([]);
    } finally {
      rmSync(reports, { recursive: true, force: true });
    }
  },
);

test(
  'docker run -e BASE_URL -e API_KEY … wfcheck conformance checks a target outside the container',
  { tag: '@container' },
  async ({}, testInfo) => {
    test.setTimeout(10 * 60_000);
    // The reference target on the host, with keys made for this test.
    const seedFile = join(mkdtempSync(join(tmpdir(), 'wfcheck-image-seed-')), 'seed.json');
    const seed = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'fixtures', 'reference', 'seed.json'), 'utf8')) as {
      tenants: { name: string; apiKey: string }[];
    };
    for (const t of seed.tenants) t.apiKey = `wfk_${t.name}_${randomBytes(16).toString('hex')}`;
    writeFileSync(seedFile, JSON.stringify(seed));
    const target = await startTarget({ seed: loadSeed(seedFile) });
    const owner = caller();
    const reports = reportsFolder(owner);
    try {
      const ran = await dockerRun(reports, owner, ['conformance'], {
        BASE_URL: target.baseUrl,
        API_KEY: seed.tenants[0].apiKey,
        API_KEY_B: seed.tenants[1].apiKey,
      });
      const line = `containerised conformance run (target given by BASE_URL): ${seconds(ran.ms)} wall`;
      console.log(line);
      testInfo.annotations.push({ type: 'figure', description: line });
      expect(ran.code, ran.output.slice(-6000)).toBe(0);
      const report = JSON.parse(readFileSync(join(reports, 'conformance', 'report.json'), 'utf8')) as ConformanceReport;
      expect(report.exitCode).toBe(0);
      expect(report.meta.targetKind).toBe('external');
      expect(report.meta.baseUrl).toBe(target.baseUrl);
      expect(ownedByOthers(reports, owner), 'files not owned by the calling user').toEqual([]);
    } finally {
      await target.close();
      rmSync(reports, { recursive: true, force: true });
      rmSync(seedFile, { force: true });
    }
  },
);

test(
  'docker run … wfcheck load --profile smoke runs the k6 inside the image and gates on the SLOs',
  { tag: '@container' },
  async ({}, testInfo) => {
    test.setTimeout(10 * 60_000);
    const owner = caller();
    const reports = reportsFolder(owner);
    try {
      const ran = await dockerRun(reports, owner, ['load', '--profile', 'smoke']);
      const line = `containerised load smoke run (reference target inside): ${seconds(ran.ms)} wall`;
      console.log(line);
      testInfo.annotations.push({ type: 'figure', description: line });
      expect(ran.code, ran.output.slice(-6000)).toBe(0);
      expect(ran.output).toContain('VERDICT: PASS');
      const runs = readdirSync(join(reports, 'load')).filter((d) => d.endsWith('-smoke'));
      expect(runs).toHaveLength(1);
      const summary = JSON.parse(readFileSync(join(reports, 'load', runs[0], 'report.json'), 'utf8')) as {
        passed: boolean;
      };
      expect(summary.passed).toBe(true);
      expect(ownedByOthers(reports, owner), 'files not owned by the calling user').toEqual([]);
    } finally {
      rmSync(reports, { recursive: true, force: true });
    }
  },
);

test('a mounted reports folder the container cannot write to is refused up front, naming --user', {
  tag: '@container',
}, async () => {
  const reports = mkdtempSync(join(tmpdir(), 'wfcheck-image-reports-'));
  // Nobody but root may write there: the image's default user (node) cannot.
  chmodSync(reports, 0o555);
  try {
    const ran = await run('docker', [
      'run',
      '--rm',
      '--network',
      'host',
      '-v',
      `${reports}:/work/reports`,
      IMAGE,
      'conformance',
    ]);
    expect(ran.code, ran.output).toBe(2);
    expect(ran.output).toContain('--user "$(id -u):$(id -g)"');
    expect(readdirSync(reports)).toEqual([]);
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
});
