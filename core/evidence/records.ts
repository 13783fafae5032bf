/**
 * The evidence format: what the conformance fixtures write while tests run
 * (one JSONL file per worker) and what the report builder reads afterwards.
 *
 * Records are appended synchronously as they happen, so a run that is killed
 * half-way still leaves everything it learnt on disk and the report stays
 * complete (what was not reached is "not run").
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Violation } from '../../contracts/check.ts';

import { hasRequirement, type ClauseId, type Level } from '../../contracts/requirements.ts';
import type { PointValue } from '../../contracts/open-points.ts';
export type { Level, PointValue };

export interface TestRef {
  /** Playwright test id (stable for a given file + title). */
  id: string;
  file: string;
  title: string;
}

export interface ExchangeRecord {
  kind: 'exchange';
  id: string;
  test?: TestRef;
  at: string;
  label?: string;
  tenant: string;
  method: string;
  url: string;
  operation?: string;
  request: { headers: Record<string, string>; bodyExcerpt?: string; bodyBytes: number };
  response?: {
    status: number;
    headers: Record<string, string>;
    bodyExcerpt: string;
    bodyBytes: number;
    truncated: boolean;
    /** Why the body is not judged: the server closed the connection before it was complete. */
    bodyNotJudged?: string;
  };
  fault?: { kind: string; message: string };
  violations: ViolationRecord[];
  durationMs: number;
  curl: string;
}

/** A contract finding as the checking API reports it. */
export type ViolationRecord = Violation;

/** `blocked`: the clause could not be judged because an earlier step deviated (`blockedBy` names that clause). */
export type CheckOutcome = 'pass' | 'fail' | 'not-run' | 'blocked';

/**
 * One link of a blocking chain. A blocked clause names the clause whose data it needed (`blockedBy`);
 * when that clause was itself blocked, its own blocker follows, down to the failure at the root:
 * "A blocked by B blocked by C" is A's record with blockedBy B and blockedChain [B (blocked), C (fail)].
 */
export interface BlockLink {
  requirementId: string;
  /** `fail`: the deviation at the root of the chain; `blocked`: a clause blocked by the next link. */
  outcome: 'fail' | 'blocked';
  /** The exchange the failure was recorded on (or, for a blocked link, the one it needed), when known. */
  exchangeId?: string;
  /** The failure's or the blocked clause's own message. */
  message?: string;
}

/** What a blocked clause needed and did not get: the exchanges whose data it would have judged, or a step. */
export interface Needed {
  exchangeIds?: string[];
  /** A step that is no single exchange of this test: "the run of c_1 (never sent)", "the plan of c_1". */
  step?: string;
}

export interface CheckRecord {
  kind: 'check';
  requirementId: string;
  level: Level;
  outcome: CheckOutcome;
  /** For `blocked`: the requirement whose deviation kept this one from being judged (the first link of blockedChain). */
  blockedBy?: string;
  /** For `blocked`: from `blockedBy` to the failure at the root (one link when blockedBy itself failed). */
  blockedChain?: BlockLink[];
  /** For `blocked`: the data the clause needed, whose failure is `blockedBy`. */
  needed?: Needed;
  /** Where the result came from: an explicit suite check, the contract check of a response, or the test's end state. */
  source: 'suite' | 'contract' | 'test-end';
  test?: TestRef;
  message: string;
  expected?: string;
  actual?: string;
  /** The exchange shown as the check's evidence. */
  exchangeId?: string;
  /** Every exchange the check judged, when it judged several (a relation across polls); exchangeId among them. */
  exchangeIds?: string[];
  /** For a should clause with another reading, judged: which reading the target took (contracts/open-points.ts). */
  points?: PointValue[];
  at: string;
}

export interface ObservationRecord {
  kind: 'observation';
  requirementId: string;
  key: string;
  value: unknown;
  /** The value read into the vocabulary of each open point it answers (contracts/open-points.ts). */
  points?: PointValue[];
  test?: TestRef;
  exchangeId?: string;
  at: string;
}

export interface TestBeginRecord {
  kind: 'test-begin';
  test: TestRef;
  citedRequirements: string[];
  at: string;
}

export interface TestEndRecord {
  kind: 'test-end';
  test: TestRef;
  citedRequirements: string[];
  status: 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';
  error?: string;
  skipReason?: string;
  durationMs: number;
  at: string;
}

/** The topic of the note written when the run first remembers a fault it will not wait for again. */
export const FAULT_REMEMBERED = 'fault-remembered';

export interface NoteRecord {
  kind: 'note';
  topic: string;
  message: string;
  test?: TestRef;
  /** For topic `fault-remembered`: the fault the run will not wait for again (see transport/faults-seen.ts). */
  fault?: { operation: string; kind: string; message: string; clause?: string; exchangeId?: string };
  at: string;
}

export type EvidenceRecord =
  | ExchangeRecord
  | CheckRecord
  | ObservationRecord
  | TestBeginRecord
  | TestEndRecord
  | NoteRecord;

/** Where records go while a run goes: a file of the run's evidence, or memory for a mode that keeps its own. */
export interface EvidenceSink {
  write(record: EvidenceRecord): void;
}

/** Appends records to one JSONL file. Synchronous on purpose: nothing is lost if the process dies. */
export class EvidenceWriter implements EvidenceSink {
  readonly file: string;
  constructor(dir: string, name: string) {
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, `${name}.jsonl`);
  }
  write(record: EvidenceRecord): void {
    appendFileSync(this.file, `${JSON.stringify(record)}\n`);
  }
}

/** Reads every record of every JSONL file in `dir`; a torn last line (killed writer) is skipped. */
export function readEvidence(dir: string): { records: EvidenceRecord[]; unreadableLines: number } {
  const records: EvidenceRecord[] = [];
  let unreadableLines = 0;
  if (!existsSync(dir)) return { records, unreadableLines };
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.jsonl'))
    .sort()) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        records.push(JSON.parse(line) as EvidenceRecord);
      } catch {
        unreadableLines++;
      }
    }
  }
  return { records, unreadableLines };
}

/** Requirement IDs cited in a test title, written in square brackets: `[SEARCH-PAGE-1-BASED]`. */
export function citedRequirements(title: string): string[] {
  return [...title.matchAll(/\[([A-Z0-9][A-Z0-9-]*[A-Z0-9*])\]/g)].map((m) => m[1]);
}

/** The catalogued clauses a test title cites (a pattern or an unknown ID left out): what a stop of the test stops. */
export function citedClauses(title: string): ClauseId[] {
  return citedRequirements(title).filter(hasRequirement);
}

/**
 * Keeps records in memory, by the exchange they judged, for a mode that reads back the verdicts of each
 * answer itself (explore): the records of an exchange are taken once they are read; the rest are dropped.
 */
export class EvidenceInMemory implements EvidenceSink {
  private readonly byExchange = new Map<string, EvidenceRecord[]>();

  write(record: EvidenceRecord): void {
    const id = 'exchangeId' in record ? record.exchangeId : undefined;
    if (!id || record.kind === 'exchange') return;
    const list = this.byExchange.get(id) ?? [];
    list.push(record);
    this.byExchange.set(id, list);
  }

  /** The check and observation records judged on `exchangeId`, taken out of memory. */
  take(exchangeId: string): (CheckRecord | ObservationRecord)[] {
    const list = this.byExchange.get(exchangeId) ?? [];
    this.byExchange.delete(exchangeId);
    return list.filter((r): r is CheckRecord | ObservationRecord => r.kind === 'check' || r.kind === 'observation');
  }
}
