/**
 * Pins which clauses a clean response is credited for, per operation and status: every listed status, and
 * unlisted ones (a plain unlisted 4xx, the 429 of rate limiting, a 5xx). Spelled out rather than derived:
 * the conformance report credits passes from these sets, so a change to a check's `covers` must show up
 * here as a change of what gets credited.
 */
import { test, expect } from '@playwright/test';
import { clausesCheckedFor } from './coverage.ts';
import { OPERATION_IDS, OPERATIONS, type OperationId } from './generated/operations.ts';
import { REQUIREMENTS } from './requirements.ts';

const UNLISTED = [201, 418, 429, 500];

/** [operation, statuses, the clauses a clean response of each of those statuses credits]. */
const CREDITED: [OperationId, number[], string[]][] = [
  [
    'runWorkflow',
    [200],
    [
      'RUN-HTTP-STATUS-LISTED',
      'RUN-200-ENVELOPE',
      'RUN-200-DATA',
      'EXEC-STATUS-ENUM',
      'RUN-200-ONLY-EXECUTIONID-STATUS',
      'JSON-CONTENT-TYPE',
      'ENVELOPE-SUCCESS-TRUE-ON-200',
      'ENVELOPE-STACK-DEV-ONLY',
    ],
  ],
  [
    'runWorkflow',
    [201],
    [
      'RUN-HTTP-STATUS-LISTED',
      'RUN-200-ENVELOPE',
      'RUN-200-DATA',
      'EXEC-STATUS-ENUM',
      'RUN-200-ONLY-EXECUTIONID-STATUS',
      'JSON-CONTENT-TYPE',
    ],
  ],
  ['runWorkflow', [400, 401, 403, 404], ['RUN-HTTP-STATUS-LISTED', 'ERROR-CODE-STATUS-CONSISTENT']],
  ['runWorkflow', [418, 429, 500], ['RUN-HTTP-STATUS-LISTED']],
  [
    'abortExecution',
    [200],
    [
      'ABORT-HTTP-STATUS-LISTED',
      'ABORT-200-ENVELOPE',
      'ABORT-200-NO-DATA',
      'JSON-CONTENT-TYPE',
      'ENVELOPE-SUCCESS-TRUE-ON-200',
      'ENVELOPE-STACK-DEV-ONLY',
    ],
  ],
  [
    'abortExecution',
    [201],
    ['ABORT-HTTP-STATUS-LISTED', 'ABORT-200-ENVELOPE', 'ABORT-200-NO-DATA', 'JSON-CONTENT-TYPE'],
  ],
  ['abortExecution', [401, 404], ['ABORT-HTTP-STATUS-LISTED', 'ERROR-CODE-STATUS-CONSISTENT']],
  ['abortExecution', [418, 429, 500], ['ABORT-HTTP-STATUS-LISTED']],
  [
    'getExecutionOutput',
    [200],
    [
      'OUTPUT-HTTP-STATUS-LISTED',
      'OUTPUT-200-ENVELOPE',
      'OUTPUT-200-DATA',
      'OUTPUT-NODE-FIELDS',
      'NODE-STATUS-ENUM',
      'DATETIME-FORMAT',
      'DATETIME-OFFSET',
      'OUTPUT-MESSAGE-FIELDS',
      'MESSAGE-TYPE-ENUM',
      'OUTPUT-FILE-FIELDS',
      'JSON-CONTENT-TYPE',
      'ENVELOPE-SUCCESS-TRUE-ON-200',
      'ENVELOPE-STACK-DEV-ONLY',
    ],
  ],
  [
    'getExecutionOutput',
    [201],
    [
      'OUTPUT-HTTP-STATUS-LISTED',
      'OUTPUT-200-ENVELOPE',
      'OUTPUT-200-DATA',
      'OUTPUT-NODE-FIELDS',
      'NODE-STATUS-ENUM',
      'DATETIME-FORMAT',
      'DATETIME-OFFSET',
      'OUTPUT-MESSAGE-FIELDS',
      'MESSAGE-TYPE-ENUM',
      'OUTPUT-FILE-FIELDS',
      'JSON-CONTENT-TYPE',
    ],
  ],
  ['getExecutionOutput', [401, 404], ['OUTPUT-HTTP-STATUS-LISTED', 'ERROR-CODE-STATUS-CONSISTENT']],
  ['getExecutionOutput', [418, 429, 500], ['OUTPUT-HTTP-STATUS-LISTED']],
  [
    'getExecutionStatus',
    [200],
    [
      'STATUS-HTTP-STATUS-LISTED',
      'STATUS-200-ENVELOPE',
      'STATUS-200-DATA',
      'EXEC-STATUS-ENUM',
      'STATUS-NODE-FIELDS',
      'NODE-STATUS-ENUM',
      'DATETIME-FORMAT',
      'DATETIME-OFFSET',
      'JSON-CONTENT-TYPE',
      'ENVELOPE-SUCCESS-TRUE-ON-200',
      'ENVELOPE-STACK-DEV-ONLY',
    ],
  ],
  [
    'getExecutionStatus',
    [201],
    [
      'STATUS-HTTP-STATUS-LISTED',
      'STATUS-200-ENVELOPE',
      'STATUS-200-DATA',
      'EXEC-STATUS-ENUM',
      'STATUS-NODE-FIELDS',
      'NODE-STATUS-ENUM',
      'DATETIME-FORMAT',
      'DATETIME-OFFSET',
      'JSON-CONTENT-TYPE',
    ],
  ],
  ['getExecutionStatus', [401, 404], ['STATUS-HTTP-STATUS-LISTED', 'ERROR-CODE-STATUS-CONSISTENT']],
  ['getExecutionStatus', [418, 429, 500], ['STATUS-HTTP-STATUS-LISTED']],
  [
    'searchWorkflows',
    [200],
    [
      'SEARCH-HTTP-STATUS-LISTED',
      'SEARCH-200-ENVELOPE',
      'SEARCH-200-DATA',
      'SEARCH-ITEM-FIELDS',
      'JSON-CONTENT-TYPE',
      'ENVELOPE-SUCCESS-TRUE-ON-200',
      'ENVELOPE-STACK-DEV-ONLY',
    ],
  ],
  [
    'searchWorkflows',
    [201],
    ['SEARCH-HTTP-STATUS-LISTED', 'SEARCH-200-ENVELOPE', 'SEARCH-200-DATA', 'SEARCH-ITEM-FIELDS', 'JSON-CONTENT-TYPE'],
  ],
  ['searchWorkflows', [401], ['SEARCH-HTTP-STATUS-LISTED', 'ERROR-CODE-STATUS-CONSISTENT']],
  ['searchWorkflows', [418, 429, 500], ['SEARCH-HTTP-STATUS-LISTED']],
  [
    'getWorkflowDetail',
    [200],
    [
      'DETAIL-HTTP-STATUS-LISTED',
      'DETAIL-200-ENVELOPE',
      'DETAIL-200-DATA',
      'PLAN-FIELDS',
      'PLAN-TASK-FIELDS',
      'PLAN-VARIABLE-FIELDS',
      'VARIABLE-TYPE-ENUM',
      'JSON-CONTENT-TYPE',
      'ENVELOPE-SUCCESS-TRUE-ON-200',
      'ENVELOPE-STACK-DEV-ONLY',
    ],
  ],
  [
    'getWorkflowDetail',
    [201],
    [
      'DETAIL-HTTP-STATUS-LISTED',
      'DETAIL-200-ENVELOPE',
      'DETAIL-200-DATA',
      'PLAN-FIELDS',
      'PLAN-TASK-FIELDS',
      'PLAN-VARIABLE-FIELDS',
      'VARIABLE-TYPE-ENUM',
      'JSON-CONTENT-TYPE',
    ],
  ],
  ['getWorkflowDetail', [401, 404], ['DETAIL-HTTP-STATUS-LISTED', 'ERROR-CODE-STATUS-CONSISTENT']],
  ['getWorkflowDetail', [418, 429, 500], ['DETAIL-HTTP-STATUS-LISTED']],
  [
    'uploadFiles',
    [200],
    [
      'UPLOAD-HTTP-STATUS-LISTED',
      'UPLOAD-200-ENVELOPE',
      'UPLOAD-200-DATA',
      'JSON-CONTENT-TYPE',
      'ENVELOPE-SUCCESS-TRUE-ON-200',
      'ENVELOPE-STACK-DEV-ONLY',
    ],
  ],
  ['uploadFiles', [201], ['UPLOAD-HTTP-STATUS-LISTED', 'UPLOAD-200-ENVELOPE', 'UPLOAD-200-DATA', 'JSON-CONTENT-TYPE']],
  ['uploadFiles', [400, 401], ['UPLOAD-HTTP-STATUS-LISTED', 'ERROR-CODE-STATUS-CONSISTENT']],
  ['uploadFiles', [418, 429, 500], ['UPLOAD-HTTP-STATUS-LISTED']],
  [
    'generateWorkflow',
    [200],
    [
      'GENERATE-HTTP-STATUS-LISTED',
      'GENERATE-200-ENVELOPE',
      'GENERATE-200-DATA',
      'PLAN-FIELDS',
      'PLAN-TASK-FIELDS',
      'PLAN-VARIABLE-FIELDS',
      'VARIABLE-TYPE-ENUM',
      'JSON-CONTENT-TYPE',
      'ENVELOPE-SUCCESS-TRUE-ON-200',
      'ENVELOPE-STACK-DEV-ONLY',
    ],
  ],
  [
    'generateWorkflow',
    [201],
    [
      'GENERATE-HTTP-STATUS-LISTED',
      'GENERATE-200-ENVELOPE',
      'GENERATE-200-DATA',
      'PLAN-FIELDS',
      'PLAN-TASK-FIELDS',
      'PLAN-VARIABLE-FIELDS',
      'VARIABLE-TYPE-ENUM',
      'JSON-CONTENT-TYPE',
    ],
  ],
  ['generateWorkflow', [400], ['GENERATE-HTTP-STATUS-LISTED', 'GENERATE-400-BODY', 'JSON-CONTENT-TYPE']],
  ['generateWorkflow', [401, 404], ['GENERATE-HTTP-STATUS-LISTED', 'ERROR-CODE-STATUS-CONSISTENT']],
  ['generateWorkflow', [418, 429, 500], ['GENERATE-HTTP-STATUS-LISTED']],
];

