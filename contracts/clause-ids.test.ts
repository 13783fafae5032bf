/**
 * A clause ID is a type (contracts/generated/clause-ids.ts, generated from the catalogue by `npm run
 * contracts`): an ID outside the catalogue does not compile, and a judge's recorder takes only the clauses
 * the judge declares. Shown by type-checking small files with the compiler options `npm run typecheck`
 * uses: the right ID compiles, a mistyped one and an undeclared one do not.
 */
import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../core/settings/roots.ts';
import { CLAUSE_IDS } from './generated/clause-ids.ts';
import { REQUIREMENTS } from './requirements.ts';

const tsc = join(PACKAGE_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** Files that use clause IDs as the core does: on a verdict, and inside a judge that declares one clause. */
const FILES: Record<string, string> = {
  'right.ts': `import type { Recorder } from '../../core/evidence/verdict.ts';
import { judge } from '../../core/judging/judge.ts';
declare const verdict: Recorder;
verdict.check('SEARCH-PAGE-1-BASED', true, { message: 'page 1 holds the first items' });
export const pages = judge('pages', ['SEARCH-PAGE-1-BASED']).judges((v) => v.check('SEARCH-PAGE-1-BASED', true, { message: 'm' }));
`,
  'mistyped.ts': `import type { Recorder } from '../../core/evidence/verdict.ts';
declare const verdict: Recorder;
verdict.check('SEARCH-PAGE-1-BASD', true, { message: 'page 1 holds the first items' });
`,
  'undeclared.ts': `import { judge } from '../../core/judging/judge.ts';
export const pages = judge('pages', ['SEARCH-PAGE-1-BASED']).judges((v) => v.check('SEARCH-PAGES-STABLE', true, { message: 'm' }));
`,
};

test('a mistyped clause ID does not compile, nor a clause its judge does not declare; the right one does', () => {
  const dir = join(PACKAGE_ROOT, '.cache', `clause-ids-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
    // The project's own settings (tsconfig.json), over these files alone.
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ extends: '../../tsconfig.json', include: [], files: Object.keys(FILES) }),
    );
    const run = spawnSync(process.execPath, [tsc, '--noEmit', '-p', dir], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
    const out = run.stdout + run.stderr;
    const errorsIn = (file: string) => out.split('\n').filter((l) => l.includes(`${file}(`) && l.includes('error TS'));
    expect(run.status, out).not.toBe(0);
    expect(errorsIn('right.ts'), out).toEqual([]);
    expect(errorsIn('mistyped.ts').join('\n'), out).toMatch(
      /"SEARCH-PAGE-1-BASD".*not assignable to parameter of type 'ClauseId'/,
    );
    expect(errorsIn('undeclared.ts').join('\n'), out).toMatch(
      /"SEARCH-PAGES-STABLE".*not assignable.*"SEARCH-PAGE-1-BASED"/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the generated clause IDs are the catalogue, in its order', () => {
  expect(CLAUSE_IDS).toEqual(REQUIREMENTS.map((r) => r.id));
});
