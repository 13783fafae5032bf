/**
 * Rooms of one job: no hand-written source file over 600 lines, no function over 80 lines. A module that
 * grows past that holds several jobs, and a function that long does several things; both are where a
 * change goes wrong unseen. Tables of data (the clause catalogue, the fault entries) are exempt by name,
 * with the reason; so is code that is generated, or written apart from the harness as a test double.
 *
 * The tree is parsed, not searched as text: a function is any function declaration, method, arrow function
 * or function expression, measured from its first line to its last; a nested function counts for itself,
 * and for the function around it too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from '@playwright/test';
import ts from 'typescript';
import { PACKAGE_ROOT } from '../core/settings/roots.ts';

const MAX_FILE_LINES = 600;
const MAX_FUNCTION_LINES = 80;

/** Files that are tables of data rather than code, and why they may be long. */
const TABLES: Record<string, string> = {
  'contracts/requirements.ts': 'the clause catalogue: one entry per normative sentence of the specification',
};

/** Folders not measured, and why. */
const NOT_MEASURED: Record<string, string> = {
  node_modules: 'dependencies',
  generated: 'generated from contracts/openapi.yaml',
  reports: 'outputs of runs',
  'test-results': 'outputs of runs',
  layers: 'the miniature tree that proves the dependency rules (fixtures/layers/)',
  independent: 'implementations of the specification written apart from the harness (fixtures/independent/)',
};

const SOURCE = /\.(ts|mts|mjs|js)$/;
const TEST_FILE = /\.test\.ts$/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith('.') || entry.name in NOT_MEASURED ? [] : sources(path);
    return SOURCE.test(entry.name) && !TEST_FILE.test(entry.name) && !entry.name.endsWith('.d.ts')
      ? [relative(PACKAGE_ROOT, path)]
      : [];
  });
}

/** Functions of `file` longer than the limit: "file:line name (N lines)". */
function longFunctions(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = lineOf(node.getStart(source));
      const lines = lineOf(node.getEnd()) - first + 1;
      if (lines > MAX_FUNCTION_LINES) {
        const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
        out.push(`${file}:${first} ${name} (${lines} lines)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

test(`no hand-written source file is over ${MAX_FILE_LINES} lines, no function over ${MAX_FUNCTION_LINES}`, () => {
  const files = sources(PACKAGE_ROOT);
  // Measured where it matters: the core and the suites must be among what was read.
  expect(files.some((f) => f.startsWith('core/client/'))).toBe(true);
  const long: string[] = [];
  const longer: string[] = [];
  for (const file of files) {
    const text = readFileSync(join(PACKAGE_ROOT, file), 'utf8');
    const lines = text.split('\n').length;
    if (lines > MAX_FILE_LINES && !(file in TABLES)) long.push(`${file} (${lines} lines)`);
    longer.push(...longFunctions(file, text));
  }
  expect.soft(long, 'files that hold several jobs: split them by job').toEqual([]);
  expect(longer, 'functions that do several things: split them').toEqual([]);
});

test('the measure finds a long function and a long file', () => {
  const body = Array.from({ length: MAX_FUNCTION_LINES }, (_, i) => `  const x${i} = ${i};`).join('\n');
  expect(longFunctions('a.ts', `function long() {\n${body}\n}\n`)).toEqual(['a.ts:1 long (82 lines)']);
  expect(longFunctions('a.ts', 'const short = () => 1;\n')).toEqual([]);
});
