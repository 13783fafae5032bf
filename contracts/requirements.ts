/**
 * The requirement catalogue: one stable ID per normative statement of the service specification.
 *
 * Every clause quotes the words of contracts/spec/service-api.md it rests on (`quote`, checked to be a
 * literal passage of the specification), and its level follows from those words:
 * - `must`    — the words force it: no competent implementer reading only the specification could have
 *               built it otherwise in good faith; a violation is a failure.
 * - `should`  — it follows from the specification's meaning, or a careful implementer could read the words
 *               otherwise (`otherReading`); a violation is a warning that carries its reasoning (`why`), and
 *               users may promote warnings to failures.
 * - `observe` — the specification says "not shown"; the harness records what the target does, never fails it.
 *
 * `appliesWhen` says, in words, which requests and answers a clause judges where that is narrower than its
 * sentence reads at first (a limit judged on the content an operation takes, not on a name the workflow
 * does not declare): whatever sends the request, the judge of the clause keeps to it. The clause table of
 * docs/clauses.md is generated from this catalogue (`npm run clause-table`).
 *
 * `security` marks the clauses whose failure means exposure (a request served without a valid key,
 * another tenant's data revealed or acted on): reports list their failures first.
 *
 * IDs are stable: reports, waivers and test titles refer to them. Add new clauses; never renumber.
 */

import { OPERATIONS, OPERATION_IDS, type OperationId } from './generated/operations.ts';
import type { ClauseId } from './generated/clause-ids.ts';
import { OPERATION_FACTS } from './operation-facts.ts';

export type { OperationId } from './generated/operations.ts';
export type { ClauseId, MustClauseId, ObserveClauseId, ShouldClauseId } from './generated/clause-ids.ts';

export type Level = 'must' | 'should' | 'observe';

export interface Requirement {
  /** Typed by the union `npm run contracts` generates from this very catalogue (contracts/generated/clause-ids.ts). */
  id: ClauseId;
  /** Section of service-api.md the clause comes from. */
  section: string;
  level: Level;
  /** One-line paraphrase of the clause. */
  text: string;
  /** The passage of service-api.md the clause rests on, word for word. */
  quote: string;
  /** For `should`: why the clause follows from the specification. */
  why?: string;
  /**
   * The other reading a careful implementer could take of the words: why a clause is a should and not a
   * must. Set where such a reading exists (every should that the words alone do not settle).
   */
  otherReading?: string;
  /** The condition under which the clause applies, in words, where it is narrower than the sentence quoted. */
  appliesWhen?: string;
  operations?: readonly OperationId[];
  /** A failure means exposure: served without a valid key, or another tenant's data revealed or acted on. */
  security?: true;
}

/**
 * Requirement-ID prefix of each operation: its `x-requirement-prefix` in openapi.yaml, read from the
 * generated table (indexed by operation, for callers that build clause IDs).
 */
export const OPERATION_PREFIX: Readonly<Record<OperationId, string>> = Object.fromEntries(
  OPERATION_IDS.map((op) => [op, OPERATIONS[op].prefix]),
) as Record<OperationId, string>;

/** Clauses every operation has: its own envelope and its own list of status codes. */
function perOperationClauses(op: OperationId): Requirement[] {
  const { prefix, section } = OPERATIONS[op];
  return [
    must(
      `${prefix}-200-ENVELOPE`,
      '2.1',
      'A 200 response is a JSON envelope with a boolean `success`; errCode, errMsg, traceId and stack are strings when present.',
      'All JSON responses of successful calls share one envelope.',
      [op],
    ),
    reading(
      must(
        `${prefix}-HTTP-STATUS-LISTED`,
        section,
        'The response status is one of the status codes listed for the operation.',
        OPERATION_FACTS[op].statusLine,
        [op],
      ),
      {
        appliesWhen:
          'Every answer, and no answer at all (a reset, a malformed answer). Not failed: a 429 (rate limits ' +
          'are not shown), a 4xx carrying a §7 code whose HTTP status is not listed (E2004, E2005…), a 413 ' +
          'to a request body over 100,000 bytes (the payload limit, whose status is not shown), and a 4xx from ' +
          'the HTTP layer to a request target no stack routes, to a body whose framing is broken or to an Authorization ' +
          'header sent twice, or a close without an answer to such a body where RFC 9112 allows one (HTTP-LAYER-REFUSAL). ' +
          'A 5xx is failed, and so is a reset or a close without an answer to a request framed as HTTP asks.',
      },
    ),
    reading(
      must(
        `${prefix}-401-MISSING-OR-INVALID-KEY`,
        '5',
        'A request with a missing or invalid API key gets status 401.',
        'A request with a missing or invalid key gets status 401.',
        [op],
      ),
      { appliesWhen: UNKEYED },
    ),
  ];
}

function must(id: string, section: string, text: string, quote: string, operations?: OperationId[]): Requirement {
  return { id: id as ClauseId, section, level: 'must', text, quote, ...(operations ? { operations } : {}) };
}
function should(
  id: string,
  section: string,
  text: string,
  quote: string,
  why: string,
  operations?: OperationId[],
): Requirement {
  return { id: id as ClauseId, section, level: 'should', text, quote, why, ...(operations ? { operations } : {}) };
}
function observe(id: string, section: string, text: string, quote: string, operations?: OperationId[]): Requirement {
  return { id: id as ClauseId, section, level: 'observe', text, quote, ...(operations ? { operations } : {}) };
}
function security(r: Requirement): Requirement {
  return { ...r, security: true };
}
/** The clause with the condition it applies under, and the other reading of its words where one exists. */
function reading(r: Requirement, detail: Pick<Requirement, 'appliesWhen' | 'otherReading'>): Requirement {
  return { ...r, ...detail };
}

const EXECUTION_READS: OperationId[] = ['getExecutionStatus', 'getExecutionOutput', 'abortExecution'];
/** The requests the 401 and exposure clauses judge: those that carry no valid key in the form §5.1 gives. */
const UNKEYED =
  'Requests with no Authorization header, "Bearer" without a key, the key under another scheme (Basic) or ' +
  'none, or an unknown key. Not the valid key under "bearer" spelt in another case or after two spaces: ' +
  'RFC 9110 lets a server read those as the Bearer scheme, so accepting or refusing them is recorded.';
