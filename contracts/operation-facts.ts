/**
 * What the harness knows of each operation beyond what openapi.yaml states: the one hand-written table
 * beside the generated one (contracts/generated/operations.ts: method, path, parameters, body, prefix,
 * section, statuses, responses). Every other place that needs a fact of an operation reads it from these
 * two tables; an operation added to openapi.yaml does not compile until it has its row here.
 *
 * Pure data, imported by Node and by k6 alike.
 */
import type { ClauseId } from './generated/clause-ids.ts';
import { OPERATION_IDS, type OperationId } from './generated/operations.ts';

/** The latency gate of a load run, in milliseconds, before `--latency-scale`. */
export interface LatencyGate {
  readonly p95: number;
  readonly p99: number;
}

export interface OperationFacts {
  /** The short name the suites and the client call it by (`client.run(…)`), and reports show. */
  readonly short: string;
  /** The sentence of §4 that lists its status codes: the quote of its status clause. */
  readonly statusLine: string;
  /** What the id it is sent with names (in its path, or generate's canvasId), and the clause of an unknown one. */
  readonly about?: { readonly subject: 'canvas' | 'execution'; readonly notFound: ClauseId };
  /** The load gate of its latency: what a release is expected to meet on modest hardware. */
  readonly latencyMs: LatencyGate;
}

export const OPERATION_FACTS = {
  runWorkflow: {
    short: 'run',
    statusLine:
      'Status codes: 200 execution started; 400 invalid request parameters; 401 missing or invalid API key; 403 the workflow API is disabled; 404 workflow not found.',
    about: { subject: 'canvas', notFound: 'RUN-404-UNKNOWN-CANVAS' },
    latencyMs: { p95: 500, p99: 1000 },
  },
  abortExecution: {
    short: 'abort',
    statusLine: 'Status codes: 200 abort request accepted; 401 missing or invalid API key; 404 execution not found.',
    about: { subject: 'execution', notFound: 'ABORT-404-UNKNOWN-EXECUTION' },
    latencyMs: { p95: 500, p99: 1000 },
  },
  getExecutionOutput: {
    short: 'output',
    statusLine: 'Status codes: 200 output retrieved; 401 missing or invalid API key; 404 execution not found.',
    about: { subject: 'execution', notFound: 'OUTPUT-404-UNKNOWN-EXECUTION' },
    latencyMs: { p95: 400, p99: 1000 },
  },
  getExecutionStatus: {
    short: 'status',
    statusLine: 'Status codes: 200 status retrieved; 401 missing or invalid API key; 404 execution not found.',
    about: { subject: 'execution', notFound: 'STATUS-404-UNKNOWN-EXECUTION' },
    latencyMs: { p95: 300, p99: 800 },
  },
  searchWorkflows: {
    short: 'search',
    statusLine: 'Status codes: 200 list retrieved; 401 missing or invalid API key.',
    latencyMs: { p95: 400, p99: 1000 },
  },
  getWorkflowDetail: {
    short: 'detail',
    statusLine: 'Status codes: 200 detail retrieved; 401 missing or invalid API key; 404 workflow not found.',
    about: { subject: 'canvas', notFound: 'DETAIL-404-UNKNOWN-CANVAS' },
    latencyMs: { p95: 300, p99: 800 },
  },
  uploadFiles: {
    short: 'upload',
    statusLine: 'Status codes: 200 uploaded; 400 invalid request parameters; 401 missing or invalid API key.',
    latencyMs: { p95: 800, p99: 1500 },
  },
  generateWorkflow: {
    short: 'generate',
    statusLine:
      'Status codes: 200 generated; 400 generation failed or invalid parameters; 401 missing or invalid API key; 404 canvas not found.',
    about: { subject: 'canvas', notFound: 'GENERATE-404-UNKNOWN-CANVAS' },
    latencyMs: { p95: 5000, p99: 10000 },
  },
} as const satisfies Record<OperationId, OperationFacts>;

// An operation just added to openapi.yaml has no row until one is written: say so, before anything reads it.
const missing = OPERATION_IDS.filter((op) => !(op in OPERATION_FACTS));
if (missing.length > 0)
  throw new Error(
    `contracts/operation-facts.ts has no row for ${missing.join(', ')}: add its short name, status line, the id ` +
      'it is sent with and its latency gate, then run npm run contracts again',
  );

type Facts = typeof OPERATION_FACTS;

/** The operations sent with the id of a canvas or an execution. */
export type OperationOnId = { [K in OperationId]: Facts[K] extends { about: object } ? K : never }[OperationId];

/** The short name of each operation, by operation. */
export type ShortName<K extends OperationId = OperationId> = Facts[K]['short'];

/** Whether `operation` is sent with the id of a canvas or an execution. */
export function isOnId(operation: OperationId): operation is OperationOnId {
  return 'about' in OPERATION_FACTS[operation];
}

/** The operations on an id, in the table's order. */
export const OPERATIONS_ON_ID: readonly OperationOnId[] = OPERATION_IDS.filter(isOnId);
