/**
 * Findings group failing checks by what their evidence shows, so that one habit of an implementation is
 * one finding however many operations, probes and clauses show it. Each case is a run's evidence as the
 * suites and the contract checks write it; the report builder turns it into findings.
 */
import { expect, test } from '@playwright/test';
import { OPERATION_IDS, operationInfo, type OperationId } from '../../contracts/check.ts';
import { clauseOf, OPERATION_PREFIX, REQUIREMENTS } from '../../contracts/requirements.ts';
import type { CheckRecord, EvidenceRecord, ExchangeRecord, ViolationRecord } from '../evidence/records.ts';
import { pointerPattern } from './findings.ts';
import { headline } from '../../scenarios/report/index.ts';
import { buildReport, type ConformanceReport } from './build-report.ts';
import { emptyWaivers, parseWaivers } from './waivers.ts';

const at = '2026-01-01T00:00:00Z';
const TEST = { id: 't', file: 'scenarios/x.spec.ts', title: 'x' };
const LISTED = Object.fromEntries(OPERATION_IDS.map((op) => [op, operationInfo(op).listedStatuses]));
const POSTS: OperationId[] = ['runWorkflow', 'abortExecution', 'uploadFiles', 'generateWorkflow'];

let seq = 0;

/** One exchange, and the records the client writes for it: the exchange, then a failing check per violation. */
function answered(
  operation: OperationId,
  status: number,
  violations: Omit<ViolationRecord, 'level' | 'message'>[] = [],
  label?: string,
): { id: string; records: EvidenceRecord[] } {
  const id = `x${++seq}`;
  const { method, path } = operationInfo(operation);
  const full = violations.map((v) => ({
    ...v,
    level: REQUIREMENTS.find((r) => r.id === v.requirementId)!.level,
    message: `${v.pointer} is wrong`,
  }));
  const exchange: ExchangeRecord = {
    kind: 'exchange',
    id,
    at,
    tenant: 'A',
    method,
    url: `http://127.0.0.1:1/v1${path}`,
    operation,
    ...(label ? { label } : {}),
    request: { headers: { authorization: 'Bearer ***' }, bodyBytes: 0 },
    response: {
      status,
      headers: { 'content-type': 'application/json' },
      bodyExcerpt: '{}',
      bodyBytes: 2,
      truncated: false,
    },
    violations: full,
    durationMs: 1,
    curl: `curl -X ${method} "\${BASE_URL}"${path}`,
  };
  const checks = full.map(
    (v): CheckRecord => ({
      kind: 'check',
      requirementId: v.requirementId,
      level: v.level,
      outcome: 'fail',
      source: 'contract',
      test: TEST,
      message: v.message,
      expected: v.expected,
      actual: v.actual,
      exchangeId: id,
      at,
    }),
  );
  return { id, records: [exchange, ...checks] };
}

/** A suite's explicit judgement of an exchange. */
function judged(id: string, exchangeId: string, expected: string, actual: string): CheckRecord {
  return {
    kind: 'check',
    requirementId: id,
    level: REQUIREMENTS.find((r) => r.id === id)!.level,
    outcome: 'fail',
    source: 'suite',
    test: TEST,
    message: `${id} judged`,
    expected,
    actual,
    exchangeId,
    at,
  };
}

function blocked(id: string, by: string): CheckRecord {
  return {
    kind: 'check',
    requirementId: id,
    level: 'must',
    outcome: 'blocked',
    blockedBy: by,
    source: 'suite',
    test: TEST,
    message: 'not judged',
    at,
  };
}

/** Status clause of an operation, failed by an unlisted status. */
const unlisted = (op: OperationId, status: number) => ({
  requirementId: clauseOf(op, 'HTTP-STATUS-LISTED'),
  pointer: '#status',
  expected: `one of ${LISTED[op].join(', ')}`,
  actual: String(status),
});

const AUTH_VARIANTS = [
  'AUTH-401-MISSING-KEY',
  'AUTH-401-EMPTY-BEARER',
  'AUTH-401-WRONG-SCHEME',
  'AUTH-401-INVALID-KEY',
];

