/**
 * A run owns its outputs and nothing else: one run at a time in a folder, the previous run's outputs
 * cleared by its manifest alone, the user's files never replaced, removed or scrubbed (the run goes into
 * a subfolder where they stand in its way), and a run cut short leaves a folder the next run takes.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { LOCK_FILE, processStart } from './folder-lock.ts';
import { MANIFEST_FILE, readManifest } from './output-manifest.ts';
import { type FolderOptions, openOutputFolder, OutputRefused } from './output-folder.ts';
import { registerSecret } from '../settings/redact.ts';

let dir: string;
test.beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wfcheck-output-folder-'));
});
test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

const CONFORMANCE: FolderOptions = {
  mode: 'conformance',
  command: 'conformance',
  names: ['report.json', 'report.md', 'html', 'runs'],
  target: 'http://127.0.0.1:1/v1',
};

/** Each file under `root` with the hash of its bytes. */
function hashes(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
      const r = join(rel, entry.name);
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

function put(rel: string, text: string): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

/** A pid no process has any more. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim());
}

test('a run writes whole files, names them in its manifest, and frees the folder when it ends', () => {
  const folder = openOutputFolder(dir, CONFORMANCE);
  expect(folder.dir).toBe(dir);
  expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
  folder.write('report.json', '{}');
  folder.claim('runs/r1');
  put('runs/r1/evidence/w.jsonl', '{}\n');
  expect(readManifest(dir)).toMatchObject({ complete: false, paths: ['report.json', 'runs/r1'] });
  folder.finish();
  expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  expect(readManifest(dir)).toMatchObject({
    complete: true,
    runId: folder.runId,
    paths: ['report.json', 'runs/r1/evidence/w.jsonl'],
  });
  expect(readdirSync(dir).filter((n) => n.endsWith('.wfcheck-tmp'))).toEqual([]);
});

test('a second run into a folder in use is refused, naming the run that holds it', () => {
  const first = openOutputFolder(dir, CONFORMANCE);
  first.describe({ target: 'http://127.0.0.1:4242/v1 (reference, in-process)' });
  try {
    expect(() => openOutputFolder(dir, { ...CONFORMANCE, command: 'report merge' })).toThrow(OutputRefused);
    let message = '';
    try {
      openOutputFolder(dir, CONFORMANCE);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain(`pid ${process.pid}`);
    expect(message).toContain(`started ${first.startedAt}`);
    expect(message).toContain('target http://127.0.0.1:4242/v1 (reference, in-process)');
    expect(message).toContain('--out');
  } finally {
    first.release();
  }
  // Once it is free, the next run takes it.
  openOutputFolder(dir, CONFORMANCE).finish();
});

test('a later run clears what the manifest names and nothing else', () => {
  const first = openOutputFolder(dir, CONFORMANCE);
  first.write('report.json', 'first');
  first.write('html/index.html', 'first');
  first.finish();
  // The user adds files beside the run's, where the run does not write.
  put('CNAME', 'matrix.example\n');
  put('docs/notes.md', 'mine');
  const before = hashes(dir);
  const second = openOutputFolder(dir, CONFORMANCE);
  expect(second.dir).toBe(dir);
  expect(existsSync(join(dir, 'report.json'))).toBe(false);
  expect(existsSync(join(dir, 'html'))).toBe(false);
  second.write('report.md', 'second');
  second.finish();
  const after = hashes(dir);
  for (const file of ['CNAME', 'docs/notes.md']) expect(after[file], file).toBe(before[file]);
});

test("a folder holding the user's files where the run writes gets the run in a subfolder, and keeps them", () => {
  put('html/index-mine.html', '<p>mine</p>');
  put('docs/notes.md', 'mine');
  put('report.md', 'my own report');
  const before = hashes(dir);
  const said: string[] = [];
  const folder = openOutputFolder(dir, { ...CONFORMANCE, log: (l) => said.push(l) });
  expect(folder.dir).toBe(join(dir, 'wfcheck-conformance'));
  expect(said.join('\n')).toMatch(/holds files wfcheck did not write .*html\/index-mine\.html.*wfcheck-conformance/);
  folder.write('report.md', 'the run');
  folder.write('html/index.html', 'the run');
  folder.finish();
  const after = hashes(dir);
  for (const [file, hash] of Object.entries(before)) expect(after[file], file).toBe(hash);
  expect(readFileSync(join(dir, 'wfcheck-conformance', 'report.md'), 'utf8')).toBe('the run');
  // The next run goes to the same subfolder and replaces its own outputs there.
  const next = openOutputFolder(dir, CONFORMANCE);
  expect(next.dir).toBe(join(dir, 'wfcheck-conformance'));
  expect(existsSync(join(next.dir, 'report.md'))).toBe(false);
  next.finish();
});

test("where neither the folder nor its subfolder can be the run's alone, the run is refused with why", () => {
  put('report.md', 'mine');
  put('wfcheck-conformance/report.md', 'mine too');
  expect(() => openOutputFolder(dir, CONFORMANCE)).toThrow(
    /report\.md.*wfcheck-conformance.*report\.md.*name an empty or new folder with --out/,
  );
  expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  expect(existsSync(join(dir, MANIFEST_FILE))).toBe(false);
});

test("another mode's outputs are not cleared: the run writes beside them in its subfolder", () => {
  const explore = openOutputFolder(dir, { mode: 'explore', command: 'explore', names: ['report.json', 'bodies'] });
  explore.write('report.json', 'explore');
  explore.finish();
  const folder = openOutputFolder(dir, CONFORMANCE);
  expect(folder.dir).toBe(join(dir, 'wfcheck-conformance'));
  folder.finish();
  expect(readFileSync(join(dir, 'report.json'), 'utf8')).toBe('explore');
});

test('a lock left by a killed run is taken over; a live one of another host is not', () => {
  const pid = deadPid();
  const lock = (holder: object) => writeFileSync(join(dir, LOCK_FILE), JSON.stringify(holder));
  const base = { runId: 'r', command: 'conformance', startedAt: '2026-01-01T00:00:00Z', target: 't' };
  lock({ ...base, pid, host: hostname() });
  openOutputFolder(dir, CONFORMANCE).finish();
  // This very pid, but a process that started at another time: the pid was reused, the run is gone.
  lock({ ...base, pid: process.pid, pidStart: `${Number(processStart(process.pid) ?? 0) + 1}`, host: hostname() });
  openOutputFolder(dir, CONFORMANCE).finish();
  // Another host's run is alive while it touches its lock, and gone once it stopped.
  lock({ ...base, pid: 1, host: 'elsewhere' });
  expect(() => openOutputFolder(dir, CONFORMANCE)).toThrow(/in use by wfcheck conformance \(run r, pid 1 on elsewhere/);
  const old = new Date(Date.now() - 10 * 60_000);
  utimesSync(join(dir, LOCK_FILE), old, old);
  openOutputFolder(dir, CONFORMANCE).finish();
});

test('a run killed after claiming leaves a manifest the next run clears, and the next run works', () => {
  const killed = openOutputFolder(dir, CONFORMANCE);
  killed.claim('runs/killed');
  put('runs/killed/evidence/w.jsonl', '{"kind":"exchange"');
  killed.write('html/index.html', 'half a run');
  // Killed: no finish, no release; the lock names a process that is gone.
  const lock = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'));
  writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ ...lock, pid: deadPid() }));
  put('docs/notes.md', 'mine');
  const next = openOutputFolder(dir, CONFORMANCE);
  expect(next.dir).toBe(dir);
  expect(existsSync(join(dir, 'runs'))).toBe(false);
  expect(existsSync(join(dir, 'html'))).toBe(false);
  expect(readFileSync(join(dir, 'docs/notes.md'), 'utf8')).toBe('mine');
  next.finish();
  killed.release();
});

test('the key scrub rewrites the files the run wrote, and no file of the user', () => {
  const key = 'sk-scrub-test-key-0123456789';
  registerSecret(key, 'API_KEY');
  put('CHOICES.md', `the default key is ${key}\n`);
  const mine = hashes(dir)['CHOICES.md'];
  const folder = openOutputFolder(dir, CONFORMANCE);
  folder.claim('runs/r');
  put('runs/r/test-results/trace.txt', `Authorization: Bearer ${key}\n`);
  const changed = folder.scrub();
  folder.finish();
  expect(changed).toEqual([join(dir, 'runs/r/test-results/trace.txt')]);
  expect(readFileSync(join(dir, 'runs/r/test-results/trace.txt'), 'utf8')).toBe('Authorization: Bearer ${API_KEY}\n');
  expect(hashes(dir)['CHOICES.md']).toBe(mine);
});

test("a folder that is the run's whole (load) takes only an empty or its own folder, and spares the history", () => {
  const load: FolderOptions = { mode: 'load', command: 'load', names: 'all', spare: [join(dir, 'history.sqlite')] };
  put('history.sqlite', 'the history');
  const first = openOutputFolder(dir, load);
  expect(first.dir).toBe(dir);
  put('k6.log', 'k6 said');
  put('steps/01/k6.log', 'k6 said');
  // Killed: the next run clears everything the run claimed, which is the whole folder but the history.
  first.release();
  const second = openOutputFolder(dir, load);
  expect(readdirSync(dir).sort()).toEqual(['history.sqlite', LOCK_FILE, MANIFEST_FILE].sort());
  put('report.json', '{}');
  second.finish();
  expect(readManifest(dir)?.paths).toEqual(['report.json']);
  // Any file of the user's in it sends the next run to the subfolder.
  put('notes.md', 'mine');
  const third = openOutputFolder(dir, load);
  expect(third.dir).toBe(join(dir, 'wfcheck-load'));
  third.finish();
  expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('mine');
  expect(readFileSync(join(dir, 'report.json'), 'utf8')).toBe('{}');
});
