/**
 * Several runs write one history at once (a matrix of jobs on one runner, a retry beside a long job):
 * processes started together on a new database migrate it once and each records every run it makes,
 * whole, under its own id; none is skipped, none lost, none half-written.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { SCHEMA_VERSION, schemaVersion } from './migrations.ts';
import { openHistory } from './store.ts';

const WRITERS = 4;
const RUNS_EACH = 15;
const REQUIREMENTS = 40;

/** A child that records RUNS_EACH conformance runs and a load run as fast as it can, then prints what it was told. */
function writer(path: string, tag: string): Promise<string> {
  const script = `
    import { recordAndCompare } from ${JSON.stringify(new URL('./conformance.ts', import.meta.url).href)};
    import { recordLoadRun, withHistory } from ${JSON.stringify(new URL('./store.ts', import.meta.url).href)};
    const answers = [];
    for (let i = 0; i < ${RUNS_EACH}; i++) {
      const requirements = Array.from({ length: ${REQUIREMENTS} }, (_, r) => ({
        id: 'R-' + r, verdict: 'pass', rawVerdict: 'pass', waived: false, evidence: 1,
      }));
      const h = recordAndCompare(${JSON.stringify(path)}, {
        startedAt: new Date().toISOString(), seed: i, harnessVersion: '0.1.0', target: ${JSON.stringify(`t-${tag}`)},
        exitCode: 0, requirements, tests: [{ title: 't', status: 'passed', durationMs: 1 }],
      });
      answers.push(h.skipped ?? h.runId);
    }
    const load = withHistory(${JSON.stringify(path)}, (db) => recordLoadRun(db, {
      startedAt: new Date().toISOString(), seed: 1, harnessVersion: '0.1.0', target: ${JSON.stringify(`t-${tag}`)},
      profile: 'smoke', passed: true, operations: [{ operation: 'searchWorkflows', requests: 1 }],
    }));
    answers.push(load.skipped ?? load.value);
    console.log(JSON.stringify(answers));`;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(out) : fail(new Error(`writer ${tag} exited ${code}: ${out}`))));
  });
}

test('writers started together on a new history each record every run, whole and once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-history-writers-'));
  const path = join(dir, 'history.sqlite');
  try {
    const outputs = await Promise.all(Array.from({ length: WRITERS }, (_, i) => writer(path, String(i))));
    const answers = outputs.map((o) => JSON.parse(o.trim().split('\n').pop()!) as (number | string)[]);
    // Every answer is a run id: no writer was told the history was skipped.
    for (const a of answers) expect(a.filter((x) => typeof x !== 'number')).toEqual([]);
    const ids = answers.flat() as number[];
    expect(new Set(ids).size).toBe(ids.length);

    const db = openHistory(path).db!;
    try {
      expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT COUNT(*) AS n FROM schema_version').get()).toEqual({ n: SCHEMA_VERSION });
      const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
      expect(count("SELECT COUNT(*) AS n FROM runs WHERE kind = 'conformance'")).toBe(WRITERS * RUNS_EACH);
      expect(count("SELECT COUNT(*) AS n FROM runs WHERE kind = 'load'")).toBe(WRITERS);
      expect(count('SELECT COUNT(*) AS n FROM requirement_verdicts')).toBe(WRITERS * RUNS_EACH * REQUIREMENTS);
      // Each writer's runs are its own target's, in the order it made them.
      for (let i = 0; i < WRITERS; i++) {
        const seeds = db
          .prepare("SELECT seed FROM runs WHERE target = ? AND kind = 'conformance' ORDER BY id")
          .all(`t-${i}`)
          .map((r) => (r as { seed: number }).seed);
        expect(seeds).toEqual(Array.from({ length: RUNS_EACH }, (_, s) => s));
      }
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