/** 403 for a missing or invalid key, on every operation: where 403 is listed the 401 clauses fail, elsewhere the status clause does. */
function forbiddenForUnauthorised(statusClauseBlocks: boolean): EvidenceRecord[] {
  return OPERATION_IDS.flatMap((op) =>
    AUTH_VARIANTS.flatMap((variant) => {
      const listed = LISTED[op].includes(403);
      const x = answered(op, 403, listed ? [] : [unlisted(op, 403)], `auth: ${variant}`);
      const own = `${OPERATION_PREFIX[op]}-401-MISSING-OR-INVALID-KEY`;
      if (!listed && statusClauseBlocks)
        return [
          ...x.records,
          blocked(variant, unlisted(op, 403).requirementId),
          blocked(own, unlisted(op, 403).requirementId),
        ];
      return [
        ...x.records,
        judged(variant, x.id, 'HTTP 401', 'HTTP 403 (E0004)'),
        judged(own, x.id, 'HTTP 401', 'HTTP 403 (E0004)'),
      ];
    }),
  );
}

/** Every successful POST answered 201. */
const createdForEveryPost = (): EvidenceRecord[] =>
  POSTS.flatMap((op) => answered(op, 201, [unlisted(op, 201)]).records);

/** Run answers 201 with a status word of its own: two deviations on one response. */
function runCreatedAndQueued(): EvidenceRecord[] {
  const enumViolation = {
    requirementId: 'EXEC-STATUS-ENUM' as const,
    pointer: '/data/status',
    expected: 'one of ["init","executing","finish","failed"]',
    actual: '"queued"',
  };
  return [1, 2, 3].flatMap(() => answered('runWorkflow', 201, [unlisted('runWorkflow', 201), enumViolation]).records);
}

/** Search served without a key: an exposure. */
function servedWithoutKey(): EvidenceRecord[] {
  const x = answered('searchWorkflows', 200, [], 'auth: no Authorization header');
  return [...x.records, judged('AUTH-NOT-SERVED-WITHOUT-KEY', x.id, 'not served (no 2xx answer)', 'HTTP 200')];
}

/** Success envelopes that say success: false (a should clause). */
const successFalse = (): EvidenceRecord[] =>
  (['getExecutionStatus', 'searchWorkflows'] as const).flatMap(
    (op) =>
      answered(op, 200, [
        { requirementId: 'ENVELOPE-SUCCESS-TRUE-ON-200', pointer: '/success', expected: 'true', actual: 'false' },
      ]).records,
  );

/** Node statuses in words of their own, in the status and the output response, at any index. */
const nodeStatusDone = (): EvidenceRecord[] => [
  ...answered('getExecutionStatus', 200, [
    {
      requirementId: 'NODE-STATUS-ENUM',
      pointer: '/data/nodeExecutions/0/status',
      expected: 'one of ["init","waiting","executing","finish","failed"]',
      actual: '"done"',
    },
    {
      requirementId: 'NODE-STATUS-ENUM',
      pointer: '/data/nodeExecutions/3/status',
      expected: 'one of ["init","waiting","executing","finish","failed"]',
      actual: '"done"',
    },
  ]).records,
  ...answered('getExecutionOutput', 200, [
    {
      requirementId: 'NODE-STATUS-ENUM',
      pointer: '/data/output/1/status',
      expected: 'one of ["init","waiting","executing","finish","failed"]',
      actual: '"completed"',
    },
  ]).records,
];

/** Unknown executions crash the lookup: 500 where 404 is wanted (the 404 clause judged), unlisted besides. */
function unknownExecutionCrashes(): EvidenceRecord[] {
  return (['getExecutionStatus', 'getExecutionOutput', 'abortExecution'] as const).flatMap((op) => {
    const x = answered(op, 500, [unlisted(op, 500)], 'plain unknown id');
    const notFound = `${OPERATION_PREFIX[op]}-404-UNKNOWN-EXECUTION`;
    return op === 'abortExecution' ? x.records : [...x.records, judged(notFound, x.id, 'HTTP 404', 'HTTP 500 (E0000)')];
  });
}

/**
 * A run body with a `variables` object refused: the wrapper clause and the file variable given in it meet the
 * same refusal (one habit); an upload refused otherwise is a deviation of its own.
 */
