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

import type { Level } from '../../contracts/requirements.ts';
export type { Level };

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

export interface CheckRecord {
  kind: 'check';
  requirementId: string;
  level: Level;
  outcome: CheckOutcome;
  /** For `blocked`: the requirement whose deviation kept this one from being judged. */
  blockedBy?: string;
  /** Where the result came from: an explicit suite check, the contract check of a response, or the test's end state. */
  source: 'suite' | 'contract' | 'test-end';
  test?: TestRef;
  message: string;
  expected?: string;
  actual?: string;
  exchangeId?: string;
  at: string;
}

export interface ObservationRecord {
  kind: 'observation';
  requirementId: string;
  key: string;
  value: unknown;
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

export interface NoteRecord {
  kind: 'note';
  topic: string;
  message: string;
  test?: TestRef;
  at: string;
}

export type EvidenceRecord =
  | ExchangeRecord
  | CheckRecord
  | ObservationRecord
  | TestBeginRecord
  | TestEndRecord
  | NoteRecord;

/** Appends records to one JSONL file. Synchronous on purpose: nothing is lost if the process dies. */
export class EvidenceWriter {
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
