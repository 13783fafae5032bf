/**
 * A load run owns its folder and nothing else, on the installed command as users run it: `wfcheck load
 * --out .` in a folder holding the user's files (a report.json and a k6.log of their own among them)
 * leaves each byte-identical and writes the run's reports into its subfolder, whose manifest names each
 * file the run wrote (what the next run there clears: core/outputs/output-folder.test.ts).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { type StartedTarget, startTarget } from '../../fixtures/reference/server.ts';
import { MANIFEST_FILE, readManifest } from '../../core/outputs/output-manifest.ts';
import { commandEnv, hashTree, plantUserFiles, startWfcheck } from '../../proof/outputs.testkit.ts';
import { ensureK6 } from './ensure-k6.ts';
import { LOAD_REPORT_FILES } from './report-files.ts';

let target: StartedTarget;
let k6 = '';
let scratch: string;

test.beforeAll(async ({}, info) => {
  info.setTimeout(15 * 60_000); // the first k6 build from source takes minutes
  k6 = await ensureK6((l) => console.log(l));
  target = await startTarget({});
  scratch = mkdtempSync(join(tmpdir(), 'wfcheck-load-folder-'));
});
test.afterAll(async () => {
  await target?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test("wfcheck load --out . keeps the user's files byte-identical; the run writes into its subfolder", {
  tag: '@k6',
}, async () => {
  test.setTimeout(180_000);
  const ws = mkdtempSync(join(scratch, 'user-'));
  plantUserFiles(ws, {
    'report.json': '{"mine": true}\n',
    'k6.log': 'my own k6 log\n',
    'docs/notes.md': '# notes\n',
  });
  const before = hashTree(ws);
  const env = commandEnv({
    BASE_URL: target.baseUrl,
    API_KEY: target.tenants[0]!.apiKey,
    K6_BIN: k6,
    WFCHECK_HISTORY: join(scratch, 'history.sqlite'),
  });
  const args = ['load', '--out', '.', '--duration', '3s', '--scenarios', 'readMix', '--no-dashboard', '--seed', '3'];
  const first = await startWfcheck(args, { cwd: ws, env }).done;
  expect(first.code, first.output.slice(-2000)).toBe(0);
  expect(first.output).toMatch(
    /holds files wfcheck did not write where this run writes .*: this run writes into wfcheck-load/,
  );
  const out = join(ws, 'wfcheck-load');
  for (const file of [...LOAD_REPORT_FILES, 'k6.log', 'trend.html', MANIFEST_FILE])
    expect(existsSync(join(out, file)), file).toBe(true);
  expect(hashTree(ws, (rel) => rel.startsWith('wfcheck-load'))).toEqual(before);
  // The manifest names each file the run wrote, and nothing else: what the next run there will clear.
  const manifest = readManifest(out)!;
  expect(manifest.complete).toBe(true);
  expect(
    readdirSync(out, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name !== MANIFEST_FILE)
      .map((e) => join(e.parentPath, e.name).slice(out.length + 1))
      .sort(),
  ).toEqual(manifest.paths);
  expect(manifest.paths).toEqual(expect.arrayContaining([...LOAD_REPORT_FILES, 'k6.log', 'load-data.json']));
});