function wrapperRefused(withUpload: boolean): EvidenceRecord[] {
  const accept = 'accepted (2xx) with an executionId';
  const refusal = 'refused: HTTP 400 (INVALID_REQUEST_BODY)';
  const a = answered('runWorkflow', 400);
  const b = answered('runWorkflow', 400);
  const c = answered('uploadFiles', 400);
  return [
    ...a.records,
    judged('RUN-VARIABLES-WRAPPER', a.id, accept, refusal),
    ...b.records,
    judged('RUN-FILE-VARIABLE', b.id, accept, refusal),
    ...(withUpload
      ? [...c.records, judged('UPLOAD-KEY-PER-FILE', c.id, 'accepted (2xx) with fileKeys', 'refused: HTTP 400 (E3001)')]
      : []),
  ];
}

const PLAN_NULL = { requirementId: 'PLAN-FIELDS' as const, pointer: '/data', expected: 'type object', actual: 'null' };

/**
 * An unknown canvas answered 200 with `data: null`: the 404 clause judges the status, and the body, judged
 * as a plan, breaks the plan's schema — on the plain unknown id and on odd ids the 404 clause does not judge.
 * With `elsewhere`, another operation's success carries the same body violation: a deviation of its own.
 */
function unknownCanvasAsEmptySuccess(elsewhere: boolean): EvidenceRecord[] {
  const plain = answered('getWorkflowDetail', 200, [PLAN_NULL], 'plain unknown id');
  const odd = answered('getWorkflowDetail', 200, [PLAN_NULL], 'odd id (unicode)');
  const known = elsewhere ? answered('generateWorkflow', 200, [PLAN_NULL], 'generate').records : [];
  return [
    ...plain.records,
    judged('DETAIL-404-UNKNOWN-CANVAS', plain.id, 'HTTP 404', 'HTTP 200'),
    ...odd.records,
    ...known,
  ];
}

const CATALOGUE = REQUIREMENTS.map(({ id, section, level, text, why, security }) => ({
  id,
  section,
  level,
  text,
  why,
  security,
}));

function build(records: EvidenceRecord[], opts: { strict?: boolean; waivers?: string } = {}): ConformanceReport {
  return buildReport({
    catalogue: CATALOGUE,
    records,
    waivers: opts.waivers ? parseWaivers(opts.waivers, new Set(CATALOGUE.map((c) => c.id))) : emptyWaivers(),
    meta: { seed: 1, baseUrl: 'http://127.0.0.1:1/v1', targetKind: 'external', strict: !!opts.strict, startedAt: at },
    listedStatuses: LISTED,
  });
}

const statusClauses = (ops: readonly OperationId[]) => ops.map((op) => `${OPERATION_PREFIX[op]}-HTTP-STATUS-LISTED`);
const keyClauses = OPERATION_IDS.map((op) => `${OPERATION_PREFIX[op]}-401-MISSING-OR-INVALID-KEY`);
const UNLISTING_403 = OPERATION_IDS.filter((op) => !LISTED[op].includes(403));

interface Case {
  name: string;
  records: () => EvidenceRecord[];
  strict?: boolean;
  /** Per finding, in report order: its strength, security, and clauses (any order). */
  findings: { strength: 'failure' | 'warning'; security?: boolean; clauses: string[] }[];
  exitCode: number;
}

