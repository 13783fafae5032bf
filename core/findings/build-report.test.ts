import { test, expect } from '@playwright/test';
import {
  buildReport,
  coverageOf,
  footprintOf,
  rawVerdictOf,
  type CatalogueEntry,
  type RunMeta,
} from './build-report.ts';
import type { CheckRecord, EvidenceRecord, ExchangeRecord, TestEndRecord, TestRef } from '../evidence/records.ts';
import { citedRequirements } from '../evidence/records.ts';
import { emptyWaivers, parseWaivers } from './waivers.ts';
import {
  conformanceConsole,
  conformanceHtml,
  conformanceJunit,
  conformanceMarkdown,
  headline,
} from '../../scenarios/report/index.ts';

const CATALOGUE: CatalogueEntry[] = [
  { id: 'A-MUST', section: '1', level: 'must', text: 'a must clause' },
  { id: 'B-SHOULD', section: '2', level: 'should', text: 'a should clause', why: 'because' },
  { id: 'C-OBSERVE', section: '3', level: 'observe', text: 'not shown' },
  { id: 'D-MUST', section: '4', level: 'must', text: 'another must clause' },
];
const META: RunMeta = {
  seed: 7,
  baseUrl: 'http://127.0.0.1:1/v1',
  targetKind: 'reference',
  strict: false,
  startedAt: '2025-01-01T00:00:00Z',
};
const T1: TestRef = { id: 't1', file: 'scenarios/x.spec.ts', title: 'x [A-MUST]' };
const T2: TestRef = { id: 't2', file: 'scenarios/x.spec.ts', title: 'y [D-MUST]' };
const at = '2025-01-01T00:00:00Z';
const known = new Set(CATALOGUE.map((c) => c.id));

function check(
  id: string,
  level: 'must' | 'should',
  outcome: 'pass' | 'fail' | 'not-run',
  t: TestRef = T1,
): EvidenceRecord {
  return {
    kind: 'check',
    requirementId: id,
    level,
    outcome,
    source: 'suite',
    test: t,
    message: `${id} ${outcome}`,
    at,
  };
}
const begin = (t: TestRef, cited: string[]): EvidenceRecord => ({
  kind: 'test-begin',
  test: t,
  citedRequirements: cited,
  at,
});
const end = (t: TestRef, cited: string[], status: TestEndRecord['status'], extra: object = {}): EvidenceRecord => ({
  kind: 'test-end',
  test: t,
  citedRequirements: cited,
  status,
  durationMs: 1,
  at,
  ...extra,
});

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
  expect(citedRequirements('run › polls [STATE-EXEC-FORWARD-ONLY] [STATE-TERMINAL] x')).toEqual([
    'STATE-EXEC-FORWARD-ONLY',
    'STATE-TERMINAL',
  ]);
  expect(citedRequirements('no ids [lowercase]')).toEqual([]);
});

test('a must failure fails the run; passes alone pass; nothing recorded is not run', () => {
  const r = build([
    check('A-MUST', 'must', 'pass'),
    check('A-MUST', 'must', 'fail'),
    check('D-MUST', 'must', 'pass', T2),
  ]);
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
  const obs = (value: unknown): EvidenceRecord => ({
    kind: 'observation',
    requirementId: 'C-OBSERVE',
    key: 'abort status',
    value,
    at,
  });
  const r = build([obs('failed'), obs('failed'), obs('init')]);
  expect(verdictOf(r, 'C-OBSERVE')).toBe('observed');
  expect(r.observations[0].observed[0]).toEqual({
    key: 'abort status',
    values: [
      { value: 'failed', count: 2 },
      { value: 'init', count: 1 },
    ],
  });
  expect(r.exitCode).toBe(0);
});

