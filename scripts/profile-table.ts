/**
 * `npm run profile-table` writes the profile table of docs/load.md from load/lib/profiles.ts (between its
 * markers); `npm run profile-table -- --check` fails when the page's copy is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../foundation/environment/roots.ts';
import { PROFILE_PAGE, profileTableIsFresh, withProfileTable } from '../load/node/profile-table.ts';

const PAGE = join(PACKAGE_ROOT, PROFILE_PAGE);

function main(): number {
  const page = readFileSync(PAGE, 'utf8');
  if (process.argv.includes('--check')) {
    if (profileTableIsFresh(page)) {
      console.log(`${PROFILE_PAGE}: the profile table is up to date with load/lib/profiles.ts`);
      return 0;
    }
    console.error(`${PROFILE_PAGE}: the profile table is stale; run \`npm run profile-table\` and commit`);
    return 1;
  }
  const updated = withProfileTable(page);
  if (updated !== page) writeFileSync(PAGE, updated);
  console.log(`${PROFILE_PAGE}: profile table ${updated === page ? 'already up to date' : 'written'}`);
  return 0;
}

try {
  process.exit(main());
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
