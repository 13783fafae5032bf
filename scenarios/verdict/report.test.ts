import { test, expect } from '@playwright/test';
import { buildReport, coverageOf, rawVerdictOf, type CatalogueEntry, type RunMeta } from './report.ts';
import type { CheckRecord, EvidenceRecord, ExchangeRecord, TestRef } from './evidence.ts';
import { citedRequirements } from './evidence.ts';
import { emptyWaivers, parseWaivers } from './waivers.ts';
import { renderHtml, renderMarkdown } from './render.ts';

const CATALOGUE: CatalogueEntry[] = [
  { id: 'A-MUST', section: '1', level: 'must', text: 'a must clause' },
  { id: 'B-SHOULD', section: '2', level: 'should', text: 'a should clause', why: 'because' },
  { id: 'C-OBSERVE', section: '3', level: 'observe', text: 'not shown' },
  { id: 'D-MUST', section: '4', level: 'must', text: 'another must clause' },
];
const META: RunMeta = { seed: 7, baseUrl: 'http://127.0.0.1:1/v1', targetKind: 'reference', strict: false, startedAt: '2025-01-01T00:00:00Z' };
const T1: TestRef = { id: 't1', file: 'scenarios/x.spec.ts', title: 'x [A-MUST]' };
const T2: TestRef = { id: 't2', file: 'scenarios/x.spec.ts', title: 'y [D-MUST]' };
const at = '2025-01-01T00:00:00Z';
const known = new Set(CATALOGUE.map((c) => c.id));

function check(id: string, level: 'must' | 'should', outcome: 'pass' | 'fail' | 'not-run', t: TestRef = T1): EvidenceRecord {
  return { kind: 'check', requirementId: id, level, outcome, source: 'suite', test: t, message: `${id} ${outcome}`, at };
}
const begin = (t: TestRef, cited: string[]): EvidenceRecord => ({ kind: 'test-begin', test: t, citedRequirements: cited, at });
const end = (t: TestRef, cited: string[], status: 'passed' | 'failed' | 'skipped', extra: object = {}): EvidenceRecord => ({ kind: 'test-end', test: t, citedRequirements: cited, status, durationMs: 1, at, ...extra });

function build(records: EvidenceRecord[], opts: { strict?: boolean; waivers?: string; incomplete?: string } = {}) {
  return buildReport({
    catalogue: CATALOGUE,
    records,
    waivers: opts.waivers ? parseWaivers(opts.waivers, known, new Date('2025-06-01')) : emptyWaivers(),
    meta: { ...META, strict: !!opts.strict, incomplete: opts.incomplete },
    listedStatuses: { runWorkflow: [200, 404] },
  });
}
const verdictOf = (r: ReturnType<typeof build>, id: string) => r.requirements.find((x) => x.id === id)!.verdict;

test('cited requirement IDs are read from square brackets in titles', () => {
  expect(citedRequirements('run › polls [STATE-EXEC-FORWARD-ONLY] [STATE-TERMINAL] x')).toEqual(['STATE-EXEC-FORWARD-ONLY', 'STATE-TERMINAL']);
  expect(citedRequirements('no ids [lowercase]')).toEqual([]);
});

test('a must failure fails the run; passes alone pass; nothing recorded is not run', () => {
  const r = build([check('A-MUST', 'must', 'pass'), check('A-MUST', 'must', 'fail'), check('D-MUST', 'must', 'pass', T2)]);
  expect(verdictOf(r, 'A-MUST')).toBe('fail');
  expect(verdictOf(r, 'D-MUST')).toBe('pass');
  expect(verdictOf(r, 'C-OBSERVE')).toBe('not-run');
  expect(r.exitCode).toBe(1);
  expect(r.summary.exercised).toBe(2);
});

test('a should failure is a warning, and a failure only when strict', () => {
  expect(verdictOf(build([check('B-SHOULD', 'should', 'fail')]), 'B-SHOULD')).toBe('warn');
  expect(build([check('B-SHOULD', 'should', 'fail')]).exitCode).toBe(0);
  const strict = build([check('B-SHOULD', 'should', 'fail')], { strict: true });
  expect(verdictOf(strict, 'B-SHOULD')).toBe('fail');
  expect(strict.exitCode).toBe(1);
});

