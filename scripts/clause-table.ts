/**
 * `npm run clause-table` writes the README's clause table from contracts/requirements.ts (between its
 * markers); `npm run clause-table -- --check` fails when the README's copy is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clauseTableIsFresh, withClauseTable } from '../contracts/clause-table.ts';
import { PACKAGE_ROOT } from '../foundation/environment/config.ts';

const README = join(PACKAGE_ROOT, 'README.md');

function main(): number {
  const readme = readFileSync(README, 'utf8');
  if (process.argv.includes('--check')) {
    if (clauseTableIsFresh(readme)) {
      console.log('README.md: the clause table is up to date with contracts/requirements.ts');
      return 0;
    }
    console.error('README.md: the clause table is stale; run `npm run clause-table` and commit');
    return 1;
  }
  const updated = withClauseTable(readme);
  if (updated !== readme) writeFileSync(README, updated);
  console.log(`README.md: clause table ${updated === readme ? 'already up to date' : 'written'}`);
  return 0;
}

try {
  process.exit(main());
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
