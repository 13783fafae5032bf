/**
 * The clause table of docs/clauses.md is the one the catalogue generates: a level, a quote, another
 * reading or a condition changed in contracts/requirements.ts without `npm run clause-table` fails here.
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CLAUSE_PAGE,
  clauseTableIsFresh,
  renderClauseTable,
  TABLE_BEGIN,
  TABLE_END,
  withClauseTable,
} from './clause-table.ts';
import { REQUIREMENTS, type Requirement } from './requirements.ts';

const page = readFileSync(join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), CLAUSE_PAGE), 'utf8');

test(`the clause table of ${CLAUSE_PAGE} is fresh (npm run clause-table)`, () => {
  expect(clauseTableIsFresh(page), `${CLAUSE_PAGE}: the clause table is stale; run \`npm run clause-table\``).toBe(
    true,
  );
});

test('a changed clause makes the section stale, and regenerating it makes it fresh again', () => {
  const changed: Requirement[] = REQUIREMENTS.map((r) =>
    r.id === 'LIMIT-CONTENT-100K' ? { ...r, appliesWhen: 'any request at all' } : r,
  );
  const section = renderClauseTable(changed);
  expect(clauseTableIsFresh(page, section)).toBe(false);
  expect(clauseTableIsFresh(withClauseTable(page, section), section)).toBe(true);
  expect(() => withClauseTable('no markers here')).toThrow(/clause-table markers/);
});

test('one row per clause, with its level, its words, and pipes and angle brackets escaped', () => {
  const section = renderClauseTable();
  expect(section.startsWith(TABLE_BEGIN) && section.endsWith(TABLE_END)).toBe(true);
  const rows = section.split('\n').filter((l) => /^\| [A-Z][A-Z0-9-]* +\|/.test(l));
  const idOf = (l: string) => l.split('|')[1]!.trim();
  expect(rows.map(idOf)).toEqual(REQUIREMENTS.map((r) => r.id));
  const rowOf = (id: string) => rows.find((l) => idOf(l) === id)!;
  expect(rowOf('AUTH-401-WRONG-SCHEME')).toContain('&lt;API_KEY&gt;');
  expect(rowOf('STATUS-NODE-FIELDS')).toContain('\\| data.nodeExecutions[].nodeId \\| string \\| yes \\| node ID \\|');
  expect(rowOf('RUN-VALUE-KINDS')).toMatch(/\| should +\|/);
  // Every row has exactly five cells once escaped pipes are set aside, padded to one width per column.
  for (const l of rows) expect(l.replace(/\\\|/g, '').split('|').length, l).toBe(7);
  expect(
    new Set(
      section
        .split('\n')
        .filter((l) => l.startsWith('| '))
        .map((l) => l.length),
    ).size,
  ).toBe(1);
});

test('every should that a careful implementer could read otherwise says how, and the clauses moved from must do', () => {
  const moved = ['RUN-VALUE-KINDS'];
  for (const id of moved) {
    const r = REQUIREMENTS.find((x) => x.id === id)!;
    expect(r.level, id).toBe('should');
    expect(r.otherReading, id).toBeTruthy();
  }
  // An other reading means the words do not settle it: such a clause cannot fail the run.
  for (const r of REQUIREMENTS.filter((x) => x.otherReading)) expect(r.level, r.id).not.toBe('must');
});