test('observations never fail and their values are aggregated', () => {
  const obs = (value: unknown): EvidenceRecord => ({ kind: 'observation', requirementId: 'C-OBSERVE', key: 'abort status', value, at });
  const r = build([obs('failed'), obs('failed'), obs('init')]);
  expect(verdictOf(r, 'C-OBSERVE')).toBe('observed');
  expect(r.observations[0].observed[0]).toEqual({ key: 'abort status', values: [{ value: 'failed', count: 2 }, { value: 'init', count: 1 }] });
  expect(r.exitCode).toBe(0);
});

test('waivers: waived failures pass the gate, passing waivers are flagged, expired waivers do not apply', () => {
  const waivers = `waivers:\n  - id: A-MUST\n    reason: known bug 1\n  - id: D-MUST\n    reason: fixed since\n  - id: B-SHOULD\n    reason: old\n    expires: 2025-01-01\n  - id: NOPE\n    reason: x\n`;
  const r = build([check('A-MUST', 'must', 'fail'), check('D-MUST', 'must', 'pass', T2), check('B-SHOULD', 'should', 'fail')], { waivers, strict: true });
  expect(verdictOf(r, 'A-MUST')).toBe('waived');
  expect(r.waivers.waivedFailures.map((w) => w.id)).toEqual(['A-MUST']);
  expect(r.waivers.nowPassing.map((w) => w.id)).toEqual(['D-MUST']);
  expect(r.waivers.expired.map((w) => w.id)).toEqual(['B-SHOULD']);
  expect(r.waivers.problems.join()).toContain('NOPE');
  expect(verdictOf(r, 'B-SHOULD')).toBe('fail');
  expect(r.waivers.newFailures).toEqual(['B-SHOULD']);
  expect(r.exitCode).toBe(1);
  expect(build([check('A-MUST', 'must', 'fail')], { waivers }).exitCode).toBe(0);
});

test('a test that broke off without naming a clause fails the clauses it cites', () => {
  const r = build([begin(T1, ['A-MUST']), end(T1, ['A-MUST'], 'failed', { error: 'connection refused' })]);
  expect(verdictOf(r, 'A-MUST')).toBe('fail');
  expect(r.requirements.find((x) => x.id === 'A-MUST')!.failures[0].message).toContain('connection refused');
  expect(r.exitCode).toBe(1);
});

test('after a named failure, the other clauses of the test are not run rather than failed', () => {
  const t: TestRef = { ...T1, title: 'z [A-MUST] [D-MUST]' };
  const r = build([begin(t, ['A-MUST', 'D-MUST']), check('A-MUST', 'must', 'fail', t), end(t, ['A-MUST', 'D-MUST'], 'failed')]);
  expect(verdictOf(r, 'A-MUST')).toBe('fail');
  expect(verdictOf(r, 'D-MUST')).toBe('not-run');
});

test('skipped and unfinished tests leave their clauses not run; an incomplete run exits 2', () => {
  const r = build([begin(T1, ['A-MUST']), end(T1, ['A-MUST'], 'skipped', { skipReason: 'no second key' }), begin(T2, ['D-MUST'])], { incomplete: 'deadline' });
  expect(verdictOf(r, 'A-MUST')).toBe('not-run');
  expect(r.requirements.find((x) => x.id === 'A-MUST')!.notRunReasons[0]).toContain('no second key');
  expect(verdictOf(r, 'D-MUST')).toBe('not-run');
  expect(r.summary.tests.unfinished).toBe(1);
  expect(r.exitCode).toBe(2);
});

test('an explicit not-run never counts as a pass', () => {
  const r = build([check('A-MUST', 'must', 'not-run')]);
  expect(verdictOf(r, 'A-MUST')).toBe('not-run');
  expect(r.exitCode).toBe(0);
});

