/**
 * Builds the conformance verdict from the evidence the suites wrote: the
 * findings (one per deviation, however many clauses and operations show it;
 * findings.ts), and under them each requirement of the catalogue → pass /
 * fail / warn / waived / blocked / observed / not run, with evidence; waivers
 * applied; failures in order of severity; operation × status coverage; the
 * values observed for every point the spec leaves open.
 *
 * One deviation, one failure: only an explicit verdict on evidence fails a
 * clause. A clause a test could not reach after a failure is "blocked by"
 * that failure; one it could not reach for the harness's own reasons (its
 * exception, its deadline, a missing setup) is "not run" with the reason.
 *
 * Pure: takes the catalogue, records and waivers as input, so it can be unit
 * tested without running anything.
 */
import type {
  CheckRecord,
  EvidenceRecord,
  ExchangeRecord,
  Level,
  NoteRecord,
  ObservationRecord,
  TestEndRecord,
} from '../evidence/records.ts';
import { OPERATION_PREFIX } from '../../contracts/requirements.ts';
import {
  findingsOf,
  SEVERITY_ORDER,
  summariseFindings,
  type EvidenceItem,
  type FailedCheck,
  type Finding,
  type FindingsSummary,
  type Severity,
} from './findings.ts';
import type { Waiver, WaiverSet } from './waivers.ts';

export { SEVERITY_ORDER };
export type { EvidenceItem, Finding, FindingsSummary, Severity };

export interface CatalogueEntry {
  id: string;
  section: string;
  level: Level;
  text: string;
  why?: string;
  /** A failure means exposure (served without a valid key, another tenant's data revealed or acted on). */
  security?: boolean;
}

export type VerdictValue = 'pass' | 'fail' | 'warn' | 'waived' | 'blocked' | 'observed' | 'not-run';

export interface ObservedValue {
  key: string;
  values: { value: string; count: number }[];
}

export interface RequirementResult extends CatalogueEntry {
  verdict: VerdictValue;
  /** The verdict before waivers (fail or warn for a waived requirement). */
  rawVerdict: VerdictValue;
  waiver?: Waiver;
  passes: number;
  failures: EvidenceItem[];
  failureCount: number;
  /** For a failure or warning: the group it is reported in. */
  severity?: Severity;
  /** For `blocked`: the clauses whose failure kept this one from being judged. */
  blockedBy: string[];
  notRunReasons: string[];
  observations: ObservedValue[];
  tests: string[];
}

export interface RunMeta {
  seed: number;
  baseUrl: string;
  targetKind: 'reference' | 'external';
  targetHow?: string;
  strict: boolean;
  startedAt: string;
  wallTimeMs?: number;
  bootMs?: number;
  /** Set when the run did not complete (deadline hit, runner crashed). */
  incomplete?: string;
  runnerExitCode?: number | null;
  command?: string;
  /** The implementation the run was made against, as named by --name (and --target-version). */
  implementation?: { name: string; version?: string };
  /** The harness that made the report: its package version. */
  harnessVersion?: string;
}

export interface CoverageRow {
  operation: string;
  /** status (or fault kind) → count of responses */
  counts: Record<string, number>;
  listed: number[];
  listedUnseen: number[];
}

export interface Footprint {
  /** Generations answered 2xx without a canvasId in the request: each made a canvas. */
  canvasesCreated: number;
  /** Generations answered 2xx that named a canvas: each replaced one. */
  canvasesOverwritten: number;
  /** Runs answered 2xx: each started an execution. */
  executionsStarted: number;
  /** Files in uploads answered 2xx. */
  filesUploaded: number;
}

