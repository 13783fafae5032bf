/**
 * The points the specification leaves open, as one table: for each, the clause whose records answer it
 * (an observe clause, a should clause with another reading, or the clause a probe of a near-invalid
 * request neighbours), the question in words, the words of service-api.md that leave it open, and the
 * small vocabulary its answers take. Independent implementations differ most exactly here; the
 * vocabulary makes their answers compare across runs and implementations (the report's `openPoints`,
 * the run history, the open-points page of `wfcheck matrix`).
 *
 * An observation names its point by its clause and its key (the sentence the judge records); `read`
 * turns the recorded value into a word of the vocabulary (open-point-values.ts keeps anything else as
 * `other: …`). A should clause answers from its checks: one word for a pass, one for a failure (its
 * other reading). A run's answer to a point is the set of its values (`combine` may fold them into one).
 *
 * Point IDs are stable: the history and the matrix key on them. Add points; never rename one.
 */
import { requirement, type ClauseId } from './requirements.ts';
import {
  acceptedOrStatus,
  classify,
  CODE,
  compareValues,
  COUNT,
  errCodeRead,
  sequenceOrder,
  servedRead,
  STATUS,
  STATUS_WITH_CODE,
  statusIn,
  textOf,
  worst,
  type Term,
} from './open-point-values.ts';

/** Which records answer a point: observations of its clause under these keys, or the clause's checks. */
export type PointSource =
  | { readonly observed: string | RegExp }
  | { readonly checked: { readonly pass: string; readonly fail: string } };

export interface OpenPoint {
  /** Stable, kebab-case. */
  readonly id: string;
  readonly clause: ClauseId;
  /** What the point asks, in words. */
  readonly question: string;
  /** The passage of service-api.md that leaves it open, word for word (default: the clause's quote). */
  readonly words: string;
  readonly vocabulary: readonly Term[];
  readonly from: PointSource;
  /** The recorded value (as text) read into the vocabulary; undefined: the value is kept as `other: …`. */
  readonly read?: (raw: string, key: string) => string | undefined;
  /** A run's values folded into its answer (default: each distinct value). */
  readonly combine?: (values: readonly string[]) => string[];
}

type PointEntry = Omit<OpenPoint, 'words'> & { words?: string };

const ACCEPTED_OR_STATUS: readonly Term[] = ['accepted', STATUS];
const EXEC_STATUSES = ['init', 'executing', 'finish', 'failed'] as const;

const ERROR_CODE_TERMS: readonly Term[] = [CODE, 'none', 'not JSON'];
const ERROR_BODY_WORDS = 'Body shape of error responses other than the 400 of workflow generation: not shown.';
const TRANSITIONS = 'Transitions: not shown, including the status that follows an accepted abort request.';

