/**
 * The site built from a history: one folder of index.html, matrix.json and one page per implementation,
 * the grid a real table whose cells agree with the JSON and link to anchors that exist; everything a
 * target or a history wrote shown as text, never as markup; and no key anywhere in it, neither one the
 * command was given nor one planted in the history by another harness (`wfcheck matrix` run as a user
 * runs it, with API_KEY in its environment).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { REQUIREMENTS } from '../contracts/requirements.ts';
import { PACKAGE_ROOT } from '../core/settings/roots.ts';
import { HOSTILE_TITLE, syntheticRun, writeSyntheticMatrix } from '../proof/demo/synthetic-matrix.ts';
import { recordConformanceRun, withHistory } from '../core/history-store/store.ts';
import { buildMatrixSite } from './site.ts';

let dir: string;
test.beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wfcheck-matrix-site-'));
});
test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

const HOSTILE_NAME = `<i>vendor</i> "q" & 'r'`;

/** The site's files as text, by path under its folder. */
function siteFiles(out: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string, prefix: string) => {
    for (const name of readdirSync(d, { withFileTypes: true })) {
      if (name.isDirectory()) walk(join(d, name.name), `${prefix}${name.name}/`);
      else files.set(`${prefix}${name.name}`, readFileSync(join(d, name.name), 'utf8'));
    }
  };
  walk(out, '');
  return files;
}

function history(implementations: number, nights: number): string {
  const path = join(dir, 'history.sqlite');
  writeSyntheticMatrix(path, { implementations, nights });
  withHistory(path, (db) =>
    recordConformanceRun(db, { ...syntheticRun(0, nights, { implementations: 1, nights }), name: HOSTILE_NAME }),
  );
  return path;
}

