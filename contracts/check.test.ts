/**
 * Table-driven tests of the checking API: for each operation and listed status, a valid example passes,
 * and single mutations of it each fail with the requirement ID the mutation breaks.
 */
import { test, expect } from '@playwright/test';
import {
  checkResponse,
  failures,
  operationFor,
  operationInfo,
  OPERATION_IDS,
  type OperationId,
  type Violation,
} from './check.ts';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };
const NOW = '2026-11-22T09:00:00.000Z';

const plan = () => ({
  title: 'Weekly report',
  tasks: [
    { id: 't1', title: 'Collect', prompt: 'Collect the data', toolsets: ['web'] },
    { id: 't2', title: 'Write', prompt: 'Write the report', toolsets: [], dependentTasks: ['t1'] },
  ],
  variables: [
    { name: 'topic', variableType: 'string', required: true },
    { name: 'tone', variableType: 'option', required: false, options: ['formal', 'casual'] },
    { name: 'source', variableType: 'resource' },
  ],
});

/** A valid 200 body per operation. */
const VALID_200: Record<OperationId, () => unknown> = {
  runWorkflow: () => ({ success: true, data: { executionId: 'ex-1', status: 'init' } }),
  abortExecution: () => ({ success: true }),
  getExecutionOutput: () => ({
    success: true,
    traceId: 'tr-1',
    data: {
      output: [
        {
          nodeId: 't1',
          title: 'Collect',
          status: 'finish',
          startTime: NOW,
          endTime: NOW,
          messages: [
            { messageId: 'm1', type: 'ai', content: 'done', reasoningContent: 'because' },
            { messageId: 'm2', type: 'tool' },
          ],
        },
      ],
      files: [{ name: 'report.pdf', type: 'application/pdf', size: 1024, nodeId: 't1', url: 'http://127.0.0.1/f/1' }],
    },
  }),
  getExecutionStatus: () => ({
    success: true,
    data: {
      executionId: 'ex-1',
      status: 'executing',
      createdAt: NOW,
      nodeExecutions: [{ nodeId: 't1', status: 'waiting', title: 'Collect' }],
    },
  }),
  searchWorkflows: () => ({ success: true, data: [{ canvasId: 'c-1', title: 'Weekly report' }] }),
  getWorkflowDetail: () => ({ success: true, data: plan() }),
  uploadFiles: () => ({ success: true, data: { files: [{ fileKey: 'fk-1', fileName: 'a.csv' }] } }),
  generateWorkflow: () => ({ success: true, data: { canvasId: 'c-9', workflowPlan: plan() } }),
};

/**
 * A valid example body that a test edits: mutations reach into any field to break one clause, and the
 * checker under test is what judges the result, so the shape is deliberately left open.
 */
// biome-ignore lint/suspicious/noExplicitAny: mutations edit arbitrary fields of example JSON on purpose
type EditedJson = any;

type Mutation = [name: string, mutate: (body: EditedJson) => unknown, expectedId: string];

/** Mutations applicable to every 200 envelope; `{op}` is the operation's requirement prefix. */
const ENVELOPE_MUTATIONS: Mutation[] = [
  [
    'missing success',
    (b) => {
      delete b.success;
      return b;
    },
    '{op}-200-ENVELOPE',
  ],
  ['success as a string', (b) => ({ ...b, success: 'true' }), '{op}-200-ENVELOPE'],
  ['errCode as a number', (b) => ({ ...b, errCode: 0 }), '{op}-200-ENVELOPE'],
  ['traceId as an object', (b) => ({ ...b, traceId: {} }), '{op}-200-ENVELOPE'],
  ['body is an array', (b) => [b], '{op}-200-ENVELOPE'],
];

