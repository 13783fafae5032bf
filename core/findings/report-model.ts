/**
 * The shape of the conformance verdict: the catalogue entries it judges, the result of each requirement,
 * the run's facts, and the report as a whole (report.ts builds it; the renderers and the history read it).
 * Types only, so that every part of the verdict and every reader can name them without importing the
 * code that builds it.
 */
import type { ConnectionFacts } from '../connection/connection-facts.ts';
import type { EvidenceRecord, Level } from '../evidence/records.ts';
import type { EvidenceItem, Finding, FindingsSummary, Severity } from './findings.ts';
import type { Waiver, WaiverSet } from './waivers.ts';

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

/** The exchange a value was read from, as the report shows it (redacted when it was recorded). */
export interface OpenPointEvidence {
  operation?: string;
  status?: number;
  request: string;
  response: string;
  curl: string;
}

export interface OpenPointValue {
  /** A word of the point's vocabulary, or `other: …` (the value kept verbatim, made stable). */
  value: string;
  /** Records of the run that gave it. */
  count: number;
  /** One of them as it was recorded: an observation's key and value, or a check's message. */
  sentence: string;
  exchangeId?: string;
  evidence?: OpenPointEvidence;
}

export interface OpenPointAnswer {
  point: string;
  requirementId: string;
  question: string;
  /** The run's answer: each value it gave (one, unless it answered differently in different places). */
  values: OpenPointValue[];
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
  /** The run's id: its place in the output folder (`runs/<id>/`) holds the evidence the verdict was built from. */
  runId?: string;
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
  /** The way to the target as the connection check saw it (TLS, certificate, proxy, --insecure). */
  connection?: ConnectionFacts;
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
  /** The run's answer to each point the specification leaves open, in its vocabulary (contracts/open-points.ts). */
  openPoints: OpenPointAnswer[];
  faults: { test?: string; kind: string; message: string; request: string; curl: string }[];
  failedTests: { test: string; status: string; error?: string }[];
  unknownRequirementIds: string[];
  unreadableEvidenceLines: number;
  exitCode: number;
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
