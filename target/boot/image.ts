/**
 * Builds the reference target's Docker image: `npm run target:image`.
 *
 * 1. Bundles target/main.ts with esbuild into one target.mjs (fastify and all deps inside).
 * 2. Ensures the base image: BASE_IMAGE if set (e.g. node:22-slim), else local/node-base:<major>, which
 *    is assembled from the Node running this (its major) and the libraries it links (no registry needed).
 * 3. Tags the image with a hash of its inputs (bundle, seed, Dockerfile, base image id) and builds
 *    it only when no image with that tag exists. Build output is shown when the build fails.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';

const run = promisify(execFile);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TARGET_DIR = join(ROOT, 'target');
/** The Node that runs the harness, and the base image assembled from it: the image runs the same major. */
const HOST_NODE = process.execPath;
export const LOCAL_BASE_IMAGE = `local/node-base:${process.versions.node.split('.')[0]}`;
export const IMAGE_REPOSITORY = 'wfcheck-target';

export interface ImageOptions {
  /** Base image; default env BASE_IMAGE, else local/node-base:<major> (assembled if missing). */
  baseImage?: string;
  log?: (line: string) => void;
}

/** Returns the tag of an up-to-date target image, building what is missing. */
export async function ensureTargetImage(options: ImageOptions = {}): Promise<{ tag: string; built: boolean }> {
  const log = options.log ?? (() => {});
  const baseImage = options.baseImage ?? process.env.BASE_IMAGE ?? LOCAL_BASE_IMAGE;
  // A context directory per call: concurrent boots (parallel test workers) must not share one. In the
  // system's temporary folder: an installed harness may not write into its own package.
  const contextDir = mkdtempSync(join(tmpdir(), 'wfcheck-target-image-'));
  try {
    return await buildInContext(contextDir, baseImage, log);
  } finally {
    rmSync(contextDir, { recursive: true, force: true });
  }
}

async function buildInContext(
  CONTEXT_DIR: string,
  baseImage: string,
  log: (line: string) => void,
): Promise<{ tag: string; built: boolean }> {
  await prepareContext(CONTEXT_DIR);
  let baseId = await imageId(baseImage);
  if (!baseId) {
    if (baseImage !== LOCAL_BASE_IMAGE) {
      throw new Error(
        `base image ${baseImage} is not present locally; pull it first or unset BASE_IMAGE to use ${LOCAL_BASE_IMAGE}`,
      );
    }
    log(`assembling ${LOCAL_BASE_IMAGE} from the host's ${HOST_NODE}`);
    await assembleLocalBase();
    baseId = await imageId(baseImage);
    if (!baseId) throw new Error(`${LOCAL_BASE_IMAGE} was imported but cannot be found`);
  }
  const hash = createHash('sha256');
  for (const file of ['Dockerfile', 'target.mjs', 'seed.json'])
    hash.update(file).update(readFileSync(join(CONTEXT_DIR, file)));
  hash.update(baseImage).update(baseId);
  const digest = hash.digest('hex').slice(0, 16);
  const tag = `${IMAGE_REPOSITORY}:${digest}`;
  if (await imageId(tag)) {
    log(`image ${tag} is up to date`);
    return { tag, built: false };
  }
  log(`building ${tag} from ${baseImage}`);
  const args = [
    'build',
    '--build-arg',
    `BASE_IMAGE=${baseImage}`,
    '--label',
    `wfcheck.inputs=${digest}`,
    '-t',
    tag,
    '-t',
    `${IMAGE_REPOSITORY}:latest`,
    CONTEXT_DIR,
  ];
  const result = await spawnCollect('docker', args);
  if (result.code !== 0) {
    throw new Error(`docker ${args.join(' ')} failed (exit ${result.code}):\n${result.output}`);
  }
  return { tag, built: true };
}

/** Bundle + seed + Dockerfile into the docker build context. */
async function prepareContext(CONTEXT_DIR: string): Promise<void> {
  await build({
    entryPoints: [join(TARGET_DIR, 'main.ts')],
    outfile: join(CONTEXT_DIR, 'target.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    legalComments: 'none',
    // CommonJS dependencies (fastify, busboy) call require(): give the ESM bundle one.
    banner: {
      js: "import { createRequire as __wfcheckCreateRequire } from 'node:module'; const require = __wfcheckCreateRequire(import.meta.url);",
    },
  });
  copyFileSync(join(TARGET_DIR, 'seed.json'), join(CONTEXT_DIR, 'seed.json'));
  copyFileSync(join(TARGET_DIR, 'Dockerfile'), join(CONTEXT_DIR, 'Dockerfile'));
}

async function imageId(ref: string): Promise<string | undefined> {
  try {
    const { stdout } = await run('docker', ['image', 'inspect', '--format', '{{.Id}}', ref]);
    return stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A minimal rootfs: the host's node at /usr/bin/node, the libraries `ldd` lists (same paths), a node user, /tmp 1777. */
async function assembleLocalBase(): Promise<void> {
  const rootfs = mkdtempSync(join(tmpdir(), 'wfcheck-node-base-'));
  try {
    const { stdout } = await run('ldd', [HOST_NODE]);
    const libs = [...stdout.matchAll(/(\/\S+)\s+\(0x/g)].map((m) => m[1]!);
    mkdirSync(join(rootfs, 'usr/bin'), { recursive: true });
    copyFileSync(HOST_NODE, join(rootfs, 'usr/bin/node'));
    for (const file of libs) {
      mkdirSync(join(rootfs, dirname(file)), { recursive: true });
      copyFileSync(file, join(rootfs, file)); // follows symlinks: the real library lands at the linked name
    }
    mkdirSync(join(rootfs, 'etc'), { recursive: true });
    writeFileSync(
      join(rootfs, 'etc/passwd'),
      'root:x:0:0:root:/root:/sbin/nologin\nnode:x:1000:1000:node:/home/node:/sbin/nologin\n',
    );
    writeFileSync(join(rootfs, 'etc/group'), 'root:x:0:\nnode:x:1000:\n');
    mkdirSync(join(rootfs, 'home/node'), { recursive: true });
    mkdirSync(join(rootfs, 'tmp'), { recursive: true });
    chmodSync(join(rootfs, 'tmp'), 0o1777);
    mkdirSync(join(rootfs, 'app'), { recursive: true });
    const script = `tar --numeric-owner --owner=0 --group=0 -C "$1" -c . | docker import --change 'ENV PATH=/usr/bin:/bin' --change 'WORKDIR /app' --change 'CMD ["/usr/bin/node"]' - "$2"`;
    const result = await spawnCollect('bash', ['-c', script, 'assemble', rootfs, LOCAL_BASE_IMAGE]);
    if (result.code !== 0) throw new Error(`importing ${LOCAL_BASE_IMAGE} failed:\n${result.output}`);
  } finally {
    rmSync(rootfs, { recursive: true, force: true });
  }
}

function spawnCollect(command: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? 1, output }));
  });
}
