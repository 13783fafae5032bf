/**
 * A conformance run owns its outputs and nothing else, proven on the installed command as users run it:
 *
 * - two runs started together into one folder, against targets that differ in one deviation (a fault
 *   entry behind the mutating proxy), never mix: each reports its own target's verdict, or the second is
 *   refused before it starts, naming the first;
 * - runs given `--out .` in a folder holding the user's files (one where a run writes, one holding a key)
 *   leave each of them byte-identical, their outputs in the run's subfolder;
 * - a run killed in each phase (boot, discovery, suites, report; SIGKILL, SIGINT in boot and SIGTERM in
 *   the suites) leaves no report that reads as its verdict and no history row but the interrupted run's,
 *   marked incomplete (exit code 2), and the next run in that folder works.
 *
 * The runs run one suite file (search: four tests, discovery included) to stay short.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { mutantById } from '../../fixtures/faults/catalogue.ts';
import { type MutatingProxy, startMutatingProxy } from '../../fixtures/faults/proxy.ts';
import { type StartedTarget, startTarget } from '../../fixtures/reference/server.ts';
import { LOCK_FILE, type LockHolder } from '../../core/outputs/folder-lock.ts';
import { MANIFEST_FILE, readManifest } from '../../core/outputs/output-manifest.ts';
import { openHistory } from '../../core/history-store/store.ts';
import { REFERENCE_BEHIND_PROXY_ENV, REPO_ROOT } from '../../proof/conformance-run.ts';
import {
  commandEnv,
  groupAlive,
  hashTree,
  plantUserFiles,
  type Ran,
  type Started,
  startWfcheck,
  waitFor,
} from '../../proof/outputs.testkit.ts';
import type { ConformanceReport } from '../../core/findings/build-report.ts';

const DEVIATION = 'variable-type-file';
const SUITE = ['--', 'workflows/search.spec'];
const REPORTS = ['report.json', 'report.md', 'report.html', 'report.junit.xml', 'summary.md', 'junit.xml', 'html'];

let clean: StartedTarget;
let faulty: StartedTarget;
let proxy: MutatingProxy;
let scratch: string;

test.beforeAll(async () => {
  [clean, faulty] = await Promise.all([startTarget({}), startTarget({})]);
  const [a, b] = faulty.tenants;
  proxy = await startMutatingProxy(faulty.baseUrl, { A: a!.apiKey, B: b?.apiKey }, mutantById(DEVIATION));
  scratch = mkdtempSync(join(tmpdir(), 'wfcheck-own-outputs-'));
});
test.afterAll(async () => {
  await proxy?.close();
  await Promise.all([clean?.close(), faulty?.close()]);
  rmSync(scratch, { recursive: true, force: true });
});

/** The environment of a run against `baseUrl` (the reference target, or the proxy in front of one). */
function against(baseUrl: string | undefined, history: string, target = clean): NodeJS.ProcessEnv {
  const [a, b] = target.tenants;
  return commandEnv({
    ...(baseUrl ? { ...REFERENCE_BEHIND_PROXY_ENV, BASE_URL: baseUrl, API_KEY: a!.apiKey, API_KEY_B: b?.apiKey } : {}),
    WFCHECK_HISTORY: history,
  });
}

const conformance = (
  out: string,
  o: { cwd?: string; env: NodeJS.ProcessEnv; onLine?: (line: string, s: Started) => void },
): Started =>
  startWfcheck(['conformance', '--out', out, '--seed', '7', '--workers', '2', ...SUITE], {
    cwd: o.cwd ?? REPO_ROOT,
    env: o.env,
    onLine: o.onLine,
  });

const headline = (r: Ran) => /wfcheck conformance: (PASS|FAIL)[^\n]*/.exec(r.output)?.[0];
const refusal = /is in use by wfcheck conformance \(run [\w-]+, pid (\d+), started [^,]+, target ([^)]+\)?)\)/;