const OPERATION_MUTATIONS: Record<OperationId, Mutation[]> = {
  runWorkflow: [
    ['missing data', (b) => ({ success: b.success }), 'RUN-200-DATA'],
    ['data is an array', (b) => ({ ...b, data: [] }), 'RUN-200-DATA'],
    [
      'executionId as a number',
      (b) => {
        b.data.executionId = 7;
        return b;
      },
      'RUN-200-DATA',
    ],
    [
      'status outside the enum',
      (b) => {
        b.data.status = 'running';
        return b;
      },
      'EXEC-STATUS-ENUM',
    ],
    [
      'extra field in run data',
      (b) => {
        b.data.nodeExecutions = [];
        return b;
      },
      'RUN-200-ONLY-EXECUTIONID-STATUS',
    ],
  ],
  abortExecution: [
    ['data object', (b) => ({ ...b, data: {} }), 'ABORT-200-NO-DATA'],
    ['data array', (b) => ({ ...b, data: [] }), 'ABORT-200-NO-DATA'],
  ],
  getExecutionOutput: [
    ['missing data', () => ({ success: true }), 'OUTPUT-200-DATA'],
    [
      'output not an array',
      (b) => {
        b.data.output = {};
        return b;
      },
      'OUTPUT-200-DATA',
    ],
    [
      'node without nodeId',
      (b) => {
        delete b.data.output[0].nodeId;
        return b;
      },
      'OUTPUT-NODE-FIELDS',
    ],
    [
      'node status outside the enum',
      (b) => {
        b.data.output[0].status = 'done';
        return b;
      },
      'NODE-STATUS-ENUM',
    ],
    [
      'malformed startTime',
      (b) => {
        b.data.output[0].startTime = '22/11/2026';
        return b;
      },
      'DATETIME-FORMAT',
    ],
    [
      'message without messageId',
      (b) => {
        delete b.data.output[0].messages[0].messageId;
        return b;
      },
      'OUTPUT-MESSAGE-FIELDS',
    ],
    [
      'message without type',
      (b) => {
        delete b.data.output[0].messages[0].type;
        return b;
      },
      'OUTPUT-MESSAGE-FIELDS',
    ],
    [
      'message type outside the enum',
      (b) => {
        b.data.output[0].messages[0].type = 'human';
        return b;
      },
      'MESSAGE-TYPE-ENUM',
    ],
    [
      'content as a number',
      (b) => {
        b.data.output[0].messages[0].content = 1;
        return b;
      },
      'OUTPUT-MESSAGE-FIELDS',
    ],
    [
      'file without name',
      (b) => {
        delete b.data.files[0].name;
        return b;
      },
      'OUTPUT-FILE-FIELDS',
    ],
    [
      'file without type',
      (b) => {
        delete b.data.files[0].type;
        return b;
      },
      'OUTPUT-FILE-FIELDS',
    ],
    [
      'file size as a string',
      (b) => {
        b.data.files[0].size = '1 KB';
        return b;
      },
      'OUTPUT-FILE-FIELDS',
    ],
  ],
  getExecutionStatus: [
    ['missing data', () => ({ success: true }), 'STATUS-200-DATA'],
    [
      'status outside the enum',
      (b) => {
        b.data.status = 'done';
        return b;
      },
      'EXEC-STATUS-ENUM',
    ],
    [
      'nodeExecutions not an array',
      (b) => {
        b.data.nodeExecutions = {};
        return b;
      },
      'STATUS-200-DATA',
    ],
    [
      'node without nodeId',
      (b) => {
        delete b.data.nodeExecutions[0].nodeId;
        return b;
      },
      'STATUS-NODE-FIELDS',
    ],
    [
      'node status outside the enum',
      (b) => {
        b.data.nodeExecutions[0].status = 'queued';
        return b;
      },
      'NODE-STATUS-ENUM',
    ],
    [
      'errorMessage as null',
      (b) => {
        b.data.nodeExecutions[0].errorMessage = null;
        return b;
      },
      'STATUS-NODE-FIELDS',
    ],
    [
      'malformed createdAt',
      (b) => {
        b.data.createdAt = '2026-11-22 09:00';
        return b;
      },
      'DATETIME-FORMAT',
    ],
    [
      'createdAt as epoch number',
      (b) => {
        b.data.createdAt = 1_700_000_000;
        return b;
      },
      'DATETIME-FORMAT',
    ],
  ],
  searchWorkflows: [
    ['missing data', () => ({ success: true }), 'SEARCH-200-DATA'],
    ['data is an object', (b) => ({ ...b, data: { items: b.data } }), 'SEARCH-200-DATA'],
    [
      'item without canvasId',
      (b) => {
        delete b.data[0].canvasId;
        return b;
      },
      'SEARCH-ITEM-FIELDS',
    ],
    [
      'item title as a number',
      (b) => {
        b.data[0].title = 3;
        return b;
      },
      'SEARCH-ITEM-FIELDS',
    ],
  ],
  getWorkflowDetail: [
    ['missing data', () => ({ success: true }), 'DETAIL-200-DATA'],
    [
      'plan without title',
      (b) => {
        delete b.data.title;
        return b;
      },
      'PLAN-FIELDS',
    ],
    [
      'plan without tasks',
      (b) => {
        delete b.data.tasks;
        return b;
      },
      'PLAN-FIELDS',
    ],
    [
      'task without prompt',
      (b) => {
        delete b.data.tasks[0].prompt;
        return b;
      },
      'PLAN-TASK-FIELDS',
    ],
    [
      'task without toolsets',
      (b) => {
        delete b.data.tasks[0].toolsets;
        return b;
      },
      'PLAN-TASK-FIELDS',
    ],
    [
      'toolsets with a number',
      (b) => {
        b.data.tasks[0].toolsets = [1];
        return b;
      },
      'PLAN-TASK-FIELDS',
    ],
    [
      'dependentTasks as a string',
      (b) => {
        b.data.tasks[1].dependentTasks = 't1';
        return b;
      },
      'PLAN-TASK-FIELDS',
    ],
    [
      'variable without name',
      (b) => {
        delete b.data.variables[0].name;
        return b;
      },
      'PLAN-VARIABLE-FIELDS',
    ],
    [
      'variableType outside the enum',
      (b) => {
        b.data.variables[0].variableType = 'file';
        return b;
      },
      'VARIABLE-TYPE-ENUM',
    ],
    [
      'required as a string',
      (b) => {
        b.data.variables[0].required = 'yes';
        return b;
      },
      'PLAN-VARIABLE-FIELDS',
    ],
  ],
  uploadFiles: [
    ['missing data', () => ({ success: true }), 'UPLOAD-200-DATA'],
    ['data without files', (b) => ({ ...b, data: {} }), 'UPLOAD-200-DATA'],
    [
      'file without fileKey',
      (b) => {
        delete b.data.files[0].fileKey;
        return b;
      },
      'UPLOAD-200-DATA',
    ],
    [
      'file without fileName',
      (b) => {
        delete b.data.files[0].fileName;
        return b;
      },
      'UPLOAD-200-DATA',
    ],
  ],
  generateWorkflow: [
    ['missing data', () => ({ success: true }), 'GENERATE-200-DATA'],
    ['data without workflowPlan', (b) => ({ ...b, data: { canvasId: 'c' } }), 'GENERATE-200-DATA'],
    [
      'canvasId as a number',
      (b) => {
        b.data.canvasId = 9;
        return b;
      },
      'GENERATE-200-DATA',
    ],
    [
      'plan task without id',
      (b) => {
        delete b.data.workflowPlan.tasks[0].id;
        return b;
      },
      'PLAN-TASK-FIELDS',
    ],
  ],
};