const NOT_FOUND_ON_EXECUTIONS = '404 on execution endpoints means the execution does not exist.';

export const REQUIREMENTS: readonly Requirement[] = [
  ...OPERATION_IDS.flatMap(perOperationClauses),

  // §2.1 envelope
  should(
    'ENVELOPE-SUCCESS-TRUE-ON-200',
    '2.1',
    'A 200 response carries success: true.',
    'whether the operation succeeded',
    '`success` says whether the operation succeeded, and a 200 is listed only for success.',
  ),
  should(
    'ENVELOPE-STACK-DEV-ONLY',
    '2.1',
    '`stack` is returned only in a development environment.',
    'error stack; returned only in a development environment',
    'The harness cannot know whether the target is a development environment; a stack in a response is reported so a production target can be corrected.',
  ),
  reading(
    should(
      'TLS-CERT-NOT-EXPIRING',
      'intro',
      'The certificate the base address is served with stays valid for the next 14 days.',
      'Base address: {base_url}.',
      'Every caller reaches the service at its base address only: once its certificate lapses, every client that checks certificates fails to connect, so a gate run nightly says so while there is time to renew it.',
    ),
    {
      otherReading:
        'The specification says nothing of transport security: when a certificate is renewed is the business of ' +
        'whoever operates the service, not of its implementation.',
      appliesWhen:
        'A base address served over https, with the certificate the harness is shown (by the proxy in front, when ' +
        'there is one), counted from the time of the run; an http base address has none.',
    },
  ),
  should(
    'JSON-CONTENT-TYPE',
    'intro',
    'JSON bodies are sent with a JSON media type (application/json).',
    'All operations are REST over HTTP with JSON bodies',
    'All operations are "REST over HTTP with JSON bodies"; a JSON body labelled otherwise breaks ordinary clients.',
  ),

  // §2.2 execution
  must(
    'EXEC-STATUS-ENUM',
    '2.2, 3',
    'Execution status is one of init, executing, finish, failed.',
    'Execution status values: init, executing, finish, failed.',
    ['runWorkflow', 'getExecutionStatus'],
  ),
  must(
    'NODE-STATUS-ENUM',
    '2.2, 2.3, 3',
    'Node status is one of init, waiting, executing, finish, failed.',
    'Node status values: init, waiting, executing, finish, failed.',
    ['getExecutionStatus', 'getExecutionOutput'],
  ),
  reading(
    must(
      'DATETIME-FORMAT',
      '2.2, 2.3',
      'createdAt, startTime and endTime are date-time strings.',
      'string, date-time',
      ['getExecutionStatus', 'getExecutionOutput'],
    ),
    {
      appliesWhen:
        'Every createdAt, startTime and endTime: a date and a time of day in the ISO 8601 form. Whether it carries ' +
        'its offset is DATETIME-OFFSET.',
    },
  ),
  reading(
    should(
      'DATETIME-OFFSET',
      '2.2, 2.3',
      'createdAt, startTime and endTime carry their offset from UTC (Z or ±hh:mm), as RFC 3339 date-times do.',
      'string, date-time',
      '"date-time" is the name of the RFC 3339 format (JSON Schema, OpenAPI), which requires the offset; a time without one names no instant.',
      ['getExecutionStatus', 'getExecutionOutput'],
    ),
    {
      otherReading:
        'The specification names no standard: "date-time" read as ISO 8601, whose local form leaves the offset ' +
        'out (2026-11-22T09:00:00.125), as many date libraries print it.',
      appliesWhen: 'Every createdAt, startTime and endTime that is an ISO 8601 date and time of day.',
    },
  ),
  must(
    'RUN-200-DATA',
    '2.2, 4.1',
    'The run response data is an object with executionId (string) and status.',
    'envelope with data.executionId and data.status (2.2)',
    ['runWorkflow'],
  ),
  must(
    'RUN-200-ONLY-EXECUTIONID-STATUS',
    '2.2',
    'The run response carries only executionId and status inside data.',
    'The run response carries only executionId and status inside data.',
    ['runWorkflow'],
  ),
  must(
    'RUN-RETURNS-EXECUTION-ID',
    '1.1, 4.1',
    'Running a workflow returns an execution ID that the status endpoint knows.',
    'Starts a workflow execution and returns an execution ID for tracking.',
    ['runWorkflow', 'getExecutionStatus'],
  ),
  must(
    'STATUS-200-DATA',
    '2.2, 4.4',
    'The status response data carries executionId (string), status, nodeExecutions (array) and createdAt.',
    'envelope with data.executionId, data.status, data.nodeExecutions, data.createdAt (2.2)',
    ['getExecutionStatus'],
  ),
  must(
    'STATUS-NODE-FIELDS',
    '2.2',
    'Each node execution has a string nodeId; title and errorMessage are strings when present.',
    '| data.nodeExecutions[].nodeId | string | yes | node ID |',
    ['getExecutionStatus'],
  ),
  must(
    'STATUS-ECHOES-EXECUTION',
    '4.4',
    'The status of execution X answers with executionId X.',
    'Returns execution status and node statuses.',
    ['getExecutionStatus'],
  ),
  should(
    'TIMES-ORDERED',
    '2.2, 2.3',
    'A node ends after it starts, and no node starts before its execution was created.',
    'node end time',
    'startTime and endTime are the "node start time" and "node end time", createdAt the execution\'s "creation time": the order of events fixes their order.',
    ['getExecutionStatus', 'getExecutionOutput'],
  ),

  // §2.3 output
  must(
    'OUTPUT-200-DATA',
    '2.3, 4.3',
    'The output response data carries output (array of nodes) and files (array).',
    'envelope with data.output and data.files (2.3)',
    ['getExecutionOutput'],
  ),
  must(
    'OUTPUT-NODE-FIELDS',
    '2.3',
    'Each output node has a string nodeId; title, errorMessage are strings; messages is an array.',
    '| data.output[].nodeId | string | yes | node ID |',
    ['getExecutionOutput'],
  ),
  must(
    'OUTPUT-MESSAGE-FIELDS',
    '2.3',
    'Each message has a string messageId and a type; content and reasoningContent are strings.',
    '| data.output[].messages[].messageId | string | yes | message ID |',
    ['getExecutionOutput'],
  ),
  must('MESSAGE-TYPE-ENUM', '2.3', 'Message type is ai or tool.', 'enum: ai, tool', ['getExecutionOutput']),
  must(
    'OUTPUT-FILE-FIELDS',
    '2.3',
    'Each output file has a string name and type; size is a number; nodeId and url are strings.',
    '| data.files[].name | string | yes | file name |',
    ['getExecutionOutput'],
  ),
  observe('OUTPUT-FILE-SIZE-UNIT', '2.3', 'Unit of file size: not shown.', 'Unit of size: not shown.', [
    'getExecutionOutput',
  ]),
  observe(
    'OUTPUT-FILE-TYPE-VALUES',
    '2.3',
    'Set of values of the file type: not shown.',
    'Set of values of the file type: not shown.',
    ['getExecutionOutput'],
  ),
  should(
    'OUTPUT-FILE-NODE-EXISTS',
    '2.3',
    "A file's nodeId names a node of the execution.",
    'ID of the node that produced the file',
    'nodeId is "ID of the node that produced the file"; only nodes of the execution produce its files.',
    ['getExecutionOutput'],
  ),
  should(
    'OUTPUT-FILE-URL-SERVES',
    '2.3',
    "A file's url serves the file.",
    'file access URL',
    'url is the "file access URL".',
    ['getExecutionOutput'],
  ),
  reading(
    observe(
      'OUTPUT-FILE-URL-KEY',
      '2.3',
      'Whether a file\'s url needs the API key: not shown. It is a "file access URL", not one of the endpoints of §4 ' +
        'that require the key header, and may be a presigned or a storage address.',
      'file access URL',
      ['getExecutionOutput'],
    ),
    {
      appliesWhen:
        'The first file url the harness reads, on a url that served its file with the key: read once more without ' +
        "the Authorization header. A url on another origin than the base address's is read without the key from " +
        'the start (the key is sent to the base address only).',
    },
  ),
  reading(
    observe(
      'OUTPUT-NODES-LISTED',
      '2.3, 4.3',
      'Which nodes the output of an execution lists: "output nodes" are not defined (no field of a plan marks ' +
        'one), so every node, or only some (recorded).',
      'Returns output nodes and drive files of an execution.',
      ['getExecutionOutput', 'getExecutionStatus'],
    ),
    {
      appliesWhen:
        'The output read once an execution of two nodes or more ended finish, against the nodes its status ' +
        'lists. An execution of one node cannot tell the readings apart, nor one that failed (the nodes after ' +
        'the failure never ran).',
    },
  ),

  // §2.4 search item
  must(
    'SEARCH-200-DATA',
    '2.4, 4.5',
    'The search response data is an array of search items.',
    'Response 200: envelope whose data is an array of search items (2.4).',
    ['searchWorkflows'],
  ),
  must(
    'SEARCH-ITEM-FIELDS',
    '2.4',
    'Each search item has string canvasId and title.',
    '| data[].canvasId | string | yes | canvas/workflow ID |',
    ['searchWorkflows'],
  ),

  // §2.5 plan
  must(
    'DETAIL-200-DATA',
    '2.5, 4.6',
    'The detail response data is a workflow plan.',
    'Response 200: envelope whose data is a workflow plan (2.5).',
    ['getWorkflowDetail'],
  ),
  must(
    'PLAN-FIELDS',
    '2.5',
    'A plan has a string title and an array of tasks; variables is an array when present.',
    '| tasks | array of object | yes | workflow tasks |',
    ['getWorkflowDetail', 'generateWorkflow'],
  ),
  must(
    'PLAN-TASK-FIELDS',
    '2.5',
    'Each task has string id, title, prompt and an array of string toolsets; dependentTasks is an array of strings.',
    '| tasks[].toolsets | array of string | yes | toolsets selected for the task |',
    ['getWorkflowDetail', 'generateWorkflow'],
  ),
  must(
    'PLAN-VARIABLE-FIELDS',
    '2.5',
    'Each variable has a string name; required is boolean; options is an array of strings.',
    '| variables[].name | string | yes | variable name |',
    ['getWorkflowDetail', 'generateWorkflow'],
  ),
  must(
    'VARIABLE-TYPE-ENUM',
    '2.5',
    'variableType is one of string, option, resource.',
    'enum: string, option, resource',
    ['getWorkflowDetail', 'generateWorkflow'],
  ),
  should(
    'PLAN-OPTIONS-ONLY-FOR-OPTION',
    '2.5',
    'options appear only on variables of type option.',
    'options; only for type option',
    'The options field is described as "only for type option".',
    ['getWorkflowDetail', 'generateWorkflow'],
  ),
  should(
    'PLAN-DEPENDENCIES-EXIST',
    '2.5',
    'dependentTasks name tasks of the same plan, and the dependencies have no cycle.',
    'IDs of tasks this task depends on',
    'dependentTasks are "IDs of tasks this task depends on"; a cycle could never start.',
    ['getWorkflowDetail', 'generateWorkflow'],
  ),

  // §2.6 upload
  must(
    'UPLOAD-200-DATA',
    '2.6',
    'The upload response data carries files, each with string fileKey and fileName.',
    'envelope with data.files[] of fileKey and fileName (2.6)',
    ['uploadFiles'],
  ),

  // §3 states: the transitions are not shown, so only what the statuses mean is judged
  observe(
    'STATE-TRANSITIONS',
    '3',
    'Transitions between statuses: not shown.',
    'Transitions: not shown, including the status that follows an accepted abort request.',
    ['getExecutionStatus'],
  ),
  observe(
    'STATE-EXEC-FORWARD-ONLY',
    '3',
    "The order in which an execution's statuses follow each other across polls (recorded; transitions are not shown).",
    'Transitions: not shown, including the status that follows an accepted abort request.',
    ['getExecutionStatus'],
  ),
  should(
    'STATE-TERMINAL',
    '3',
    'finish and failed are terminal for an execution and for a node.',
    'Execution status values: init, executing, finish, failed.',
    'A finished or failed execution has nothing left to run: whatever the transitions, those two statuses end it.',
    ['getExecutionStatus', 'getExecutionOutput'],
  ),
  observe(
    'STATE-NODE-FORWARD-ONLY',
    '3',
    "The order in which a node's statuses follow each other across polls (recorded; transitions are not shown).",
    'Transitions: not shown, including the status that follows an accepted abort request.',
    ['getExecutionStatus'],
  ),
  should(
    'STATE-NODES-MATCH-PLAN',
    '2.2, 2.5',
    'The nodes of an execution correspond to the tasks of the workflow plan.',
    'Starts a workflow execution and returns an execution ID for tracking.',
    "An execution runs a stored workflow; its nodes are that workflow's tasks.",
    ['getExecutionStatus', 'getWorkflowDetail'],
  ),
  should(
    'STATE-STABLE-IDENTITY',
    '2.2',
    'executionId and createdAt do not change across polls of one execution.',
    '| data.createdAt | string, date-time | no | creation time (status response only) |',
    'They identify the execution and record when it was created.',
    ['getExecutionStatus'],
  ),
  should(
    'STATE-EXEC-FINISH-NODES-FINISHED',
    '3',
    'When an execution is finish, none of its nodes is still init, waiting or executing.',
    'Node status values: init, waiting, executing, finish, failed.',
    'An execution that finished has no work left.',
    ['getExecutionStatus'],
  ),
  should(
    'STATE-ENDS-WHEN-NODES-SETTLE',
    '3',
    'An execution whose nodes have all finished or failed ends: its status becomes finish or failed.',
    'Execution status values: init, executing, finish, failed.',
    'An execution runs its nodes; once none has work left, nothing keeps it executing. The transitions are not ' +
      'shown, so a status that lags its nodes for a few polls is allowed; one that stays put while they have all ' +
      'settled is a warning, with the polls that show it. Settled: every node finished or failed, or one failed ' +
      'and none executes (nodes left init or waiting after a failure wait on what failed).',
    ['getExecutionStatus'],
  ),
  reading(
    must(
      'OUTPUT-FILES-ONLY-AFTER-FINISH',
      '3',
      'Files are returned in the output only after the producing nodes have finished (whether or not the node is listed in the output).',
      'Files are returned in the output response only after the producing nodes have finished.',
      ['getExecutionOutput', 'getExecutionStatus'],
    ),
    {
      appliesWhen:
        'A file listed while its producing node is init, waiting or executing: not finished in any reading. A ' +
        'file of a node that failed is recorded: "finished" may be read as "ended" as well as "status finish".',
    },
  ),
  should(
    'OUTPUT-PARTIAL-CONTENT',
    '3',
    'Partial message content appears only while nodes are executing or after they failed.',
    'While nodes are executing or after they failed, the output response may contain partial message content.',
    "The specification names those states as the ones where content may be partial; a finished node's content is complete.",
    ['getExecutionOutput'],
  ),
  must('ABORT-200-NO-DATA', '4.2', 'The abort response is an envelope without data.', 'envelope without data', [
    'abortExecution',
  ]),
  reading(
    must(
      'ABORT-ACCEPTED',
      '4.2',
      'Aborting a running execution is accepted (a 2xx answer).',
      'Aborts a running execution.',
      ['abortExecution'],
    ),
    {
      appliesWhen:
        'An execution read init or executing just before the abort. An abort of an ended execution is recorded (ABORT-OUTCOME).',
    },
  ),
  observe(
    'ABORT-OUTCOME',
    '3',
    'The status that follows an accepted abort request: not shown.',
    'including the status that follows an accepted abort request',
    ['abortExecution', 'getExecutionStatus'],
  ),
  should(
    'ABORT-STOPS-NODES',
    '4.2',
    'After an accepted abort no node keeps executing and no new node starts.',
    'Aborts a running execution.',
    'Abort "aborts a running execution".',
    ['abortExecution', 'getExecutionStatus'],
  ),

  // §4.1 run
  must(
    'RUN-VARIABLES-WRAPPER',
    '4.1',
    'The run endpoint accepts variables in the `variables` object.',
    'variables (object, optional): workflow variables as key-value pairs',
    ['runWorkflow'],
  ),
  reading(
    should(
      'RUN-VALUE-KINDS',
      '4.1',
      'A variable value may be a string, number, boolean, object or array.',
      'each value is a string, number, boolean, object or array',
      '§4.1 lists the kinds a value may take, so a variable whose plan does not confine it to one kind takes any of ' +
        'them. Read otherwise, the list covers all variables together and an untyped variable is a string one: an ' +
        'object or an array given to it is then an invalid parameter (400). Both readings hold, hence a warning.',
      ['runWorkflow'],
    ),
    {
      otherReading:
        'The sentence lists the kinds values take across all variables, not what each variable accepts: a ' +
        'variable declared `string` (or left untyped, read as string) takes text, and an object or an array ' +
        'given to it is an invalid request parameter, answered 400.',
      appliesWhen:
        'Values of every kind given to a variable the plan declares without a variableType. What a variable ' +
        'typed string takes of the other kinds is recorded (its type confines it); names the plan does not ' +
        'declare are not judged here (a server may ignore them): RUN-UNDECLARED-VARIABLES records what they get.',
    },
  ),
  reading(
    observe(
      'RUN-UNDECLARED-VARIABLES',
      '4.1',
      'What a run gets for a variable its plan does not declare: not shown (ignored, or refused as an invalid ' +
        'parameter).',
      'each key is a workflow variable name',
      ['runWorkflow'],
    ),
    {
      appliesWhen:
        'A run in the `variables` wrapper with the values the harness gives the declared variables and one short ' +
        'string under a name the plan does not declare. A refusal is recorded only when the same run without ' +
        'that name is accepted.',
    },
  ),
  should(
    'RUN-WITHOUT-BODY',
    '4.1',
    'A run without a body (no variables) is accepted.',
    'variables (object, optional): workflow variables as key-value pairs',
    "The body's only field is optional, so a workflow without required variables can be run without one.",
    ['runWorkflow'],
  ),
  must(
    'RUN-LEGACY-TOP-LEVEL',
    '4.1, 9.2',
    'The run endpoint accepts variables as top-level body fields.',
    'the run endpoint still accepts workflow variables as top-level body fields in addition to the variables object',
    ['runWorkflow'],
  ),
  reading(
    must(
      'RUN-FILE-VARIABLE',
      '4.1',
      'A file variable accepts a fileKey, or an array of fileKeys, returned by upload.',
      'the value is a fileKey (or an array of fileKey) returned by the upload endpoint',
      ['runWorkflow', 'uploadFiles'],
    ),
    {
      appliesWhen:
        'A file variable given a fileKey, or an array of two, that upload returned to the same key in this run.',
    },
  ),
  reading(
    must(
      'RUN-400-INVALID-BODY',
      '4.1',
      'An invalid run body (not a JSON object) gets 400.',
      'request body format is invalid',
      ['runWorkflow'],
    ),
    {
      appliesWhen:
        'A run body that is not JSON, or JSON that is not an object (an array, a string). A `variables` that is ' +
        'not an object is recorded; a body of JSON null, which many frameworks read as no body, is left open.',
    },
  ),
  should(
    'RUN-400-MISSING-REQUIRED-VARIABLE',
    '4.1, 2.5',
    'Running without a required variable gets 400.',
    'whether the variable is required',
    'A variable marked required is a required request parameter; 400 is listed for invalid parameters.',
    ['runWorkflow'],
  ),
  should(
    'RUN-400-UNKNOWN-FILE-KEY',
    '4.1',
    'A file variable with a fileKey that upload never returned gets 400.',
    'returned by the upload endpoint',
    'File variable values are "a fileKey returned by the upload endpoint"; any other value is an invalid parameter.',
    ['runWorkflow'],
  ),
  reading(
    must(
      'RUN-403-API-DISABLED',
      '4.1, 7',
      'Running a workflow whose API is disabled gets 403.',
      '403 on the run endpoint means the workflow API is disabled',
      ['runWorkflow'],
    ),
    {
      appliesWhen:
        'A workflow whose API is disabled: WFCHECK_DISABLED_CANVAS_ID, or one whose title says disabled, internal or private and whose run answers 403.',
    },
  ),
  must('RUN-404-UNKNOWN-CANVAS', '4.1', 'Running an unknown canvas gets 404.', '404 workflow not found', [
    'runWorkflow',
  ]),

  // §4.2–4.4 execution reads
  must('ABORT-404-UNKNOWN-EXECUTION', '4.2, 7', 'Aborting an unknown execution gets 404.', NOT_FOUND_ON_EXECUTIONS, [
    'abortExecution',
  ]),
  must(
    'OUTPUT-404-UNKNOWN-EXECUTION',
    '4.3, 7',
    'The output of an unknown execution gets 404.',
    NOT_FOUND_ON_EXECUTIONS,
    ['getExecutionOutput'],
  ),
  must(
    'STATUS-404-UNKNOWN-EXECUTION',
    '4.4, 7',
    'The status of an unknown execution gets 404.',
    NOT_FOUND_ON_EXECUTIONS,
    ['getExecutionStatus'],
  ),

  // §4.5 search
  reading(
    must(
      'SEARCH-KEYWORD-APPLIED',
      '4.5',
      'A keyword that no title contains finds no workflow (the keyword is not ignored).',
      'keyword searched in workflow titles',
      ['searchWorkflows'],
    ),
    {
      appliesWhen:
        'A keyword of twenty random letters, which no title contains; the generative mode sends them after a NUL, ' +
        "after a listed title's word and a NUL, after U+0001, DEL or NEL, and sixty times over: stripped, trimmed " +
        'or read as sent, no title holds them either.',
    },
  ),
  should(
    'SEARCH-KEYWORD-IN-TITLE',
    '4.5',
    "With a keyword, every result's title contains the keyword (case-insensitively).",
    'keyword searched in workflow titles',
    'The keyword is "searched in workflow titles"; how it matches (case, words, fuzziness) is not shown, so a result whose title does not contain it is a warning.',
    ['searchWorkflows'],
  ),
  should(
    'SEARCH-KEYWORD-FINDS-TITLE',
    '4.5',
    'A keyword taken from a listed title finds that workflow.',
    'keyword searched in workflow titles',
    'The keyword is searched in workflow titles.',
    ['searchWorkflows'],
  ),
  reading(
    must(
      'SEARCH-PAGE-1-BASED',
      '4.5, 8',
      'Page numbering is 1-based: page 1 holds the first items.',
      'page number, 1-based',
      ['searchWorkflows'],
    ),
    {
      appliesWhen:
        'Pages 1, 2, … read with a pageSize from 1 to 5, while the listing holds still. What page 0, a negative page or a page that is no number answers is recorded.',
    },
  ),
  reading(
    must('SEARCH-PAGESIZE-HONOURED', '4.5', 'A page holds at most pageSize items.', 'items per page', [
      'searchWorkflows',
    ]),
    {
      appliesWhen:
        'A pageSize from 1 to 5 (within any maximum a server may set). Sizes below 1, above 1000 or that are no number are recorded.',
    },
  ),
  should(
    'SEARCH-PAGES-DISJOINT',
    '4.5',
    'Consecutive pages hold different workflows, and paging reaches every listed workflow.',
    'page number, 1-based',
    'Pages are numbered slices of one list.',
    ['searchWorkflows'],
  ),
  should(
    'SEARCH-PAGES-STABLE',
    '4.5',
    'The same query gives the same page while nothing changes.',
    'page number, 1-based',
    'Pages are numbered slices of one list; without changes the list does not move.',
    ['searchWorkflows'],
  ),
  observe('SEARCH-ORDER-VALUES', '4.5', 'Allowed values of order: not shown.', 'Allowed values of order: not shown.', [
    'searchWorkflows',
  ]),
  observe(
    'SEARCH-PAGESIZE-DEFAULT',
    '8',
    'Default page size: not shown.',
    'Default and maximum page size: not shown.',
    ['searchWorkflows'],
  ),
  observe('SEARCH-PAGESIZE-MAX', '8', 'Maximum page size: not shown.', 'Default and maximum page size: not shown.', [
    'searchWorkflows',
  ]),
  security(
    reading(
      must(
        'SEARCH-TENANT-SCOPED',
        '5.4',
        'Search returns only workflows accessible by the key used.',
        'Workflow search returns only workflows accessible by the key used.',
        ['searchWorkflows'],
      ),
      { appliesWhen: 'With API_KEY_B, a key of another account: the listings of the two keys share no workflow.' },
    ),
  ),

  // §4.6 detail
  must('DETAIL-404-UNKNOWN-CANVAS', '4.6', 'The detail of an unknown canvas gets 404.', '404 workflow not found', [
    'getWorkflowDetail',
  ]),
  should(
    'DETAIL-FOR-SEARCH-ITEM',
    '4.6',
    'Every canvasId listed by search has a detail.',
    'Returns workflow details and the workflow plan by canvas ID.',
    'Search lists workflows the key can reach, and detail reads any such workflow.',
    ['searchWorkflows', 'getWorkflowDetail'],
  ),

  // §4.7 upload
  must('UPLOAD-KEY-PER-FILE', '4.7', 'Upload returns a file key per uploaded file.', 'returns a file key per file', [
    'uploadFiles',
  ]),
  should(
    'UPLOAD-NAMES-ECHO',
    '2.6',
    'Each returned fileName is the name of a file that was uploaded.',
    '| data.files[].fileName | string | yes | file name |',
    'fileName is the "file name" of an uploaded file: the name it was uploaded under.',
    ['uploadFiles'],
  ),
  reading(
    must(
      'UPLOAD-400-NO-FILES',
      '4.7',
      'An upload without files gets 400 (files is required).',
      'files (array of binary file, required)',
      ['uploadFiles'],
    ),
    {
      appliesWhen:
        'A request that carries no file at all: a multipart body without parts. A JSON body is refused with ' +
        'any 4xx (a 415 as fairly as a 400: the content type of the upload is not shown, UPLOAD-CONTENT-TYPE ' +
        'records it); accepting it fails. A file under another multipart field name than `files` is recorded: ' +
        'neither is how `files` is named in the request.',
    },
  ),
  observe(
    'UPLOAD-CONTENT-TYPE',
    '4.7',
    'Content type of the upload request: not shown (multipart/form-data is used).',
    'Content type of the upload request: not shown.',
    ['uploadFiles'],
  ),
  reading(
    must(
      'LIMIT-UNUSED-FILE-RETENTION',
      '4.7, 8',
      'Unused uploaded files are cleaned up after about 24 hours (not exercisable within a run).',
      'Unused uploaded files are cleaned up after about 24 hours.',
      ['uploadFiles'],
    ),
    { appliesWhen: 'An upload no run used, a day on: never within a conformance run, so always not run.' },
  ),

  // §4.8 generate
  must(
    'GENERATE-200-DATA',
    '4.8',
    'The generate response data carries workflowPlan (a plan) and canvasId (string) when present.',
    'Response 200: envelope with data.canvasId (string, optional) and data.workflowPlan (2.5).',
    ['generateWorkflow'],
  ),
  must(
    'GENERATE-400-BODY',
    '4.8',
    'The 400 of generation carries statusCode (number), message and error (strings), modelResponse (string) when present.',
    '| statusCode | number | yes | HTTP status code |',
    ['generateWorkflow'],
  ),
  reading(
    must(
      'GENERATE-400-MISSING-QUERY',
      '4.8',
      'Generation without a query gets 400 (query is required).',
      '400 generation failed or invalid parameters',
      ['generateWorkflow'],
    ),
    { appliesWhen: 'A generate body without `query`. A null or non-string query is recorded.' },
  ),
  should(
    'GENERATE-LOCALES',
    '4.8',
    'Each of the 20 listed locales yields a generated plan.',
    'allowed values: en, zh-CN, ja, zh-Hant, fr, de-DE, ko, hi, es, ru, de, it, tr, pt, vi, id, th, ar, mn, fa',
    'A listed locale is a valid parameter, but the 400 also stands for "generation failed", which the specification allows for any request: a 400 for a listed locale is a warning, not a failure.',
    ['generateWorkflow'],
  ),
  must(
    'GENERATE-404-UNKNOWN-CANVAS',
    '4.8',
    'Generation that names an unknown canvas to overwrite gets 404.',
    '404 canvas not found',
    ['generateWorkflow'],
  ),
  reading(
    must(
      'GENERATE-OVERWRITE-REPLACES',
      '4.8',
      "After generation with a canvasId, that canvas's detail shows the generated plan.",
      'the existing workflow on it is replaced and this cannot be undone',
      ['generateWorkflow', 'getWorkflowDetail'],
    ),
    {
      appliesWhen:
        'The tasks the detail shows after an overwrite: the generated ones, each the same by two of its id, title ' +
        'and prompt (an id alone is no proof: generators number their tasks). The title is recorded: a canvas may keep its own name while its ' +
        'workflow is replaced.',
    },
  ),
  observe(
    'GENERATE-MODEL-RESPONSE-LIMIT',
    '4.8',
    'Length limit of modelResponse: not shown.',
    'original AI response; may be empty; length-limited',
    ['generateWorkflow'],
  ),

  // §5 auth: exposure (served without a valid key) apart from the status of the refusal
  security(
    reading(
      must(
        'AUTH-NOT-SERVED-WITHOUT-KEY',
        '4, 5',
        'A request without a valid key is never processed: not served (no 2xx answer, no data), nor answered as the same request with the key is.',
        'All endpoints require the API key header (section 5).',
      ),
      { appliesWhen: UNKEYED },
    ),
  ),
  // §5.2: a key an answer repeats goes wherever answers go (logs, caches, proxies, error trackers)
  security(
    should(
      'KEY-NOT-ECHOED',
      '5.2',
      'An answer never carries the API key the request was made with, in its body or in a header.',
      'The key must be kept secret.',
      'The specification asks the key to be kept secret; an answer that repeats it puts it wherever answers are ' +
        "logged or cached, out of the holder's control. It does not say so of answers in words, hence should.",
    ),
  ),
  must(
    'AUTH-401-MISSING-KEY',
    '5.3',
    'A request without the Authorization header is refused with 401.',
    'A request with a missing or invalid key gets status 401.',
  ),
  must(
    'AUTH-401-EMPTY-BEARER',
    '5.3',
    'A request with "Bearer" and no key is refused with 401.',
    'A request with a missing or invalid key gets status 401.',
  ),
  reading(
    must(
      'AUTH-401-WRONG-SCHEME',
      '5.1, 5.3',
      'A key sent with another scheme than Bearer is refused with 401.',
      'Every request carries the header Authorization with the value Bearer followed by a space and <API_KEY>.',
    ),
    {
      appliesWhen:
        'The valid key under another scheme (Basic) or with none. Not "bearer" or "BEARER", nor two spaces ' +
        'before the key: AUTH-SCHEME-SPELLING records those.',
    },
  ),
  observe(
    'AUTH-SCHEME-SPELLING',
    '5.1',
    'What a server makes of the valid key under "bearer", "BEARER" or "Bearer" followed by two spaces (recorded: accepted or 401).',
    'Every request carries the header Authorization with the value Bearer followed by a space and <API_KEY>.',
  ),
  must(
    'AUTH-401-INVALID-KEY',
    '5.3',
    'A request with an unknown key is refused with 401.',
    'A request with a missing or invalid key gets status 401.',
  ),

  // isolation between keys (§1.3, §5.4): judged on exposure; the status of the refusal is the 404 clauses'
  security(
    reading(
      must(
        'ISOLATION-CANVAS',
        '1.3, 5.4',
        "Another key's canvas is neither revealed (its plan) nor acted on (run, overwritten).",
        'The caller can search the workflows reachable with its API key and read the plan of one workflow (title, tasks, variables).',
        ['getWorkflowDetail', 'runWorkflow', 'generateWorkflow'],
      ),
      {
        appliesWhen:
          'With API_KEY_B, a key of another account: what one key made or reached, asked for with the other.',
      },
    ),
  ),
  security(
    reading(
      must(
        'ISOLATION-EXECUTION',
        '1.3, 5.4',
        "Another key's execution is neither revealed (status, output) nor aborted.",
        'Workflow search returns only workflows accessible by the key used.',
        EXECUTION_READS,
      ),
      {
        appliesWhen:
          'With API_KEY_B, a key of another account: what one key made or reached, asked for with the other.',
      },
    ),
  ),
  security(
    reading(
      must(
        'ISOLATION-FILE-KEY',
        '1.4, 5.4',
        "Another key's fileKey is not accepted as a file variable value.",
        'The caller can upload files and receive file keys, which are then used as values of file variables when running a workflow.',
        ['runWorkflow'],
      ),
      {
        appliesWhen:
          'With API_KEY_B, a key of another account: what one key made or reached, asked for with the other.',
      },
    ),
  ),

  // §7 errors
  observe(
    'ERROR-BODY-SHAPE',
    '7',
    'Body shape of error responses other than the 400 of generation: not shown.',
    'Body shape of error responses other than the 400 of workflow generation: not shown.',
  ),
  observe(
    'ERROR-STATUS-FOR-UNLISTED-CODES',
    '7',
    'HTTP status of codes whose status is "none listed": not shown.',
    'HTTP status for codes with none listed: not shown.',
  ),
  reading(
    must(
      'ERROR-CODE-STATUS-CONSISTENT',
      '7',
      "An error body's errCode agrees with the HTTP status §7 lists for that code (the six codes with a status).",
      'Where a code has no HTTP status, the status column reads none listed.',
    ),
    {
      appliesWhen:
        'An error answer whose errCode is one of the six codes §7 gives a status (CANVAS_NOT_FOUND 404, ' +
        'INVALID_REQUEST_BODY 400…). Codes with none listed, and codes §7 does not list, are not judged.',
    },
  ),
  reading(
    must(
      'ODD-IDS-NO-5XX',
      '4',
      'Path parameters are strings: odd ids (very long, unicode, traversal-looking) get a listed status, never 5xx.',
      'Path parameters are strings.',
    ),
    {
      appliesWhen:
        'Ids up to 2,000 characters of any text, percent-encoded in the path, on every operation that takes ' +
        "one. A 5xx the same operation also gives a plain unknown id is its status clause's finding, not this one. " +
        'A 4xx is never failed here: an id the HTTP layer will not route may be refused with one (HTTP-LAYER-REFUSAL).',
    },
  ),
  reading(
    observe(
      'HTTP-LAYER-REFUSAL',
      '4',
      'A request whose target no stack routes as the operation (an encoded slash, backslash, dot, percent sign or ' +
        'control character, a semicolon, or a malformed or non-UTF-8 percent-escape in a path id; a malformed or ' +
        'non-UTF-8 escape in a query value), whose body is framed wrong (a chunk size that is not hexadecimal or of ' +
        'sixteen hex digits, a chunked body or a Content-Length cut short), or that sends its Authorization header ' +
        'twice (RFC 9110 §5.3: a field that is no list is sent once; nginx answers it with a 400 page), may be refused ' +
        'by the HTTP layer with a 4xx before the operation sees it (for broken framing any 4xx, listed or not, and for ' +
        'a repeated header any 4xx that is not JSON, its body not judged); so may a ' +
        'request target over 2,048 octets with a 414 or a 431 (RFC 9110 only recommends 8,000; gunicorn stops at ' +
        '4,094): recorded, not failed. A body framed wrong may also be met with a close and no answer: RFC 9112 §8 ' +
        'lets a server close on an incomplete message (a body cut short, or a chunk of sixteen hex digits, which ' +
        'announces 2^64−1 bytes), and §2.2 only recommends (SHOULD) a 400 for a malformed one; the probe half-closes ' +
        'only a message cut short and waits, connection open, for the answer to a malformed one. A 5xx still fails ' +
        'the status clause, and so does a reset on a well-formed request; a hang is INPUT-NOT-SLOW.',
      'Path parameters are strings.',
    ),
    {
      otherReading:
        'Every string is a path parameter, so any id must reach the operation and get one of its statuses (404). ' +
        'But such an id can never name a resource, RFC 9110 lets a server answer 400 to a request target it will ' +
        'not route, Tomcat (every Spring Boot service), Spring Security and many gateways do so before any code ' +
        'of the service runs, and the status lists of §4 cover each endpoint’s own outcomes.',
    },
  ),

  // §8 limits
  // The limits are stated (§8 table); which operations they bind is not, beyond the codes' own words: the
  // operations whose bodies carry content and payload (run, generate) are where they are judged, and only
  // on what each one takes as content.
  reading(
    must(
      'LIMIT-CONTENT-100K',
      '8, 7',
      'Content over 100k characters (a prompt, a variable value) is rejected (code E2004).',
      '| Maximum content length (code E2004) | 100k characters |',
      ['runWorkflow', 'generateWorkflow'],
    ),
    {
      appliesWhen:
        "Content the operation takes: generate's `query`, or the value of a variable the workflow declares " +
        '(string or untyped). Not a value under a name the workflow does not declare, which a server may ' +
        'ignore unread. Rejected means any 4xx; the code (E2004, or E2005 where the body is over 100,000 ' +
        'bytes too) is not judged, error bodies not being shown.',
    },
  ),
  reading(
    must(
      'LIMIT-PAYLOAD-100KB',
      '8, 7',
      'A request payload over 100KB is rejected (code E2005).',
      '| Maximum request payload size (code E2005) | 100KB |',
      ['runWorkflow', 'generateWorkflow'],
    ),
    {
      appliesWhen:
        'A run or generate body over 102,400 bytes (over 100KB in either reading: 100,000 or 102,400), ' +
        'whatever its fields. Rejected means any 4xx, its code and the status (400, 413) not judged; uploads ' +
        'are not judged, the payload limit reaching them or not: what an upload over 100KB gets is recorded ' +
        '(LIMIT-OPERATIONS).',
    },
  ),
  reading(
    should(
      'LIMIT-WITHIN-ACCEPTED',
      '8',
      'A request just under the payload and content limits is not rejected for its size.',
      '| Maximum request payload size (code E2005) | 100KB |',
      'The limits are maxima: what stays below them is allowed.',
      ['runWorkflow', 'generateWorkflow'],
    ),
    {
      appliesWhen:
        'A run or generate body under 100,000 bytes whose longest value is under 99,000 characters (within ' +
        'both limits in either reading), answered with a 2xx or a refusal for its size (E2004, E2005, 413).',
    },
  ),
  observe(
    'LIMIT-OPERATIONS',
    '8',
    'Which operations the content and payload limits apply to: stated only by the codes themselves.',
    'Which operations the content and payload limits apply to: stated only by the codes themselves.',
  ),
  observe('LIMIT-RATE', '8', 'Rate limits of the API: not shown.', 'Rate limits of the API: not shown.'),

  // Reliability: how long inputs within the limits take, and whether one request holds up the others.
  // The specification states no latency, so both are should-level and the bar is relative to the target.
  reading(
    should(
      'INPUT-NOT-SLOW',
      '8',
      'An input within the limits is answered in about the time its operation ordinarily takes.',
      '| Maximum content length (code E2004) | 100k characters |',
      'The limits say what an operation takes: content within 100k characters is an input it serves. One ' +
        'answered in seconds or minutes where the same operation ordinarily answers in milliseconds (a ' +
        'step-splitting regex growing with the square of a run of spaces) keeps its caller, and every retry, waiting.',
    ),
    {
      otherReading:
        'No response time is specified anywhere: a server may take as long as an input needs, and a long prompt ' +
        'may legitimately cost more to plan.',
      appliesWhen:
        'An input class (a run of one character in a parameter, a framing, a number) answered over 1 s and over ' +
        "10× the operation's ordinary answer time measured during the same run, again when sent once more; one " +
        'unanswered at the request deadline counts (once). Reported with the smallest input still slow and how ' +
        'the time grows when the run doubles.',
    },
  ),
  reading(
    should(
      'ONE-REQUEST-NO-STALL',
      '5',
      "One slow request does not make the server's other requests, of any key, wait for it.",
      'The caller can search the workflows reachable with its API key',
      'Every key is a caller of its own: a server that waits on one request (a regex blocking its only event ' +
        'loop, every worker thread busy) turns one slow input into an outage for every other caller.',
    ),
    {
      otherReading:
        'Capacity and concurrency are not specified (rate limits are not shown): a server may serve one request ' +
        'at a time.',
      appliesWhen:
        'A cheap search (the other key when there is one) sent on another connection while a request found slow ' +
        '(INPUT-NOT-SLOW) is in flight, answered over 1 s, over 10× its ordinary time and after at least half the ' +
        "slow request's time.",
    },
  ),

  // §6, §9
  observe('EVENTS', '6', 'Events: not shown.', 'Events: not shown.'),
  observe(
    'VERSION-DEPRECATION-POLICY',
    '9.3',
    'Deprecation and change policy: not shown.',
    'Deprecation and change policy: not shown.',
  ),
];