export interface ConformanceReport {
  meta: RunMeta;
  summary: {
    /** What the headline counts: deviations, not clauses. */
    findings: FindingsSummary;
    catalogue: number;
    exercised: number;
    byVerdict: Record<VerdictValue, number>;
    /** Unwaived failing clauses (and failures against IDs the catalogue lacks). */
    newFailures: number;
    waivedFailures: number;
    waiversNowPassing: number;
    /** `harnessErrors`: failed tests that recorded no failure — they stopped for the harness's own reasons. */
    tests: {
      total: number;
      passed: number;
      failed: number;
      skipped: number;
      unfinished: number;
      harnessErrors: number;
    };
    exchanges: number;
    faults: number;
  };
  /** One per deviation, in report order (see findings.ts); the clause verdicts stay in `requirements`. */
  findings: Finding[];
  requirements: RequirementResult[];
  waivers: {
    source?: string;
    waivedFailures: { id: string; reason: string; verdict: VerdictValue }[];
    newFailures: string[];
    nowPassing: { id: string; reason: string }[];
    notExercised: { id: string; reason: string }[];
    expired: Waiver[];
    problems: string[];
  };
  coverage: CoverageRow[];
  /** What the run created on the target: a nightly job against a long-lived target says what it leaves behind. */
  footprint: Footprint;
  /** How the run found the workflows it tested (the discovery note), when it looked. */
  discovery?: string;
  observations: { requirementId: string; text: string; observed: ObservedValue[] }[];
  faults: { test?: string; kind: string; message: string; request: string; curl: string }[];
  failedTests: { test: string; status: string; error?: string }[];
  unknownRequirementIds: string[];
  unreadableEvidenceLines: number;
  exitCode: number;
}

const MAX_FAILURE_EVIDENCE = 5;
const MAX_VALUES_PER_KEY = 12;

function show(value: unknown): string {
  if (typeof value === 'string') return value;
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text;
}

function aggregateObservations(records: ObservationRecord[]): ObservedValue[] {
  const byKey = new Map<string, Map<string, number>>();
  for (const r of records) {
    const values = byKey.get(r.key) ?? new Map<string, number>();
    const v = show(r.value).slice(0, 300);
    values.set(v, (values.get(v) ?? 0) + 1);
    byKey.set(r.key, values);
  }
  return [...byKey.entries()].map(([key, values]) => ({
    key,
    values: [...values.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, MAX_VALUES_PER_KEY)
      .map(([value, count]) => ({ value, count })),
  }));
}

export interface BuildInput {
  catalogue: readonly CatalogueEntry[];
  records: readonly EvidenceRecord[];
  waivers: WaiverSet;
  meta: RunMeta;
  /** Listed status codes per operation (from the generated contract tables). */
  listedStatuses: Record<string, number[]>;
  unreadableEvidenceLines?: number;
}

/** What the evidence says about each test: how it ended, the clauses it recorded, its first failure. */
interface TestEvidence {
  ended: Map<string, TestEndRecord>;
  /** Test id → clause IDs with a record of their own in it (a check of any outcome, or an observation). */
  recorded: Map<string, Set<string>>;
  /** Test id → its first must failure, else its first should failure. */
  firstFailure: Map<string, CheckRecord>;
}

function testEvidence(records: readonly EvidenceRecord[]): TestEvidence {
  const ev: TestEvidence = { ended: new Map(), recorded: new Map(), firstFailure: new Map() };
  for (const r of records) {
    if (r.kind === 'test-end') ev.ended.set(r.test.id, r);
    if ((r.kind !== 'check' && r.kind !== 'observation') || !r.test) continue;
    const ids = ev.recorded.get(r.test.id) ?? new Set<string>();
    ev.recorded.set(r.test.id, ids.add(r.requirementId));
    if (r.kind !== 'check' || r.outcome !== 'fail' || r.level === 'observe') continue;
    const first = ev.firstFailure.get(r.test.id);
    if (!first || (first.level !== 'must' && r.level === 'must')) ev.firstFailure.set(r.test.id, r);
  }
  return ev;
}

function firstLine(text: string | undefined): string {
  return (
    (text ?? '')
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim()
      .slice(0, 300) || '(no error message)'
  );
}

