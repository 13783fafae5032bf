/**
 * One clause, one judge: the same answer is judged the same way whether a suite or the generative mode
 * sent the request. Each case is an exchange as a target could answer it; it goes once through the
 * calls the suites make (the client's contract judgement, then the clause judge of the suite that sends
 * such a request) and once through explore's judgement of the input that stands for the same request,
 * and the two sets of clause results must be equal, clause by clause.
 *
 * The limits apply where §8's codes say they do: a long value under a variable the workflow does not
 * declare is no content the run takes, in either mode.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { checkResponse, operationFor } from '../contracts/check.ts';
import { exchangeRecord } from '../core/evidence/exchange-record.ts';
import { EvidenceInMemory, type CheckRecord, type ObservationRecord } from '../core/evidence/records.ts';
import { Verdict } from '../core/evidence/verdict.ts';
import { ContractJudge } from '../core/judging/contract.ts';
import {
  judgeInvalidParameter,
  judgeOverLimit,
  judgeUploadNotMultipart,
  judgeWithoutKey,
  limitOver,
  type InvalidParameterClause,
  type LimitClause,
  type OperationKeyClause,
  type UnkeyedClause,
} from '../core/judging/refusals.ts';
import type { ObserveClauseId } from '../contracts/requirements.ts';
import type { Exchange, RequestSpec } from '../core/transport/exchange.ts';
import { prepare, type Prepared } from './generate/inputs.ts';
import type { ExploreInput, World } from './generate/model.ts';
import { judgeAnswer } from './judge/judge.ts';

const KEY = 'wfk_one_judge_key_0123456789abcdef';
const BASE = 'http://127.0.0.1:9/v1';
let sequence = 0;

const world = (): World => ({
  canvases: [],
  plain: {
    canvasId: 'c_plain',
    plan: { title: 'Weekly digest', tasks: [], variables: [{ name: 'topic', variableType: 'string', required: true }] },
  },
  fileKeys: [],
  executions: [],
  keys: [KEY],
});

/** The exchange a target answering `status` with `body` to the prepared request would give. */
function answered(p: Prepared, status: number, body: unknown): Exchange {
  const spec: RequestSpec = p.spec;
  const url = new URL(BASE + spec.path);
  for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const mapped = operationFor(spec.method, spec.path)!;
  const text = JSON.stringify(body);
  const headers = { 'content-type': 'application/json' };
  const violations = checkResponse({ operation: mapped.operation, status, headers, body: text });
  const id = `one-judge-${++sequence}`;
  const record = exchangeRecord(
    { id, tenant: 'A', operation: mapped.operation, baseUrl: BASE },
    { method: spec.method, url, headers: {}, sendHeaders: {}, bodyBytes: 0 },
    { status, headers, text, bodyBytes: text.length, truncated: false, violations, durationMs: 1 },
  );
  return { record, status, headers, text, json: body, parsed: true, operation: mapped.operation, violations };
}

type Results = Record<string, string>;

function resultsOf(records: (CheckRecord | ObservationRecord)[]): Results {
  const out: Results = {};
  for (const r of records) {
    const id = r.requirementId;
    const outcome = r.kind === 'observation' ? 'observed' : r.outcome;
    // A pass credited once per judge says nothing of this answer in particular.
    if (outcome === 'pass' && r.kind === 'check' && r.source === 'contract') continue;
    out[id] = out[id] && out[id] !== outcome ? `${out[id]},${outcome}` : outcome;
  }
  return out;
}

function judges() {
  const records = new EvidenceInMemory();
  const verdict = Verdict.detached(records);
  return { records, verdict, contract: new ContractJudge(verdict, [KEY]) };
}

/** What the suite that sends such a request does with its answer. */
type SuiteJudge =
  | { kind: 'without-key'; clauses: (OperationKeyClause | UnkeyedClause)[] }
  | { kind: 'limit'; clause: LimitClause }
  | { kind: 'invalid'; clause: InvalidParameterClause }
  | { kind: 'upload-not-multipart' }
  | { kind: 'contract only' };

function bySuites(ex: Exchange, suite: SuiteJudge, openPoint?: ObserveClauseId): Results {
  const j = judges();
  j.contract.judge(ex, { credit: true, openPoint });
  if (suite.kind === 'without-key') judgeWithoutKey(j.verdict, ex, { clauses: suite.clauses, message: 'suite' });
  if (suite.kind === 'limit') judgeOverLimit(j.verdict, suite.clause, ex, 'suite');
  if (suite.kind === 'invalid') judgeInvalidParameter(j.verdict, suite.clause, ex, 'suite');
  if (suite.kind === 'upload-not-multipart') judgeUploadNotMultipart(j.verdict, ex, 'suite');
  return resultsOf(j.records.take(ex.record.id));
}

