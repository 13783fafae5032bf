/**
 * The tree keeps one form: Biome (biome.json) formats and lints every source file, and `npm test`
 * fails on a file it would change. A check that cannot fail proves nothing, so the same command is
 * also shown failing on a mis-formatted file and on a lint offence, written outside the tree.
 */
import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const biome = join(root, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');

function biomeCheck(cwd: string, args: string[]): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [biome, 'check', '--colors=off', ...args], { cwd, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** A scratch folder with the repository's Biome configuration, so the rules are the tree's own. */
function scratchWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-form-'));
  const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8')) as Record<string, unknown>;
  // The scratch folder is no git work tree and has no generated files: keep the rules, drop the file scoping.
  config.vcs = { enabled: false };
  config.files = {};
  config.$schema = undefined;
  writeFileSync(join(dir, 'biome.json'), JSON.stringify(config));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

test('npm run lint: the whole tree is formatted and lint-clean', () => {
  const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts.lint;
  expect(script, 'npm run lint runs biome check on the tree').toMatch(/^biome check\b/);
  const { status, output } = biomeCheck(root, script.split(/\s+/).slice(2));
  expect(status, `biome check reported (fix with npm run format):\n${output.slice(-4000)}`).toBe(0);
});

test('the form check fails on a mis-formatted file and on a lint offence', () => {
  const dir = scratchWith({
    'clean.ts': 'export const answer = (x: number): number => x * 2;\n',
    'wide.ts': `export const wide = [${Array.from({ length: 40 }, (_, i) => `'item${i}'`).join(', ')}];\n`,
    'lint.ts': 'export function f(a: number): number {\n  let b;\n  return (b = a), b;\n}\n',
  });
  try {
    expect(biomeCheck(dir, ['clean.ts']).status, 'a clean file passes').toBe(0);
    const wide = biomeCheck(dir, ['wide.ts']);
    expect(wide.status, 'a line wider than 120 fails').not.toBe(0);
    expect(wide.output).toMatch(/format/i);
    const lint = biomeCheck(dir, ['lint.ts']);
    expect(lint.status, 'a comma operator fails the linter').not.toBe(0);
    expect(lint.output).toMatch(/noCommaOperator/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
