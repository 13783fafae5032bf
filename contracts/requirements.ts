/**
 * The requirement catalogue: one stable ID per normative statement of the service specification.
 *
 * Levels:
 * - `must`    — the specification states it; a violation is a failure.
 * - `should`  — it follows from the specification's meaning without being stated; a violation is a
 *               warning that carries its reasoning (`why`), and users may promote warnings to failures.
 * - `observe` — the specification says "not shown"; the harness records what the target does, never fails it.
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
  /** For `should`: why the clause follows from the specification. */
  why?: string;
  operations?: readonly OperationId[];
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
    {
      id: `${prefix}-200-ENVELOPE`,
      section: '2.1',
      level: 'must',
      text: 'A 200 response is a JSON envelope with a boolean `success`; errCode, errMsg, traceId and stack are strings when present.',
      operations: [op],
    },
    {
      id: `${prefix}-HTTP-STATUS-LISTED`,
      section,
      level: 'must',
      text: 'The response status is one of the status codes listed for the operation.',
      operations: [op],
    },
    {
      id: `${prefix}-401-MISSING-OR-INVALID-KEY`,
      section: '5',
      level: 'must',
      text: 'A request with a missing or invalid API key gets status 401.',
      operations: [op],
    },
  ];
}

const must = (id: string, section: string, text: string, operations?: OperationId[]): Requirement => ({
  id, section, level: 'must', text, ...(operations ? { operations } : {}),
});
const should = (id: string, section: string, text: string, why: string, operations?: OperationId[]): Requirement => ({
  id, section, level: 'should', text, why, ...(operations ? { operations } : {}),
});
const observe = (id: string, section: string, text: string, operations?: OperationId[]): Requirement => ({
  id, section, level: 'observe', text, ...(operations ? { operations } : {}),
});

const EXECUTION_READS: OperationId[] = ['getExecutionStatus', 'getExecutionOutput', 'abortExecution'];

