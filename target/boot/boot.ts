/**
 * Boots the reference target for hermetic runs (CI, quick start, the harness's own tests).
 *
 *   npm run target [-- --mode=auto|container|process --port=N --node-duration-ms=N]
 *
 * With a reachable Docker engine it runs the target image in a container (testcontainers, host
 * network, ready on the "listening" log line); only when no engine is reachable does it run the
 * target as a local process. It says which, prints the base URL and the tenants' keys (fixture keys
 * from the seed file), and stops cleanly on Ctrl-C. `bootTarget()` is the same as an API.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SEED_FILE } from '../config.ts';
import { loadSeed } from '../seed.ts';
import { ensureTargetImage } from './image.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TARGET_MAIN = join(ROOT, 'target/main.ts');
const READY_TIMEOUT_MS = 60_000;
const CONTAINER_SEED_FILE = '/app/custom-seed.json';
const ROLE_LABEL = 'wfcheck.role';
const OWNER_LABEL = 'wfcheck.owner-pid';

export interface BootOptions {
  /** Port to listen on; default a free one. */
  port?: number;
  /** Node step duration (NODE_DURATION_MS); default the target's own (30 ms). */
  nodeDurationMs?: number;
  /** auto: container when a Docker engine is reachable, else process. */
  mode?: 'auto' | 'container' | 'process';
  /** Extra target env (TARGET_DEV, FILE_TTL_MS, EXECUTION_RETENTION, TARGET_SEED_FILE, …). */
  env?: Record<string, string>;
  /** Progress lines; default stderr. */
  log?: (line: string) => void;
}

export interface BootedTarget {
  /** Ends in /v1. */
  baseUrl: string;
  tenants: { name: string; apiKey: string }[];
  how: 'container' | 'process';
  stop(): Promise<void>;
}

export async function bootTarget(opts: BootOptions = {}): Promise<BootedTarget> {
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const env: Record<string, string> = { ...opts.env };
  if (opts.nodeDurationMs !== undefined) env.NODE_DURATION_MS = String(opts.nodeDurationMs);
  const seedFile = env.TARGET_SEED_FILE ? resolve(env.TARGET_SEED_FILE) : DEFAULT_SEED_FILE;
  // Reading the seed here fails fast on a broken file and gives the keys to print.
  const tenants = loadSeed(seedFile).tenants;

  let mode = opts.mode ?? 'auto';
  if (mode === 'auto') {
    const engine = await dockerEngine();
    if (engine.reachable) {
      mode = 'container';
    } else {
      log(`no Docker engine reachable (${engine.reason}): running the target as a local process`);
      mode = 'process';
    }
  }
  const started =
    mode === 'container'
      ? await bootContainer(opts.port, env, seedFile, log)
      : await bootProcess(opts.port, env, seedFile, log);
  await assertServing(started.baseUrl, tenants[0].apiKey).catch(async (err) => {
    await started.stop();
    throw err;
  });
  return { ...started, tenants, how: mode };
}

async function dockerEngine(): Promise<{ reachable: true } | { reachable: false; reason: string }> {
  return new Promise((done) => {
    execFile('docker', ['version', '--format', '{{.Server.Version}}'], { timeout: 10_000 }, (err, stdout, stderr) => {
      if (!err && stdout.trim()) done({ reachable: true });
      else done({ reachable: false, reason: (stderr || err?.message || 'no answer').trim().split('\n')[0] });
    });
  });
}

async function bootContainer(
  port: number | undefined,
  env: Record<string, string>,
  seedFile: string,
  log: (line: string) => void,
): Promise<Omit<BootedTarget, 'tenants' | 'how'>> {
  // testcontainers on this setup: find the engine on loopback, never pull the Ryuk reaper image.
  process.env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1';
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  const { GenericContainer, Wait } = await import('testcontainers');
  await removeOrphanedContainers(log);
  const { tag, built } = await ensureTargetImage({ log });
  const chosenPort = port ?? (await freePort());
  const containerEnv: Record<string, string> = { ...env, PORT: String(chosenPort), HOST: '127.0.0.1' };
  let container = new GenericContainer(tag)
    .withNetworkMode('host')
    .withLabels({ [ROLE_LABEL]: 'target', [OWNER_LABEL]: String(process.pid) })
    .withWaitStrategy(Wait.forLogMessage(/listening/))
    .withStartupTimeout(READY_TIMEOUT_MS);
  if (seedFile !== DEFAULT_SEED_FILE) {
    container = container.withCopyFilesToContainer([{ source: seedFile, target: CONTAINER_SEED_FILE, mode: 0o644 }]);
    containerEnv.TARGET_SEED_FILE = CONTAINER_SEED_FILE;
  }
  const started = await container.withEnvironment(containerEnv).start();
  log(`target running in a container (image ${tag}${built ? ', just built' : ''}, host network, port ${chosenPort})`);
  let stopped = false;
  return {
    baseUrl: `http://127.0.0.1:${chosenPort}/v1`,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await started.stop({ timeout: 5_000 });
    },
  };
}

/**
 * Ryuk (the testcontainers reaper) is off here, so a booting process killed without teardown leaves
 * its container running. Containers are labelled with their owner's pid; the next boot removes
 * those whose owner is gone.
 */
async function removeOrphanedContainers(log: (line: string) => void): Promise<void> {
  const listing = await new Promise<string>((done) =>
    execFile(
      'docker',
      ['ps', '--filter', `label=${ROLE_LABEL}=target`, '--format', `{{.ID}} {{.Label "${OWNER_LABEL}"}}`],
      (err, stdout) => done(err ? '' : stdout),
    ),
  );
  for (const line of listing.split('\n').filter(Boolean)) {
    const [id, owner] = line.split(' ');
    if (isAlive(Number(owner))) continue;
    log(`removing target container ${id} left behind by process ${owner}`);
    await new Promise((done) => execFile('docker', ['rm', '-f', id], done));
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function bootProcess(
  port: number | undefined,
  env: Record<string, string>,
  seedFile: string,
  log: (line: string) => void,
): Promise<Omit<BootedTarget, 'tenants' | 'how'>> {
  const child = spawn(process.execPath, ['--import', 'tsx', TARGET_MAIN], {
    cwd: ROOT,
    env: { ...process.env, ...env, TARGET_SEED_FILE: seedFile, PORT: String(port ?? 0), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const baseUrl = await readyLine(child);
  log(`target running as a local process (pid ${child.pid}, ${baseUrl})`);
  return { baseUrl, stop: () => stopProcess(child) };
}

/** Resolves with the base URL from the "listening" line; rejects with the output if the process dies first. */
function readyLine(child: ChildProcess): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`target process not ready within ${READY_TIMEOUT_MS} ms:\n${output}`));
    }, READY_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const m = /listening on (http:\/\/\S+\/v1)/.exec(output);
      if (m) {
        clearTimeout(timer);
        child.removeListener('exit', onExit);
        resolvePromise(m[1]);
      }
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`target process exited (${code}) before listening:\n${output}`));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', onExit);
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(kill);
      done();
    });
    child.kill('SIGTERM');
  });
}

/** A port free on loopback right now (the container binds it with host networking). */
function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

/** One authenticated request: the target answers on the URL we are about to hand out. */
async function assertServing(baseUrl: string, apiKey: string): Promise<void> {
  const res = await fetch(`${baseUrl}/openapi/workflows?pageSize=1`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  if (res.status !== 200)
    throw new Error(`target at ${baseUrl} answered ${res.status} to a search: ${await res.text()}`);
}
