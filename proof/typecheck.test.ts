/** The whole code base type-checks under the strict settings: the harness, and the k6 scripts with k6's types. */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const projects = ['tsconfig.json', 'load/k6/tsconfig.json', 'load/tsconfig.node.json'].filter((p) =>
  existsSync(join(root, p)),
);

for (const project of projects) {
  test(`tsc --noEmit -p ${project} is clean`, { tag: '@slow' }, () => {
    const run = spawnSync(process.execPath, [tsc, '--noEmit', '-p', project], { cwd: root, encoding: 'utf8' });
    expect(run.stdout + run.stderr, `tsc reported errors for ${project}`).toBe('');
    expect(run.status).toBe(0);
  });
}