test('two runs started together into one folder never mix: each its own verdict, or the second refused', {
  tag: '@conformance-run',
}, async () => {
  test.setTimeout(180_000);
  const out = join(scratch, 'pair');
  const history = join(scratch, 'pair-history.sqlite');
  const runs = await Promise.all([
    conformance(out, { env: against(clean.baseUrl, history) }).done,
    conformance(out, { env: against(proxy.baseUrl, history, faulty) }).done,
  ]);
  const [cleanRun, faultyRun] = runs;
  const refused = runs.filter((r) => refusal.test(r.output));
  expect(refused.length, runs.map((r) => r.output.slice(-400)).join('\n----\n')).toBeLessThan(2);
  const seen: string[] = [];
  for (const [run, own, other] of [
    [cleanRun!, clean.baseUrl, proxy.baseUrl],
    [faultyRun!, proxy.baseUrl, clean.baseUrl],
  ] as const) {
    if (refusal.test(run.output)) {
      // Refused before it started, naming the run that holds the folder and that run's target.
      expect(run.code).toBe(2);
      expect(refusal.exec(run.output)![2]).toContain(other);
      expect(run.output).not.toMatch(/conformance: seed /);
      seen.push('refused');
      continue;
    }
    expect(run.code, run.output.slice(-2000)).toBe(own === clean.baseUrl ? 0 : 1);
    // Its own tests only, and its own target's verdict.
    expect(run.output).toMatch(/tests +4 started, /);
    if (own === clean.baseUrl) {
      expect(headline(run)).toMatch(/PASS — no failing finding/);
      expect(run.output).not.toContain('VARIABLE-TYPE-ENUM');
    } else {
      expect(headline(run)).toMatch(/FAIL — 1 finding/);
      expect(run.output).toContain('VARIABLE-TYPE-ENUM');
    }
    seen.push('ran');
  }
  // What the folder holds is the verdict of the run that wrote it last, built from that run's evidence alone.
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as ConformanceReport;
  const failing = report.findings.filter((f) => f.strength === 'failure').flatMap((f) => f.clauses);
  if (report.meta.baseUrl === clean.baseUrl) expect(failing).toEqual([]);
  else expect(failing).toEqual(['VARIABLE-TYPE-ENUM']);
  expect(readdirSync(join(out, 'runs'))).toEqual([report.meta.runId]);
  expect(report.summary.tests.total).toBe(4);
  test.info().annotations.push({ type: 'pair', description: seen.join(', ') });
});

/** Rows the history holds, by exit code (an interrupted run is recorded with exit code 2). */
function historyRows(path: string): number[] {
  const db = openHistory(path).db!;
  try {
    return (db.prepare('SELECT exit_code AS code FROM runs ORDER BY id').all() as { code: number }[]).map(
      (r) => r.code,
    );
  } finally {
    db.close();
  }
}

