/**
 * The table of open points: every observe clause and every should clause with another reading has its
 * points (or says why no run can answer one), each quotes the words that leave it open, and each reads
 * the values implementations were seen to record into its vocabulary — anything else kept as
 * `other: …`, verbatim but stable.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { answerOf, answersOfCheck, answersOfObservation, openPoint, OPEN_POINTS, UNMEASURED } from './open-points.ts';
import { classify, inVocabulary, isOther, stableText, STATUS } from './open-point-values.ts';
import { REQUIREMENTS } from './requirements.ts';

const spec = readFileSync(new URL('./spec/service-api.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

test('every observe clause, and every should clause with another reading, has a point or a reason it has none', () => {
  const open = REQUIREMENTS.filter((r) => r.level === 'observe' || (r.level === 'should' && r.otherReading));
  const answered = new Set(OPEN_POINTS.map((p) => p.clause));
  // Rate limits and unrouted requests are answered only when a target shows them; they still have points.
  const missing = open.filter((r) => !answered.has(r.id) && !UNMEASURED[r.id]).map((r) => r.id);
  expect(missing).toEqual([]);
  for (const id of Object.keys(UNMEASURED)) expect(answered.has(id as never), id).toBe(false);
});

test('points are unique, well-formed, and quote the specification word for word', () => {
  const ids = OPEN_POINTS.map((p) => p.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const p of OPEN_POINTS) {
    expect(p.id).toMatch(/^[a-z0-9]+(-[a-zA-Z0-9]+)*$/);
    expect(spec.includes(p.words.replace(/\s+/g, ' ')), `${p.id} quotes "${p.words}"`).toBe(true);
    expect(p.vocabulary.length, p.id).toBeGreaterThan(0);
    if ('checked' in p.from) {
      expect(inVocabulary(p.vocabulary, p.from.checked.pass), p.id).toBe(true);
      expect(inVocabulary(p.vocabulary, p.from.checked.fail), p.id).toBe(true);
    }
  }
});

/** What implementations were seen to record (clause, key, value), and the word each is read as. */
const SEEN: readonly [string, string, unknown, string, string][] = [
  ['LIMIT-OPERATIONS', 'run over 100KB', 'HTTP 413 (E2005)', 'limit-status-E2005', '413'],
  ['LIMIT-OPERATIONS', 'generate over 100KB', 'HTTP 400 (E2005)', 'limit-status-E2005', '400'],
  ['LIMIT-OPERATIONS', 'run content over 100k characters', 'HTTP 400', 'limit-status-E2004', '400'],
  ['ABORT-OUTCOME', 'abort of an execution already finish', 'HTTP 409 (E3004)', 'abort-of-ended', '409'],
  [
    'ABORT-OUTCOME',
    'status after aborting an execution already finish',
    'finish',
    'status-after-abort-of-ended',
    'unchanged',
  ],
  [
    'ABORT-OUTCOME',
    'status after aborting an execution already finish',
    'failed',
    'status-after-abort-of-ended',
    'becomes failed',
  ],
  ['ABORT-OUTCOME', 'node statuses after an accepted abort', 'failed, finish, waiting', 'abort-nodes', 'left waiting'],
  ['ABORT-OUTCOME', 'node statuses after an accepted abort', 'failed, finish', 'abort-nodes', 'failed'],
  ['STATE-TRANSITIONS', 'status the run answers', 'running', 'run-status', 'other: running'],
  [
    'STATE-EXEC-FORWARD-ONLY',
    'execution status sequence across polls',
    'init → executing → finish',
    'execution-status-order',
    'forward only',
  ],
  [
    'STATE-EXEC-FORWARD-ONLY',
    'execution status sequence across polls',
    'executing → init',
    'execution-status-order',
    'moves back',
  ],
  ['STATE-NODE-FORWARD-ONLY', 'node status sequence across polls', 'init → waiting → finish', 'node-waiting', 'seen'],
  ['SEARCH-PAGESIZE-DEFAULT', 'items without pageSize', '20 (of 30)', 'pagesize-default', '20'],
  [
    'SEARCH-PAGESIZE-DEFAULT',
    'items without pageSize',
    '14 (all 14; default ≥ 14)',
    'pagesize-default',
    'all the account holds',
  ],
  ['SEARCH-PAGESIZE-MAX', 'pageSize=1000', 'HTTP 200, 50 items (of 60)', 'pagesize-max', 'capped at 50'],
  [
    'SEARCH-PAGESIZE-MAX',
    'pageSize=1000',
    'HTTP 200, 16 items (of 16)',
    'pagesize-max',
    'no cap up to what the account holds',
  ],
  ['SEARCH-PAGESIZE-MAX', 'pageSize=1000', 'HTTP 400 (E0003)', 'pagesize-max', 'refused (400)'],
  ['SEARCH-PAGESIZE-MAX', 'pageSize=-1', 'HTTP 200, 0 items (of 16)', 'pagesize-invalid', 'served, empty'],
  ['SEARCH-ORDER-VALUES', 'order=not-an-order', 'HTTP 200, default order', 'order-unknown', 'ignored'],
  ['SEARCH-ORDER-VALUES', 'order=not-an-order', 'HTTP 400 (INVALID_REQUEST_PARAMS)', 'order-unknown', '400'],
  [
    'RUN-VALUE-KINDS',
    'a variable typed string given an object',
    'HTTP 200',
    'string-variable-given-object',
    'accepted',
  ],
  [
    'RUN-VALUE-KINDS',
    'a variable typed string given an array',
    'HTTP 400 (INVALID_REQUEST_BODY)',
    'string-variable-given-object',
    '400',
  ],
  ['UPLOAD-CONTENT-TYPE', 'a JSON body {} (no files)', 'HTTP 415 (UNSUPPORTED_MEDIA_TYPE)', 'upload-json-body', '415'],
  ['AUTH-SCHEME-SPELLING', 'two spaces before the key', 'HTTP 401 (E0004)', 'auth-two-spaces', '401'],
  ['AUTH-SCHEME-SPELLING', 'lower-case scheme', 'accepted (HTTP 200)', 'auth-scheme-lower-case', 'accepted'],
  ['ERROR-BODY-SHAPE', 'runWorkflow 401', 'JSON with errCode E0004', 'errcode-401', 'E0004'],
  ['ERROR-BODY-SHAPE', 'runWorkflow 401', 'JSON with errCode UNAUTHORIZED', 'errcode-401', 'other: UNAUTHORIZED'],
  [
    'ERROR-BODY-SHAPE',
    'runWorkflow 403',
    'JSON with errCode WORKFLOW_API_DISABLED',
    'errcode-403',
    'other: WORKFLOW_API_DISABLED',
  ],
  ['ERROR-BODY-SHAPE', 'runWorkflow 400', 'non-JSON body (text/html;charset=utf-8)', 'error-body-shape', 'not JSON'],
  [
    'ERROR-BODY-SHAPE',
    'runWorkflow 401',
    'JSON with statusCode, message, error',
    'error-body-shape',
    'statusCode, message, error (§4.8)',
  ],
  [
    'ERROR-BODY-SHAPE',
    'runWorkflow 401',
    'JSON with errCode E0004 and statusCode, message, error',
    'error-body-shape',
    'both',
  ],
  [
    'ERROR-STATUS-FOR-UNLISTED-CODES',
    'runWorkflow 413',
    '413 to a 120668-byte request body',
    'unlisted-status',
    '413 (a body over the payload limit)',
  ],
  [
    'ERROR-STATUS-FOR-UNLISTED-CODES',
    'searchWorkflows 400',
    '400 with errCode E0003',
    'unlisted-status',
    '400 with E0003',
  ],
  [
    'HTTP-LAYER-REFUSAL',
    'getWorkflowDetail status for an encoded slash in a path id',
    400,
    'http-layer-refusal',
    '400',
  ],
  [
    'LIMIT-RATE',
    'searchWorkflows answered 429',
    'Retry-After (none); retried after 1012 ms',
    'rate-limit',
    '429 without Retry-After',
  ],
  ['GENERATE-MODEL-RESPONSE-LIMIT', 'modelResponse length', 0, 'model-response', 'empty'],
  ['OUTPUT-FILE-SIZE-UNIT', 'size vs served bytes', 'size 2 for 2048 served bytes', 'file-size-unit', 'KiB'],
  ['OUTPUT-FILE-TYPE-VALUES', 'file type', 'text/markdown', 'file-type-form', 'media type'],
];