const CASES: Case[] = [
  {
    name: '(a) 403 for a missing or invalid key on every operation, the status clause blocking the 401 clauses where 403 is unlisted',
    records: () => forbiddenForUnauthorised(true),
    findings: [
      {
        strength: 'failure',
        clauses: [...statusClauses(UNLISTING_403), 'RUN-401-MISSING-OR-INVALID-KEY', ...AUTH_VARIANTS],
      },
    ],
    exitCode: 1,
  },
  {
    name: '(a) 403 for a missing or invalid key on every operation, every 401 clause judged',
    records: () => forbiddenForUnauthorised(false),
    findings: [{ strength: 'failure', clauses: [...statusClauses(UNLISTING_403), ...keyClauses, ...AUTH_VARIANTS] }],
    exitCode: 1,
  },
  {
    name: '(b) 201 for every successful POST',
    records: createdForEveryPost,
    findings: [{ strength: 'failure', clauses: statusClauses(POSTS) }],
    exitCode: 1,
  },
  {
    name: '(c) two deviations on one operation: an unlisted 201 and a status word outside the enumeration',
    records: runCreatedAndQueued,
    findings: [
      { strength: 'failure', clauses: ['RUN-HTTP-STATUS-LISTED'] },
      { strength: 'failure', clauses: ['EXEC-STATUS-ENUM'] },
    ],
    exitCode: 1,
  },
  {
    name: '(d) a security exposure and a status deviation: the exposure is listed first',
    records: () => [...createdForEveryPost(), ...servedWithoutKey()],
    findings: [
      { strength: 'failure', security: true, clauses: ['AUTH-NOT-SERVED-WITHOUT-KEY'] },
      { strength: 'failure', clauses: statusClauses(POSTS) },
    ],
    exitCode: 1,
  },
  {
    name: '(e) a should-level deviation is a warning, not a failure',
    records: successFalse,
    findings: [{ strength: 'warning', clauses: ['ENVELOPE-SUCCESS-TRUE-ON-200'] }],
    exitCode: 0,
  },
  {
    name: '(e) … and a failure under strict',
    records: successFalse,
    strict: true,
    findings: [{ strength: 'failure', clauses: ['ENVELOPE-SUCCESS-TRUE-ON-200'] }],
    exitCode: 1,
  },
  {
    name: 'one enumeration broken with several words, at several places of two operations',
    records: nodeStatusDone,
    findings: [{ strength: 'failure', clauses: ['NODE-STATUS-ENUM'] }],
    exitCode: 1,
  },
  {
    name: 'a server error where 404 is wanted, unlisted too: one finding, the server-error kind',
    records: unknownExecutionCrashes,
    findings: [
      {
        strength: 'failure',
        clauses: [
          'STATUS-404-UNKNOWN-EXECUTION',
          'OUTPUT-404-UNKNOWN-EXECUTION',
          ...statusClauses(['getExecutionStatus', 'getExecutionOutput', 'abortExecution']),
        ],
      },
    ],
    exitCode: 1,
  },
  {
    name: 'one refusal of one operation meeting two acceptance clauses is one finding; another operation refused is another',
    records: () => wrapperRefused(true),
    findings: [
      { strength: 'failure', clauses: ['RUN-VARIABLES-WRAPPER', 'RUN-FILE-VARIABLE'] },
      { strength: 'failure', clauses: ['UPLOAD-KEY-PER-FILE'] },
    ],
    exitCode: 1,
  },
  {
    name: 'a success where a refusal was wanted: its body, judged as a success, is the same finding',
    records: () => unknownCanvasAsEmptySuccess(false),
    findings: [{ strength: 'failure', clauses: ['DETAIL-404-UNKNOWN-CANVAS', 'PLAN-FIELDS'] }],
    exitCode: 1,
  },
  {
    name: '… but a body violation another operation shows too is a deviation of its own',
    records: () => unknownCanvasAsEmptySuccess(true),
    findings: [
      { strength: 'failure', clauses: ['PLAN-FIELDS'] },
      { strength: 'failure', clauses: ['DETAIL-404-UNKNOWN-CANVAS'] },
    ],
    exitCode: 1,
  },
  {
    name: 'failures and warnings are never one finding',
    records: () => [...createdForEveryPost(), ...successFalse()],
    findings: [
      { strength: 'failure', clauses: statusClauses(POSTS) },
      { strength: 'warning', clauses: ['ENVELOPE-SUCCESS-TRUE-ON-200'] },
    ],
    exitCode: 1,
  },
];

