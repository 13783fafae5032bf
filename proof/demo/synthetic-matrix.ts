/**
 * Made-up histories and reports of several implementations, for the matrix's tests, its browser test
 * and its benchmark: deterministic, with each implementation failing its own few clauses (each with a
 * finding, a redacted exchange and a reproducer), a clause that flips night after night, one fixed half
 * way through, clauses not run or blocked, versions that change, and titles a target could send to break
 * a page (markup, quotes).
 */
import { REQUIREMENTS } from '../../contracts/requirements.ts';
import { OPERATION_IDS, operationInfo } from '../../contracts/check.ts';
import type {
  ConformanceRunRecord,
  FindingOutcome,
  OpenPointOutcome,
  RequirementOutcome,
} from '../../core/history-store/records.ts';
import { recordConformanceRun, withHistory } from '../../core/history-store/store.ts';
import type { EvidenceRecord } from '../../core/evidence/records.ts';
import { buildReport, type ConformanceReport } from '../../core/findings/build-report.ts';
import { emptyWaivers } from '../../core/findings/waivers.ts';

export interface SyntheticMatrixOptions {
  implementations: number;
  nights: number;
  /** Requirement ids, default the catalogue's. */
  requirements?: readonly { id: string; level: string }[];
  /** Names of the implementations, default impl-01, impl-02 … */
  names?: readonly string[];
}

/** A title as a hostile target might make one appear: markup and both quotes. */
export const HOSTILE_TITLE = `answers <img src=x onerror="alert(1)"> & 'quotes' </td></table><script>alert(2)</script>`;

const START = Date.UTC(2026, 0, 1, 2, 17);
const DAY = 86_400_000;

/** The verdict of requirement `i` (of level `level`) for implementation `k` on night `n`. */
function verdictOf(i: number, level: string, k: number, n: number, nights: number): string {
  if (level === 'observe') return (i + k) % 5 === 0 ? 'not-run' : 'observed';
  const broken =
    (i * 7 + k * 13) % 23 === 0 || // its own standing deviations
    ((i + k) % 31 === 0 && n % 2 === 1) || // a flip
    ((i * 3 + k) % 41 === 0 && n < nights / 2); // fixed half way
  if (broken) return level === 'must' ? 'fail' : 'warn';
  if ((i + 2 * k) % 19 === 0) return 'not-run';
  if ((i + k) % 29 === 0) return 'blocked';
  return 'pass';
}

function evidenceFor(id: string, k: number, n: number, i: number) {
  const op = OPERATION_IDS[i % OPERATION_IDS.length]!;
  const path = operationInfo(op).path.replace(/\{(\w+)\}/g, 'x_$1');
  return {
    message: `${id}: the response breaks the clause (implementation ${k + 1}, night ${n + 1})`,
    expected: 'type boolean',
    actual: '"true"',
    operation: op,
    status: 200,
    pointer: '/success',
    request: `${operationInfo(op).method.toUpperCase()} https://impl-${k + 1}.example/v1${path}\nauthorization: Bearer ***\naccept: application/json`,
    response: `HTTP 200\ncontent-type: application/json\n\n{"success":"true","data":{"executionId":"ex_${n}_${i}"}}`,
    curl: `curl -sS -X ${operationInfo(op).method.toUpperCase()} 'https://impl-${k + 1}.example/v1${path}' -H "Authorization: Bearer \${API_KEY}"`,
  };
}

/**
 * The answers of implementation `k` on night `n` to a few open points: some split (one of them with a
 * value outside the vocabulary, one answered two ways by one implementation), one all agree on, and one
 * whose answer the first implementation changes half way (a new version). One sentence holds markup.
 */