/**
 * The four points read from answers the judges record in their own words: what the reference (and the
 * implementations that agree with it) records, and what the legal variant of the fault catalogue that
 * answers otherwise makes it record (the variant named beside each). An observation never fails: only
 * its value changes.
 */
const MEASURED: readonly [string, string, unknown, string, string][] = [
  // Which nodes the output lists: the reference lists every node; output-lists-last-node-only its last one.
  [
    'OUTPUT-NODES-LISTED',
    'nodes the output lists once the execution finished',
    '5 of 5 nodes',
    'output-nodes',
    'every node',
  ],
  [
    'OUTPUT-NODES-LISTED',
    'nodes the output lists once the execution finished',
    '1 of 5 nodes',
    'output-nodes',
    'output nodes only',
  ],
  [
    'OUTPUT-NODES-LISTED',
    'nodes the output lists once the execution finished',
    '0 of 3 nodes; 3 more that the status does not list',
    'output-nodes',
    'other: 0 of 3 nodes; 3 more that the status does not list',
  ],
  // A file url without the key: the reference serves it (the unguessable id is the credential); file-url-behind-key answers 401.
  ['OUTPUT-FILE-URL-KEY', 'a file url read without the key', 'HTTP 200', 'file-url-key', 'served without the key'],
  [
    'OUTPUT-FILE-URL-KEY',
    'a file url read without the key',
    'HTTP 200 (another origin: the key is never sent there)',
    'file-url-key',
    'served without the key',
  ],
  ['OUTPUT-FILE-URL-KEY', 'a file url read without the key', 'HTTP 401 (E0004)', 'file-url-key', 'needs the key'],
  ['OUTPUT-FILE-URL-KEY', 'a file url read without the key', 'HTTP 404 (E1024)', 'file-url-key', 'needs the key'],
  ['OUTPUT-FILE-URL-KEY', 'a file url read without the key', 'HTTP 302', 'file-url-key', 'other: HTTP 302'],
  // An undeclared variable: the reference ignores it; undeclared-variables-refused answers 400.
  ['RUN-UNDECLARED-VARIABLES', 'a variable the plan does not declare', 'HTTP 200', 'undeclared-variables', 'ignored'],
  [
    'RUN-UNDECLARED-VARIABLES',
    'a variable the plan does not declare',
    'HTTP 400 (INVALID_REQUEST_BODY)',
    'undeclared-variables',
    '400',
  ],
  [
    'RUN-UNDECLARED-VARIABLES',
    'a variable the plan does not declare',
    'HTTP 422',
    'undeclared-variables',
    'other: 422',
  ],
  // An upload over 100KB: the reference takes it; upload-payload-limit answers 400 E2005, a gateway 413.
  ['LIMIT-OPERATIONS', 'upload over 100KB', 'HTTP 200', 'upload-over-100kb', 'accepted'],
  ['LIMIT-OPERATIONS', 'upload over 100KB', 'HTTP 400 (E2005)', 'upload-over-100kb', '400'],
  ['LIMIT-OPERATIONS', 'upload over 100KB', 'HTTP 413 (E2005)', 'upload-over-100kb', '413'],
  [
    'LIMIT-OPERATIONS',
    'upload over 100KB',
    'reset: socket hang up after 12 ms',
    'upload-over-100kb',
    'other: reset: socket hang up after <t>',
  ],
];

