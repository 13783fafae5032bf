/**
 * The report of a generative run: its data (report.json) and what the run history says of it. How people
 * read it (report.md, the job summary, the console) is explore/report/report-view.ts.
 *
 * A finding is one deviation: its clause, its minimal input (after shrinking) with the request and the
 * answer, a curl reproducer with the key as `${API_KEY}`, the seed and fast-check path that replay it,
 * and a fingerprint (operation + clause + shape of the minimal input) that stays the same from one
 * night to the next for the same failure. With the run history, each finding says whether an earlier
 * run of the same target found it (new, or seen before: since when, in how many runs), and the report
 * lists the previous run's findings this run no longer has.
 */
import { createHash } from 'node:crypto';
import type { OperationId } from '../../contracts/check.ts';
import { OPERATION_PREFIX, type Level } from '../../contracts/requirements.ts';
import { familyOf } from '../../core/findings/findings.ts';
import { INPUT_NOT_SLOW, NO_STALL } from '../../core/judging/latency.ts';
import type { ExploreHistory, FindingSeen, GoneFinding, PreviousExploreRun } from '../../core/history-store/explore.ts';
import type { ConnectionFacts } from '../../core/connection/connection-facts.ts';

export type PropertyKind = 'allowed' | 'forbidden';

export type StopReason =
  | 'done'
  | 'request budget spent'
  | 'time budget spent'
  | 'footprint cap reached'
  | 'target unreachable'
  | 'not run';

export interface PropertySummary {
  kind: PropertyKind;
  /** Requests sent for this property (shrinking and the confirming replay included). */
  requests: number;
  /** Inputs judged: passed, failed (new or already found) and inconclusive. */
  inputs: number;
  passed: number;
  failed: number;
  /** Inputs left unsent because the footprint cap was reached. */
  capped: number;
  /** Inputs of a class already found slow, not sent again (its wait would only come again). */
  knownSlow?: number;
  /** Answers that could not be judged, by reason (a harness deadline, a refused connection, still rate limited). */
  inconclusive: Record<string, number>;
  /** Unlisted 4xx answers to inputs touching an open point (`closed`: a body framed wrong on purpose, closed without an answer): clause → statuses seen and how often. */
  observed: Record<string, { count: number; statuses: (number | 'closed')[] }>;
  rounds: number;
  shrinks: number;
  stop: StopReason;
  /**
   * The families of input tried, by parameter: how many requests carried each (`keyword` → `len>4096`,
   * `four-byte`; `page` → `exponent`, `digits>1000`; `header` → `charset=latin1`), read off what was sent.
   */
  tried: Record<string, Record<string, number>>;
}

export interface OperationSummary {
  operation: OperationId;
  wallMs: number;
  allowed: PropertySummary;
  forbidden: PropertySummary;
  findings: number;
  /** The inputs sent every run (explore/send/battery.ts): planned, sent, and left unsent for the footprint. */
  battery?: { planned: number; sent: number; capped: number };
}

export interface ShownExchange {
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    bodyExcerpt?: string;
    bodyBytes: number;
  };
  response?: { status: number; contentType?: string; bodyExcerpt: string };
  fault?: { kind: string; message: string };
}

export interface ExploreFinding {
  fingerprint: string;
  operation: OperationId;
  clause: string;
  level: Level;
  /** The clause is in the requirement catalogue (a proposed one is not yet). */
  catalogued: boolean;
  property: PropertyKind;
  family: string;
  message: string;
  expected: string;
  actual: string;
  /** Other clauses the same answer breaks: listed, not counted. */
  alsoBreaks: string[];
  /** The features of the minimal input: what the fingerprint is made of. */
  shape: string[];
  minimalInput: unknown;
  exchange: ShownExchange;
  curl: string;
  /** The request body, when the reproducer needs it as a file (bodies/<fingerprint>.txt). */
  bodyFile?: string;
  /**
   * The fast-check run that found it: `propertySeed` and `path` replay its shrunk counterexample; `simplified`
   * counts the greedy steps taken after shrinking (each one character or one element less).
   */
  replay: {
    seed: number;
    propertySeed: number;
    path: string;
    round: number;
    numRuns: number;
    shrinks: number;
    simplified: number;
  };
  /** The minimal input, sent once more, failed the same way. */
  reproduced: boolean;
  /** Shrinking ended by itself (not cut by the request or time budget). */
  shrinkComplete: boolean;
  /** How many times exploration reached this finding (shrinking to the same fingerprint). */
  occurrences: number;
  /** What the run history says of it; absent when the history was not used. */
  seen?: FindingSeen;
}