test('waivers: waived failures pass the gate, passing waivers are flagged, expired waivers do not apply', () => {
  const waivers = `waivers:\n  - id: A-MUST\n    reason: known bug 1\n  - id: D-MUST\n    reason: fixed since\n  - id: B-SHOULD\n    reason: old\n    expires: 2025-01-01\n  - id: NOPE\n    reason: x\n`;
  const r = build(
    [check('A-MUST', 'must', 'fail'), check('D-MUST', 'must', 'pass', T2), check('B-SHOULD', 'should', 'fail')],
    { waivers, strict: true },
  );
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

test("a test that broke off for the harness's own reasons leaves its clauses not run, with the error — never failed", () => {
  for (const [status, error] of [
    ['failed', 'GET /openapi/workflow/e/output: no complete response within 2000 ms\nreproduce: curl …'],
    ['timedOut', 'Test timeout of 60000ms exceeded.'],
    ['failed', 'TypeError: cannot read properties of undefined'],
  ] as const) {
    const r = build([begin(T1, ['A-MUST', 'C-OBSERVE']), end(T1, ['A-MUST', 'C-OBSERVE'], status, { error })]);
    expect(verdictOf(r, 'A-MUST'), error).toBe('not-run');
    expect(verdictOf(r, 'C-OBSERVE'), error).toBe('not-run');
    const reasons = r.requirements.find((x) => x.id === 'A-MUST')!.notRunReasons;
    expect(reasons[0]).toContain(error.split('\n')[0]);
    expect(reasons[0]).not.toContain('reproduce');
    expect(r.summary.byVerdict.fail).toBe(0);
    // Nothing was judged in that test: the run cannot vouch for it, so it is incomplete, never failed.
    expect(r.summary.tests.harnessErrors).toBe(1);
    expect(r.exitCode).toBe(2);
    expect(headline(r)).toMatch(/^INCOMPLETE — 1 test\(s\) stopped for reasons of the harness/);
  }
});

test('after a failure, the clauses the test did not reach are not run with the failure named, never blocked by it', () => {
  const t: TestRef = { ...T1, title: 'z [A-MUST] [B-SHOULD] [C-OBSERVE] [D-MUST]' };
  const cited = ['A-MUST', 'B-SHOULD', 'C-OBSERVE', 'D-MUST'];
  const r = build([
    begin(t, cited),
    check('A-MUST', 'must', 'fail', t),
    end(t, cited, 'failed', { error: '[A-MUST] …' }),
  ]);
  expect(verdictOf(r, 'A-MUST')).toBe('fail');
  // Which failure's data they needed is not known: the first failure of the test only came before them.
  for (const id of ['B-SHOULD', 'C-OBSERVE', 'D-MUST']) {
    const req = r.requirements.find((x) => x.id === id)!;
    expect(verdictOf(r, id), id).toBe('not-run');
    expect(req.blockedBy, id).toEqual([]);
    expect(req.notRunReasons?.[0], id).toMatch(
      /^not judged: the test stopped after A-MUST failed .*before judging it$/,
    );
  }
  expect(r.summary.byVerdict).toMatchObject({ fail: 1, 'not-run': 3 });
  expect(r.summary.exercised).toBe(1);
  // A failing test is the target's failure, not the harness's: the run is not incomplete.
  expect(r.exitCode).toBe(1);
});

test('clauses the failed test did judge keep their record', () => {
  const t: TestRef = { ...T1, title: 'z [A-MUST] [B-SHOULD] [C-OBSERVE] [D-MUST]' };
  const cited = ['A-MUST', 'B-SHOULD', 'C-OBSERVE', 'D-MUST'];
  const r = build([
    begin(t, cited),
    check('B-SHOULD', 'should', 'fail', t),
    check('D-MUST', 'must', 'pass', t),
    check('A-MUST', 'must', 'fail', t),
    end(t, cited, 'failed'),
  ]);
  expect(verdictOf(r, 'C-OBSERVE')).toBe('not-run');
  expect(verdictOf(r, 'D-MUST')).toBe('pass');
  expect(verdictOf(r, 'B-SHOULD')).toBe('warn');
  expect(verdictOf(r, 'A-MUST')).toBe('fail');
});

test('precedence: fail > warn > pass > blocked > observed > not run', () => {
  const blocked = (id: string, by: string, t: TestRef = T1): EvidenceRecord => ({
    kind: 'check',
    requirementId: id,
    level: 'must',
    outcome: 'blocked',
    blockedBy: by,
    source: 'suite',
    test: t,
    message: 'blocked',
    at,
  });
  const c = (r: EvidenceRecord) => r as CheckRecord;
  expect(rawVerdictOf([c(blocked('A-MUST', 'D-MUST')), c(check('A-MUST', 'must', 'pass'))], false, false)).toBe('pass');
  expect(rawVerdictOf([c(blocked('A-MUST', 'D-MUST')), c(check('A-MUST', 'should', 'fail'))], false, false)).toBe(
    'warn',
  );
  expect(rawVerdictOf([c(blocked('A-MUST', 'D-MUST')), c(check('A-MUST', 'must', 'not-run'))], true, false)).toBe(
    'blocked',
  );
  // Blocked in two tests by two causes: both are named.
  const r = build([
    blocked('A-MUST', 'D-MUST'),
    blocked('A-MUST', 'B-SHOULD', T2),
    blocked('A-MUST', 'D-MUST', T2),
    check('D-MUST', 'must', 'fail', T2),
  ]);
  expect(r.requirements.find((x) => x.id === 'A-MUST')).toMatchObject({
    verdict: 'blocked',
    blockedBy: ['D-MUST', 'B-SHOULD'],
  });
});

test('skipped and unfinished tests leave their clauses not run; an incomplete run exits 2', () => {
  const r = build(
    [begin(T1, ['A-MUST']), end(T1, ['A-MUST'], 'skipped', { skipReason: 'no second key' }), begin(T2, ['D-MUST'])],
    { incomplete: 'deadline' },
  );
  expect(verdictOf(r, 'A-MUST')).toBe('not-run');
  expect(r.requirements.find((x) => x.id === 'A-MUST')!.notRunReasons[0]).toContain('no second key');
  expect(verdictOf(r, 'D-MUST')).toBe('not-run');
  expect(r.summary.tests.unfinished).toBe(1);
  expect(r.exitCode).toBe(2);
});

test('failures are reported by severity: security, then server errors (5xx or a transport fault), then deviations', () => {
  const catalogue: CatalogueEntry[] = [
    { id: 'S-STATUS', section: '4', level: 'must', text: 'a status clause' },
    { id: 'S-5XX', section: '4', level: 'must', text: 'answered with a 5xx' },
    { id: 'S-RESET', section: '4', level: 'must', text: 'answered with a reset' },
    { id: 'S-EXPOSE', section: '5', level: 'must', text: 'no exposure', security: true },
    { id: 'S-BLOCKED', section: '4', level: 'must', text: 'blocked' },
  ];
  const x = (id: string, status?: number): EvidenceRecord => ({
    kind: 'exchange',
    id,
    at,
    tenant: 'A',
    method: 'GET',
    url: 'http://127.0.0.1:1/v1/openapi/workflows',
    operation: 'searchWorkflows',
    request: { headers: {}, bodyBytes: 0 },
    response: status ? { status, headers: {}, bodyExcerpt: '', bodyBytes: 0, truncated: false } : undefined,
    fault: status ? undefined : { kind: 'connection-reset', message: 'reset' },
    violations: [],
    durationMs: 1,
    curl: 'curl',
  });
  const fail = (id: string, exchangeId: string): EvidenceRecord => ({
    ...(check(id, 'must', 'fail') as CheckRecord),
    exchangeId,
  });
  const records = [
    x('e404', 404),
    x('e500', 500),
    x('eReset'),
    x('e200', 200),
    fail('S-STATUS', 'e404'),
    fail('S-5XX', 'e500'),
    fail('S-RESET', 'eReset'),
    fail('S-EXPOSE', 'e200'),
    {
      kind: 'check',
      requirementId: 'S-BLOCKED',
      level: 'must',
      outcome: 'blocked',
      blockedBy: 'S-RESET',
      source: 'test-end',
      message: 'blocked',
      at,
    } as EvidenceRecord,
  ];
  const r = buildReport({ catalogue, records, waivers: emptyWaivers(), meta: META, listedStatuses: {} });
  const severity = Object.fromEntries(r.requirements.map((q) => [q.id, q.severity]));
  expect(severity).toEqual({
    'S-STATUS': 'deviation',
    'S-5XX': 'server-error',
    'S-RESET': 'server-error',
    'S-EXPOSE': 'security',
    'S-BLOCKED': undefined,
  });
  expect(r.waivers.newFailures).toEqual(['S-EXPOSE', 'S-5XX', 'S-RESET', 'S-STATUS']);
  const md = conformanceMarkdown(r);
  const order = ['### S-EXPOSE', '### S-5XX', '### S-RESET', '### S-STATUS'].map((h) => md.indexOf(h));
  expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]))).toBe(true);
  expect(md).toContain('### S-EXPOSE [FAIL] (must, §5) — security');
  // Findings come first, security first; each is one deviation here (no two share what their evidence shows).
  expect(r.findings.map((f) => [f.id, f.severity, f.clauses.join()])).toEqual([
    ['F1', 'security', 'S-EXPOSE'],
    ['F2', 'server-error', 'S-5XX'],
    ['F3', 'server-error', 'S-RESET'],
    ['F4', 'deviation', 'S-STATUS'],
  ]);
  expect(r.findings[2].blocked).toEqual(['S-BLOCKED']);
  expect(md.indexOf('## Findings (4)')).toBeLessThan(md.indexOf('## Requirements'));
  expect(md).not.toMatch(/[\u{1F300}-\u{1FAFF}\u{2600}-\u{27BF}]/u);
  expect(md).toContain('- S-BLOCKED — blocked by [S-RESET](#req-S-RESET)');
  expect(md).toContain('<a id="req-S-RESET"></a>');
  expect(conformanceHtml(r)).toContain('blocked by <a href="#req-S-RESET">S-RESET</a>');
  const consoleText = conformanceConsole(r, {});
  expect(consoleText).toContain('FAIL — 4 findings (1 security); 4 clauses failing, 1 blocked');
  expect(consoleText.indexOf('F1 [FAIL] [security]')).toBeLessThan(consoleText.indexOf('F2 [FAIL] [server error]'));
  expect(consoleText).toContain('blocked  S-BLOCKED by S-RESET');
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
    kind: 'exchange',
    id,
    at,
    tenant: 'A',
    method: 'POST',
    url: 'http://127.0.0.1:1/v1/openapi/workflow/c/run',
    operation: 'runWorkflow',
    request: { headers: { authorization: 'Bearer ***' }, bodyBytes: 2 },
    response: status
      ? { status, headers: { 'content-type': 'application/json' }, bodyExcerpt: '{}', bodyBytes: 2, truncated: false }
      : undefined,
    fault: status ? undefined : { kind: 'connection-reset', message: 'reset' },
    violations: [],
    durationMs: 1,
    curl: 'curl -X POST "${BASE_URL}"/x',
  });
  const failing: EvidenceRecord = {
    ...(check('A-MUST', 'must', 'fail') as object),
    exchangeId: 'e1',
  } as EvidenceRecord;
  const r = build([x('e1', 200), x('e2', 200), x('e3'), failing]);
  const row = r.coverage.find((c) => c.operation === 'runWorkflow')!;
  expect(row.counts).toEqual({ '200': 2, 'fault:connection-reset': 1 });
  expect(row.listedUnseen).toEqual([404]);
  expect(r.summary.faults).toBe(1);
  const md = conformanceMarkdown(r);
  expect(md).toContain('## Findings (1)');
  expect(md).toContain('### F1 [FAIL] Not met: a must clause');
  expect(md).toContain('curl -X POST');
  expect(conformanceHtml(r)).toContain('A-MUST');
});

