/**
 * What the history keeps of a run, in shapes of its own: the conformance and load layers convert
 * their reports into these, so the history depends on neither of them.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../settings/roots.ts';

/**
 * The evidence of one requirement's verdict the history keeps (the first failing check of the clause),
 * redacted: what the implementation matrix shows behind a cell.
 */
export interface EvidenceExample {
  message: string;
  expected?: string;
  actual?: string;
  operation?: string;
  /** HTTP status of the response; absent when no response came. */
  status?: number;
  /** JSON pointer of a contract violation. */
  pointer?: string;
  /** What the request probed (its label). */
  probe?: string;
  /** The redacted request and response excerpts, and the curl reproducer (the key as `${API_KEY}`). */
  request?: string;
  response?: string;
  curl?: string;
}

export interface RequirementOutcome {
  id: string;
  /** The verdict after waivers (pass, fail, warn, waived, observed, not-run, blocked). */
  verdict: string;
  /** Before waivers. */
  rawVerdict: string;
  waived: boolean;
  blockedBy?: string;
  /** Checks recorded for it (passing and failing). */
  evidence: number;
  /** Why, in one line: the first failure's message, why it was not run, the waiver's reason, what was observed. */
  note?: string;
  /** The first failing check's evidence (fail, warn, waived). */
  example?: EvidenceExample;
}

/** One finding of a run: a deviation, with the clauses it breaks; as recorded and as read back. */
export interface FindingOutcome {
  /** F1, F2… within the run. */
  id: string;
  /** What the finding was grouped by: equal signatures in two runs are the same deviation. */
  signature: string;
  /** failure or warning. */
  strength: string;
  severity: string;
  waived: boolean;
  behaviour: string;
  clauses: string[];
}

/**
 * One value of a run's answer to an open point (contracts/open-points.ts), as the history keeps it: the
 * word of the point's vocabulary (or `other: …`), how many records gave it, and one of them as evidence.
 */
export interface OpenPointOutcome {
  point: string;
  /** The clause whose records answer the point. */
  requirementId: string;
  value: string;
  count: number;
  /** The record as it was written: an observation's key and value, or a check's message. */
  sentence: string;
  /** The exchange it was read from, redacted (the key as `${API_KEY}`). */
  example?: EvidenceExample;
}

export interface TestDuration {
  title: string;
  status: string;
  durationMs: number;
}

/** How a run came into the history: run here, merged from shards, or imported from a report made elsewhere. */
export type RunOrigin = 'run' | 'merge' | 'import';

interface RunBase {
  startedAt: string;
  seed: number;
  harnessVersion: string;
  /** targetFingerprint(): never the key itself. */
  target: string;
  wallMs?: number;
  exitCode?: number;
  /** The implementation the run is recorded under (--name); absent: its target alone. */
  name?: string;
  /** The implementation's version, as its vendor gives it. */
  targetVersion?: string;
}

export interface ConformanceRunRecord extends RunBase {
  /** Default 'run'. */
  origin?: RunOrigin;
  requirements: RequirementOutcome[];
  tests: TestDuration[];
  /** The run's findings; absent when the run's report had none to give (the count is then unknown). */
  findings?: FindingOutcome[];
  /** Its answers to the open points; absent from a report made before they were recorded. */
  openPoints?: OpenPointOutcome[];
}

/** The findings that fail a run: unwaived failures. */
export function failingFindings(findings: readonly FindingOutcome[]): number {
  return findings.filter((f) => !f.waived && f.strength === 'failure').length;
}

export interface OperationFigures {
  operation: string;
  requests?: number;
  avgMs?: number;
  p95Ms?: number;
  p99Ms?: number;
  maxMs?: number;
}

export interface LoadRunRecord extends RunBase {
  profile: string;
  passed: boolean;
  requests?: number;
  throughputRps?: number;
  failedRate?: number;
  operations: OperationFigures[];
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/**
 * Which target a run was against: a hash of the base URL and a hash of the key (so one key's history
 * is not mixed with another tenant's, while the key never reaches the database). The reference target
 * listens on a fresh port each run, so its address is not part of its identity.
 */
export function targetFingerprint(baseUrl: string, apiKey: string, kind: 'reference' | 'external'): string {
  return kind === 'reference' ? `reference:${sha(apiKey)}` : `${sha(baseUrl)}:${sha(apiKey)}`;
}

export function harnessVersion(): string {
  try {
    return (
      (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version?: string }).version ??
      'unknown'
    );
  } catch {
    return 'unknown';
  }
}

/** One finding of a generative run, as the history keeps it and reads it back. */
export interface ExploreFindingOutcome {
  /** Operation + clause + shape of the minimal input: equal fingerprints in two runs are the same failure. */
  fingerprint: string;
  operation: string;
  clause: string;
  /** must or should. */
  level: string;
  message: string;
  /** The shrunk request's input as the report shows it (redacted again when written). */
  minimalInput: unknown;
  /** The curl reproducer, the key as `${API_KEY}` (redacted again when written). */
  curl: string;
}

/** What a generative run (`wfcheck explore`) leaves on the target, as the history keeps it. */
export interface ExploreFootprint {
  executionsStarted: number;
  canvasesCreated: number;
  canvasOverwrites: number;
  filesUploaded: number;
}

export interface ExploreRunRecord extends RunBase {
  wallMs: number;
  /** 0 clean, 1 findings (must), 2 incomplete. */
  exitCode: number;
  /** The seed was given (a replay), not picked for this run. */
  seedGiven: boolean;
  budgetS: number;
  requestsPerOperation: number;
  /** The operations this run explored: a fingerprint of another operation was not looked for. */
  operations: string[];
  /** Requests sent: exploring, setup and cleanup. */
  requests: number;
  footprint: ExploreFootprint;
  /** Why the run did not cover everything it planned; empty when complete. */
  incomplete: string[];
  findings: ExploreFindingOutcome[];
}
