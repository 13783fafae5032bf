/**
 * The requirement catalogue: one stable ID per normative statement of the service specification.
 *
 * Every clause quotes the words of contracts/spec/service-api.md it rests on (`quote`, checked to be a
 * literal passage of the specification), and its level follows from those words:
 * - `must`    — the specification states it; a violation is a failure.
 * - `should`  — it follows from the specification's meaning without being stated; a violation is a
 *               warning that carries its reasoning (`why`), and users may promote warnings to failures.
 * - `observe` — the specification says "not shown"; the harness records what the target does, never fails it.
 *
 * `security` marks the clauses whose failure means exposure (a request served without a valid key,
 * another tenant's data revealed or acted on): reports list their failures first.
 *
 * IDs are stable: reports, waivers and test titles refer to them. Add new clauses; never renumber.
 */

import { OPERATIONS, OPERATION_IDS, type OperationId } from './generated/operations.ts';

export type { OperationId } from './generated/operations.ts';

export type Level = 'must' | 'should' | 'observe';

export interface Requirement {
  id: string;
  /** Section of service-api.md the clause comes from. */
  section: string;
  level: Level;
  /** One-line paraphrase of the clause. */
  text: string;
  /** The passage of service-api.md the clause rests on, word for word. */
  quote: string;
  /** For `should`: why the clause follows from the specification. */
  why?: string;
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

/** The sentence of §4 that lists each operation's status codes (the status clause's quote). */
const STATUS_LINE: Readonly<Record<OperationId, string>> = {
  runWorkflow:
    'Status codes: 200 execution started; 400 invalid request parameters; 401 missing or invalid API key; 403 the workflow API is disabled; 404 workflow not found.',
  abortExecution: 'Status codes: 200 abort request accepted; 401 missing or invalid API key; 404 execution not found.',
  getExecutionOutput: 'Status codes: 200 output retrieved; 401 missing or invalid API key; 404 execution not found.',
  getExecutionStatus: 'Status codes: 200 status retrieved; 401 missing or invalid API key; 404 execution not found.',
  searchWorkflows: 'Status codes: 200 list retrieved; 401 missing or invalid API key.',
  getWorkflowDetail: 'Status codes: 200 detail retrieved; 401 missing or invalid API key; 404 workflow not found.',
  uploadFiles: 'Status codes: 200 uploaded; 400 invalid request parameters; 401 missing or invalid API key.',
  generateWorkflow:
    'Status codes: 200 generated; 400 generation failed or invalid parameters; 401 missing or invalid API key; 404 canvas not found.',
};

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
    must(
      `${prefix}-HTTP-STATUS-LISTED`,
      section,
      'The response status is one of the status codes listed for the operation.',
      STATUS_LINE[op],
      [op],
    ),
    must(
      `${prefix}-401-MISSING-OR-INVALID-KEY`,
      '5',
      'A request with a missing or invalid API key gets status 401.',
      'A request with a missing or invalid key gets status 401.',
      [op],
    ),
  ];
}

function must(id: string, section: string, text: string, quote: string, operations?: OperationId[]): Requirement {
  return { id, section, level: 'must', text, quote, ...(operations ? { operations } : {}) };
}
function should(
  id: string,
  section: string,
  text: string,
  quote: string,
  why: string,
  operations?: OperationId[],
): Requirement {
  return { id, section, level: 'should', text, quote, why, ...(operations ? { operations } : {}) };
}
function observe(id: string, section: string, text: string, quote: string, operations?: OperationId[]): Requirement {
  return { id, section, level: 'observe', text, quote, ...(operations ? { operations } : {}) };
}
function security(r: Requirement): Requirement {
  return { ...r, security: true };
}