test('a failure against an ID missing from the catalogue still fails the run', () => {
  const r = build([check('ZZ-UNKNOWN', 'must', 'fail')]);
  expect(r.unknownRequirementIds).toEqual(['ZZ-UNKNOWN']);
  expect(r.exitCode).toBe(1);
});

test('coverage counts statuses and transport faults and lists unseen listed statuses; renderings carry evidence', () => {
  const x = (id: string, status?: number): EvidenceRecord => ({
    kind: 'exchange', id, at, tenant: 'A', method: 'POST', url: 'http://127.0.0.1:1/v1/openapi/workflow/c/run', operation: 'runWorkflow',
    request: { headers: { authorization: 'Bearer ***' }, bodyBytes: 2 },
    response: status ? { status, headers: { 'content-type': 'application/json' }, bodyExcerpt: '{}', bodyBytes: 2, truncated: false } : undefined,
    fault: status ? undefined : { kind: 'connection-reset', message: 'reset' }, violations: [], durationMs: 1, curl: 'curl -X POST "${BASE_URL}"/x',
  });
  const failing: EvidenceRecord = { ...(check('A-MUST', 'must', 'fail') as object), exchangeId: 'e1' } as EvidenceRecord;
  const r = build([x('e1', 200), x('e2', 200), x('e3'), failing]);
  const row = r.coverage.find((c) => c.operation === 'runWorkflow')!;
  expect(row.counts).toEqual({ '200': 2, 'fault:connection-reset': 1 });
  expect(row.listedUnseen).toEqual([404]);
  expect(r.summary.faults).toBe(1);
  const md = renderMarkdown(r);
  expect(md).toContain('## New failures (1)');
  expect(md).toContain('curl -X POST');
  expect(renderHtml(r)).toContain('A-MUST');
});

test('the raw verdict takes the strongest finding: counted failure, warning, pass, observation, else not run', () => {
  const c = (level: 'must' | 'should', outcome: 'pass' | 'fail' | 'not-run') => check('A-MUST', level, outcome) as CheckRecord;
  expect(rawVerdictOf([c('must', 'pass'), c('must', 'fail')], true, false)).toBe('fail');
  expect(rawVerdictOf([c('should', 'pass'), c('should', 'fail')], false, false)).toBe('warn');
  expect(rawVerdictOf([c('should', 'fail')], false, true)).toBe('fail');
  expect(rawVerdictOf([c('must', 'not-run'), c('must', 'pass')], false, false)).toBe('pass');
  expect(rawVerdictOf([c('must', 'not-run')], true, false)).toBe('observed');
  expect(rawVerdictOf([c('must', 'not-run')], false, false)).toBe('not-run');
  expect(rawVerdictOf([], false, true)).toBe('not-run');
});

test('coverage gives every listed operation a row, and files requests outside the interface apart', () => {
  const x = (id: string, operation: ExchangeRecord['operation'], status?: number): ExchangeRecord => ({
    kind: 'exchange', id, at, tenant: 'A', method: 'GET', url: 'http://127.0.0.1:1/files/f', operation,
    request: { headers: {}, bodyBytes: 0 },
    response: status ? { status, headers: {}, bodyExcerpt: '', bodyBytes: 0, truncated: false } : undefined,
    fault: status ? undefined : { kind: 'timeout', message: 'slow' }, violations: [], durationMs: 1, curl: 'curl',
  });
  const { coverage, faults } = coverageOf([x('e1', undefined, 200), x('e2', undefined), x('e3', 'searchWorkflows', 401)], { runWorkflow: [200], searchWorkflows: [200, 401] });
  expect(coverage.map((c) => c.operation)).toEqual(['runWorkflow', 'searchWorkflows', '(outside the interface)']);
  expect(coverage[0]).toEqual({ operation: 'runWorkflow', counts: {}, listed: [200], listedUnseen: [200] });
  expect(coverage[1].listedUnseen).toEqual([200]);
  expect(coverage[2].counts).toEqual({ '200': 1, 'fault:timeout': 1 });
  expect(faults).toBe(1);
});