function byExplore(ex: Exchange, input: ExploreInput, p: Prepared): { results: Results; judgement: string } {
  const j = judges();
  j.contract.judge(ex, { credit: true, openPoint: p.spec.openPoint });
  const kept: (CheckRecord | ObservationRecord)[] = [];
  const take = j.records.take.bind(j.records);
  j.records.take = (id) => {
    const r = take(id);
    kept.push(...r);
    return r;
  };
  const judgement = judgeAnswer({ verdict: j.verdict, records: j.records }, input, p, ex);
  return { results: resultsOf(kept), judgement: judgement.kind === 'fail' ? judgement.clause : judgement.kind };
}

const longText = 'x'.repeat(100_500);
const envelope = { success: true, data: { executionId: 'e1', status: 'init' } };
const refusal = (code: string) => ({ success: false, errCode: code, errMsg: 'refused' });

interface Case {
  name: string;
  input: ExploreInput;
  status: number;
  body: unknown;
  suite: SuiteJudge;
  /** Clause results both modes must reach (a subset of what they record), and explore's judgement. */
  expect: Results;
  judgement: string;
}

const run = (body: Extract<ExploreInput, { op: 'runWorkflow' }>['body'], family = 'allowed'): ExploreInput => ({
  op: 'runWorkflow',
  family,
  canvas: { $canvas: 'plain' },
  body,
  fill: { text: 'weekly', option: 0, fileKeys: [], asArray: false },
});

const uploadJson: ExploreInput = { op: 'uploadFiles', family: 'no-files', body: { form: 'json', text: '{}' } };