for (const c of CASES) {
  test(`findings: ${c.name}`, () => {
    const r = build(c.records(), { strict: c.strict });
    expect(
      r.findings.map((f) => ({ strength: f.strength, security: f.security, clauses: [...f.clauses].sort() })),
    ).toEqual(
      c.findings.map((f) => ({ strength: f.strength, security: f.security ?? false, clauses: [...f.clauses].sort() })),
    );
    expect(r.findings.map((f) => f.id)).toEqual(c.findings.map((_, i) => `F${i + 1}`));
    expect(r.exitCode).toBe(c.exitCode);
    const failures = c.findings.filter((f) => f.strength === 'failure');
    expect(r.summary.findings).toEqual({
      failures: failures.length,
      security: failures.filter((f) => f.security).length,
      warnings: c.findings.length - failures.length,
      waived: 0,
    });
  });
}

test('a finding names the deviation, where it showed, an example exchange with its reproducer, and the others', () => {
  const r = build(forbiddenForUnauthorised(true));
  const [f] = r.findings;
  expect(f.behaviour).toBe('Answers HTTP 403 where HTTP 401 is expected');
  expect(f.operations).toEqual([...OPERATION_IDS].sort());
  expect(f.probes).toEqual([...AUTH_VARIANTS.map((v) => `auth: ${v}`)].sort());
  expect(f.exchanges).toBe(OPERATION_IDS.length * AUTH_VARIANTS.length);
  expect(f.example).toMatchObject({
    requirementId: 'RUN-401-MISSING-OR-INVALID-KEY',
    status: 403,
    operation: 'runWorkflow',
  });
  expect(f.example.curl).toContain('curl -X POST');
  expect(f.example.request).toContain('POST http://127.0.0.1:1/v1');
  expect(f.otherExchanges.length + f.moreExchanges).toBe(f.exchanges - 1);
  // Clauses it kept from being judged (the 401 clauses of operations that do not list 403) are not failures of their own.
  expect(f.blocked).toEqual(UNLISTING_403.map((op) => `${OPERATION_PREFIX[op]}-401-MISSING-OR-INVALID-KEY`));
  expect(headline(r)).toBe(
    `FAIL — 1 finding; ${f.clauses.length} clauses failing, ${r.summary.byVerdict.blocked} blocked`,
  );
});

test('findings count in the headline: security first, warnings apart, clauses under them', () => {
  const r = build([...createdForEveryPost(), ...servedWithoutKey(), ...successFalse(), ...nodeStatusDone()]);
  expect(headline(r)).toBe('FAIL — 3 findings (1 security), 1 warning; 6 clauses failing, 0 blocked');
  expect(r.findings.map((f) => f.severity)).toEqual(['security', 'deviation', 'deviation', 'deviation']);
});

test('a finding all of whose clauses are waived is waived; one with an unwaived clause is not', () => {
  const waiveAll = `waivers:\n${statusClauses(POSTS)
    .map((id) => `  - id: ${id}\n    reason: 201 is on the roadmap\n`)
    .join('')}`;
  const all = build(createdForEveryPost(), { waivers: waiveAll });
  expect(all.findings.map((f) => f.waived)).toEqual([true]);
  expect(all.summary.findings).toEqual({ failures: 0, security: 0, warnings: 0, waived: 1 });
  expect(all.exitCode).toBe(0);
  expect(headline(all)).toBe('PASS — no failing finding; 1 waived');

  const some = build(createdForEveryPost(), {
    waivers: 'waivers:\n  - id: RUN-HTTP-STATUS-LISTED\n    reason: run only\n',
  });
  expect(some.findings.map((f) => f.waived)).toEqual([false]);
  expect(some.summary.findings.failures).toBe(1);
});

test('an operation-free pointer names one place of a document whichever item', () => {
  expect(pointerPattern('/data/output/12/messages/0/type')).toBe('/data/output/*/messages/*/type');
  expect(pointerPattern('/data/status')).toBe('/data/status');
  expect(pointerPattern('')).toBe('');
});

test('a clause blocked by a clause that was itself blocked by a finding is kept from being judged by that finding', () => {
  const r = build([
    ...createdForEveryPost(),
    blocked('RUN-RETURNS-EXECUTION-ID', 'RUN-HTTP-STATUS-LISTED'),
    blocked('STATE-TERMINAL', 'RUN-RETURNS-EXECUTION-ID'),
  ]);
  expect(r.findings[0].blocked).toEqual(['RUN-RETURNS-EXECUTION-ID', 'STATE-TERMINAL']);
});