test('the raw verdict takes the strongest finding: counted failure, warning, pass, observation, else not run', () => {
  const c = (level: 'must' | 'should', outcome: 'pass' | 'fail' | 'not-run') =>
    check('A-MUST', level, outcome) as CheckRecord;
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
    kind: 'exchange',
    id,
    at,
    tenant: 'A',
    method: 'GET',
    url: 'http://127.0.0.1:1/files/f',
    operation,
    request: { headers: {}, bodyBytes: 0 },
    response: status ? { status, headers: {}, bodyExcerpt: '', bodyBytes: 0, truncated: false } : undefined,
    fault: status ? undefined : { kind: 'timeout', message: 'slow' },
    violations: [],
    durationMs: 1,
    curl: 'curl',
  });
  const { coverage, faults } = coverageOf(
    [x('e1', undefined, 200), x('e2', undefined), x('e3', 'searchWorkflows', 401)],
    { runWorkflow: [200], searchWorkflows: [200, 401] },
  );
  expect(coverage.map((c) => c.operation)).toEqual(['runWorkflow', 'searchWorkflows', '(outside the interface)']);
  expect(coverage[0]).toEqual({ operation: 'runWorkflow', counts: {}, listed: [200], listedUnseen: [200] });
  expect(coverage[1].listedUnseen).toEqual([200]);
  expect(coverage[2].counts).toEqual({ '200': 1, 'fault:timeout': 1 });
  expect(faults).toBe(1);
});