/**
 * Derives check records from how tests ended, for the clauses a test cites but recorded nothing about.
 * A skipped or unfinished test leaves them "not run". A test that failed or timed out never fails them:
 * only an explicit verdict on evidence does, and only a suite's stop names the failure whose data a clause
 * needed. They are "not run", naming the first failure the test recorded when there is one, or else the
 * error — the test broke off for the harness's own reasons (its exception, its deadline, a missing setup).
 */
function checksFromTestEnds(
  records: readonly EvidenceRecord[],
  levelOf: (id: string) => Level | undefined,
): CheckRecord[] {
  const out: CheckRecord[] = [];
  const ev = testEvidence(records);
  const at = new Date().toISOString();
  for (const r of records) {
    if (r.kind !== 'test-begin') continue;
    const end = ev.ended.get(r.test.id);
    const cause = ev.firstFailure.get(r.test.id);
    for (const id of r.citedRequirements) {
      const base = {
        kind: 'check' as const,
        requirementId: id,
        level: levelOf(id) ?? 'must',
        source: 'test-end' as const,
        test: r.test,
        at,
      };
      if (!end) {
        out.push({
          ...base,
          outcome: 'not-run',
          message: 'the test did not finish (run interrupted or worker crashed)',
        });
      } else if (end.status === 'skipped') {
        out.push({ ...base, outcome: 'not-run', message: end.skipReason ? `skipped: ${end.skipReason}` : 'skipped' });
      } else if (end.status === 'interrupted') {
        out.push({ ...base, outcome: 'not-run', message: 'interrupted by the run deadline' });
      } else if ((end.status === 'failed' || end.status === 'timedOut') && !ev.recorded.get(r.test.id)?.has(id)) {
        // Which failure's data the clause needed is not known here (a suite names it with a stop): the
        // test's first failure is only what came before, so the clause is not run, never blocked by it.
        out.push(
          cause
            ? {
                ...base,
                outcome: 'not-run',
                message: `not judged: the test stopped after ${cause.requirementId} failed (${firstLine(cause.message)}), before judging it`,
              }
            : {
                ...base,
                outcome: 'not-run',
                message: `the test stopped before judging it (${end.status === 'timedOut' ? 'its deadline' : 'an error of the harness'}): ${firstLine(end.error)}`,
              },
        );
      }
    }
  }
  return out;
}

function excerptOf(x: ExchangeRecord): { request: string; response: string } {
  const request = `${x.method} ${x.url}\n${Object.entries(x.request.headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}${x.request.bodyExcerpt ? `\n\n${x.request.bodyExcerpt.slice(0, 800)}` : ''}`;
  const response = x.response
    ? `HTTP ${x.response.status}\n${Object.entries(x.response.headers)
        .filter(([k]) => /content-type|content-length/i.test(k))
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n')}\n\n${x.response.bodyExcerpt.slice(0, 1200)}`
    : `(no response: ${x.fault?.kind}: ${x.fault?.message})`;
  return { request, response };
}

/** The contract violation a check reports, found on the exchange it names: it holds the JSON pointer. */
function violationOf(c: CheckRecord, x: ExchangeRecord): ExchangeRecord['violations'][number] | undefined {
  const mine = x.violations.filter((v) => v.requirementId === c.requirementId);
  return mine.find((v) => v.expected === c.expected && v.actual === c.actual) ?? mine[0];
}

/** A check as the report shows it: its words, and what the exchange it names holds (excerpts, status, pointer). */
function evidenceItemOf(c: CheckRecord, ix: EvidenceIndex): EvidenceItem {
  const x = c.exchangeId ? ix.exchanges.get(c.exchangeId) : undefined;
  const pointer = x && c.source === 'contract' ? violationOf(c, x)?.pointer : undefined;
  return {
    test: c.test?.title,
    source: c.source,
    message: c.message,
    expected: c.expected,
    actual: c.actual,
    ...(x
      ? {
          ...excerptOf(x),
          curl: x.curl,
          exchangeId: x.id,
          ...(x.operation ? { operation: x.operation } : {}),
          ...(x.response ? { status: x.response.status } : {}),
          ...(x.fault ? { fault: x.fault.kind } : {}),
          ...(pointer !== undefined ? { pointer } : {}),
          ...(x.label ? { probe: x.label } : {}),
        }
      : {}),
  };
}

