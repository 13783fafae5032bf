/**
 * An exploration owns its outputs and nothing else, on the installed command as users run it:
 *
 * - two explorations started together into one folder, against targets that differ in one deviation (a
 *   fault entry behind the mutating proxy), never mix: each reports its own target's findings, or the
 *   second is refused before it starts, naming the first;
 * - `--out .` in a folder holding the user's files (a report.md and a bodies/ of their own) leaves each
 *   byte-identical; the run's report is in its subfolder, and a second run there replaces only its own.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { INPUT_CRASHES } from '../fixtures/faults/input-crashes.ts';
import { type MutatingProxy, startMutatingProxy } from '../fixtures/faults/proxy.ts';
import { type StartedTarget, startTarget } from '../fixtures/reference/server.ts';
import { MANIFEST_FILE, readManifest } from '../core/outputs/output-manifest.ts';
import { REPO_ROOT } from '../proof/conformance-run.ts';
import { commandEnv, hashTree, plantUserFiles, type Ran, startWfcheck } from '../proof/outputs.testkit.ts';
import type { ExploreReport } from './report/explore-report.ts';

/** An id longer than 64 characters crashes the detail lookup: one deviation, which explore finds in seconds. */
const DEVIATION = INPUT_CRASHES.find((m) => m.id === 'crash-long-ids')!;

let clean: StartedTarget;
let faulty: StartedTarget;
let proxy: MutatingProxy;
let scratch: string;

test.beforeAll(async () => {
  [clean, faulty] = await Promise.all([startTarget({}), startTarget({})]);
  const [a, b] = faulty.tenants;
  proxy = await startMutatingProxy(faulty.baseUrl, { A: a!.apiKey, B: b?.apiKey }, DEVIATION);
  scratch = mkdtempSync(join(tmpdir(), 'wfcheck-explore-outputs-'));
});
test.afterAll(async () => {
  await proxy?.close();
  await Promise.all([clean?.close(), faulty?.close()]);
  rmSync(scratch, { recursive: true, force: true });
});

/** `wfcheck explore` of the detail operation alone, briefly, against `baseUrl`. */
function explore(out: string, baseUrl: string, target: StartedTarget, cwd = REPO_ROOT): Promise<Ran> {
  const env = commandEnv({
    BASE_URL: baseUrl,
    API_KEY: target.tenants[0]!.apiKey,
    WFCHECK_HISTORY: join(scratch, 'history.sqlite'),
  });
  const args = ['explore', '--out', out, '--seed', '7', '--only', 'DETAIL', '--budget-s', '5', '--requests', '12'];
  return startWfcheck(args, { cwd, env }).done;
}

const refusal = /is in use by wfcheck explore \(run [\w-]+, pid \d+, started [^,]+, target ([^)]+\)?)\)/;

test('two explorations started together into one folder never mix: each its own findings, or the second refused', async () => {
  test.setTimeout(120_000);
  const out = join(scratch, 'pair');
  const runs = await Promise.all([explore(out, clean.baseUrl, clean), explore(out, proxy.baseUrl, faulty)]);
  const seen: string[] = [];
  expect(
    runs.filter((r) => refusal.test(r.output)).length,
    runs.map((r) => r.output.slice(-600)).join('\n----\n'),
  ).toBeLessThan(2);
  for (const [run, own, other] of [
    [runs[0]!, clean.baseUrl, proxy.baseUrl],
    [runs[1]!, proxy.baseUrl, clean.baseUrl],
  ] as const) {
    if (refusal.test(run.output)) {
      expect(run.code).toBe(2);
      expect(refusal.exec(run.output)![1]).toContain(other);
      expect(run.output).not.toMatch(/explore: seed /);
      seen.push('refused');
      continue;
    }
    seen.push('ran');
    expect(run.output).toContain(own);
    if (own === clean.baseUrl) {
      expect(run.output, run.output.slice(-1500)).toMatch(/explore: 0 deviation\(s\)/);
      expect(run.output).not.toContain('DETAIL-HTTP-STATUS-LISTED');
    } else {
      expect(run.output, run.output.slice(-1500)).toMatch(/explore: 1 deviation\(s\)/);
      expect(run.output).toContain('DETAIL-HTTP-STATUS-LISTED');
    }
  }
  // The folder's report is its writer's, whole.
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as ExploreReport;
  const clauses = report.findings.map((f) => f.clause);
  if (report.target.baseUrl === clean.baseUrl) expect(clauses).toEqual([]);
  else expect(clauses).toEqual(['DETAIL-HTTP-STATUS-LISTED']);
  expect(report.deviations.length).toBe(report.target.baseUrl === clean.baseUrl ? 0 : 1);
  test.info().annotations.push({ type: 'pair', description: seen.join(', ') });
});

test("--out . in a folder of the user's: its files byte-identical, the report in the run's subfolder", async () => {
  test.setTimeout(120_000);
  const ws = mkdtempSync(join(scratch, 'user-'));
  plantUserFiles(ws, {
    'report.md': 'my own report\n',
    'bodies/mine.txt': 'my own body\n',
    'notes/today.md': '# today\n',
  });
  const before = hashTree(ws);
  const first = await explore('.', proxy.baseUrl, faulty, ws);
  expect(first.code, first.output.slice(-1500)).toBe(1);
  expect(first.output).toMatch(
    /holds files wfcheck did not write where this run writes .*: this run writes into wfcheck-explore/,
  );
  const out = join(ws, 'wfcheck-explore');
  for (const file of ['report.json', 'report.md', 'summary.md', MANIFEST_FILE])
    expect(existsSync(join(out, file)), file).toBe(true);
  expect(first.output).toContain('DETAIL-HTTP-STATUS-LISTED');
  const second = await explore('.', clean.baseUrl, clean, ws);
  expect(second.code, second.output.slice(-1500)).toBe(0);
  expect(hashTree(ws, (rel) => rel.startsWith('wfcheck-explore'))).toEqual(before);
  // The second run's report alone: the first one's bodies and report are gone, as its manifest named them.
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as ExploreReport;
  expect(report.target.baseUrl).toBe(clean.baseUrl);
  expect(existsSync(join(out, 'bodies'))).toBe(false);
  expect(readdirSync(out).sort()).toEqual(['report.json', 'report.md', 'summary.md', MANIFEST_FILE].sort());
  expect(readManifest(out)).toMatchObject({ complete: true, paths: ['report.json', 'report.md', 'summary.md'] });
});