test('the footprint counts what the run left on the target: canvases created or overwritten, executions, uploaded files', () => {
  const x = (operation: string, status: number, bodyExcerpt?: string): ExchangeRecord => ({
    kind: 'exchange',
    id: `${operation}-${status}-${bodyExcerpt ?? ''}`,
    at,
    tenant: 'A',
    method: 'POST',
    url: 'http://t/v1/x',
    operation,
    request: { headers: {}, bodyExcerpt, bodyBytes: 0 },
    response: { status, headers: {}, bodyExcerpt: '{}', bodyBytes: 2, truncated: false },
    violations: [],
    durationMs: 1,
    curl: '',
  });
  const f = footprintOf([
    x('generateWorkflow', 200, '{"query":"a"}'),
    x('generateWorkflow', 201, '{"query":"b","locale":"fr"}'),
    x('generateWorkflow', 200, '{"query":"c","canvasId":"c_1"}'),
    x('generateWorkflow', 400, '{"query":"d"}'),
    x('runWorkflow', 200, '{"variables":{}}'),
    x('runWorkflow', 404, '{"variables":{}}'),
    x('uploadFiles', 200, '(multipart: a.txt 10 B text/plain, b, c.csv 20 B text/csv)'),
    x('uploadFiles', 400, '(multipart: d.txt 1 B text/plain)'),
    x('getExecutionStatus', 200),
  ]);
  expect(f).toEqual({ canvasesCreated: 2, canvasesOverwritten: 1, executionsStarted: 1, filesUploaded: 2 });
});

