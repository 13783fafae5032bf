/**
 * `npm run clause-table` writes the clause table of docs/clauses.md from contracts/requirements.ts
 * (between its markers); `npm run clause-table -- --check` fails when the page's copy is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLAUSE_PAGE, clauseTableIsFresh, withClauseTable } from '../contracts/clause-table.ts';
import { PACKAGE_ROOT } from '../foundation/environment/roots.ts';

const PAGE = join(PACKAGE_ROOT, CLAUSE_PAGE);

function main(): number {
  const page = readFileSync(PAGE, 'utf8');
  if (process.argv.includes('--check')) {
    if (clauseTableIsFresh(page)) {
      console.log(`${CLAUSE_PAGE}: the clause table is up to date with contracts/requirements.ts`);
      return 0;
    }
    console.error(`${CLAUSE_PAGE}: the clause table is stale; run \`npm run clause-table\` and commit`);
    return 1;
  }
  const updated = withClauseTable(page);
  if (updated !== page) writeFileSync(PAGE, updated);
  console.log(`${CLAUSE_PAGE}: clause table ${updated === page ? 'already up to date' : 'written'}`);
  return 0;
}

try {
  process.exit(main());
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