/** The evidence grouped the ways the verdict reads it. */
interface EvidenceIndex {
  /** Checks the suites recorded, then those derived from how tests ended. */
  checks: CheckRecord[];
  observations: ObservationRecord[];
  exchanges: Map<string, ExchangeRecord>;
  checksById: Map<string, CheckRecord[]>;
  observationsById: Map<string, ObservationRecord[]>;
  /** Requirement ID → titles of the tests that cite it. */
  testsById: Map<string, Set<string>>;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const list = out.get(key(item));
    if (list) list.push(item);
    else out.set(key(item), [item]);
  }
  return out;
}

function indexEvidence(catalogue: readonly CatalogueEntry[], records: readonly EvidenceRecord[]): EvidenceIndex {
  const levels = new Map(catalogue.map((c) => [c.id, c.level]));
  const checks: CheckRecord[] = [
    ...records.filter((r): r is CheckRecord => r.kind === 'check'),
    ...checksFromTestEnds(records, (id) => levels.get(id)),
  ];
  const observations = records.filter((r): r is ObservationRecord => r.kind === 'observation');
  const testsById = new Map<string, Set<string>>();
  for (const r of records) {
    if (r.kind === 'test-begin')
      for (const id of r.citedRequirements) testsById.set(id, (testsById.get(id) ?? new Set()).add(r.test.title));
  }
  return {
    checks,
    observations,
    exchanges: new Map(records.filter((r): r is ExchangeRecord => r.kind === 'exchange').map((x) => [x.id, x])),
    checksById: groupBy(checks, (c) => c.requirementId),
    observationsById: groupBy(observations, (o) => o.requirementId),
    testsById,
  };
}

/**
 * The verdict of one requirement before waivers, strongest finding first: a failure that counts
 * (must, or should under strict), a warning, a pass, blocked by another clause's failure, an
 * observation; else not run — so a clause is never reported as passing on the strength of checks
 * that could not run, nor as failing for what another clause broke.
 */
export function rawVerdictOf(checks: readonly CheckRecord[], observed: boolean, strict: boolean): VerdictValue {
  const fails = checks.filter((c) => c.outcome === 'fail');
  if (fails.some((c) => c.level === 'must' || (c.level === 'should' && strict))) return 'fail';
  if (fails.length > 0) return 'warn';
  if (checks.some((c) => c.outcome === 'pass')) return 'pass';
  if (checks.some((c) => c.outcome === 'blocked')) return 'blocked';
  return observed ? 'observed' : 'not-run';
}

/** A failure's evidence shows the server breaking: a 5xx answer, or a transport fault instead of one. */
function showsServerError(c: CheckRecord, ix: EvidenceIndex): boolean {
  const x = c.exchangeId ? ix.exchanges.get(c.exchangeId) : undefined;
  return !!x && (!!x.fault || (x.response?.status ?? 0) >= 500);
}

function severityOf(entry: CatalogueEntry, fails: readonly CheckRecord[], ix: EvidenceIndex): Severity | undefined {
  if (fails.length === 0) return undefined;
  if (entry.security) return 'security';
  return fails.some((c) => showsServerError(c, ix)) ? 'server-error' : 'deviation';
}

/** Failures (or any results) in the order they are reported: by severity group, then catalogue order. */
export function inSeverityOrder<T extends { severity?: Severity }>(results: readonly T[]): T[] {
  const rank = (r: T) => (r.severity ? SEVERITY_ORDER.indexOf(r.severity) : SEVERITY_ORDER.length);
  return results
    .map((r, i) => ({ r, i }))
    .sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i)
    .map(({ r }) => r);
}

