/**
 * `npm run profile-table` writes the profile table of docs/load.md from load/k6/lib/profiles.ts (between its
 * markers); `npm run profile-table -- --check` fails when the page's copy is stale.
 */
import { refreshGeneratedPart } from '../core/settings/generated-page.ts';
import { PROFILE_PAGE, profileTableIsFresh, withProfileTable } from '../load/node/profile-table.ts';

try {
  process.exit(
    refreshGeneratedPart(
      {
        page: PROFILE_PAGE,
        part: 'profile table',
        source: 'load/k6/lib/profiles.ts',
        script: 'profile-table',
        isFresh: profileTableIsFresh,
        written: withProfileTable,
      },
      process.argv,
    ),
  );
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
