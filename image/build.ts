/**
 * Builds the harness's container image, `wfcheck:<version>` and `wfcheck:latest`: `npm run harness:image`.
 *
 * 1. Packs the harness (`npm pack`) and installs the tarball, as a user would, into a project in a
 *    staging folder, with its runtime dependencies only. better-sqlite3 compiles there, on the host:
 *    the local base image has no shell or compiler. The base must therefore run the host's Node (same
 *    module ABI) on a glibc at least as new as the host's; that is checked before anything is built.
 * 2. Replaces the reference target's seed by a link to a file the entrypoint writes at run time with
 *    fresh keys, and keeps the seed's keyless remainder beside it: no key lands in any layer.
 * 3. Adds the k6 it is given (the command passes the harness's own build, load/node/ensure-k6.ts) and
 *    image/entrypoint.mjs.
 * 4. Builds image/Dockerfile on BASE_IMAGE (default local/node-base:<major>, assembled from the host's node
 *    when missing), labelled with a digest of its inputs: an image with the same digest is reused.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ensureTargetImage, LOCAL_BASE_IMAGE } from '../fixtures/reference/boot/image.ts';
import { inheritedEnvironment } from '../core/settings/child-environment.ts';
import type { OptionValues } from '../core/settings/command.ts';
import { PACKAGE_ROOT } from '../core/settings/roots.ts';
import { text } from '../core/settings/rules.ts';
import { ensureK6 } from '../load/node/ensure-k6.ts';

const run = promisify(execFile);

export const HARNESS_IMAGE = 'wfcheck';
const IMAGE_DIR = join(PACKAGE_ROOT, 'image');
/** Inside the image: the project the harness is installed into, and where k6 lies. */
const INSTALL_DIR = 'opt/wfcheck';
/** The per-run seed the entrypoint writes; the package's fixtures/reference/seed.json links to it. */
const RUN_SEED = '/tmp/wfcheck-target-seed.json';
const INPUTS_LABEL = 'wfcheck.inputs';

export interface HarnessImageOptions {
  /** The k6 binary to put in the image (it must run on the base: linked against its glibc or static). */
  k6: string;
  /** Base image; default local/node-base:<major> (assembled from the host's node if missing). */
  baseImage?: string;
  /** Build even when an image with the same inputs exists. */
  rebuild?: boolean;
  log?: (line: string) => void;
}

export interface HarnessImage {
  /** wfcheck:<version>. */
  tag: string;
  /** Every tag the image carries. */
  tags: string[];
  built: boolean;
  /** Wall time of this call, packing and installing included. */
  ms: number;
  sizeBytes: number;
}

