/**
 * The hand-written operation table (operation-facts.ts) has a row for every operation of openapi.yaml,
 * and each row agrees with the generated table: a row missing does not compile (shown by type-checking a
 * copy of the table without one), and the facts that openapi.yaml also states (the statuses, the id in
 * the path) are the same in both.
 */
import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../core/settings/roots.ts';
import { OPERATION_IDS, OPERATIONS } from './generated/operations.ts';
import { isOnId, OPERATION_FACTS } from './operation-facts.ts';

const tsc = join(PACKAGE_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

test('an operation of openapi.yaml without its row in the hand-written table does not compile', () => {
  const dir = join(PACKAGE_ROOT, '.cache', `operation-facts-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    const table = readFileSync(join(PACKAGE_ROOT, 'contracts/operation-facts.ts'), 'utf8').replaceAll(
      "from './generated/",
      "from '../../contracts/generated/",
    );
    const withoutUploads = table.replace(/\n {2}uploadFiles: \{[\s\S]*?\n {2}\},/, '');
    expect(withoutUploads, 'the row was found and cut').not.toBe(table);
    writeFileSync(join(dir, 'whole.ts'), table);
    writeFileSync(join(dir, 'missing.ts'), withoutUploads);
    // The project's own settings (tsconfig.json), over these files alone.
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ extends: '../../tsconfig.json', include: [], files: ['whole.ts', 'missing.ts'] }),
    );
    const run = spawnSync(process.execPath, [tsc, '--noEmit', '-p', dir], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
    const out = run.stdout + run.stderr;
    const errorsIn = (file: string) => out.split('\n').filter((l) => l.includes(`${file}(`) && l.includes('error TS'));
    expect(errorsIn('whole.ts'), out).toEqual([]);
    expect(out).toMatch(/missing\.ts\(\d+,\d+\): error TS1360[^\n]*\n\s+Property 'uploadFiles' is missing/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("each row agrees with openapi.yaml: the status line lists the operation's statuses, the id it is sent with", () => {
  expect(Object.keys(OPERATION_FACTS)).toEqual([...OPERATION_IDS]);
  for (const op of OPERATION_IDS) {
    const facts = OPERATION_FACTS[op];
    const listed = [...facts.statusLine.matchAll(/\b([1-5]\d\d)\b/g)].map((m) => Number(m[1]));
    expect(listed, `${op}: the statuses of its status line`).toEqual([...OPERATIONS[op].statuses]);
    const inPath = OPERATIONS[op].pathParams[0];
    if (inPath) {
      expect(isOnId(op), `${op} is sent with ${inPath}`).toBe(true);
      expect(`${'about' in facts ? facts.about.subject : ''}Id`).toBe(inPath);
    }
  }
  // The short names are a client's method names: one per operation.
  expect(new Set(OPERATION_IDS.map((op) => OPERATION_FACTS[op].short)).size).toBe(OPERATION_IDS.length);
});