test('one folder: the grid agrees with matrix.json, and every cell links to an anchor of its page', () => {
  const path = history(3, 4);
  const out = join(dir, 'site');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'CNAME'), 'matrix.example\n');
  const site = buildMatrixSite({ historyFile: path, outDir: out });
  expect(site).toMatchObject({ implementations: 4, requirements: REQUIREMENTS.length, files: 7 });
  const files = siteFiles(out);
  const own = [
    'impl/i-vendor-i-q-r.html',
    'impl/impl-01.html',
    'impl/impl-02.html',
    'impl/impl-03.html',
    'index.html',
    'matrix.json',
    'open-points.html',
  ];
  // What else the folder holds is left alone; the manifest names the site's files, and the next build clears those.
  expect([...files.keys()].sort()).toEqual(['CNAME', ...own, 'wfcheck-manifest.json']);
  expect(JSON.parse(files.get('wfcheck-manifest.json')!)).toMatchObject({ mode: 'matrix', complete: true, paths: own });
  buildMatrixSite({ historyFile: path, outDir: out, only: ['impl-01'] });
  expect([...siteFiles(out).keys()].sort()).toEqual([
    'CNAME',
    'impl/impl-01.html',
    'index.html',
    'matrix.json',
    'open-points.html',
    'wfcheck-manifest.json',
  ]);
  expect(readFileSync(join(out, 'CNAME'), 'utf8')).toBe('matrix.example\n');
  const json = JSON.parse(files.get('matrix.json')!);
  expect(json.format).toBe('wfcheck-matrix');
  expect(json.implementations.map((i: { label: string }) => i.label)).toEqual([
    HOSTILE_NAME,
    'impl-01',
    'impl-02',
    'impl-03',
  ]);
  const index = files.get('index.html')!;
  const rows = [...index.matchAll(/<tr id="([^"]+)" data-level="(\w+)"[^>]*>(.*?)<\/tr>/gs)];
  expect(rows).toHaveLength(REQUIREMENTS.length);
  for (const [, id, level, body] of rows) {
    const req = json.requirements.find((r: { id: string }) => r.id === id);
    expect(req.level, id).toBe(level);
    const cells = [...body!.matchAll(/<td class="c v-([a-z-]+)"[^>]*><a href="impl\/([^"#]+)#([^"]+)">/g)];
    expect(cells, id).toHaveLength(json.implementations.length);
    cells.forEach(([, verdict, page, anchor], i) => {
      const impl = json.implementations[i];
      expect(verdict, `${id} × ${impl.label}`).toBe(req.cells[impl.key].verdict);
      expect(`impl/${page}`).toBe(impl.page);
      expect(files.get(`impl/${page}`)!.includes(`id="${anchor}"`), `${page}#${anchor}`).toBe(true);
    });
  }
  // The interop line and the implementations' table are there without any script.
  expect(index).toMatch(
    /Interop: <strong>\d+<\/strong> of \d+ must and should requirements met by every implementation/,
  );
  expect(index.match(/<svg class="trend"/g)).toHaveLength(4);
  // The open points: one row per point of matrix.json, each holder linked to an anchor of its page.
  const points = files.get('open-points.html')!;
  const rowsOf = [...points.matchAll(/<tr id="p-([^"]+)" class="(split|agreed)"/g)];
  expect(rowsOf.map(([, id]) => id)).toEqual(json.openPoints.points.map((p: { point: string }) => p.point));
  const links = [...points.matchAll(/href="impl\/([^"#]+)#(p-[^"]+)"/g)];
  expect(links.length).toBeGreaterThan(10);
  for (const [, page, anchor] of links)
    expect(files.get(`impl/${page}`)!.includes(`id="${anchor}"`), `${page}#${anchor}`).toBe(true);
  expect(index).toContain('href="open-points.html"');
});

test('what a target or a history wrote is shown as text, never as markup', () => {
  const out = join(dir, 'site');
  buildMatrixSite({ historyFile: history(2, 2), outDir: out });
  const files = siteFiles(out);
  const pages = [...files].filter(([p]) => p.endsWith('.html'));
  for (const [path, text] of pages) {
    expect(text, path).not.toContain('<img');
    expect(text, path).not.toContain('<i>vendor');
    expect(text, path).not.toContain('<script>alert');
    // The grid's own filter script is the one script of the site.
    expect(text.match(/<script>/g)?.length ?? 0, path).toBe(path === 'index.html' ? 1 : 0);
  }
  const hostile = files.get('impl/impl-02.html')!;
  expect(hostile).toContain(
    'answers &lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;quotes&#39; &lt;/td&gt;&lt;/table&gt;&lt;script&gt;alert(2)&lt;/script&gt;',
  );
  expect(files.get('index.html')).toContain('&lt;i&gt;vendor&lt;/i&gt; &quot;q&quot; &amp; &#39;r&#39;');
  // A sentence an implementation's answer was read from, and its name, on the open points.
  expect(files.get('open-points.html')).toContain('&lt;b&gt;UNAUTHORIZED&lt;/b&gt;');
  expect(files.get('open-points.html')).toContain('&lt;i&gt;vendor&lt;/i&gt;');
  expect(files.get('impl/impl-02.html')).toContain('JSON with errCode &lt;b&gt;UNAUTHORIZED&lt;/b&gt;');
  expect(JSON.parse(files.get('matrix.json')!).implementations[0].label).toBe(HOSTILE_NAME);
  expect(HOSTILE_TITLE).toContain('<script>');
});

test('no key reaches the site: neither the one the command is given nor a credential planted in the history', () => {
  const key = `wfk_matrix_site_canary_${Date.now().toString(36)}`;
  const foreign = 'sk_live_planted_by_another_harness_77aa';
  const path = history(2, 3);
  // Another harness (or a hand) wrote these into the history, past the store's redaction.
  const db = new Database(path);
  db.prepare('UPDATE findings SET behaviour = behaviour || ? WHERE finding_id = ?').run(` (echoed ${key})`, 'F1');
  db.prepare('UPDATE runs SET target_version = ? WHERE id = (SELECT MAX(id) FROM runs)').run(key);
  db.prepare('UPDATE requirement_evidence SET note = ?, example = ?').run(
    `refused key ${key}`,
    JSON.stringify({
      message: `the answer echoed ${key}`,
      request: `GET https://x.example/v1/openapi/workflows?api_key=${foreign}\nauthorization: Bearer ${foreign}`,
      curl: `curl -H 'Authorization: Bearer ${foreign}' 'https://u:${foreign}@x.example/v1'`,
    }),
  );
  db.prepare('UPDATE open_point_values SET value = value || ?, sentence = ?, example = ?').run(
    ` ${key}`,
    `answered with ${key}`,
    JSON.stringify({ message: 'x', curl: `curl -H 'Authorization: Bearer ${foreign}' https://x.example/v1` }),
  );
  db.close();
  const out = join(dir, 'site');
  const command = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(PACKAGE_ROOT, 'scripts', 'matrix.ts'), '--db', path, '--out', out, '--open-points'],
    { env: { ...process.env, API_KEY: key }, encoding: 'utf8' },
  );
  expect(command.status, command.stderr).toBe(0);
  expect(command.stdout).toMatch(new RegExp(`matrix: 3 implementation\\(s\\) × ${REQUIREMENTS.length} requirements`));
  // The open-points table on the command line, its planted key replaced too.
  expect(command.stdout).toMatch(/open points: \d+ of \d+ answered are split/);
  expect(command.stdout.includes(key), 'the command line holds the key').toBe(false);
  expect(command.stdout).toContain('${API_KEY}');
  const files = siteFiles(out);
  // The site's five pages and its data, and the manifest of what was written.
  expect(files.size).toBe(7);
  for (const [p, text] of files) {
    expect(text.includes(key), `${p} holds the key`).toBe(false);
    expect(text.includes(foreign), `${p} holds the planted credential`).toBe(false);
  }
  // The planted texts are there, their credentials replaced.
  const all = [...files.values()].join('\n');
  expect(all).toContain('echoed ${API_KEY}');
  expect(all).toContain('api_key=***');
  expect(all).toContain('Authorization: Bearer ***');
});

test('without a history there is nothing to build: the command says so and exits 2', () => {
  const missing = join(dir, 'none.sqlite');
  const command = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(PACKAGE_ROOT, 'scripts', 'matrix.ts'), '--db', missing, '--out', join(dir, 'site')],
    { encoding: 'utf8' },
  );
  expect(command.status).toBe(2);
  expect(command.stderr).toContain(`no run history at ${missing}`);
  expect(existsSync(missing)).toBe(false);
});
