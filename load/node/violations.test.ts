/** The closing output of a load run with findings names, per operation, the clauses its examples break. */
import { test, expect } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clausesInExamples, describeClauses } from './violations.ts';

test('the clauses broken and warned about are listed once per operation', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-violations-'));
  try {
    const file = join(dir, 'violations.ndjson');
    const example = (operation: string, violations: { requirementId: string; level: string }[]) =>
      JSON.stringify({ operation, request: 'GET u', status: 200, bodyExcerpt: '{}', violations });
    writeFileSync(
      file,
      [
        example('getExecutionStatus', [
          { requirementId: 'STATUS-200-DATA', level: 'must' },
          { requirementId: 'JSON-CONTENT-TYPE', level: 'should' },
        ]),
        example('getExecutionStatus', [
          { requirementId: 'EXEC-STATUS-ENUM', level: 'must' },
          { requirementId: 'STATUS-200-DATA', level: 'must' },
        ]),
        example('searchWorkflows', [{ requirementId: 'ENVELOPE-STACK-DEV-ONLY', level: 'should' }]),
        example('getWorkflowDetail', [{ requirementId: 'SEARCH-PAGESIZE-DEFAULT', level: 'observe' }]),
        'not json',
      ].join('\n'),
    );
    expect(describeClauses(clausesInExamples(file))).toEqual([
      'getExecutionStatus: breaks EXEC-STATUS-ENUM, STATUS-200-DATA; warned about JSON-CONTENT-TYPE',
      'searchWorkflows: warned about ENVELOPE-STACK-DEV-ONLY',
    ]);
    expect(clausesInExamples(join(dir, 'absent.ndjson'))).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