export async function ensureHarnessImage(options: HarnessImageOptions): Promise<HarnessImage> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const baseImage = options.baseImage ?? LOCAL_BASE_IMAGE;
  const version = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const tag = `${HARNESS_IMAGE}:${version}`;
  const tags = [tag, `${HARNESS_IMAGE}:latest`];

  const baseId = await ensureBase(baseImage, log);
  await assertBaseRunsHostModules(baseImage);
  const { k6 } = options;

  const staging = mkdtempSync(join(tmpdir(), 'wfcheck-harness-image-'));
  try {
    const tarball = await pack(staging);
    const hash = createHash('sha256');
    for (const file of [
      join(IMAGE_DIR, 'Dockerfile'),
      join(IMAGE_DIR, 'entrypoint.mjs'),
      fileURLToPath(import.meta.url),
      tarball,
      k6,
    ])
      hash.update(readFileSync(file));
    const digest = hash.update(baseImage).update(baseId).update(process.version).digest('hex').slice(0, 16);

    if (!options.rebuild && (await label(tag, INPUTS_LABEL)) === digest) {
      log(`${tag} is up to date (inputs ${digest})`);
      await docker(['tag', tag, tags[1]]);
      return { tag, tags, built: false, ms: Date.now() - started, sizeBytes: await sizeOf(tag) };
    }

    const context = join(staging, 'context');
    const project = join(context, INSTALL_DIR);
    mkdirSync(project, { recursive: true });
    log(`installing ${tarball.split('/').pop()} with its runtime dependencies (better-sqlite3 compiles: minutes)`);
    const installing = Date.now();
    await install(tarball, project);
    log(`installed in ${seconds(Date.now() - installing)}`);
    stripSeedKeys(project);
    copyFileSync(join(IMAGE_DIR, 'entrypoint.mjs'), join(project, 'entrypoint.mjs'));
    copyFileSync(join(IMAGE_DIR, 'Dockerfile'), join(context, 'Dockerfile'));
    copyFileSync(k6, join(context, 'k6'));
    chmodSync(join(context, 'k6'), 0o755);

    log(`building ${tag} from ${baseImage}`);
    const previous = await imageId(tag);
    const building = Date.now();
    await docker([
      'build',
      // An engine started without a bridge network (--bridge=none) has none to give the one RUN step,
      // which needs no network anyway.
      '--network',
      'host',
      '--build-arg',
      `BASE_IMAGE=${baseImage}`,
      '--label',
      `${INPUTS_LABEL}=${digest}`,
      '--label',
      `org.opencontainers.image.version=${version}`,
      ...tags.flatMap((t) => ['-t', t]),
      context,
    ]);
    log(`docker build took ${seconds(Date.now() - building)}`);
    // The image the tags left: removed, or every rebuild would keep a few hundred MB behind. Refused
    // (and kept) while a container or another tag still uses it.
    if (previous && previous !== (await imageId(tag))) await run('docker', ['rmi', previous]).catch(() => undefined);
    return { tag, tags, built: true, ms: Date.now() - started, sizeBytes: await sizeOf(tag) };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The base image's id, assembling local/node-base:<major> when it is the base and missing. */
async function ensureBase(baseImage: string, log: (line: string) => void): Promise<string> {
  let id = await imageId(baseImage);
  if (!id && baseImage === LOCAL_BASE_IMAGE) {
    // The target's image build owns the assembly of the shared base; it reuses its own image when current.
    await ensureTargetImage({ baseImage, log });
    id = await imageId(baseImage);
  }
  if (!id) throw new Error(`base image ${baseImage} is not present locally; pull it first`);
  return id;
}

/**
 * The modules installed on the host run in the base: the same Node module ABI and architecture, and a
 * glibc no older than the host's (native modules link against the host's).
 */
async function assertBaseRunsHostModules(baseImage: string): Promise<void> {
  const probe =
    'const h = process.report.getReport().header; console.log(JSON.stringify({ modules: process.versions.modules, arch: process.arch, glibc: h.glibcVersionRuntime ?? null }))';
  const { stdout } = await run('docker', [
    'run',
    '--rm',
    '--network',
    'host',
    '--entrypoint',
    'node',
    baseImage,
    '-e',
    probe,
  ]).catch((err: Error & { stderr?: string }) => {
    throw new Error(`cannot run node in ${baseImage}: ${err.stderr || err.message}`);
  });
  const base = JSON.parse(stdout) as { modules: string; arch: string; glibc: string | null };
  const hostGlibc = (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header
    .glibcVersionRuntime;
  const older = (a: string, b: string) => {
    const [x, y] = [a, b].map((v) => v.split('.').map(Number));
    return x[0] < y[0] || (x[0] === y[0] && (x[1] ?? 0) < (y[1] ?? 0));
  };
  const problems = [
    process.platform !== 'linux' && `the host is ${process.platform}: the modules it compiles cannot run on Linux`,
    base.modules !== process.versions.modules &&
      `its Node has module ABI ${base.modules}, the host's ${process.versions.modules} (use the same Node major)`,
    base.arch !== process.arch && `it is ${base.arch}, the host ${process.arch}`,
    hostGlibc && !base.glibc && 'it has no glibc (a musl image such as alpine cannot load modules built here)',
    hostGlibc &&
      base.glibc &&
      older(base.glibc, hostGlibc) &&
      `its glibc ${base.glibc} is older than the host's ${hostGlibc}`,
  ].filter(Boolean);
  if (problems.length)
    throw new Error(
      `the harness's native modules are built on this host and cannot run in ${baseImage}: ${problems.join('; ')}`,
    );
}

/** `npm pack` of the repository into `dir`; the tarball's path. */
async function pack(dir: string): Promise<string> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], {
    cwd: PACKAGE_ROOT,
    env: userEnvironment(),
    maxBuffer: 64 * 1024 * 1024,
  });
  const [{ filename }] = JSON.parse(stdout) as { filename: string }[];
  return join(dir, filename);
}