function requirementResult(
  entry: CatalogueEntry,
  ix: EvidenceIndex,
  waiver: Waiver | undefined,
  strict: boolean,
): RequirementResult {
  const mine = ix.checksById.get(entry.id) ?? [];
  const fails = mine.filter((c) => c.outcome === 'fail');
  const obs = ix.observationsById.get(entry.id) ?? [];
  const raw = rawVerdictOf(mine, obs.length > 0, strict);
  const failures = fails.slice(0, MAX_FAILURE_EVIDENCE).map((c) => evidenceItemOf(c, ix));
  const reasons = [...new Set(mine.filter((c) => c.outcome === 'not-run').map((c) => c.message))];
  if (raw === 'not-run' && reasons.length === 0)
    reasons.push(ix.testsById.has(entry.id) ? 'no result recorded' : 'no suite exercised this requirement in this run');
  const severity = severityOf(entry, fails, ix);
  const blockedBy =
    raw === 'blocked'
      ? [...new Set(mine.flatMap((c) => (c.outcome === 'blocked' && c.blockedBy ? [c.blockedBy] : [])))]
      : [];
  return {
    ...entry,
    verdict: waiver && (raw === 'fail' || raw === 'warn') ? 'waived' : raw,
    rawVerdict: raw,
    ...(waiver ? { waiver } : {}),
    passes: mine.filter((c) => c.outcome === 'pass').length,
    failures,
    failureCount: fails.length,
    ...(severity ? { severity } : {}),
    blockedBy,
    notRunReasons: raw === 'not-run' ? reasons : [],
    observations: aggregateObservations(obs),
    tests: [...(ix.testsById.get(entry.id) ?? [])].sort(),
  };
}

/**
 * Responses per operation and status (a transport fault counts under `fault:<kind>`); every
 * operation with listed statuses gets a row, so a listed status never seen stands out.
 */
const accepted2xx = (x: ExchangeRecord) =>
  x.response !== undefined && x.response.status >= 200 && x.response.status < 300;

