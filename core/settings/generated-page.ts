/**
 * The commands that keep a generated part of a page fresh (`npm run clause-table`, `npm run profile-table`):
 * write the part from its source, or with `--check` say whether the page's copy is stale (exit 1).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from './roots.ts';

export interface GeneratedPart {
  /** The page, from the package root: "docs/clauses.md". */
  page: string;
  /** What the part is, in the messages: "clause table". */
  part: string;
  /** Where it is generated from, in the messages: "contracts/requirements.ts". */
  source: string;
  /** The npm script that writes it. */
  script: string;
  isFresh(page: string): boolean;
  /** The page with the part written anew. */
  written(page: string): string;
}

/** Writes the part, or checks it with `--check` in `argv`; returns the exit code. */
export function refreshGeneratedPart(g: GeneratedPart, argv: readonly string[]): number {
  const path = join(PACKAGE_ROOT, g.page);
  const page = readFileSync(path, 'utf8');
  if (argv.includes('--check')) {
    if (g.isFresh(page)) {
      console.log(`${g.page}: the ${g.part} is up to date with ${g.source}`);
      return 0;
    }
    console.error(`${g.page}: the ${g.part} is stale; run \`npm run ${g.script}\` and commit`);
    return 1;
  }
  const updated = g.written(page);
  if (updated !== page) writeFileSync(path, updated);
  console.log(`${g.page}: ${g.part} ${updated === page ? 'already up to date' : 'written'}`);
  return 0;
}