test('renderings open with the findings, list failing clauses first, mark verdicts in words, and JUnit counts findings', () => {
  const r = build([
    check('D-MUST', 'must', 'pass', T2),
    check('A-MUST', 'must', 'fail'),
    check('B-SHOULD', 'should', 'fail'),
  ]);
  expect(headline(r)).toBe('FAIL — 1 finding, 1 warning; 1 clause failing, 0 blocked');
  const html = conformanceHtml(r);
  const at = (text: string) => html.indexOf(text);
  expect(at('id="findings"')).toBeGreaterThan(0);
  expect(at('id="findings"')).toBeLessThan(at('id="requirements"'));
  expect(at('id="warnings"')).toBeLessThan(at('id="requirements"'));
  // Failures, then warnings, then the rest.
  const rows = [...html.matchAll(/<tr id="req-([^"]+)" data-verdict="([^"]+)"/g)].map((m) => m[2]);
  expect(rows.slice(0, 3)).toEqual(['fail', 'warn', 'not-run']);
  expect(rows.at(-1)).toBe('pass');
  expect(html).toContain('<span class="mark m-fail">FAIL</span>');
  expect(html).not.toMatch(/[\u{1F300}-\u{1FAFF}\u{2600}-\u{27BF}]/u);
  const md = conformanceMarkdown(r);
  expect(md.indexOf('## Findings (1)')).toBeLessThan(md.indexOf('## Warnings (1)'));
  expect(md.indexOf('## Warnings (1)')).toBeLessThan(md.indexOf('## Requirements'));
  expect(md).toMatch(/\| <a id="req-A-MUST"><\/a>\[FAIL\] \| A-MUST \| must \| 0 \/ 1 \| \[F1\]\(#finding-F1\) \|/);

  const junit = conformanceJunit(r);
  expect(junit).toMatch(/<testsuites [^>]*tests="6" failures="1"/);
  expect(junit).toMatch(/<testsuite name="findings" tests="2" failures="1"/);
  expect(junit.match(/<failure /g)).toHaveLength(1);
  expect(junit).toContain('<testcase classname="findings.deviation" name="F1 Not met: a must clause"');
  expect(junit).toContain('<skipped message="fail; counted as F1"/>');
  expect(junit).toContain('<system-out>warning: Not met: a should clause');
});
