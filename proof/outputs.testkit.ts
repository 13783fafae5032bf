/**
 * What the tests of a run's outputs share: the installed command (`bin/wfcheck.mjs`) started in a folder
 * of the user's, as a user starts it, with a hook on every line it prints and its process group in hand
 * (to kill it in a chosen phase); the hashes of a folder's files, to show a user's files byte-identical.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inheritedEnvironment } from '../core/settings/child-environment.ts';
import { REPO_ROOT } from './conformance-run.ts';

export const WFCHECK = join(REPO_ROOT, 'bin', 'wfcheck.mjs');

export interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** stdout and stderr as they came. */
  output: string;
}

export interface Started {
  child: ChildProcess;
  done: Promise<Ran>;
  /** Signals the command's whole process group (the command, its run, a target it booted). */
  killGroup(signal: NodeJS.Signals): void;
}

/** The command's environment: the test's, without a target or seed of its own, plus `env`. */
export function commandEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...inheritedEnvironment(), FORCE_COLOR: '0', WFCHECK_CACHE_DIR: 'off' };
  for (const name of ['BASE_URL', 'API_KEY', 'API_KEY_B', 'SEED', 'WFCHECK_OUT_DIR', 'WFCHECK_TARGET_BOOT'])
    delete base[name];
  for (const [k, v] of Object.entries(env)) if (v !== undefined) base[k] = v;
  return base;
}

/** `wfcheck <args>` in `cwd`, in a process group of its own; `onLine` hears every line it prints. */
export function startWfcheck(
  args: string[],
  o: { cwd: string; env: NodeJS.ProcessEnv; onLine?: (line: string, started: Started) => void; killAfterMs?: number },
): Started {
  const child = spawn(process.execPath, [WFCHECK, ...args], {
    cwd: o.cwd,
    env: o.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // Gone already.
    }
  };
  let output = '';
  let partial = '';
  const started: Started = { child, killGroup, done: undefined as unknown as Promise<Ran> };
  const hear = (chunk: Buffer) => {
    output += chunk;
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) o.onLine?.(line, started);
  };
  child.stdout!.on('data', hear);
  child.stderr!.on('data', hear);
  const backstop = setTimeout(() => killGroup('SIGKILL'), o.killAfterMs ?? 180_000);
  started.done = new Promise((done) =>
    child.on('close', (code, signal) => {
      clearTimeout(backstop);
      done({ code, signal, output });
    }),
  );
  return started;
}

/** Each file under `root` (but those `skip` names) with the hash of its bytes. */
export function hashTree(root: string, skip: (rel: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${entry.name}` : entry.name;
      if (skip(r)) continue;
      if (entry.isDirectory()) walk(r);
      else
        out[r] = createHash('sha256')
          .update(readFileSync(join(root, r)))
          .digest('hex');
    }
  };
  walk('');
  return out;
}

/** Files of the user's own in a folder that is about to be given as --out: some where a run writes. */
export function plantUserFiles(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

/** Resolves once `ready` holds, polling; rejects after `ms`. */
export async function waitFor(ready: () => boolean, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > until) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Whether any process of the group is alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