/** The tarball installed as a user would (`npm install`), without development dependencies. */
async function install(tarball: string, project: string): Promise<void> {
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'wfcheck-image', version: '0.0.0', private: true }, null, 2)}\n`,
  );
  await spawnChecked('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--no-save', tarball], project, {
    ...userEnvironment(),
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    // better-sqlite3 compiles from source at once: it would first try to download a prebuilt binary from
    // a host that machines limited to the package registries cannot reach, and wait minutes for that to fail.
    npm_config_build_from_source: 'true',
  });
}

/**
 * The installed fixtures/reference/seed.json becomes a link to the per-run seed; its content, keys emptied, is kept
 * beside the installation for the entrypoint to fill. Without the entrypoint the link leads nowhere and
 * the target refuses to boot, rather than serving keys anyone could read from the image.
 */
function stripSeedKeys(project: string): void {
  const seedFile = join(project, 'node_modules', 'wfcheck', 'fixtures', 'reference', 'seed.json');
  const seed = JSON.parse(readFileSync(seedFile, 'utf8')) as { tenants: { apiKey: string }[] };
  for (const tenant of seed.tenants) tenant.apiKey = '';
  writeFileSync(join(project, 'target-seed-without-keys.json'), `${JSON.stringify(seed, null, 2)}\n`);
  rmSync(seedFile);
  symlinkSync(RUN_SEED, seedFile);
}

/**
 * This process's environment without what npm sets for a script (npm would otherwise take the
 * repository for the project being installed into).
 */
function userEnvironment(): Record<string, string> {
  const env = inheritedEnvironment();
  for (const name of Object.keys(env))
    if (/^npm_(package|lifecycle|config_local_prefix|command)/.test(name) || name === 'INIT_CWD') delete env[name];
  return env;
}

async function imageId(ref: string): Promise<string | undefined> {
  try {
    return (await run('docker', ['image', 'inspect', '--format', '{{.Id}}', ref])).stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

async function label(ref: string, name: string): Promise<string | undefined> {
  try {
    const { stdout } = await run('docker', ['image', 'inspect', '--format', `{{index .Config.Labels "${name}"}}`, ref]);
    return stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

async function sizeOf(ref: string): Promise<number> {
  return Number((await run('docker', ['image', 'inspect', '--format', '{{.Size}}', ref])).stdout.trim());
}

function docker(args: string[]): Promise<void> {
  return spawnChecked('docker', args, PACKAGE_ROOT, inheritedEnvironment());
}

/** Runs a command, collecting its output to show when it fails. */
function spawnChecked(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', fail);
    child.on('close', (code) =>
      code === 0
        ? done()
        : fail(new Error(`${command} ${args.join(' ')} failed (exit ${code}):\n${output.slice(-8000)}`)),
    );
  });
}

export const HARNESS_IMAGE_OPTIONS = {
  'base-image': { type: 'string' },
  rebuild: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * `npm run harness:image` (scripts/build-harness-image.ts parses its command line): the harness's k6 and
 * the image of the options `values`, said on the console.
 */
export async function buildHarnessImage(values: OptionValues<typeof HARNESS_IMAGE_OPTIONS>): Promise<number> {
  // BASE_IMAGE is the variable `npm run target:image` builds its image on, passed on as the same build argument.
  const baseImage = text(values['base-image']) ?? text(inheritedEnvironment({ only: ['BASE_IMAGE'] }).BASE_IMAGE);
  const log = (line: string) => console.log(line);
  // The k6 the harness uses (load/node/ensure-k6.ts): built from its Go module when absent; K6_BIN names another.
  const k6 = await ensureK6(log);
  const image = await ensureHarnessImage({ k6, baseImage, rebuild: values.rebuild, log });
  const mb = (image.sizeBytes / 1e6).toFixed(0);
  console.log(
    `${image.built ? 'built' : 'reused'} ${image.tags.join(', ')} (${mb} MB) in ${(image.ms / 1000).toFixed(1)} s`,
  );
  return 0;
}