function check(
  operation: OperationId,
  status: number,
  body: unknown,
  headers: Record<string, string> = JSON_HEADERS,
): Violation[] {
  return checkResponse({ operation, status, headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

const ids = (vs: Violation[]) => [...new Set(failures(vs).map((v) => v.requirementId))];

for (const op of OPERATION_IDS) {
  const prefix = operationInfo(op).prefix;
  test.describe(`${op}`, () => {
    test(`a valid 200 body passes`, () => {
      expect(check(op, 200, VALID_200[op]())).toEqual([]);
    });

    for (const [name, mutate, id] of [...ENVELOPE_MUTATIONS, ...OPERATION_MUTATIONS[op]]) {
      const expected = id.replace('{op}', prefix);
      test(`200 with ${name} fails ${expected}`, () => {
        const found = ids(check(op, 200, mutate(structuredClone(VALID_200[op]()))));
        expect(found).toEqual([expected]);
      });
    }

    test(`a non-JSON 200 body fails ${prefix}-200-ENVELOPE`, () => {
      const vs = check(op, 200, '<html><body>Bad gateway</body></html>', { 'content-type': 'text/html' });
      expect(ids(vs)).toEqual([`${prefix}-200-ENVELOPE`]);
      expect(vs[0]!.actual).toContain('<html>');
    });

    test(`a 200 labelled text/plain is a JSON-CONTENT-TYPE warning only`, () => {
      const vs = check(op, 200, VALID_200[op](), { 'content-type': 'text/plain' });
      expect(failures(vs)).toEqual([]);
      expect(vs.map((v) => [v.requirementId, v.level])).toEqual([['JSON-CONTENT-TYPE', 'should']]);
    });

    test(`a 200 with success false is an ENVELOPE-SUCCESS-TRUE-ON-200 warning`, () => {
      const vs = check(op, 200, { ...(VALID_200[op]() as object), success: false });
      expect(vs.map((v) => [v.requirementId, v.level])).toEqual([['ENVELOPE-SUCCESS-TRUE-ON-200', 'should']]);
    });

    for (const status of operationInfo(op).listedStatuses.filter(
      (s) => s !== 200 && !(op === 'generateWorkflow' && s === 400),
    )) {
      test(`a listed ${status} with any body passes (error bodies are not shown)`, () => {
        for (const body of [
          '',
          'Not found',
          '{"success":false,"errCode":"E1000","errMsg":"canvas not found","traceId":"t"}',
          '[]',
        ]) {
          const vs = check(op, status, body, { 'content-type': 'text/plain' });
          expect(failures(vs, true)).toEqual([]);
          expect(vs.map((v) => v.requirementId)).toEqual(['ERROR-BODY-SHAPE']);
        }
      });
    }

    for (const status of [302, 405, 418, 500, 502, 503]) {
      test(`an unlisted ${status} fails ${prefix}-HTTP-STATUS-LISTED`, () => {
        expect(ids(check(op, status, '{}'))).toEqual([`${prefix}-HTTP-STATUS-LISTED`]);
      });
    }

    test('429 is recorded as LIMIT-RATE (rate limits are not shown), never failed', () => {
      const vs = check(op, 429, '');
      expect(vs.map((v) => [v.requirementId, v.level])).toEqual([['LIMIT-RATE', 'observe']]);
    });

    test('an unlisted 4xx carrying a code whose status §7 leaves open is observed, not failed', () => {
      const vs = check(op, 413, JSON.stringify({ success: false, errCode: 'E2005', errMsg: 'payload too large' }));
      expect(vs.map((v) => [v.requirementId, v.level])).toEqual([['ERROR-STATUS-FOR-UNLISTED-CODES', 'observe']]);
    });

    test('a 5xx is never excused by its errCode', () => {
      expect(ids(check(op, 500, JSON.stringify({ errCode: 'E0000' })))).toEqual([`${prefix}-HTTP-STATUS-LISTED`]);
    });
  });
}

/**
 * The status code is judged once, by the status clause; the body is judged whatever the status. A body of
 * an unlisted 2xx is judged against the operation's 200 schema when it parses; a 200 that says
 * `success: false` without data is judged as an envelope, not as a payload it does not carry.
 */
test.describe('bodies are judged whatever the status', () => {
  const REFUSAL = { success: false, errCode: 'E1000', errMsg: 'not found', traceId: 't' };
  const levels = (vs: Violation[]) => vs.map((v) => [v.requirementId, v.level]);
  for (const op of OPERATION_IDS) {
    const prefix = operationInfo(op).prefix;
    const statusClause = `${prefix}-HTTP-STATUS-LISTED`;
    /** [case, status, body, the failing clauses expected]. */
    const cases: [string, number, unknown, string[]][] = [
      ['a 201 with a good body', 201, VALID_200[op](), [statusClause]],
      ['a 202 with a good body', 202, VALID_200[op](), [statusClause]],
      ['a 204 without a body', 204, '', [statusClause]],
      ['a 201 with a body that is not JSON', 201, 'Created', [statusClause]],
      ['a 201 saying success: false without data', 201, { success: false, errMsg: 'refused' }, [statusClause]],
      [
        'a 201 with an envelope fault',
        201,
        { ...(VALID_200[op]() as object), traceId: {} },
        [statusClause, `${prefix}-200-ENVELOPE`],
      ],
      ...OPERATION_MUTATIONS[op].map(([name, mutate, id]): [string, number, unknown, string[]] => [
        `a 201 with ${name}`,
        201,
        mutate(structuredClone(VALID_200[op]())),
        [statusClause, id.replace('{op}', prefix)],
      ]),
    ];
    for (const [name, status, body, expected] of cases) {
      test(`${op}: ${name} fails ${expected.join(' and ')}`, () => {
        expect(ids(check(op, status, body)).sort()).toEqual([...expected].sort());
      });
    }
    test(`${op}: a 200 saying success: false without data is judged as an envelope, with no ${prefix}-200-DATA finding`, () => {
      expect(levels(check(op, 200, REFUSAL))).toEqual([['ENVELOPE-SUCCESS-TRUE-ON-200', 'should']]);
      expect(levels(check(op, 200, { ...REFUSAL, data: null }))).toEqual([['ENVELOPE-SUCCESS-TRUE-ON-200', 'should']]);
      expect(ids(check(op, 200, { ...REFUSAL, errCode: 7 }))).toEqual([`${prefix}-200-ENVELOPE`]);
    });
  }
  test('runWorkflow: a 201 with an execution status outside the enum fails EXEC-STATUS-ENUM too', () => {
    const body = { success: true, data: { executionId: 'ex-1', status: 'running' } };
    const vs = check('runWorkflow', 201, body);
    expect(ids(vs)).toEqual(['RUN-HTTP-STATUS-LISTED', 'EXEC-STATUS-ENUM']);
    expect(vs[1]).toMatchObject({ pointer: '/data/status', actual: '"running"' });
  });
  test('a 200 saying success: false with data still has its data judged', () => {
    expect(
      ids(check('getExecutionStatus', 200, { success: false, data: { executionId: 'ex-1', status: 'done' } })),
    ).toEqual(['EXEC-STATUS-ENUM']);
  });
  test("a refusal as generation's 400 body is still judged against that body (it is not an envelope)", () => {
    expect(ids(check('generateWorkflow', 400, REFUSAL))).toEqual(['GENERATE-400-BODY']);
  });
});

test.describe('generateWorkflow 400 body (§4.8)', () => {
  const valid = { statusCode: 400, message: 'query is required', error: 'Bad Request', modelResponse: '' };
  test('a valid 400 body passes', () => {
    expect(check('generateWorkflow', 400, valid)).toEqual([]);
  });
  const mutations: [string, (b: EditedJson) => unknown][] = [
    [
      'missing statusCode',
      (b) => {
        delete b.statusCode;
        return b;
      },
    ],
    ['statusCode as a string', (b) => ({ ...b, statusCode: '400' })],
    [
      'missing message',
      (b) => {
        delete b.message;
        return b;
      },
    ],
    [
      'missing error',
      (b) => {
        delete b.error;
        return b;
      },
    ],
    ['modelResponse as an object', (b) => ({ ...b, modelResponse: { text: '' } })],
    ['a bare envelope instead', () => ({ success: false, errCode: 'E0003', errMsg: 'x' })],
  ];
  for (const [name, mutate] of mutations) {
    test(`400 with ${name} fails GENERATE-400-BODY`, () => {
      expect(ids(check('generateWorkflow', 400, mutate(structuredClone(valid))))).toEqual(['GENERATE-400-BODY']);
    });
  }
  test('a non-JSON 400 fails GENERATE-400-BODY', () => {
    expect(ids(check('generateWorkflow', 400, 'Bad Request', { 'content-type': 'text/plain' }))).toEqual([
      'GENERATE-400-BODY',
    ]);
  });
  test('extra envelope fields beside the §4.8 fields are allowed', () => {
    expect(check('generateWorkflow', 400, { ...valid, success: false, errCode: 'E0003', traceId: 't' })).toEqual([]);
  });
});

test.describe('findings carry evidence', () => {
  test('pointer, expected and actual locate the fault', () => {
    const body = VALID_200.getExecutionStatus() as EditedJson;
    body.data.nodeExecutions[0].status = 'queued';
    const [v] = check('getExecutionStatus', 200, body);
    expect(v).toMatchObject({
      requirementId: 'NODE-STATUS-ENUM',
      level: 'must',
      pointer: '/data/nodeExecutions/0/status',
      actual: '"queued"',
    });
    expect(v!.expected).toContain('waiting');
  });
  test('every fault of a body is reported, not only the first', () => {
    const body = VALID_200.getExecutionOutput() as EditedJson;
    delete body.data.files[0].name;
    body.data.output[0].messages[1].type = 'human';
    expect(ids(check('getExecutionOutput', 200, body)).sort()).toEqual(['MESSAGE-TYPE-ENUM', 'OUTPUT-FILE-FIELDS']);
  });
  test('a stack in an error body is a warning (development only)', () => {
    const vs = check(
      'getWorkflowDetail',
      404,
      JSON.stringify({ success: false, errCode: 'E1000', stack: 'Error: at x' }),
    );
    expect(vs.map((v) => [v.requirementId, v.level])).toContainEqual(['ENVELOPE-STACK-DEV-ONLY', 'should']);
  });
  test('an errCode whose §7 status disagrees with the response status is a failure (the §7 table states it)', () => {
    const vs = check('getWorkflowDetail', 404, JSON.stringify({ success: false, errCode: 'INVALID_REQUEST_BODY' }));
    expect(vs.map((v) => [v.requirementId, v.level])).toContainEqual(['ERROR-CODE-STATUS-CONSISTENT', 'must']);
  });
  test('a date-time without its offset is a warning (one reading of "string, date-time"), a malformed one a failure', () => {
    const body = VALID_200.getExecutionStatus() as EditedJson;
    body.data.createdAt = '2026-11-22T09:00:00.125';
    expect(check('getExecutionStatus', 200, body).map((v) => [v.requirementId, v.level])).toEqual([
      ['DATETIME-OFFSET', 'should'],
    ]);
    body.data.createdAt = '2026-13-22T09:00:00';
    expect(ids(check('getExecutionStatus', 200, body))).toEqual(['DATETIME-FORMAT']);
  });
  test('a 413 to a body over the payload limit is its open status; to a small body it is unlisted', () => {
    const over = checkResponse({
      operation: 'runWorkflow',
      status: 413,
      headers: { 'content-type': 'text/html' },
      body: '<html>413 Request Entity Too Large</html>',
      requestBytes: 120_000,
    });
    expect(over.map((v) => [v.requirementId, v.level])).toEqual([['ERROR-STATUS-FOR-UNLISTED-CODES', 'observe']]);
    expect(
      ids(checkResponse({ ...{ operation: 'runWorkflow', status: 413, headers: {}, body: '' }, requestBytes: 900 })),
    ).toEqual(['RUN-HTTP-STATUS-LISTED']);
  });
  test('legal variants pass: extra fields outside run data, unknown file types, fractional sizes', () => {
    const body = VALID_200.getExecutionOutput() as EditedJson;
    body.data.extra = { anything: true };
    body.data.output[0].cost = 3;
    body.data.files[0].type = 'pdf';
    body.data.files[0].size = 1.5;
    expect(check('getExecutionOutput', 200, body)).toEqual([]);
  });
});

test.describe('operationFor maps requests to operations', () => {
  const cases: [string, string, OperationId, Record<string, string>][] = [
    ['POST', '/openapi/workflow/c-1/run', 'runWorkflow', { canvasId: 'c-1' }],
    ['POST', '/openapi/workflow/ex-1/abort', 'abortExecution', { executionId: 'ex-1' }],
    ['GET', '/openapi/workflow/ex-1/output', 'getExecutionOutput', { executionId: 'ex-1' }],
    ['get', '/openapi/workflow/ex-1/status?x=1', 'getExecutionStatus', { executionId: 'ex-1' }],
    ['GET', '/openapi/workflows?keyword=a&page=1', 'searchWorkflows', {}],
    ['GET', '/openapi/workflows/c%2F..%2Fx', 'getWorkflowDetail', { canvasId: 'c/../x' }],
    ['POST', '/openapi/files/upload', 'uploadFiles', {}],
    ['POST', '/openapi/copilot/workflow/generate', 'generateWorkflow', {}],
  ];
  for (const [method, path, operation, params] of cases) {
    test(`${method} ${path} → ${operation}`, () => {
      expect(operationFor(method, path)).toEqual({ operation, params });
    });
  }
  test('requests outside the interface map to nothing', () => {
    expect(operationFor('DELETE', '/openapi/workflows/c-1')).toBeUndefined();
    expect(operationFor('GET', '/openapi/workflow/ex-1')).toBeUndefined();
    expect(operationFor('GET', '/health')).toBeUndefined();
  });
});