const CASES: Case[] = [
  {
    name: 'an upload whose body is JSON refused as a media type (415): recorded, as a 400 would be',
    input: uploadJson,
    status: 415,
    body: refusal('E3009'),
    suite: { kind: 'upload-not-multipart' },
    expect: { 'UPLOAD-CONTENT-TYPE': 'observed' },
    judgement: 'pass',
  },
  {
    name: 'an upload whose body is JSON accepted: no file was sent, UPLOAD-400-NO-FILES fails',
    input: uploadJson,
    status: 200,
    body: { success: true, data: { files: [] } },
    suite: { kind: 'upload-not-multipart' },
    expect: { 'UPLOAD-400-NO-FILES': 'fail' },
    judgement: 'UPLOAD-400-NO-FILES',
  },
  {
    name: 'a generation whose query is over 100k characters, served',
    input: { op: 'generateWorkflow', family: 'allowed', body: { form: 'json', query: longText, create: true } },
    status: 200,
    body: { success: true, data: { workflowPlan: { title: 't', tasks: [] } } },
    suite: { kind: 'limit', clause: 'LIMIT-CONTENT-100K' },
    expect: { 'LIMIT-CONTENT-100K': 'fail' },
    judgement: 'LIMIT-CONTENT-100K',
  },
  {
    name: 'a run whose declared variable is over 100k characters, refused 400 E2004',
    input: run({ form: 'json', variables: { $object: [{ name: 'topic', value: longText }] }, legacy: [] }),
    status: 400,
    body: refusal('E2004'),
    suite: { kind: 'limit', clause: 'LIMIT-CONTENT-100K' },
    expect: { 'LIMIT-CONTENT-100K': 'pass' },
    judgement: 'pass',
  },
  {
    name: 'a run over 100KB in all, refused 413 E2005 (E2005 has no listed status)',
    input: run({
      form: 'json',
      variables: { $object: Array.from({ length: 30 }, (_, i) => ({ name: `pad_${i}`, value: 'p'.repeat(4_000) })) },
      legacy: [],
    }),
    status: 413,
    body: refusal('E2005'),
    suite: { kind: 'limit', clause: 'LIMIT-PAYLOAD-100KB' },
    expect: { 'LIMIT-PAYLOAD-100KB': 'pass' },
    judgement: 'pass',
  },
  {
    name: 'a request without a key, served',
    input: { op: 'searchWorkflows', family: 'allowed', auth: { none: true }, query: {} },
    status: 200,
    body: { success: true, data: [] },
    suite: { kind: 'without-key', clauses: ['SEARCH-401-MISSING-OR-INVALID-KEY', 'AUTH-401-MISSING-KEY'] },
    expect: {
      'AUTH-NOT-SERVED-WITHOUT-KEY': 'fail',
      'SEARCH-401-MISSING-OR-INVALID-KEY': 'blocked',
      'AUTH-401-MISSING-KEY': 'blocked',
    },
    judgement: 'AUTH-NOT-SERVED-WITHOUT-KEY',
  },
  {
    name: 'an unknown key refused with 403',
    input: { op: 'searchWorkflows', family: 'allowed', auth: { scheme: 'Bearer', token: 'not-a-key' }, query: {} },
    status: 403,
    body: refusal('E0004'),
    suite: { kind: 'without-key', clauses: ['SEARCH-401-MISSING-OR-INVALID-KEY', 'AUTH-401-INVALID-KEY'] },
    expect: { 'SEARCH-401-MISSING-OR-INVALID-KEY': 'fail', 'AUTH-401-INVALID-KEY': 'fail' },
    judgement: 'SEARCH-401-MISSING-OR-INVALID-KEY',
  },
  {
    name: 'a run body that is an array, refused with 422',
    input: run({ form: 'raw', text: '[1,2,3]' }, 'body-not-object'),
    status: 422,
    body: refusal('INVALID_REQUEST_BODY'),
    suite: { kind: 'invalid', clause: 'RUN-400-INVALID-BODY' },
    expect: { 'RUN-400-INVALID-BODY': 'blocked' },
    judgement: 'RUN-HTTP-STATUS-LISTED',
  },
  {
    name: 'a run body of JSON null accepted as no body: left open, judged as any answer',
    input: run({ form: 'raw', text: 'null' }, 'body-not-object'),
    status: 200,
    body: envelope,
    suite: { kind: 'contract only' },
    // Nothing judged beyond the contract: RUN-400-INVALID-BODY is not about it, so neither mode records it.
    expect: {},
    judgement: 'pass',
  },
  {
    name: 'a generation without a query, refused 400',
    input: { op: 'generateWorkflow', family: 'missing-query', body: { form: 'json', locale: 'en', create: true } },
    status: 400,
    body: { statusCode: 400, message: 'query is required', error: 'Bad Request' },
    suite: { kind: 'invalid', clause: 'GENERATE-400-MISSING-QUERY' },
    expect: { 'GENERATE-400-MISSING-QUERY': 'pass' },
    judgement: 'pass',
  },
  {
    name: 'a keyword outside ASCII answered with a server error',
    input: { op: 'searchWorkflows', family: 'allowed', query: { keyword: 'À' } },
    status: 500,
    body: refusal('E0000'),
    suite: { kind: 'contract only' },
    expect: { 'SEARCH-HTTP-STATUS-LISTED': 'fail' },
    judgement: 'SEARCH-HTTP-STATUS-LISTED',
  },
  {
    name: 'page 0 refused with 400 (an open point)',
    input: { op: 'searchWorkflows', family: 'allowed', query: { page: 0 } },
    status: 400,
    body: refusal('INVALID_REQUEST_BODY'),
    suite: { kind: 'contract only' },
    expect: { 'SEARCH-PAGESIZE-DEFAULT': 'observed' },
    judgement: 'pass',
  },
];

for (const c of CASES) {
  test(`one judge: ${c.name}`, () => {
    const p = prepare(c.input, world());
    const ex = answered(p, c.status, c.body);
    const suites = bySuites(ex, c.suite, p.spec.openPoint);
    const explore = byExplore(ex, c.input, p);
    expect(explore.results).toEqual(suites);
    expect(suites).toMatchObject(c.expect);
    expect(explore.judgement).toBe(c.judgement);
  });
}

test('a long value under a variable the workflow does not declare is no content the run takes, in either mode', () => {
  const input = run({
    form: 'json',
    variables: { $object: [{ name: 'wfcheck_padding', value: longText }] },
    legacy: [],
  });
  const p = prepare(input, world());
  // Explore reads it as neither over the content limit nor surely over the payload limit…
  expect(p.size).not.toBe('content-over');
  const ex = answered(p, 200, envelope);
  const explore = byExplore(ex, input, p);
  expect(explore.judgement).toBe('pass');
  expect(explore.results['LIMIT-CONTENT-100K']).toBeUndefined();
  // …and the suites, sending the same body, find no limit it is over under the same rule.
  const bytes = Buffer.byteLength(p.spec.raw!.body as string);
  expect(limitOver({ operation: 'runWorkflow', payloadBytes: bytes, longestContent: 0 })).toBeUndefined();
});

test('explore states no clause result of its own: every verdict it reads comes from the core', () => {
  const dir = dirname(fileURLToPath(import.meta.url));
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    expect(text, `${file} records a clause result itself`).not.toMatch(
      /\.(must|should|check|notRun|blocked|observe|contract)\(\s*['"`A-Z]/,
    );
  }
});
