/**
 * Starts an implementation of the specification written by someone who never saw the harness, as a
 * legal-variance target: every must failure the harness reports against one is either a deviation its
 * CHOICES.md documents (and its REVIEW.md, the independent review, confirms), or a defect of the harness.
 *
 * Five stacks: Go and Python with their standard libraries, and the stacks vendors use — Spring Boot
 * (Kotlin, Tomcat, JPA), NestJS (Express, class-validator, TypeORM) and Django REST framework (gunicorn).
 * Each runs on a free loopback port with fresh random keys, at a chosen speed (1 = the durations its
 * author chose; 0.05 makes the Go one's slow workflow take about a second), and says it is ready with
 * one line, `listening http://127.0.0.1:PORT/v1`.
 *
 * The three framework stacks build into a copy of their sources under the repository's .cache folder
 * (Maven's repository, node_modules, the virtualenv stay out of the tree), made again when a source
 * file changes; their `run.sh` builds what is missing and starts the server. The Go one is built once
 * into .cache too.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type IndependentKind = 'go' | 'python' | 'spring' | 'nest' | 'django';

/** Every implementation, in the order reports list them. */
export const INDEPENDENT_KINDS: readonly IndependentKind[] = ['go', 'python', 'spring', 'nest', 'django'];

/**
 * The speed the harness's own tests run each at: the standard-library ones at 1/20 (their slow workflow
 * then takes about a second), the framework ones at 1/4 (their longest takes 1.5 to 3 s, still long
 * enough to be aborted after a poll, the others well under a second).
 */
export const TEST_SPEED: Record<IndependentKind, number> = {
  go: 0.05,
  python: 0.05,
  spring: 0.25,
  nest: 0.25,
  django: 0.25,
};

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
const cache = join(root, '.cache', 'independent');

interface Stack {
  /** What it is built with, in a few words (for reports and skips). */
  stack: string;
  /** Commands whose absence means it cannot run here, each with the arguments that print a version. */
  tools: [string, string[]][];
  /** How long its start may take on a busy machine, building included when nothing is built yet. */
  startMs: number;
}

export const STACKS: Record<IndependentKind, Stack> = {
  go: { stack: 'Go, standard library', tools: [['go', ['version']]], startMs: 120_000 },
  python: { stack: 'Python, standard library', tools: [['python3', ['--version']]], startMs: 30_000 },
  spring: {
    stack: 'Kotlin, Spring Boot 3.5 on Tomcat, JPA with H2',
    tools: [
      ['java', ['-version']],
      ['mvn', ['-v']],
    ],
    startMs: 600_000,
  },
  nest: {
    stack: 'TypeScript, NestJS 12 on Express 5, class-validator, TypeORM with better-sqlite3',
    tools: [['npm', ['--version']]],
    startMs: 600_000,
  },
  django: {
    stack: 'Python, Django 5.2 with Django REST framework, SQLite, gunicorn',
    tools: [['python3', ['-c', 'import venv']]],
    startMs: 300_000,
  },
};

/** Why an implementation cannot be started on this machine (its toolchain is missing), or undefined. */
export function independentMissing(kind: IndependentKind): string | undefined {
  for (const [tool, args] of STACKS[kind].tools) {
    const probe = spawnSync(tool, args, { encoding: 'utf8' });
    if (probe.status !== 0)
      return `${tool} is not installed: the ${kind} implementation (${STACKS[kind].stack}) cannot run`;
  }
  return undefined;
}

/** The files of a source folder (build outputs of earlier in-tree runs left out), sorted, for a content hash. */
function sourceFiles(dir: string): string[] {
  const skip = new Set(['node_modules', 'dist', 'target', '.venv', '.m2', 'var', '__pycache__']);
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return skip.has(e.name) ? [] : sourceFiles(path);
      return e.isFile() ? [path] : [];
    })
    .sort();
}

function sourceHash(dir: string): string {
  const hash = createHash('sha256');
  for (const f of sourceFiles(dir)) hash.update(relative(dir, f)).update(readFileSync(f));
  return hash.digest('hex').slice(0, 12);
}

/** Builds the Go implementation when its sources changed since the last build; returns the binary. */
function goBinary(): string {
  const src = join(here, 'go');
  const out = join(cache, `wfserver-${sourceHash(src)}`);
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

/** A copy of a framework stack's sources under .cache, made when its sources changed; its run.sh builds in it. */
export function builtCopy(kind: 'spring' | 'nest' | 'django'): string {
  const src = join(here, kind);
  const dir = join(cache, `${kind}-${sourceHash(src)}`);
  if (!existsSync(join(dir, 'run.sh'))) {
    mkdirSync(dir, { recursive: true });
    for (const f of sourceFiles(src)) {
      const to = join(dir, relative(src, f));
      mkdirSync(dirname(to), { recursive: true });
      cpSync(f, to);
      if (statSync(f).mode & 0o111) spawnSync('chmod', ['+x', to]);
    }
  }
  return dir;
}

function command(kind: IndependentKind, speed: number): { program: string; args: string[]; cwd?: string } {
  const port = ['--port', '0', '--speed', String(speed)];
  if (kind === 'go') return { program: goBinary(), args: ['-port', '0', '-speed', String(speed)] };
  if (kind === 'python') return { program: 'python3', args: [join(here, 'python', 'server.py'), ...port] };
  const dir = builtCopy(kind);
  return { program: 'bash', args: [join(dir, 'run.sh'), ...port], cwd: dir };
}

function waitForListening(child: ChildProcess, kind: IndependentKind): Promise<string> {
  const { startMs } = STACKS[kind];
  return new Promise((resolveUrl, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`the ${kind} implementation did not start within ${startMs / 1000} s: ${err}`)),
      startMs,
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

/** Stops the implementation and every process it started (a run.sh, its JVM or gunicorn and their workers). */
function stopGroup(child: ChildProcess): Promise<void> {
  return new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    const kill = (signal: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    child.once('exit', () => done());
    kill('SIGTERM');
    setTimeout(() => kill('SIGKILL'), 5_000).unref();
  });
}

export async function startIndependent(
  kind: IndependentKind,
  options: { speed?: number } = {},
): Promise<IndependentTarget> {
  const apiKey = `wfk_A_${randomBytes(16).toString('hex')}`;
  const apiKeyB = `wfk_B_${randomBytes(16).toString('hex')}`;
  const { program, args, cwd } = command(kind, options.speed ?? 0.05);
  const child = spawn(program, args, {
    cwd,
    env: {
      ...process.env,
      WF_KEY_A: apiKey,
      WF_KEY_B: apiKeyB,
      // One Maven repository for every build of the Spring one: its dependencies are fetched once.
      WF_MAVEN_REPO: join(cache, 'm2'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: stopping it stops what its run.sh started.
    detached: true,
  });
  try {
    const baseUrl = await waitForListening(child, kind);
    return { kind, baseUrl, apiKey, apiKeyB, stop: () => stopGroup(child) };
  } catch (err) {
    await stopGroup(child);
    throw err;
  }
}
