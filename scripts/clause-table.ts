/**
 * `npm run clause-table` writes the clause table of docs/clauses.md from contracts/requirements.ts
 * (between its markers); `npm run clause-table -- --check` fails when the page's copy is stale.
 */
import { CLAUSE_PAGE, clauseTableIsFresh, withClauseTable } from '../contracts/clause-table.ts';
import { refreshGeneratedPart } from '../core/settings/generated-page.ts';

try {
  process.exit(
    refreshGeneratedPart(
      {
        page: CLAUSE_PAGE,
        part: 'clause table',
        source: 'contracts/requirements.ts',
        script: 'clause-table',
        isFresh: clauseTableIsFresh,
        written: withClauseTable,
      },
      process.argv,
    ),
  );
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