const BY_ID = new Map<string, Requirement>(REQUIREMENTS.map((r) => [r.id, r]));

/**
 * Looks up a clause; an unknown ID is a programming error in the harness, so it throws. It takes any
 * string: the IDs of evidence records and of openapi.yaml's x-requirement are read at run time.
 */
export function requirement(id: string): Requirement {
  const found = BY_ID.get(id);
  if (!found) throw new Error(`unknown requirement ID: ${id}`);
  return found;
}

/** Whether a string read at run time is a clause of the catalogue (and so a ClauseId). */
export function hasRequirement(id: string): id is ClauseId {
  return BY_ID.has(id);
}

/** A clause ID built or read at run time (a per-operation clause, an x-requirement), checked against the catalogue. */
export function clauseId(id: string): ClauseId {
  return requirement(id).id;
}

/** The level of a clause, or undefined for an ID the catalogue does not list (callers decide how to treat it). */
export function levelOf(id: string): Level | undefined {
  return BY_ID.get(id)?.level;
}

/** ID of a per-operation clause, e.g. `clauseOf('runWorkflow', 'HTTP-STATUS-LISTED')` → `RUN-HTTP-STATUS-LISTED`. */
export function clauseOf(op: OperationId, suffix: string): ClauseId {
  return clauseId(`${OPERATIONS[op].prefix}-${suffix}`);
}
