/**
 * The README is the five-minute tour and the map of the house: it stays short (under 300 lines, none over
 * 400 characters), its layout table names every top-level folder of the tree and no other, and every link
 * of the README and of the pages under docs/ leads to a file (and a heading) that exists.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { expect, test } from '@playwright/test';
import { PACKAGE_ROOT } from '../core/settings/roots.ts';

const MAX_LINES = 300;
const MAX_LINE_CHARS = 400;
/** Top-level folders that are outputs or installed tools, not part of the house. */
const NOT_THE_HOUSE = new Set(['node_modules', 'reports', 'test-results']);

const read = (path: string) => readFileSync(join(PACKAGE_ROOT, path), 'utf8');
const pages = () => ['README.md', ...readdirSync(join(PACKAGE_ROOT, 'docs')).map((f) => `docs/${f}`)];

/** The folders a layout table's first column names, as `folder/`. */
function tableFolders(markdown: string, section: string): string[] {
  const from = markdown.indexOf(section);
  const lines = markdown.slice(from).split('\n');
  const start = lines.findIndex((l) => l.startsWith('| folder'));
  const after = lines.slice(start + 2);
  const end = after.findIndex((l) => !l.startsWith('|'));
  const rows = end < 0 ? after : after.slice(0, end);
  return rows.map((l) => /^\| `([^`]+)`/.exec(l)?.[1] ?? '').filter((f) => f.endsWith('/'));
}

/** The headings of a page, as GitHub makes their anchors. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/^#+\s+(.+)$/gm))
    out.add(
      m[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\- ]/gu, '')
        .replace(/ /g, '-'),
    );
  return out;
}

test('the README is short: under 300 lines, none over 400 characters', () => {
  const lines = read('README.md').trimEnd().split('\n');
  expect(lines.length).toBeLessThan(MAX_LINES);
  expect(lines.filter((l) => l.length > MAX_LINE_CHARS)).toEqual([]);
});

test("the README's layout table names every top-level folder of the tree, and no other", () => {
  const tree = readdirSync(PACKAGE_ROOT, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !NOT_THE_HOUSE.has(e.name))
    .map((e) => `${e.name}/`)
    .sort();
  expect(tableFolders(read('README.md'), '## Layout').sort()).toEqual(tree);
  // The full map names them too, fixtures/ by its parts.
  const full = tableFolders(read('docs/layout.md'), '# Layout').map((f) => `${f.split('/')[0]}/`);
  expect([...new Set(full)].sort()).toEqual(tree);
});

test('every link of the README and of docs/ leads to a file, and to a heading of it', () => {
  const broken: string[] = [];
  for (const page of pages()) {
    const text = read(page).replace(/```[\s\S]*?```/g, '');
    for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(link!)) continue;
      const [path, anchor] = link!.split('#');
      const target = path ? normalize(join(dirname(page), path)) : page;
      if (!existsSync(join(PACKAGE_ROOT, target))) broken.push(`${page}: ${link} (no such file)`);
      else if (anchor && target.endsWith('.md') && !anchors(read(target)).has(anchor))
        broken.push(`${page}: ${link} (no such heading)`);
    }
  }
  expect(broken).toEqual([]);
});