export function syntheticOpenPoints(k: number, n: number, nights: number): OpenPointOutcome[] {
  const value = (point: string, requirementId: string, v: string, sentence: string): OpenPointOutcome => ({
    point,
    requirementId,
    value: v,
    count: 1 + (k % 3),
    sentence,
    ...(point === 'limit-status-E2005'
      ? {
          example: {
            message: sentence,
            operation: 'runWorkflow',
            status: Number(v) || 400,
            request: `POST https://impl-${k + 1}.example/v1/openapi/workflow/c_1/run\nauthorization: Bearer \${API_KEY}`,
            response: `HTTP ${v}\ncontent-type: application/json\n\n{"success":false,"errCode":"E2005"}`,
            curl: `curl -sS -X POST 'https://impl-${k + 1}.example/v1/openapi/workflow/c_1/run' -H "Authorization: Bearer \${API_KEY}"`,
          },
        }
      : {}),
  });
  const e2005 = k % 3 === 0 ? '400' : '413';
  const pageSize = k === 0 && n >= nights / 2 ? '10' : ['20', '10', '7'][k % 3]!;
  return [
    value('limit-status-E2005', 'LIMIT-OPERATIONS', e2005, `run over 100KB: HTTP ${e2005} (E2005)`),
    value('run-status', 'STATE-TRANSITIONS', k % 2 ? 'executing' : 'init', 'status the run answers'),
    value('abort-of-ended', 'ABORT-OUTCOME', '200', 'abort of an execution already finish: HTTP 200'),
    value(
      'errcode-401',
      'ERROR-BODY-SHAPE',
      k === 1 ? 'other: UNAUTHORIZED' : 'E0004',
      k === 1 ? `runWorkflow 401: JSON with errCode <b>UNAUTHORIZED</b>` : 'runWorkflow 401: JSON with errCode E0004',
    ),
    value('pagesize-default', 'SEARCH-PAGESIZE-DEFAULT', pageSize, `items without pageSize: ${pageSize} (of 30)`),
    value(
      'error-body-shape',
      'ERROR-BODY-SHAPE',
      'envelope (§2.1)',
      'runWorkflow 404: JSON with errCode CANVAS_NOT_FOUND',
    ),
    ...(k === 2
      ? [value('error-body-shape', 'ERROR-BODY-SHAPE', 'not JSON', 'runWorkflow 400: non-JSON body (text/html)')]
      : []),
  ];
}

/** One night of one implementation, as the history records it. */
export function syntheticRun(k: number, n: number, o: SyntheticMatrixOptions): ConformanceRunRecord {
  const reqs = o.requirements ?? REQUIREMENTS;
  const requirements: RequirementOutcome[] = reqs.map((r, i) => {
    const verdict = verdictOf(i, r.level, k, n, o.nights);
    const base = { id: r.id, verdict, rawVerdict: verdict, waived: false, evidence: 2 + (i % 4) };
    if (verdict === 'fail' || verdict === 'warn')
      return { ...base, note: `${r.id} broke`, example: evidenceFor(r.id, k, n, i) };
    if (verdict === 'not-run') return { ...base, evidence: 0, note: 'no suite exercised this requirement in this run' };
    if (verdict === 'blocked') return { ...base, evidence: 0, blockedBy: reqs[0]!.id };
    if (verdict === 'observed') return { ...base, note: 'order: newest (3), oldest (1)' };
    return base;
  });
  const findings: FindingOutcome[] = requirements
    .filter((r) => r.verdict === 'fail' || r.verdict === 'warn')
    .map((r, j) => ({
      id: `F${j + 1}`,
      signature: `clause:${r.id}`,
      strength: r.verdict === 'fail' ? 'failure' : 'warning',
      severity: 'deviation',
      waived: false,
      behaviour: j === 0 && k === 1 ? HOSTILE_TITLE : `${r.id}: a field of the envelope has the wrong type`,
      clauses: [r.id],
    }));
  return {
    startedAt: new Date(START + n * DAY + k * 60_000).toISOString(),
    seed: 1000 + n,
    harnessVersion: '0.1.0',
    target: `synthetic:${k}`,
    wallMs: 20_000 + k * 100 + n * 10,
    exitCode: findings.some((f) => f.strength === 'failure') ? 1 : 0,
    name: o.names?.[k] ?? `impl-${String(k + 1).padStart(2, '0')}`,
    targetVersion: `1.${Math.floor(n / 7)}.${k}`,
    requirements,
    tests: [],
    findings,
    openPoints: syntheticOpenPoints(k, n, o.nights),
  };
}