test("--out . keeps the user's files; a run killed in any phase leaves nothing false; the next run works", {
  tag: '@conformance-run',
}, async () => {
  test.setTimeout(240_000);
  // Every run goes `--out .` in a folder of the user's: one file where a run writes, one holding a key.
  const ws = mkdtempSync(join(scratch, 'user-'));
  plantUserFiles(ws, {
    'html/index-mine.html': '<p>my own page</p>\n',
    'docs/notes.md': '# notes\n',
    // An implementation's own file that documents its default key: never rewritten by the key scrub.
    'CHOICES.md': `The default key is ${clean.tenants[0]!.apiKey}.\n`,
    'report.md': 'my own report\n',
  });
  const mine = hashTree(ws);
  const out = join(ws, 'wfcheck-conformance');
  const history = join(scratch, 'killed-history.sqlite');
  openHistory(history).db!.close();
  const env = against(clean.baseUrl, history);
  const holder = () => JSON.parse(readFileSync(join(out, LOCK_FILE), 'utf8')) as LockHolder;
  const place = () => join(out, 'runs', holder().runId);

  /** After a killed run: no verdict in the folder, the history as it was, the user's files untouched. */
  const nothingFalse = (rows: number[], what: string) => {
    for (const file of REPORTS) expect(existsSync(join(out, file)), `${what}: ${file}`).toBe(false);
    expect(historyRows(history), what).toEqual(rows);
    expect(
      hashTree(ws, (rel) => rel.startsWith('wfcheck-conformance')),
      what,
    ).toEqual(mine);
    expect(readManifest(out)?.complete, what).toBe(false);
  };
  const kill = (s: Started) => s.killGroup('SIGKILL');

  // Boot: the reference target booted by the run itself (BASE_URL unset; in this process, so that no
  // container outlives the kill), killed while it starts; then SIGINT there, as Ctrl-C sends it.
  const boot = commandEnv({ WFCHECK_HISTORY: history, WFCHECK_TARGET_BOOT: 'inprocess' });
  for (const signal of ['SIGKILL', 'SIGINT'] as const) {
    const booting = await conformance('.', {
      cwd: ws,
      env: boot,
      onLine: (l, s) => l.startsWith('conformance: seed ') && s.killGroup(signal),
    }).done;
    expect(booting.output, signal).not.toMatch(/conformance: target /);
    expect(booting.output).toMatch(
      /holds files wfcheck did not write where this run writes .*: this run writes into wfcheck-conformance/,
    );
    nothingFalse([], `${signal} in boot`);
  }

  // Discovery: killed once the first worker claims it; the test runner the run started stops by itself.
  const discovering = conformance('.', { cwd: ws, env });
  await waitFor(
    () =>
      existsSync(join(out, LOCK_FILE)) &&
      existsSync(join(place(), 'evidence')) &&
      readdirSync(join(place(), 'evidence')).some((n) => n.startsWith('discovery-run')) &&
      (holder().groups ?? []).length > 0,
    60_000,
    'discovery',
  );
  const runner = holder().groups![0]!;
  kill(discovering);
  await discovering.done;
  await waitFor(() => !groupAlive(runner), 10_000, 'the orphaned test runner stopping');
  nothingFalse([], 'killed in discovery');

  // The suites: killed after the first test ended.
  const testing = conformance('.', { cwd: ws, env, onLine: (l, s) => /^ {2}✓ /.test(l) && kill(s) });
  await testing.done;
  nothingFalse([], 'killed in the suites');

  // SIGTERM in the suites: the run stops its runner and says so; its history row is marked incomplete.
  let sent = false;
  const terminated = await conformance('.', {
    cwd: ws,
    env,
    onLine: (l, s) => {
      if (sent || !/^ {2}✓ /.test(l)) return;
      sent = true;
      s.child.kill('SIGTERM');
    },
  }).done;
  expect(terminated.code, terminated.output.slice(-1500)).toBe(2);
  const interrupted = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as ConformanceReport;
  expect(interrupted.meta.incomplete).toBe('the run was interrupted');
  expect(historyRows(history)).toEqual([2]);

  // The report: the run waits on a history another writer holds, and is killed there.
  const other = openHistory(history).db!;
  other.exec('BEGIN IMMEDIATE');
  try {
    const reporting = conformance('.', {
      cwd: ws,
      env,
      onLine: (l, s) => /^ {2}\d+ passed \(/.test(l) && setTimeout(() => kill(s), 500),
    });
    await reporting.done;
  } finally {
    other.exec('ROLLBACK');
    other.close();
  }
  nothingFalse([2], 'killed in the report');

  // The next run works, and the folder holds its outputs alone, beside the user's files as they were.
  const next = await conformance('.', { cwd: ws, env }).done;
  expect(next.code, next.output.slice(-2000)).toBe(0);
  for (const file of ['report.json', 'report.md', 'html/index.html', 'junit.xml', MANIFEST_FILE])
    expect(existsSync(join(out, file)), file).toBe(true);
  expect(readdirSync(ws).sort()).toEqual(['CHOICES.md', 'docs', 'html', 'report.md', 'wfcheck-conformance']);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as ConformanceReport;
  expect(readdirSync(join(out, 'runs'))).toEqual([report.meta.runId]);
  const manifest = readManifest(out)!;
  expect(manifest).toMatchObject({ complete: true, runId: report.meta.runId });
  expect(
    Object.keys(hashTree(out))
      .filter((f) => f !== MANIFEST_FILE)
      .sort(),
  ).toEqual(manifest.paths);
  expect(historyRows(history)).toEqual([2, 0]);
  expect(hashTree(ws, (rel) => rel.startsWith('wfcheck-conformance'))).toEqual(mine);
});