/**
 * One deviation: findings of several operations that show one thing wrong (an id scheme crashing every
 * operation that takes an id, a body field missing from every answer, a key echoed by every refusal).
 */
export interface ExploreDeviation {
  level: Level;
  /** The answer the findings share: a server error's or an unlisted status, the fault met, or "any status". */
  answer: string;
  /**
   * What else they share: the class of the crashing input (its probed shape, parameters of one kind named
   * alike, bare presences left out), or the clause without its operation's prefix.
   */
  shape: string[];
  operations: OperationId[];
  clauses: string[];
  fingerprints: string[];
}

/**
 * Parameters of one kind, named alike when crashes are grouped: an id's shape breaks every operation taking
 * one alike, whatever the parameter; so does a class of text in a search query, of number in a page
 * parameter, of value at the top of a JSON body (a run's variables, generate's other fields).
 */
const PARAMETER_KINDS: readonly [RegExp, string][] = [
  [/^(canvasId|executionId)(?=:|$)/, 'id'],
  [/^(keyword|order)(?=:|$)/, 'query text'],
  [/^(page|pageSize)(?=:|$)/, 'query number'],
  [/^(vars|extra)\.\*/, 'value'],
];

/**
 * Broken encodings are one class wherever they stand: a decoder breaks on the bytes, not on a parameter's
 * name (escapes that are no UTF-8 in any query value or path id; lone surrogates or false escapes in any
 * JSON string).
 */
const ENCODING_KINDS: Readonly<Record<string, string>> = {
  'not-utf8': 'url',
  'lone-surrogate': 'json string',
  'bad-escape': 'json string',
};

function kindOfFeature(f: string): string {
  const at = f.lastIndexOf(':');
  const encoding = at > 0 ? ENCODING_KINDS[f.slice(at + 1)] : undefined;
  if (encoding) return `${encoding}${f.slice(at)}`;
  return PARAMETER_KINDS.reduce((x, [re, kind]) => x.replace(re, kind), f);
}

/** The class of input a crash is about: its shape with parameters named by kind, bare presences left out. */
function crashClass(shape: readonly string[]): string[] {
  const named = shape.map(kindOfFeature);
  return [...new Set(named.filter((f) => f.includes(':')))].sort();
}

/** The clauses about how long answers take (core/judging/latency.ts). */
const SLOWNESS: ReadonlySet<string> = new Set([INPUT_NOT_SLOW, NO_STALL]);

/**
 * Groups findings by evidence, as the conformance report does, never by a list of known cases. Findings
 * of one level are one deviation when they share the answer and:
 *
 * - for a server error or no answer (the input broke the server): the class of input it is about — the
 *   shape of the minimal input with its classes probed (classes.ts), parameters of one kind named alike,
 *   whether an allowed or a forbidden input reached it — unless the failure did not come back on its
 *   minimal input, in which case no input caused it and every such failure of that answer is one (an
 *   intermittent fault);
 * - for an answer slow (or none within the deadline) on a class of input, and a stall it causes: that class;
 * - for any other answer (a body, a header, a status judged against its clause): the clause without its
 *   operation's prefix, whichever status (but for an unlisted one) and kind of input drew it — what the
 *   answer says does not depend on which input drew it.
 */
export function deviationsOf(findings: readonly ExploreFinding[]): ExploreDeviation[] {
  const groups = new Map<string, ExploreDeviation>();
  for (const f of findings) {
    const status = f.exchange.response?.status;
    const serverBroke = status === undefined || status >= 500;
    // What an answer says of itself is one habit whichever status carries it (a stack trace in a 400 and
    // in a 404, a content type on successes and refusals) and whichever kind of input drew it; only an
    // unlisted status is keyed by the status itself (a 201 and a 422 are two habits).
    // The clause without its operation's prefix, as the conformance findings read it.
    const family = familyOf(f.clause, f.operation, OPERATION_PREFIX);
    // A class of input answered slowly, and the stall it causes, are one deviation: the time, not the answer.
    const slow = SLOWNESS.has(f.clause);
    const answer = slow
      ? 'slow'
      : status === undefined
        ? `${f.exchange.fault?.kind ?? 'no answer'}`
        : serverBroke || family === 'HTTP-STATUS-LISTED'
          ? `${status}`
          : 'any status';
    const shape =
      slow || (serverBroke && f.reproduced)
        ? crashClass(f.shape)
        : serverBroke
          ? ['not reproduced']
          : [`clause:${family}`];
    const key = JSON.stringify([f.level, answer, shape]);
    const g = groups.get(key) ?? { level: f.level, answer, shape, operations: [], clauses: [], fingerprints: [] };
    groups.set(key, g);
    if (!g.operations.includes(f.operation)) g.operations.push(f.operation);
    for (const c of [f.clause, ...f.alsoBreaks]) if (!g.clauses.includes(c)) g.clauses.push(c);
    g.fingerprints.push(f.fingerprint);
  }
  return [...groups.values()];
}