const EXECUTION_READS: OperationId[] = ['getExecutionStatus', 'getExecutionOutput', 'abortExecution'];
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
  must('DATETIME-FORMAT', '2.2, 2.3', 'createdAt, startTime and endTime are date-time strings.', 'string, date-time', [
    'getExecutionStatus',
    'getExecutionOutput',
  ]),
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
      'settled is a warning, with the polls that show it.',
    ['getExecutionStatus'],
  ),
  must(
    'OUTPUT-FILES-ONLY-AFTER-FINISH',
    '3',
    'Files are returned in the output only after the producing nodes have finished (whether or not the node is listed in the output).',
    'Files are returned in the output response only after the producing nodes have finished.',
    ['getExecutionOutput', 'getExecutionStatus'],
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
  must(
    'ABORT-ACCEPTED',
    '4.2',
    'Aborting a running execution is accepted (a 2xx answer).',
    'Aborts a running execution.',
    ['abortExecution'],
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
  must(
    'RUN-VALUE-KINDS',
    '4.1',
    'A variable value may be a string, number, boolean, object or array.',
    'each value is a string, number, boolean, object or array',
    ['runWorkflow'],
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
  must(
    'RUN-FILE-VARIABLE',
    '4.1',
    'A file variable accepts a fileKey, or an array of fileKeys, returned by upload.',
    'the value is a fileKey (or an array of fileKey) returned by the upload endpoint',
    ['runWorkflow', 'uploadFiles'],
  ),
  must(
    'RUN-400-INVALID-BODY',
    '4.1',
    'An invalid run body (not a JSON object) gets 400.',
    'request body format is invalid',
    ['runWorkflow'],
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
  must(
    'RUN-403-API-DISABLED',
    '4.1, 7',
    'Running a workflow whose API is disabled gets 403.',
    '403 on the run endpoint means the workflow API is disabled',
    ['runWorkflow'],
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
  must(
    'SEARCH-KEYWORD-APPLIED',
    '4.5',
    'A keyword that no title contains finds no workflow (the keyword is not ignored).',
    'keyword searched in workflow titles',
    ['searchWorkflows'],
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
  must(
    'SEARCH-PAGE-1-BASED',
    '4.5, 8',
    'Page numbering is 1-based: page 1 holds the first items.',
    'page number, 1-based',
    ['searchWorkflows'],
  ),
  must('SEARCH-PAGESIZE-HONOURED', '4.5', 'A page holds at most pageSize items.', 'items per page', [
    'searchWorkflows',
  ]),
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
    must(
      'SEARCH-TENANT-SCOPED',
      '5.4',
      'Search returns only workflows accessible by the key used.',
      'Workflow search returns only workflows accessible by the key used.',
      ['searchWorkflows'],
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
  must(
    'UPLOAD-400-NO-FILES',
    '4.7',
    'An upload without files gets 400 (files is required).',
    'files (array of binary file, required)',
    ['uploadFiles'],
  ),
  observe(
    'UPLOAD-CONTENT-TYPE',
    '4.7',
    'Content type of the upload request: not shown (multipart/form-data is used).',
    'Content type of the upload request: not shown.',
    ['uploadFiles'],
  ),
  must(
    'LIMIT-UNUSED-FILE-RETENTION',
    '4.7, 8',
    'Unused uploaded files are cleaned up after about 24 hours (not exercisable within a run).',
    'Unused uploaded files are cleaned up after about 24 hours.',
    ['uploadFiles'],
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
  must(
    'GENERATE-400-MISSING-QUERY',
    '4.8',
    'Generation without a query gets 400 (query is required).',
    '400 generation failed or invalid parameters',
    ['generateWorkflow'],
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
  must(
    'GENERATE-OVERWRITE-REPLACES',
    '4.8',
    "After generation with a canvasId, that canvas's detail shows the generated plan.",
    'the existing workflow on it is replaced and this cannot be undone',
    ['generateWorkflow', 'getWorkflowDetail'],
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
    must(
      'AUTH-NOT-SERVED-WITHOUT-KEY',
      '4, 5',
      'A request without a valid key is never processed: not served (no 2xx answer, no data), nor answered as the same request with the key is.',
      'All endpoints require the API key header (section 5).',
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
  must(
    'AUTH-401-WRONG-SCHEME',
    '5.1, 5.3',
    'A key sent with another scheme than Bearer is refused with 401.',
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
    must(
      'ISOLATION-CANVAS',
      '1.3, 5.4',
      "Another key's canvas is neither revealed (its plan) nor acted on (run, overwritten).",
      'The caller can search the workflows reachable with its API key and read the plan of one workflow (title, tasks, variables).',
      ['getWorkflowDetail', 'runWorkflow', 'generateWorkflow'],
    ),
  ),
  security(
    must(
      'ISOLATION-EXECUTION',
      '1.3, 5.4',
      "Another key's execution is neither revealed (status, output) nor aborted.",
      'Workflow search returns only workflows accessible by the key used.',
      EXECUTION_READS,
    ),
  ),
  security(
    must(
      'ISOLATION-FILE-KEY',
      '1.4, 5.4',
      "Another key's fileKey is not accepted as a file variable value.",
      'The caller can upload files and receive file keys, which are then used as values of file variables when running a workflow.',
      ['runWorkflow'],
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
  must(
    'ERROR-CODE-STATUS-CONSISTENT',
    '7',
    "An error body's errCode agrees with the HTTP status §7 lists for that code (the six codes with a status).",
    'Where a code has no HTTP status, the status column reads none listed.',
  ),
  must(
    'ODD-IDS-NO-5XX',
    '4',
    'Path parameters are strings: odd ids (very long, unicode, traversal-looking) get a listed status, never 5xx.',
    'Path parameters are strings.',
  ),

  // §8 limits
  // The limits are stated (§8 table); which operations they bind is not, beyond the codes' own words: the
  // operations whose bodies carry content and payload (run, generate) are where they are judged.
  must(
    'LIMIT-CONTENT-100K',
    '8, 7',
    'Content over 100k characters (a prompt, a variable value) is rejected (code E2004).',
    '| Maximum content length (code E2004) | 100k characters |',
    ['runWorkflow', 'generateWorkflow'],
  ),
  must(
    'LIMIT-PAYLOAD-100KB',
    '8, 7',
    'A request payload over 100KB is rejected (code E2005).',
    '| Maximum request payload size (code E2005) | 100KB |',
    ['runWorkflow', 'generateWorkflow'],
  ),
  should(
    'LIMIT-WITHIN-ACCEPTED',
    '8',
    'A request just under the payload and content limits is not rejected for its size.',
    '| Maximum request payload size (code E2005) | 100KB |',
    'The limits are maxima: what stays below them is allowed.',
    ['runWorkflow', 'generateWorkflow'],
  ),
  observe(
    'LIMIT-OPERATIONS',
    '8',
    'Which operations the content and payload limits apply to: stated only by the codes themselves.',
    'Which operations the content and payload limits apply to: stated only by the codes themselves.',
  ),
  observe('LIMIT-RATE', '8', 'Rate limits of the API: not shown.', 'Rate limits of the API: not shown.'),

  // §6, §9
  observe('EVENTS', '6', 'Events: not shown.', 'Events: not shown.'),
  observe(
    'VERSION-DEPRECATION-POLICY',
    '9.3',
    'Deprecation and change policy: not shown.',
    'Deprecation and change policy: not shown.',
  ),
];

const BY_ID = new Map(REQUIREMENTS.map((r) => [r.id, r]));

/** Looks up a clause; an unknown ID is a programming error in the harness, so it throws. */
export function requirement(id: string): Requirement {
  const found = BY_ID.get(id);
  if (!found) throw new Error(`unknown requirement ID: ${id}`);
  return found;
}

export function hasRequirement(id: string): boolean {
  return BY_ID.has(id);
}

/** The level of a clause, or undefined for an ID the catalogue does not list (callers decide how to treat it). */
export function levelOf(id: string): Level | undefined {
  return BY_ID.get(id)?.level;
}

/** ID of a per-operation clause, e.g. `clauseOf('runWorkflow', 'HTTP-STATUS-LISTED')` → `RUN-HTTP-STATUS-LISTED`. */
export function clauseOf(op: OperationId, suffix: string): string {
  return requirement(`${OPERATIONS[op].prefix}-${suffix}`).id;
}
