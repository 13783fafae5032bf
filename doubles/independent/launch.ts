/**
 * Starts an implementation of the specification written by someone who never saw the harness (Go with the
 * standard library, Python with the standard library), as a legal-variance target: every must failure the
 * harness reports against one is either a deviation its CHOICES.md documents, or a defect of the harness.
 *
 * Each runs on a free loopback port with fresh random keys, at a chosen speed (1 = the durations its
 * author chose; 0.05 makes its slow workflow take about a second). The Go one is built once into the
 * repository's .cache folder, and again when a source file changes.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type IndependentKind = 'go' | 'python';

export interface IndependentTarget {
  kind: IndependentKind;
  /** Ends in /v1. */
  baseUrl: string;
  apiKey: string;
  apiKeyB: string;
  stop(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');

/** Why an implementation cannot be started on this machine (its toolchain is missing), or undefined. */
export function independentMissing(kind: IndependentKind): string | undefined {
  const tool = kind === 'go' ? 'go' : 'python3';
  const probe = spawnSync(tool, [kind === 'go' ? 'version' : '--version'], { encoding: 'utf8' });
  return probe.status === 0 ? undefined : `${tool} is not installed: the ${kind} implementation cannot run`;
}

/** Builds the Go implementation when its sources changed since the last build; returns the binary. */
function goBinary(): string {
  const src = join(here, 'go');
  const files = readdirSync(src)
    .filter((f) => f.endsWith('.go') || f === 'go.mod')
    .sort();
  const hash = createHash('sha256');
  for (const f of files) hash.update(f).update(readFileSync(join(src, f)));
  const out = join(root, '.cache', 'independent', `wfserver-${hash.digest('hex').slice(0, 12)}`);
  if (existsSync(out)) return out;
  mkdirSync(dirname(out), { recursive: true });
  const build = spawnSync('go', ['build', '-o', out, '.'], {
    cwd: src,
    encoding: 'utf8',
    env: { ...process.env, GOFLAGS: '-mod=mod', CGO_ENABLED: '0' },
  });
  if (build.status !== 0) throw new Error(`go build of the Go implementation failed:\n${build.stderr}`);
  return out;
}

function command(kind: IndependentKind, speed: number): [string, string[]] {
  if (kind === 'go') return [goBinary(), ['-port', '0', '-speed', String(speed)]];
  return ['python3', [join(here, 'python', 'server.py'), '--port', '0', '--speed', String(speed)]];
}

function waitForListening(child: ChildProcess, kind: IndependentKind): Promise<string> {
  return new Promise((resolveUrl, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`the ${kind} implementation did not start within 30 s: ${err}`)),
      30_000,
    );
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (http:\/\/\S+\/v1)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    });
    child.stderr?.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-4000);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the ${kind} implementation exited (${code}) before listening: ${err}`));
    });
  });
}

export async function startIndependent(
  kind: IndependentKind,
  options: { speed?: number } = {},
): Promise<IndependentTarget> {
  const apiKey = `wfk_A_${randomBytes(16).toString('hex')}`;
  const apiKeyB = `wfk_B_${randomBytes(16).toString('hex')}`;
  const [program, args] = command(kind, options.speed ?? 0.05);
  const child = spawn(program, args, {
    env: { ...process.env, WF_KEY_A: apiKey, WF_KEY_B: apiKeyB },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const baseUrl = await waitForListening(child, kind);
  return {
    kind,
    baseUrl,
    apiKey,
    apiKeyB,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3_000).unref();
      }),
  };
}