test('the values implementations record are read into their point’s vocabulary', () => {
  for (const [clause, key, value, point, expected] of SEEN) {
    const got = answersOfObservation(clause, key, value).find((a) => a.point === point);
    expect(got?.value, `${clause} "${key}": ${JSON.stringify(value)}`).toBe(expected);
  }
});

test('the output nodes, a file url without the key, an undeclared variable and an upload over 100KB are read into their vocabularies', () => {
  for (const [clause, key, value, point, expected] of MEASURED) {
    const answers = answersOfObservation(clause, key, value);
    // Each sentence answers its own point and no other (an upload's answer is not E2005's status of run).
    expect(
      answers.map((a) => a.point),
      `${clause} "${key}"`,
    ).toEqual([point]);
    expect(answers[0]!.value, `${clause} "${key}": ${JSON.stringify(value)}`).toBe(expected);
  }
  // Of a run's executions, one listing only some of its nodes answers: another's nodes may all be output nodes.
  const nodes = openPoint('output-nodes');
  expect(answerOf(nodes, ['every node', 'output nodes only', 'every node'])).toEqual(['output nodes only']);
  expect(answerOf(nodes, ['every node', 'every node'])).toEqual(['every node']);
  expect(answerOf(nodes, ['every node', 'other: 0 of 3 nodes'])).toEqual(['every node', 'other: 0 of 3 nodes']);
});

