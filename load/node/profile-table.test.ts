/**
 * The profile table of docs/load.md is the one load/k6/lib/profiles.ts generates: a profile added, renamed or
 * made the default without `npm run profile-table` fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { PACKAGE_ROOT } from '../../core/settings/roots.ts';
import { DEFAULT_PROFILE, PROFILE_NAMES } from '../k6/lib/profiles.ts';
import { PROFILE_PAGE, profileTableIsFresh, renderProfileTable, withProfileTable } from './profile-table.ts';

test(`the profile table of ${PROFILE_PAGE} is fresh (npm run profile-table)`, () => {
  const page = readFileSync(join(PACKAGE_ROOT, PROFILE_PAGE), 'utf8');
  expect(profileTableIsFresh(page), `${PROFILE_PAGE}: the profile table is stale; run \`npm run profile-table\``).toBe(
    true,
  );
});

test('one row per profile of the table, the default marked once', () => {
  const rows = renderProfileTable()
    .split('\n')
    .filter((l) => l.startsWith('| `'));
  expect(rows.map((l) => /^\| `([^`]+)`/.exec(l)![1])).toEqual([...PROFILE_NAMES]);
  expect(rows.filter((l) => l.includes('(default)'))).toEqual([expect.stringContaining(`\`${DEFAULT_PROFILE}\``)]);
  expect(() => withProfileTable('no markers here')).toThrow(/profile-table markers/);
});