/** "1 deviation (5 findings)", counting must-level ones. */
export function deviationsHeadline(r: Pick<ExploreReport, 'findings' | 'deviations'>): string {
  const must = r.deviations.filter((d) => d.level === 'must');
  const mustFindings = r.findings.filter((f) => f.level === 'must').length;
  const warnings = r.deviations.length - must.length;
  return (
    `${must.length} deviation(s)${mustFindings !== must.length ? ` (${mustFindings} findings across operations)` : ''}, ` +
    `${warnings} warning(s)`
  );
}

/** The run history's part of a report: absent when the run was not recorded (a library call). */
export interface ExploreReportHistory {
  /** This run's id among the generative runs of the history. */
  runId?: number;
  /** The previous generative run of the same target, which `gone` is relative to. */
  previous?: PreviousExploreRun;
  /** Must-level findings of this run: new to the history, seen before, or not known (history skipped). */
  findings: { new: number; seenBefore: number; unknown: number };
  /** Findings of the previous run that this run does not have. */
  gone: GoneFinding[];
  /** Why the history was not used (the report is complete without it). */
  skipped?: string;
}

export interface Footprint {
  executionsStarted: number;
  canvasesCreated: number;
  canvasOverwrites: number;
  filesUploaded: number;
  requests: { explore: number; setup: number; cleanup: number };
}

export interface ExploreReport {
  kind: 'wfcheck-explore';
  version: 1;
  seed: number;
  seedGiven: boolean;
  startedAt: string;
  wallMs: number;
  target: { kind: 'reference' | 'external'; how: string; baseUrl: string };
  budget: {
    seconds: number;
    requestsPerOperation: number;
    maxExecutions: number;
    maxCanvasesCreated: number;
    allowOverwrite: boolean;
  };
  setup: string[];
  operations: OperationSummary[];
  findings: ExploreFinding[];
  /** The findings grouped into the deviations they show (see deviationsOf): what a person counts. */
  deviations: ExploreDeviation[];
  footprint: Footprint;
  /** Why the exploration did not cover everything it planned; empty when complete. */
  incomplete: string[];
  /** 0 clean, 1 findings (must), 2 incomplete. */
  exitCode: 0 | 1 | 2;
  history?: ExploreReportHistory;
  /** The way to the target as the connection check saw it (TLS, certificate, proxy, --insecure). */
  connection?: ConnectionFacts;
}

/** The report with what the history says: each finding's `seen`, and `history`. */
export function withRunHistory(r: ExploreReport, h: ExploreHistory): ExploreReport {
  const findings = r.findings.map((f) => (h.seen[f.fingerprint] ? { ...f, seen: h.seen[f.fingerprint] } : f));
  const must = findings.filter((f) => f.level === 'must');
  return {
    ...r,
    findings,
    history: {
      ...(h.runId !== undefined ? { runId: h.runId } : {}),
      ...(h.previous ? { previous: h.previous } : {}),
      findings: {
        new: must.filter((f) => f.seen?.status === 'new').length,
        seenBefore: must.filter((f) => f.seen?.status === 'seen-before').length,
        unknown: must.filter((f) => !f.seen).length,
      },
      gone: h.gone,
      ...(h.skipped ? { skipped: h.skipped } : {}),
    },
  };
}

const day = (iso: string) => iso.slice(0, 10);

/** "new" or "seen before (first seen <date>, <n> runs)", as the report and `wfcheck history` say it. */
export function seenText(seen: FindingSeen | undefined): string {
  if (!seen) return 'not known (the run history was not used)';
  if (seen.status === 'new') return 'new';
  return `seen before (first seen ${day(seen.firstSeen)}, ${seen.runs} runs${seen.inPreviousRun ? '' : '; not in the previous run'})`;
}

/** Stable id of a failure: the same operation, clause and minimal shape on any night. */
export function fingerprintOf(operation: string, clause: string, shape: readonly string[]): string {
  return createHash('sha256')
    .update(`${operation}\n${clause}\n${[...shape].sort().join('\n')}`)
    .digest('hex')
    .slice(0, 16);
}

export function exitCodeOf(findings: readonly ExploreFinding[], incomplete: readonly string[]): 0 | 1 | 2 {
  if (findings.some((f) => f.level === 'must')) return 1;
  return incomplete.length ? 2 : 0;
}