test('a value outside the vocabulary is kept verbatim as other: …, made stable, never dropped', () => {
  // A transport fault where a status was expected: no status to read, the sentence kept.
  const [fault] = answersOfObservation('LIMIT-OPERATIONS', 'run over 100KB', 'reset: socket hang up after 1532 ms');
  expect(fault).toEqual({ point: 'limit-status-E2005', value: 'other: reset: socket hang up after <t>' });
  // A word the point's reading gives that its vocabulary lacks is kept as that word.
  expect(answersOfObservation('STATE-TRANSITIONS', 'status the run answers', 'queued')[0]!.value).toBe('other: queued');
  expect(classify(['a'], undefined, 'b')).toBe('other: b');
  expect(classify([STATUS], '302', 'HTTP 302')).toBe('302');
  expect(isOther('other: x')).toBe(true);
  // Times, ids and sizes make no difference; nor does the order of a list.
  expect(stableText('at 2026-11-22T09:00:00.125Z id 7f3a9c0e4b2d41aa8e5f after 25 ms, 1024 bytes')).toBe(
    stableText('at 2026-01-02T03:04:05Z id 0b1c2d3e4f5a6b7c8d9e after 3 ms, 17 bytes'),
  );
  expect(stableText('waiting, failed, finish')).toBe(stableText('finish, waiting, failed'));
  // A key no point names answers none.
  expect(answersOfObservation('ERROR-BODY-SHAPE', 'a key no point reads', 'x')).toEqual([]);
});

test('a run’s values fold into its answer: in the vocabulary’s order, a should clause’s other reading winning', () => {
  const limit = openPoint('limit-status-E2005');
  expect(answerOf(limit, ['413', '400', '413'])).toEqual(['400', '413']);
  expect(answerOf(limit, ['413', '400'])).toEqual(answerOf(limit, ['400', '413']));
  const offset = openPoint('date-time-offset');
  const [pass] = answersOfCheck('DATETIME-OFFSET', true);
  const [fail] = answersOfCheck('DATETIME-OFFSET', false);
  expect(answerOf(offset, [pass!.value, fail!.value, pass!.value])).toEqual([fail!.value]);
  expect(answerOf(offset, [pass!.value])).toEqual([pass!.value]);
  // Order values: the ones that change the listing, whatever order they were tried in; none; or refused.
  const order = openPoint('order-values-applied');
  const values = (pairs: [string, string][]) =>
    pairs.map(([key, raw]) => answersOfObservation('SEARCH-ORDER-VALUES', key, raw)[0]!.value);
  expect(
    answerOf(
      order,
      values([
        ['order=title', 'HTTP 200, different order'],
        ['order=asc', 'HTTP 200, different order'],
        ['order=desc', 'HTTP 200, default order'],
      ]),
    ),
  ).toEqual(['applies asc, title']);
  expect(answerOf(order, values([['order=desc', 'HTTP 200, default order']]))).toEqual(['none']);
  expect(
    answerOf(
      order,
      values([
        ['order=asc', 'HTTP 400 (E0003)'],
        ['order=desc', 'HTTP 400 (E0003)'],
      ]),
    ),
  ).toEqual(['refused (400)']);
});