const POINTS: readonly PointEntry[] = [
  // ---- §3 states ----------------------------------------------------------------------------------------
  {
    id: 'run-status',
    clause: 'STATE-TRANSITIONS',
    question: 'The status the run answers a new execution with',
    vocabulary: EXEC_STATUSES,
    from: { observed: 'status the run answers' },
  },
  {
    id: 'abort-outcome',
    clause: 'ABORT-OUTCOME',
    question: 'The status of an execution after an accepted abort',
    words: TRANSITIONS,
    vocabulary: EXEC_STATUSES,
    from: { observed: 'execution status after an accepted abort' },
  },
  {
    id: 'abort-nodes',
    clause: 'ABORT-OUTCOME',
    question: 'What becomes of the nodes that had not finished when an abort was accepted',
    words: TRANSITIONS,
    vocabulary: ['failed', 'left waiting', 'still executing'],
    from: { observed: 'node statuses after an accepted abort' },
    read: (raw) => {
      const statuses = raw.split(', ').filter(Boolean);
      if (statuses.includes('executing')) return 'still executing';
      if (statuses.includes('waiting') || statuses.includes('init')) return 'left waiting';
      return statuses.every((s) => s === 'failed' || s === 'finish') ? 'failed' : undefined;
    },
  },
  {
    id: 'abort-of-ended',
    clause: 'ABORT-OUTCOME',
    question: 'The answer to aborting an execution that has already ended',
    words: TRANSITIONS,
    vocabulary: ['200', '400', '404', '409', STATUS],
    from: { observed: /^abort of an execution already / },
    read: statusIn,
  },
  {
    id: 'status-after-abort-of-ended',
    clause: 'ABORT-OUTCOME',
    question: 'The status of an ended execution after it was aborted',
    words: TRANSITIONS,
    vocabulary: ['unchanged', 'becomes failed', 'becomes finish'],
    from: { observed: /^status after aborting an execution already / },
    read: (raw, key) => (key.endsWith(` already ${raw}`) ? 'unchanged' : `becomes ${raw}`),
  },
  {
    id: 'failing-workflow-end',
    clause: 'STATE-TRANSITIONS',
    question: 'The final status of an execution whose task failed',
    vocabulary: ['failed', 'finish'],
    from: { observed: 'final status of a workflow with a failing task' },
  },
  {
    id: 'execution-status-order',
    clause: 'STATE-EXEC-FORWARD-ONLY',
    question: 'Whether an execution’s status only moves forward across polls',
    vocabulary: ['forward only', 'moves back', 'leaves a terminal status'],
    from: { observed: 'execution status sequence across polls' },
    read: sequenceOrder({ init: 0, executing: 1, finish: 2, failed: 2 }),
    combine: worst(['leaves a terminal status', 'moves back', 'forward only']),
  },
  {
    id: 'node-status-order',
    clause: 'STATE-NODE-FORWARD-ONLY',
    question: 'Whether a node’s status only moves forward across polls',
    vocabulary: ['forward only', 'moves back', 'leaves a terminal status'],
    from: { observed: 'node status sequence across polls' },
    read: sequenceOrder({ init: 0, waiting: 1, executing: 2, finish: 3, failed: 3 }),
    combine: worst(['leaves a terminal status', 'moves back', 'forward only']),
  },
  {
    id: 'node-waiting',
    clause: 'STATE-NODE-FORWARD-ONLY',
    question: 'Whether nodes are ever seen `waiting`',
    words: 'Node status values: init, waiting, executing, finish, failed.',
    vocabulary: ['seen', 'never seen'],
    from: { observed: 'node status sequence across polls' },
    read: (raw) => (raw.split(' → ').includes('waiting') ? 'seen' : 'never seen'),
    combine: (values) => [values.includes('seen') ? 'seen' : 'never seen'],
  },
  // ---- §2.3 output ---------------------------------------------------------------------------------------
  {
    id: 'file-size-unit',
    clause: 'OUTPUT-FILE-SIZE-UNIT',
    question: 'The unit of a file’s size',
    vocabulary: ['bytes', 'KiB'],
    from: { observed: 'size vs served bytes' },
    read: (raw) => {
      if (raw.startsWith('bytes')) return 'bytes';
      const m = /^size (\d+(?:\.\d+)?) for (\d+) served bytes$/.exec(raw);
      return m && Math.abs(Number(m[1]) - Number(m[2]) / 1024) <= 1 ? 'KiB' : undefined;
    },
  },
  {
    id: 'file-type-form',
    clause: 'OUTPUT-FILE-TYPE-VALUES',
    question: 'What a file’s type is given as',
    vocabulary: ['media type', 'file extension'],
    from: { observed: 'file type' },
    read: (raw) =>
      /^[a-z]+\/[\w.+-]+/i.test(raw) ? 'media type' : /^\.?[a-z0-9]{1,8}$/i.test(raw) ? 'file extension' : undefined,
  },
  {
    id: 'output-nodes',
    clause: 'OUTPUT-NODES-LISTED',
    question: 'Whether the output of a finished execution lists every node or only its output nodes',
    vocabulary: ['output nodes only', 'every node'],
    from: { observed: 'nodes the output lists once the execution finished' },
    read: (raw) => {
      const m = /^(\d+) of (\d+) nodes$/.exec(raw);
      if (!m || m[1] === '0') return undefined;
      return m[1] === m[2] ? 'every node' : 'output nodes only';
    },
    // One execution listing only some of its nodes is the answer: another whose nodes are all output nodes lists every one.
    combine: (values) => [
      ...new Set(values.includes('output nodes only') ? values.filter((v) => v !== 'every node') : values),
    ],
  },
  {
    id: 'file-url-key',
    clause: 'OUTPUT-FILE-URL-KEY',
    question: 'Whether a file’s url needs the API key to be fetched',
    words: '| data.files[].url | string | no | file access URL |',
    vocabulary: ['served without the key', 'needs the key'],
    from: { observed: 'a file url read without the key' },
    read: (raw) => {
      const status = statusIn(raw);
      if (status?.startsWith('2')) return 'served without the key';
      return status === '401' || status === '403' || status === '404' ? 'needs the key' : undefined;
    },
  },
  // ---- §4.1 run ------------------------------------------------------------------------------------------
  {
    id: 'untyped-variable-kinds',
    clause: 'RUN-VALUE-KINDS',
    question: 'Whether a variable without a type takes a value of every kind',
    vocabulary: ['every kind accepted', 'some kind refused'],
    from: { checked: { pass: 'every kind accepted', fail: 'some kind refused' } },
  },
  {
    id: 'string-variable-given-object',
    clause: 'RUN-VALUE-KINDS',
    question: 'The answer to an object or an array given to a variable typed string',
    vocabulary: ACCEPTED_OR_STATUS,
    from: { observed: /^a variable typed string given an? (object|array)$/ },
    read: acceptedOrStatus,
  },
  {
    id: 'string-variable-given-scalar',
    clause: 'RUN-VALUE-KINDS',
    question: 'The answer to a number or a boolean given to a variable typed string',
    vocabulary: ACCEPTED_OR_STATUS,
    from: { observed: /^a variable typed string given an? (number|boolean)$/ },
    read: acceptedOrStatus,
  },
  {
    id: 'variables-not-object',
    clause: 'RUN-400-INVALID-BODY',
    question: 'The answer to a run whose `variables` is not an object',
    words: 'variables (object, optional): workflow variables as key-value pairs',
    vocabulary: ACCEPTED_OR_STATUS,
    from: { observed: 'run with "variables" that is not an object' },
    read: acceptedOrStatus,
  },
  {
    id: 'undeclared-variables',
    clause: 'RUN-UNDECLARED-VARIABLES',
    question: 'The answer to a run that gives a variable its plan does not declare',
    vocabulary: ['ignored', '400'],
    from: { observed: 'a variable the plan does not declare' },
    read: (raw) => {
      const answer = acceptedOrStatus(raw);
      return answer === 'accepted' ? 'ignored' : answer;
    },
  },
  // ---- §4.5 search ---------------------------------------------------------------------------------------
  {
    id: 'order-values-applied',
    clause: 'SEARCH-ORDER-VALUES',
    question:
      'Which values of `order` change the order of the listing (of asc, desc, createdAt, updatedAt, title, -createdAt, newest)',
    vocabulary: [
      'none',
      { shown: 'applies <values>', test: (v) => /^applies \S/.test(v) },
      { shown: 'refused (<status>)', test: (v) => /^refused \([1-5]\d\d\)$/.test(v) },
    ],
    from: { observed: /^order=(?!not-an-order$)/ },
    read: (raw, key) => {
      const value = key.slice('order='.length);
      const status = statusIn(raw);
      if (status && !status.startsWith('2')) return `refused (${status})`;
      return /different order/.test(raw) ? `applies ${value}` : 'none';
    },
    combine: (values) => {
      const applied = values.filter((v) => v.startsWith('applies ')).map((v) => v.slice('applies '.length));
      if (applied.length) return [`applies ${[...new Set(applied)].sort().join(', ')}`];
      const refused = values.filter((v) => v.startsWith('refused'));
      return refused.length === values.length ? [...new Set(refused)].sort() : ['none'];
    },
  },
  {
    id: 'order-unknown',
    clause: 'SEARCH-ORDER-VALUES',
    question: 'The answer to an `order` value no implementation would know',
    vocabulary: ['ignored', STATUS],
    from: { observed: 'order=not-an-order' },
    read: (raw) => (/^HTTP 2\d\d, default order$/.test(raw) ? 'ignored' : statusIn(raw)),
  },
  {
    id: 'pagesize-default',
    clause: 'SEARCH-PAGESIZE-DEFAULT',
    question: 'How many items a search without pageSize lists',
    vocabulary: [COUNT, 'all the account holds'],
    from: { observed: 'items without pageSize' },
    read: (raw) =>
      /^(\d+) \(of \d+\)$/.exec(raw)?.[1] ?? (/^\d+ \(all \d+;/.test(raw) ? 'all the account holds' : undefined),
  },
  {
    id: 'pagesize-max',
    clause: 'SEARCH-PAGESIZE-MAX',
    question: 'The most items one page holds (pageSize=1000 asked)',
    vocabulary: [
      { shown: 'capped at <n>', test: (v) => /^capped at \d+$/.test(v) },
      'no cap up to what the account holds',
      { shown: 'refused (<status>)', test: (v) => /^refused \([1-5]\d\d\)$/.test(v) },
    ],
    from: { observed: 'pageSize=1000' },
    read: (raw) => {
      const m = /^HTTP 2\d\d, (\d+) items \(of (\d+)\)$/.exec(raw);
      if (m) return m[1] === m[2] ? 'no cap up to what the account holds' : `capped at ${m[1]}`;
      const status = statusIn(raw);
      return status ? `refused (${status})` : undefined;
    },
  },
  {
    id: 'pagesize-invalid',
    clause: 'SEARCH-PAGESIZE-MAX',
    question: 'The answer to a pageSize of 0, of −1, or not a number',
    vocabulary: ['served', 'served, empty', STATUS],
    from: { observed: /^(pageSize=0|pageSize=-1|page=abc&pageSize=xyz)$/ },
    read: servedRead,
  },
  {
    id: 'page-zero',
    clause: 'SEARCH-PAGESIZE-DEFAULT',
    question: 'The answer to page=0, below the 1-based range',
    words: 'page number, 1-based',
    vocabulary: ['served', 'served, empty', STATUS],
    from: { observed: 'page=0 (below the 1-based range) answers' },
    read: servedRead,
  },
  // ---- §4.7 upload, §4.8 generate ------------------------------------------------------------------------
  {
    id: 'upload-json-body',
    clause: 'UPLOAD-CONTENT-TYPE',
    question: 'The answer to an upload whose body is JSON, not multipart',
    vocabulary: ['400', '415', STATUS],
    from: { observed: 'a JSON body {} (no files)' },
    read: statusIn,
  },
  {
    id: 'upload-other-field',
    clause: 'UPLOAD-400-NO-FILES',
    question: 'The answer to a file sent under a multipart field other than `files`',
    vocabulary: ACCEPTED_OR_STATUS,
    from: { observed: /^a file under the multipart field / },
    read: acceptedOrStatus,
  },
  {
    id: 'generate-query-not-text',
    clause: 'GENERATE-400-MISSING-QUERY',
    question: 'The answer to a generation whose query is null or a number',
    words: 'natural-language description of the desired workflow; several languages are supported',
    vocabulary: ACCEPTED_OR_STATUS,
    from: { observed: /^generate with query (null|a number)$/ },
    read: acceptedOrStatus,
  },
  {
    id: 'unlisted-locale',
    clause: 'GENERATE-LOCALES',
    question: 'The answer to a locale the list does not hold',
    vocabulary: ACCEPTED_OR_STATUS,
    from: { observed: /^unlisted locale / },
    read: acceptedOrStatus,
  },
  {
    id: 'model-response',
    clause: 'GENERATE-MODEL-RESPONSE-LIMIT',
    question: 'What the 400 of generation carries as modelResponse',
    vocabulary: ['empty', 'text'],
    from: { observed: 'modelResponse length' },
    read: (raw) => (raw === '0' ? 'empty' : /^\d+$/.test(raw) ? 'text' : undefined),
  },
  // ---- §5 authentication ---------------------------------------------------------------------------------
  ...(
    [
      ['auth-scheme-lower-case', 'lower-case scheme', 'The valid key under “bearer”'],
      ['auth-scheme-upper-case', 'upper-case scheme', 'The valid key under “BEARER”'],
      ['auth-two-spaces', 'two spaces before the key', 'The valid key after “Bearer” and two spaces'],
    ] as const
  ).map(
    ([id, key, question]): PointEntry => ({
      id,
      clause: 'AUTH-SCHEME-SPELLING',
      question,
      vocabulary: ACCEPTED_OR_STATUS,
      from: { observed: key },
      read: acceptedOrStatus,
    }),
  ),
  // ---- §7 errors -----------------------------------------------------------------------------------------
  {
    id: 'error-body-shape',
    clause: 'ERROR-BODY-SHAPE',
    question: 'The body of an error answer (401, 403, 404, and 400 but generation’s)',
    words: ERROR_BODY_WORDS,
    vocabulary: ['envelope (§2.1)', 'statusCode, message, error (§4.8)', 'both', 'other JSON', 'not JSON'],
    from: { observed: /^\w+ [45]\d\d$/ },
    read: (raw) => {
      if (/^non-JSON body/.test(raw)) return 'not JSON';
      const envelope = /^JSON with errCode /.test(raw);
      const nest = /statusCode, message, error/.test(raw);
      return envelope && nest
        ? 'both'
        : envelope
          ? 'envelope (§2.1)'
          : nest
            ? 'statusCode, message, error (§4.8)'
            : /^JSON/.test(raw)
              ? 'other JSON'
              : undefined;
    },
  },
  ...(
    [
      ['errcode-401', /^\w+ 401$/, 'The errCode of a 401'],
      ['errcode-403', /^runWorkflow 403$/, 'The errCode of the run’s 403 (the workflow API disabled)'],
      [
        'errcode-404-canvas',
        /^(runWorkflow|getWorkflowDetail|generateWorkflow) 404$/,
        'The errCode of a 404 for an unknown canvas',
      ],
      [
        'errcode-404-execution',
        /^(getExecutionStatus|getExecutionOutput|abortExecution) 404$/,
        'The errCode of a 404 for an unknown execution',
      ],
    ] as const
  ).map(
    ([id, keys, question]): PointEntry => ({
      id,
      clause: 'ERROR-BODY-SHAPE',
      question,
      words: ERROR_BODY_WORDS,
      vocabulary: ERROR_CODE_TERMS,
      from: { observed: keys },
      read: errCodeRead,
    }),
  ),
  {
    id: 'unlisted-status',
    clause: 'ERROR-STATUS-FOR-UNLISTED-CODES',
    question: 'The statuses answered that §4 does not list',
    vocabulary: ['413 (a body over the payload limit)', STATUS_WITH_CODE],
    from: { observed: /^\w+ [1-5]\d\d$/ },
    read: (raw) => {
      if (/^413 to a \d+-byte request body$/.test(raw)) return '413 (a body over the payload limit)';
      return /^([1-5]\d\d) with errCode (\S+)$/.exec(raw)?.slice(1).join(' with ');
    },
  },
  {
    id: 'limit-status-E2005',
    clause: 'LIMIT-OPERATIONS',
    question: 'The status of a run or a generation over the 100KB payload limit (E2005)',
    words: 'HTTP status for codes with none listed: not shown.',
    vocabulary: ['400', '413', 'accepted', STATUS],
    from: { observed: /^(run|generate) over 100KB$/ },
    read: acceptedOrStatus,
  },
  {
    id: 'limit-status-E2004',
    clause: 'LIMIT-OPERATIONS',
    question: 'The status of content over the 100k-character limit (E2004)',
    words: 'HTTP status for codes with none listed: not shown.',
    vocabulary: ['400', '413', 'accepted', STATUS],
    from: { observed: /^(run|generate) content over 100k characters$/ },
    read: acceptedOrStatus,
  },
  {
    id: 'upload-over-100kb',
    clause: 'LIMIT-OPERATIONS',
    question: 'The answer to an upload whose body is over 100KB: whether the payload limit (E2005) applies to uploads',
    vocabulary: ['accepted', '413', '400'],
    from: { observed: 'upload over 100KB' },
    read: acceptedOrStatus,
  },
  {
    id: 'http-layer-refusal',
    clause: 'HTTP-LAYER-REFUSAL',
    question: 'How a request no stack routes (an encoded slash, a NUL, a broken escape) is refused',
    vocabulary: ['400', '404', '414', '431', 'closed without an answer', STATUS],
    from: { observed: /^\w+ (status|answer)\b/ },
    read: (raw) => (raw === 'closed without an answer' ? raw : statusIn(raw)),
  },
  {
    id: 'rate-limit',
    clause: 'LIMIT-RATE',
    question: 'How a rate limit is answered',
    vocabulary: ['429 with Retry-After', '429 without Retry-After'],
    from: { observed: /answered 429$/ },
    read: (raw) => (/^Retry-After \(none\)/.test(raw) ? '429 without Retry-After' : '429 with Retry-After'),
  },
  // ---- should clauses with another reading ---------------------------------------------------------------
  {
    id: 'date-time-offset',
    clause: 'DATETIME-OFFSET',
    question: 'Whether date-times carry their offset from UTC',
    vocabulary: ['with an offset (RFC 3339)', 'without an offset (ISO 8601 local time)'],
    from: { checked: { pass: 'with an offset (RFC 3339)', fail: 'without an offset (ISO 8601 local time)' } },
  },
  {
    id: 'certificate-horizon',
    clause: 'TLS-CERT-NOT-EXPIRING',
    question: 'Whether the certificate stays valid for the next 14 days',
    vocabulary: ['valid 14 days or more', 'expires within 14 days'],
    from: { checked: { pass: 'valid 14 days or more', fail: 'expires within 14 days' } },
  },
  {
    id: 'input-time',
    clause: 'INPUT-NOT-SLOW',
    question: 'Whether an input within the limits is answered in ordinary time',
    vocabulary: ['ordinary time', 'slow on some input'],
    from: { checked: { pass: 'ordinary time', fail: 'slow on some input' } },
  },
  {
    id: 'slow-request-stalls-others',
    clause: 'ONE-REQUEST-NO-STALL',
    question: 'Whether one slow request makes the others wait',
    vocabulary: ['others served meanwhile', 'others wait'],
    from: { checked: { pass: 'others served meanwhile', fail: 'others wait' } },
  },
];

/**
 * The clauses no run can answer a point of: the specification describes nothing to send or read for
 * them, so they record nothing but "not run" (or a sentence no vocabulary would add to).
 */
export const UNMEASURED: Readonly<Partial<Record<ClauseId, string>>> = {
  EVENTS: 'no event kind, callback or payload is described: nothing to receive',
  'VERSION-DEPRECATION-POLICY': 'a policy is read in documents, not in answers',
};

export const OPEN_POINTS: readonly OpenPoint[] = POINTS.map((p) => ({
  ...p,
  words: p.words ?? requirement(p.clause).quote,
}));

const BY_ID = new Map(OPEN_POINTS.map((p) => [p.id, p]));

/** The point of this ID, or undefined (a point of another harness, read from a history). */
export function openPoint(id: string): OpenPoint | undefined {
  return BY_ID.get(id);
}

const matches = (pattern: string | RegExp, key: string) =>
  typeof pattern === 'string' ? pattern === key : pattern.test(key);

/** The points an observation of `clause` under `key` answers. */
export function pointsObserved(clause: string, key: string): OpenPoint[] {
  return OPEN_POINTS.filter((p) => p.clause === clause && 'observed' in p.from && matches(p.from.observed, key));
}

/** The points the checks of `clause` answer. */
export function pointsChecked(clause: string): OpenPoint[] {
  return OPEN_POINTS.filter((p) => p.clause === clause && 'checked' in p.from);
}

/** One answer of a record to a point: what the record carries besides its sentence. */
export interface PointValue {
  point: string;
  value: string;
}

/** What an observation of `clause` under `key` answers: a value of each point it feeds. */
export function answersOfObservation(clause: string, key: string, value: unknown): PointValue[] {
  const raw = textOf(value);
  return pointsObserved(clause, key).map((p) => ({
    point: p.id,
    value: classify(p.vocabulary, p.read ? p.read(raw, key) : raw, raw),
  }));
}

/** What a judged check of `clause` answers: the word for a pass, or the one for a failure (its other reading). */
export function answersOfCheck(clause: string, pass: boolean): PointValue[] {
  return pointsChecked(clause).map((p) => {
    const { checked } = p.from as { checked: { pass: string; fail: string } };
    return { point: p.id, value: pass ? checked.pass : checked.fail };
  });
}

/** A run's values of a point folded into its answer, in the order they are shown. */
export function answerOf(point: OpenPoint | undefined, values: readonly string[]): string[] {
  const folded = point?.combine ? point.combine(values) : [...new Set(values)];
  const checkedFail = point && 'checked' in point.from ? point.from.checked.fail : undefined;
  // A should clause failed anywhere answers with its other reading: a pass elsewhere does not undo it.
  const one = checkedFail && folded.includes(checkedFail) ? [checkedFail] : folded;
  return [...new Set(one)].sort(point ? compareValues(point.vocabulary) : undefined);
}