export const REQUIREMENTS: readonly Requirement[] = [
  ...OPERATION_IDS.flatMap(perOperationClauses),

  // §2.1 envelope
  should('ENVELOPE-SUCCESS-TRUE-ON-200', '2.1', 'A 200 response carries success: true.',
    '`success` says whether the operation succeeded, and a 200 is listed only for success.'),
  should('ENVELOPE-STACK-DEV-ONLY', '2.1', '`stack` is returned only in a development environment.',
    'The harness cannot know whether the target is a development environment; a stack in a response is reported so a production target can be corrected.'),
  should('JSON-CONTENT-TYPE', 'intro', 'JSON bodies are sent with a JSON media type (application/json).',
    'All operations are "REST over HTTP with JSON bodies"; a JSON body labelled otherwise breaks ordinary clients.'),

  // §2.2 execution
  must('EXEC-STATUS-ENUM', '2.2, 3', 'Execution status is one of init, executing, finish, failed.', ['runWorkflow', 'getExecutionStatus']),
  must('NODE-STATUS-ENUM', '2.2, 2.3, 3', 'Node status is one of init, waiting, executing, finish, failed.', ['getExecutionStatus', 'getExecutionOutput']),
  must('DATETIME-FORMAT', '2.2, 2.3', 'createdAt, startTime and endTime are date-time strings.', ['getExecutionStatus', 'getExecutionOutput']),
  must('RUN-200-DATA', '2.2, 4.1', 'The run response data is an object with executionId (string) and status.', ['runWorkflow']),
  must('RUN-200-ONLY-EXECUTIONID-STATUS', '2.2', 'The run response carries only executionId and status inside data.', ['runWorkflow']),
  must('RUN-RETURNS-EXECUTION-ID', '1.1, 4.1', 'Running a workflow returns an execution ID that the status endpoint knows.', ['runWorkflow', 'getExecutionStatus']),
  must('STATUS-200-DATA', '2.2, 4.4', 'The status response data carries executionId (string), status, nodeExecutions (array) and createdAt.', ['getExecutionStatus']),
  must('STATUS-NODE-FIELDS', '2.2', 'Each node execution has a string nodeId; title and errorMessage are strings when present.', ['getExecutionStatus']),

  // §2.3 output
  must('OUTPUT-200-DATA', '2.3, 4.3', 'The output response data carries output (array of nodes) and files (array).', ['getExecutionOutput']),
  must('OUTPUT-NODE-FIELDS', '2.3', 'Each output node has a string nodeId; title, errorMessage are strings; messages is an array.', ['getExecutionOutput']),
  must('OUTPUT-MESSAGE-FIELDS', '2.3', 'Each message has a string messageId and a type; content and reasoningContent are strings.', ['getExecutionOutput']),
  must('MESSAGE-TYPE-ENUM', '2.3', 'Message type is ai or tool.', ['getExecutionOutput']),
  must('OUTPUT-FILE-FIELDS', '2.3', 'Each output file has a string name and type; size is a number; nodeId and url are strings.', ['getExecutionOutput']),
  observe('OUTPUT-FILE-SIZE-UNIT', '2.3', 'Unit of file size: not shown.', ['getExecutionOutput']),
  observe('OUTPUT-FILE-TYPE-VALUES', '2.3', 'Set of values of the file type: not shown.', ['getExecutionOutput']),
  should('OUTPUT-FILE-NODE-EXISTS', '2.3', 'A file\'s nodeId names a node of the execution.',
    'nodeId is "ID of the node that produced the file"; only nodes of the execution produce its files.', ['getExecutionOutput']),
  should('OUTPUT-FILE-URL-SERVES', '2.3', 'A file\'s url serves the file.', 'url is the "file access URL".', ['getExecutionOutput']),

  // §2.4 search item
  must('SEARCH-200-DATA', '2.4, 4.5', 'The search response data is an array of search items.', ['searchWorkflows']),
  must('SEARCH-ITEM-FIELDS', '2.4', 'Each search item has string canvasId and title.', ['searchWorkflows']),

  // §2.5 plan
  must('DETAIL-200-DATA', '2.5, 4.6', 'The detail response data is a workflow plan.', ['getWorkflowDetail']),
  must('PLAN-FIELDS', '2.5', 'A plan has a string title and an array of tasks; variables is an array when present.', ['getWorkflowDetail', 'generateWorkflow']),
  must('PLAN-TASK-FIELDS', '2.5', 'Each task has string id, title, prompt and an array of string toolsets; dependentTasks is an array of strings.', ['getWorkflowDetail', 'generateWorkflow']),
  must('PLAN-VARIABLE-FIELDS', '2.5', 'Each variable has a string name; required is boolean; options is an array of strings.', ['getWorkflowDetail', 'generateWorkflow']),
  must('VARIABLE-TYPE-ENUM', '2.5', 'variableType is one of string, option, resource.', ['getWorkflowDetail', 'generateWorkflow']),
  should('PLAN-OPTIONS-ONLY-FOR-OPTION', '2.5', 'options appear only on variables of type option.',
    'The options field is described as "only for type option".', ['getWorkflowDetail', 'generateWorkflow']),
  should('PLAN-DEPENDENCIES-EXIST', '2.5', 'dependentTasks name tasks of the same plan, and the dependencies have no cycle.',
    'dependentTasks are "IDs of tasks this task depends on"; a cycle could never start.', ['getWorkflowDetail', 'generateWorkflow']),

  // §2.6 upload
  must('UPLOAD-200-DATA', '2.6', 'The upload response data carries files, each with string fileKey and fileName.', ['uploadFiles']),

  // §3 states
  observe('STATE-TRANSITIONS', '3', 'Transitions between statuses: not shown.', ['getExecutionStatus']),
  should('STATE-EXEC-FORWARD-ONLY', '3', 'Across polls the execution status only moves forward: init → executing → finish/failed.',
    'The statuses name the phases of one execution; going back would mean an execution restarted under the same ID.', ['getExecutionStatus']),
  should('STATE-TERMINAL', '3', 'finish and failed are terminal for an execution and for a node.',
    'A finished or failed execution has nothing left to run.', ['getExecutionStatus', 'getExecutionOutput']),
  should('STATE-NODE-FORWARD-ONLY', '3', 'Across polls a node status only moves forward: init → waiting → executing → finish/failed.',
    'Node statuses name the phases of one node run.', ['getExecutionStatus']),
  should('STATE-NODES-MATCH-PLAN', '2.2, 2.5', 'The nodes of an execution correspond to the tasks of the workflow plan.',
    'An execution runs a stored workflow; its nodes are that workflow\'s tasks.', ['getExecutionStatus', 'getWorkflowDetail']),
  should('STATE-STABLE-IDENTITY', '2.2', 'executionId and createdAt do not change across polls of one execution.',
    'They identify the execution and record when it was created.', ['getExecutionStatus']),
  should('STATE-EXEC-FINISH-NODES-FINISHED', '3', 'When an execution is finish, none of its nodes is still init, waiting or executing.',
    'An execution that finished has no work left.', ['getExecutionStatus']),
  must('OUTPUT-FILES-ONLY-AFTER-FINISH', '3', 'Files are returned in the output only after the producing nodes have finished.', ['getExecutionOutput']),
  should('OUTPUT-PARTIAL-CONTENT', '3', 'Partial message content appears only while nodes are executing or after they failed.',
    'The specification names those states as the ones where content may be partial; a finished node\'s content is complete.', ['getExecutionOutput']),
  must('ABORT-200-NO-DATA', '4.2', 'The abort response is an envelope without data.', ['abortExecution']),
  must('ABORT-ACCEPTED', '4.2', 'Aborting a running execution answers 200 (abort request accepted).', ['abortExecution']),
  observe('ABORT-OUTCOME', '3', 'The status that follows an accepted abort request: not shown.', ['abortExecution', 'getExecutionStatus']),
  should('ABORT-STOPS-NODES', '4.2', 'After an accepted abort no node keeps executing and no new node starts.',
    'Abort "aborts a running execution".', ['abortExecution', 'getExecutionStatus']),

  // §4.1 run
  must('RUN-VARIABLES-WRAPPER', '4.1', 'The run endpoint accepts variables in the `variables` object.', ['runWorkflow']),
  must('RUN-LEGACY-TOP-LEVEL', '4.1, 9.2', 'The run endpoint accepts variables as top-level body fields.', ['runWorkflow']),
  must('RUN-FILE-VARIABLE', '4.1', 'A file variable accepts a fileKey, or an array of fileKeys, returned by upload.', ['runWorkflow', 'uploadFiles']),
  must('RUN-400-INVALID-BODY', '4.1', 'An invalid run body (not a JSON object) gets 400.', ['runWorkflow']),
  should('RUN-400-MISSING-REQUIRED-VARIABLE', '4.1, 2.5', 'Running without a required variable gets 400.',
    'A variable marked required is a required request parameter; 400 is listed for invalid parameters.', ['runWorkflow']),
  should('RUN-400-UNKNOWN-FILE-KEY', '4.1', 'A file variable with a fileKey that upload never returned gets 400.',
    'File variable values are "a fileKey returned by the upload endpoint"; any other value is an invalid parameter.', ['runWorkflow']),
  must('RUN-403-API-DISABLED', '4.1, 7', 'Running a workflow whose API is disabled gets 403.', ['runWorkflow']),
  must('RUN-404-UNKNOWN-CANVAS', '4.1', 'Running an unknown canvas gets 404.', ['runWorkflow']),

  // §4.2–4.4 execution reads
  must('ABORT-404-UNKNOWN-EXECUTION', '4.2, 7', 'Aborting an unknown execution gets 404.', ['abortExecution']),
  must('OUTPUT-404-UNKNOWN-EXECUTION', '4.3, 7', 'The output of an unknown execution gets 404.', ['getExecutionOutput']),
  must('STATUS-404-UNKNOWN-EXECUTION', '4.4, 7', 'The status of an unknown execution gets 404.', ['getExecutionStatus']),

  // §4.5 search
  should('SEARCH-KEYWORD-IN-TITLE', '4.5', 'With a keyword, every result\'s title contains the keyword (case-insensitively).',
    'The keyword is "searched in workflow titles"; a match elsewhere would not be a title search.', ['searchWorkflows']),
  should('SEARCH-KEYWORD-FINDS-TITLE', '4.5', 'A keyword taken from a listed title finds that workflow.',
    'The keyword is searched in workflow titles.', ['searchWorkflows']),
  must('SEARCH-PAGE-1-BASED', '4.5, 8', 'Page numbering is 1-based: page 1 holds the first items.', ['searchWorkflows']),
  must('SEARCH-PAGESIZE-HONOURED', '4.5', 'A page holds at most pageSize items.', ['searchWorkflows']),
  should('SEARCH-PAGES-DISJOINT', '4.5', 'Consecutive pages hold different workflows, and paging reaches every listed workflow.',
    'Pages are numbered slices of one list.', ['searchWorkflows']),
  should('SEARCH-PAGES-STABLE', '4.5', 'The same query gives the same page while nothing changes.',
    'Pages are numbered slices of one list; without changes the list does not move.', ['searchWorkflows']),
  observe('SEARCH-ORDER-VALUES', '4.5', 'Allowed values of order: not shown.', ['searchWorkflows']),
  observe('SEARCH-PAGESIZE-DEFAULT', '8', 'Default page size: not shown.', ['searchWorkflows']),
  observe('SEARCH-PAGESIZE-MAX', '8', 'Maximum page size: not shown.', ['searchWorkflows']),
  must('SEARCH-TENANT-SCOPED', '5.4', 'Search returns only workflows accessible by the key used.', ['searchWorkflows']),

  // §4.6 detail
  must('DETAIL-404-UNKNOWN-CANVAS', '4.6', 'The detail of an unknown canvas gets 404.', ['getWorkflowDetail']),
  should('DETAIL-FOR-SEARCH-ITEM', '4.6', 'Every canvasId listed by search has a detail.',
    'Search lists workflows the key can reach, and detail reads any such workflow.', ['searchWorkflows', 'getWorkflowDetail']),

  // §4.7 upload
  must('UPLOAD-KEY-PER-FILE', '4.7', 'Upload returns a file key per uploaded file.', ['uploadFiles']),
  must('UPLOAD-400-NO-FILES', '4.7', 'An upload without files gets 400 (files is required).', ['uploadFiles']),
  observe('UPLOAD-CONTENT-TYPE', '4.7', 'Content type of the upload request: not shown (multipart/form-data is used).', ['uploadFiles']),
  must('LIMIT-UNUSED-FILE-RETENTION', '4.7, 8', 'Unused uploaded files are cleaned up after about 24 hours (not exercisable within a run).', ['uploadFiles']),

  // §4.8 generate
  must('GENERATE-200-DATA', '4.8', 'The generate response data carries workflowPlan (a plan) and canvasId (string) when present.', ['generateWorkflow']),
  must('GENERATE-400-BODY', '4.8', 'The 400 of generation carries statusCode (number), message and error (strings), modelResponse (string) when present.', ['generateWorkflow']),
  must('GENERATE-400-MISSING-QUERY', '4.8', 'Generation without a query gets 400 (query is required).', ['generateWorkflow']),
  must('GENERATE-LOCALES', '4.8', 'Each of the 20 listed locales is accepted.', ['generateWorkflow']),
  must('GENERATE-404-UNKNOWN-CANVAS', '4.8', 'Generation that names an unknown canvas to overwrite gets 404.', ['generateWorkflow']),
  should('GENERATE-OVERWRITE-REPLACES', '4.8', 'After generation with a canvasId, that canvas\'s detail shows the generated plan.',
    '"The existing workflow on it is replaced."', ['generateWorkflow', 'getWorkflowDetail']),
  observe('GENERATE-MODEL-RESPONSE-LIMIT', '4.8', 'Length limit of modelResponse: not shown.', ['generateWorkflow']),

  // §5 auth
  must('AUTH-401-MISSING-KEY', '5.3', 'A request without the Authorization header gets 401.'),
  must('AUTH-401-EMPTY-BEARER', '5.3', 'A request with "Bearer" and no key gets 401.'),
  must('AUTH-401-WRONG-SCHEME', '5.1, 5.3', 'A key sent with another scheme than Bearer gets 401.'),
  must('AUTH-401-INVALID-KEY', '5.3', 'A request with an unknown key gets 401.'),

  // isolation between keys (§1.3, §5.4)
  must('ISOLATION-CANVAS', '1.3, 5.4', 'Another key\'s canvas is answered as unknown by detail, run and generate.', ['getWorkflowDetail', 'runWorkflow', 'generateWorkflow']),
  must('ISOLATION-EXECUTION', '1.3, 5.4', 'Another key\'s execution is answered as unknown by status, output and abort.', EXECUTION_READS),
  must('ISOLATION-FILE-KEY', '1.3, 5.4', 'Another key\'s fileKey is not accepted as a file variable value.', ['runWorkflow']),

  // §7 errors
  observe('ERROR-BODY-SHAPE', '7', 'Body shape of error responses other than the 400 of generation: not shown.'),
  observe('ERROR-STATUS-FOR-UNLISTED-CODES', '7', 'HTTP status of codes whose status is "none listed": not shown.'),
  should('ERROR-CODE-STATUS-CONSISTENT', '7', 'An error body\'s errCode agrees with the HTTP status §7 gives that code.',
    'The §7 table pairs those codes with their HTTP status.'),
  must('ODD-IDS-NO-5XX', '4', 'Path parameters are strings: odd ids (very long, unicode, traversal-looking) get a listed status, never 5xx.'),

  // §8 limits
  must('LIMIT-CONTENT-100K', '8, 7', 'Content over 100k characters is rejected (code E2004).', ['runWorkflow', 'generateWorkflow']),
  must('LIMIT-PAYLOAD-100KB', '8, 7', 'A request payload over 100KB is rejected (code E2005).', ['runWorkflow', 'generateWorkflow']),
  should('LIMIT-WITHIN-ACCEPTED', '8', 'A request just under the payload and content limits is not rejected for its size.',
    'The limits are maxima: what stays below them is allowed.', ['runWorkflow', 'generateWorkflow']),
  observe('LIMIT-OPERATIONS', '8', 'Which operations the content and payload limits apply to: stated only by the codes themselves.'),
  observe('LIMIT-RATE', '8', 'Rate limits of the API: not shown.'),

  // §6, §9
  observe('EVENTS', '6', 'Events: not shown.'),
  observe('VERSION-DEPRECATION-POLICY', '9.3', 'Deprecation and change policy: not shown.'),
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
