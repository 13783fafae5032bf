/**
 * Work done once per run and shared by every test worker: the first worker to claim it computes the
 * value and writes it to a file; the others wait for that file. Workers are child processes of one
 * test runner, so the runner's pid names the run.
 *
 * Discovery uses it: four workers each paging through a crowded account would quadruple the load
 * the harness puts on the target, and could each see a listing that moved in between. The operations
 * that faulted (faults-seen.ts) are named the same way, so no worker waits for one another worker saw fail.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The path, without extension, of a file `name` that every worker of this run shares in `dir`. */
export function runFileStem(dir: string, name: string): string {
  return join(dir, `${name}-run${process.ppid}`);
}

export async function oncePerRun<T>(dir: string, name: string, compute: () => Promise<T>, waitMs: number): Promise<T> {
  mkdirSync(dir, { recursive: true });
  const stem = runFileStem(dir, name);
  const result = `${stem}.json`;
  const lock = `${stem}.lock`;
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (existsSync(result)) return JSON.parse(readFileSync(result, 'utf8')) as T;
    let claimed = false;
    try {
      closeSync(openSync(lock, 'wx'));
      claimed = true;
    } catch {
      // Another worker holds it.
    }
    if (claimed) {
      try {
        const value = await compute();
        writeFileSync(`${result}.tmp`, JSON.stringify(value));
        // A rename, so a waiting worker never reads half a file.
        renameSync(`${result}.tmp`, result);
        return value;
      } finally {
        // On failure the lock goes too, and a waiting worker computes it itself.
        rmSync(lock, { force: true });
      }
    }
    // The worker computing it may have died: past the wait, compute here rather than hang.
    if (Date.now() > deadline) return compute();
    await sleep(100);
  }
}
