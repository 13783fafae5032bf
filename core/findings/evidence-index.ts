/**
 * The evidence as the verdict reads it: checks (those the suites recorded, and those derived from how
 * each test ended), observations and exchanges, grouped by requirement; and a check shown as evidence,
 * with the excerpts of the exchange it names.
 */
import type {
  CheckRecord,
  EvidenceRecord,
  ExchangeRecord,
  Level,
  ObservationRecord,
  TestEndRecord,
} from '../evidence/records.ts';
import type { EvidenceItem } from './findings.ts';
import type { CatalogueEntry } from './report-model.ts';

/** What the evidence says about each test: how it ended, the clauses it recorded, its first failure. */
export interface TestEvidence {
  ended: Map<string, TestEndRecord>;
  /** Test id → clause IDs with a record of their own in it (a check of any outcome, or an observation). */
  recorded: Map<string, Set<string>>;
  /** Test id → its first must failure, else its first should failure. */
  firstFailure: Map<string, CheckRecord>;
}

export function testEvidence(records: readonly EvidenceRecord[]): TestEvidence {
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

/** The request and response of an exchange as reports show them: the request whole (body cut), the response's status, type and body. */
export function excerptOf(x: ExchangeRecord): { request: string; response: string } {
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
export function evidenceItemOf(c: CheckRecord, ix: EvidenceIndex): EvidenceItem {
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
export interface EvidenceIndex {
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

export function indexEvidence(catalogue: readonly CatalogueEntry[], records: readonly EvidenceRecord[]): EvidenceIndex {
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