/** Writes `implementations` × `nights` runs (night by night, as a nightly job would) into the history at `path`. */
export function writeSyntheticMatrix(path: string, o: SyntheticMatrixOptions): number {
  const { value, skipped } = withHistory(path, (db) => {
    let runs = 0;
    db.transaction(() => {
      for (let n = 0; n < o.nights; n++)
        for (let k = 0; k < o.implementations; k++) {
          recordConformanceRun(db, syntheticRun(k, n, o));
          runs++;
        }
    })();
    return runs;
  });
  if (value === undefined) throw new Error(skipped);
  return value;
}

export interface SyntheticReportOptions {
  seed: number;
  startedAt: string;
  /** Requirements that fail (a must) or warn (a should), with the exchange that shows it. */
  failing?: readonly string[];
  implementation?: { name: string; version?: string };
  baseUrl?: string;
  /** The reproducer's Authorization credential (default the placeholder the harness writes). */
  credential?: string;
}

/** A conformance report (report.json) of a made-up run over the whole catalogue, built by the report builder. */
export function syntheticReport(o: SyntheticReportOptions): ConformanceReport {
  const at = o.startedAt;
  const failing = new Set(o.failing ?? []);
  const records: EvidenceRecord[] = [];
  REQUIREMENTS.forEach((r, i) => {
    const test = { id: `t${i}`, file: 'scenarios/x.spec.ts', title: `synthetic [${r.id}]` };
    if (r.level === 'observe') {
      records.push({ kind: 'observation', requirementId: r.id, key: 'value', value: 'seen', test, at });
      return;
    }
    const fails = failing.has(r.id);
    if (fails)
      records.push({
        kind: 'exchange',
        id: `x${i}`,
        test,
        at,
        tenant: 'A',
        method: 'GET',
        url: `${o.baseUrl ?? 'https://vendor.example/v1'}/openapi/workflows`,
        operation: 'searchWorkflows',
        request: { headers: { authorization: 'Bearer ***' }, bodyBytes: 0 },
        response: {
          status: 200,
          headers: { 'content-type': 'application/json' },
          bodyExcerpt: '{"success":"yes"}',
          bodyBytes: 17,
          truncated: false,
        },
        violations: [],
        durationMs: 3,
        curl: `curl -sS '${o.baseUrl ?? 'https://vendor.example/v1'}/openapi/workflows' -H 'Authorization: Bearer ${o.credential ?? '${API_KEY}'}'`,
      });
    records.push({
      kind: 'check',
      requirementId: r.id,
      level: r.level,
      outcome: fails ? 'fail' : 'pass',
      source: 'suite',
      test,
      message: fails ? `${r.id}: success is not a boolean` : `${r.id} holds`,
      ...(fails ? { exchangeId: `x${i}`, expected: 'type boolean', actual: '"yes"' } : {}),
      at,
    });
  });
  const report = buildReport({
    catalogue: REQUIREMENTS,
    records,
    waivers: emptyWaivers(),
    meta: {
      seed: o.seed,
      baseUrl: o.baseUrl ?? 'https://vendor.example/v1',
      targetKind: 'external',
      strict: false,
      startedAt: o.startedAt,
      wallTimeMs: 12_000,
      harnessVersion: '0.1.0',
      ...(o.implementation ? { implementation: o.implementation } : {}),
    },
    listedStatuses: Object.fromEntries(OPERATION_IDS.map((op) => [op, operationInfo(op).listedStatuses])),
  });
  return report;
}