for (const op of OPERATION_IDS) {
  test(`${op}: the statuses pinned are every listed one and ${UNLISTED.join(', ')}`, () => {
    const pinned = CREDITED.filter(([o]) => o === op).flatMap(([, statuses]) => statuses);
    expect(pinned.sort((a, b) => a - b)).toEqual([...OPERATIONS[op].statuses, ...UNLISTED].sort((a, b) => a - b));
  });
}

for (const [op, statuses, ids] of CREDITED) {
  test(`${op} ${statuses.join(', ')}: the clauses credited`, () => {
    for (const status of statuses)
      expect([...clausesCheckedFor(op, status)].sort(), String(status)).toEqual([...ids].sort());
  });
}

/** A body that did not parse, or an envelope without its payload, credits less than a payload. */
const BY_BODY: [OperationId, number, 'no-payload' | 'unparsed', string[]][] = [
  [
    'runWorkflow',
    200,
    'no-payload',
    [
      'RUN-HTTP-STATUS-LISTED',
      'RUN-200-ENVELOPE',
      'JSON-CONTENT-TYPE',
      'ENVELOPE-SUCCESS-TRUE-ON-200',
      'ENVELOPE-STACK-DEV-ONLY',
    ],
  ],
  [
    'getWorkflowDetail',
    200,
    'no-payload',
    [
      'DETAIL-HTTP-STATUS-LISTED',
      'DETAIL-200-ENVELOPE',
      'JSON-CONTENT-TYPE',
      'ENVELOPE-SUCCESS-TRUE-ON-200',
      'ENVELOPE-STACK-DEV-ONLY',
    ],
  ],
  ['getExecutionStatus', 201, 'no-payload', ['STATUS-HTTP-STATUS-LISTED', 'STATUS-200-ENVELOPE', 'JSON-CONTENT-TYPE']],
  ['runWorkflow', 200, 'unparsed', ['RUN-HTTP-STATUS-LISTED', 'RUN-200-ENVELOPE']],
  ['runWorkflow', 201, 'unparsed', ['RUN-HTTP-STATUS-LISTED']],
  ['runWorkflow', 404, 'unparsed', ['RUN-HTTP-STATUS-LISTED']],
  ['generateWorkflow', 400, 'no-payload', ['GENERATE-HTTP-STATUS-LISTED', 'GENERATE-400-BODY', 'JSON-CONTENT-TYPE']],
];

for (const [op, status, body, ids] of BY_BODY) {
  test(`${op} ${status} with a body that is ${body}: the clauses credited`, () => {
    expect([...clausesCheckedFor(op, status, body)].sort()).toEqual([...ids].sort());
  });
}

test('credited clauses are catalogued and can pass (no observe clause is credited)', () => {
  const levels = new Map(REQUIREMENTS.map((r) => [r.id, r.level]));
  for (const [op, statuses] of CREDITED) {
    for (const status of statuses) {
      for (const id of clausesCheckedFor(op, status))
        expect(['must', 'should'], `${op} ${status} ${id}`).toContain(levels.get(id));
    }
  }
});