/** What the run created on the target, read from the exchanges it recorded. */
export function footprintOf(exchanges: Iterable<ExchangeRecord>): Footprint {
  const out: Footprint = { canvasesCreated: 0, canvasesOverwritten: 0, executionsStarted: 0, filesUploaded: 0 };
  for (const x of exchanges) {
    if (!accepted2xx(x)) continue;
    const body = x.request.bodyExcerpt ?? '';
    if (x.operation === 'runWorkflow') out.executionsStarted++;
    else if (x.operation === 'generateWorkflow') {
      if (/"canvasId"\s*:\s*"/.test(body)) out.canvasesOverwritten++;
      else out.canvasesCreated++;
    } else if (x.operation === 'uploadFiles') {
      // The client records a multipart body as "(multipart: name bytes B type, …)".
      const listed = /^\(multipart: (.*)\)$/.exec(body)?.[1];
      out.filesUploaded += listed ? listed.split(/, (?=\S+ \d+ B )/).length : 0;
    }
  }
  return out;
}

export function coverageOf(
  exchanges: Iterable<ExchangeRecord>,
  listedStatuses: Record<string, number[]>,
): { coverage: CoverageRow[]; faults: number } {
  const byOperation = new Map<string, Record<string, number>>();
  let faults = 0;
  for (const x of exchanges) {
    const op = x.operation ?? '(outside the interface)';
    const key = x.response ? String(x.response.status) : `fault:${x.fault?.kind ?? 'unknown'}`;
    if (!x.response) faults++;
    const counts = byOperation.get(op) ?? {};
    counts[key] = (counts[key] ?? 0) + 1;
    byOperation.set(op, counts);
  }
  const coverage = [...new Set([...Object.keys(listedStatuses), ...byOperation.keys()])].map(
    (operation): CoverageRow => {
      const counts = byOperation.get(operation) ?? {};
      const listed = listedStatuses[operation] ?? [];
      return { operation, counts, listed, listedUnseen: listed.filter((s) => !counts[String(s)]) };
    },
  );
  return { coverage, faults };
}

function testOutcomes(records: readonly EvidenceRecord[]): {
  tests: ConformanceReport['summary']['tests'];
  failedTests: ConformanceReport['failedTests'];
} {
  const testEnds = records.filter((r): r is TestEndRecord => r.kind === 'test-end');
  const { firstFailure } = testEvidence(records);
  const begun = new Set(
    records.filter((r) => r.kind === 'test-begin').map((r) => (r as { test: { id: string } }).test.id),
  );
  const endedIds = new Set(testEnds.map((t) => t.test.id));
  const failedTests = testEnds
    .filter((t) => t.status === 'failed' || t.status === 'timedOut')
    .map((t) => ({ test: t.test.title, status: t.status, error: t.error?.slice(0, 1500) }));
  const tests = {
    total: begun.size,
    passed: testEnds.filter((t) => t.status === 'passed').length,
    failed: failedTests.length,
    skipped: testEnds.filter((t) => t.status === 'skipped').length,
    unfinished:
      [...begun].filter((id) => !endedIds.has(id)).length + testEnds.filter((t) => t.status === 'interrupted').length,
    harnessErrors: testEnds.filter(
      (t) => (t.status === 'failed' || t.status === 'timedOut') && !firstFailure.has(t.test.id),
    ).length,
  };
  return { tests, failedTests };
}

/** How the waivers fared; `unknownFailures` are failures against IDs the catalogue lacks, never waivable. */
function waiverOutcome(
  requirements: RequirementResult[],
  unknownFailures: CheckRecord[],
  waivers: WaiverSet,
): ConformanceReport['waivers'] {
  const waived = requirements.filter((r) => r.waiver);
  return {
    source: waivers.source,
    waivedFailures: requirements
      .filter((r) => r.verdict === 'waived')
      .map((r) => ({ id: r.id, reason: r.waiver!.reason, verdict: r.rawVerdict })),
    newFailures: [
      ...inSeverityOrder(requirements.filter((r) => r.verdict === 'fail')).map((r) => r.id),
      ...new Set(unknownFailures.map((c) => c.requirementId)),
    ],
    nowPassing: waived.filter((r) => r.rawVerdict === 'pass').map((r) => ({ id: r.id, reason: r.waiver!.reason })),
    notExercised: waived
      .filter((r) => r.rawVerdict === 'not-run' || r.rawVerdict === 'blocked' || r.rawVerdict === 'observed')
      .map((r) => ({ id: r.id, reason: r.waiver!.reason })),
    expired: waivers.expired,
    problems: waivers.problems,
  };
}

/**
 * Every failing check of a must or should clause (also of an ID the catalogue lacks), as the findings
 * read it: a failure when it counts against the run (must, or should under strict), else a warning.
 */
function failedChecks(ix: EvidenceIndex, strict: boolean): FailedCheck[] {
  return ix.checks
    .filter((c) => c.outcome === 'fail' && c.level !== 'observe')
    .map((c) => ({
      requirementId: c.requirementId,
      strength: c.level === 'must' || strict ? 'failure' : 'warning',
      evidence: evidenceItemOf(c, ix),
    }));
}

/**
 * The operation the run gave up on at the harness's own limit (no complete answer within its deadline),
 * said first: what could not be judged without it was not run, so the run is incomplete, and that
 * operation is why. A fault of the target's making is its status clause's failure instead.
 */
function operationLost(
  records: readonly EvidenceRecord[],
  requirements: readonly RequirementResult[],
): string | undefined {
  const lost = records.filter(
    (r): r is NoteRecord & { fault: NonNullable<NoteRecord['fault']> } =>
      r.kind === 'note' && r.topic === 'fault-remembered' && !!r.fault && !r.fault.clause,
  );
  if (lost.length === 0) return undefined;
  const said = lost.map(({ fault }) => {
    const where = fault.exchangeId ? `exchange ${fault.exchangeId}` : fault.operation;
    const stopped = requirements.filter((q) => q.notRunReasons.some((t) => t.includes(where))).length;
    return (
      `${fault.operation} gave no complete answer within the request deadline (${fault.message}); ` +
      `it is not asked again in this run, and ${stopped} clause(s) could not be judged without it`
    );
  });
  return said.join('; ');
}

export function buildReport(input: BuildInput): ConformanceReport {
  const { catalogue, records, waivers, meta } = input;
  const ix = indexEvidence(catalogue, records);
  const waiverOf = new Map(waivers.active.map((w) => [w.id, w]));
  const requirements = catalogue.map((entry) => requirementResult(entry, ix, waiverOf.get(entry.id), meta.strict));

  const known = new Set(catalogue.map((c) => c.id));
  const unknownRequirementIds = [
    ...new Set(
      [...ix.checks.map((c) => c.requirementId), ...ix.observations.map((o) => o.requirementId)].filter(
        (id) => !known.has(id),
      ),
    ),
  ].sort();
  // A failure recorded against an ID the catalogue lacks must not vanish: it fails the run too.
  const unknownFailures = ix.checks.filter(
    (c) => c.outcome === 'fail' && !known.has(c.requirementId) && (c.level === 'must' || meta.strict),
  );
  const newFailures = requirements.filter((r) => r.verdict === 'fail').length + unknownFailures.length;

  const byVerdict: Record<VerdictValue, number> = {
    pass: 0,
    fail: 0,
    warn: 0,
    waived: 0,
    blocked: 0,
    observed: 0,
    'not-run': 0,
  };
  for (const r of requirements) byVerdict[r.verdict]++;
  const waiverReport = waiverOutcome(requirements, unknownFailures, waivers);
  const { coverage, faults } = coverageOf(ix.exchanges.values(), input.listedStatuses);
  const { tests, failedTests } = testOutcomes(records);
  const findings = findingsOf({
    checks: failedChecks(ix, meta.strict),
    clauses: requirements,
    listedStatuses: input.listedStatuses,
    prefixes: OPERATION_PREFIX,
  });
  // Tests that stopped for the harness's own reasons judged nothing: the run cannot vouch for their clauses.
  const incomplete =
    meta.incomplete ??
    operationLost(records, requirements) ??
    (tests.harnessErrors > 0
      ? `${tests.harnessErrors} test(s) stopped for reasons of the harness (deadline, exception, missing setup); their clauses are not run`
      : undefined);

  return {
    meta: incomplete ? { ...meta, incomplete } : meta,
    summary: {
      findings: summariseFindings(findings),
      catalogue: catalogue.length,
      // Judged on evidence of their own: a blocked clause was reached but not judged.
      exercised: requirements.filter((r) => r.rawVerdict !== 'not-run' && r.rawVerdict !== 'blocked').length,
      byVerdict,
      newFailures,
      waivedFailures: waiverReport.waivedFailures.length,
      waiversNowPassing: waiverReport.nowPassing.length,
      tests,
      exchanges: ix.exchanges.size,
      faults,
    },
    findings,
    requirements,
    waivers: waiverReport,
    coverage,
    footprint: footprintOf(ix.exchanges.values()),
    discovery: records.find((r): r is NoteRecord => r.kind === 'note' && r.topic === 'discovery')?.message,
    observations: requirements
      .filter((r) => r.observations.length > 0)
      .map((r) => ({ requirementId: r.id, text: r.text, observed: r.observations })),
    faults: [...ix.exchanges.values()]
      .filter((x) => x.fault)
      .slice(0, 50)
      .map((x) => ({
        test: x.test?.title,
        kind: x.fault!.kind,
        message: x.fault!.message,
        request: `${x.method} ${x.url}`,
        curl: x.curl,
      })),
    failedTests,
    unknownRequirementIds,
    unreadableEvidenceLines: input.unreadableEvidenceLines ?? 0,
    exitCode: newFailures > 0 ? 1 : incomplete ? 2 : 0,
  };
}
