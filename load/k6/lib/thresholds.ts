/**
 * Service-level objectives: every gate of a load run, in one place.
 *
 * Pure TypeScript (no k6 imports) so that k6 (`options.thresholds`) and the
 * Node-side evaluator of distributed runs apply exactly the same expressions.
 * Budgets can be tuned per environment through env variables; the defaults
 * are what a release of the service is expected to meet on modest hardware.
 */
import { ENV, number, type EnvLike } from '../../../core/settings/rules.ts';
import { OPERATION_FACTS, type LatencyGate } from '../../../contracts/operation-facts.ts';
import { OPERATION_IDS, type OperationId } from './operations.ts';

/** Per-operation latency budgets in milliseconds: the gates of contracts/operation-facts.ts. */
export const LATENCY_BUDGETS_MS: Readonly<Record<OperationId, LatencyGate>> = Object.fromEntries(
  OPERATION_IDS.map((op) => [op, OPERATION_FACTS[op].latencyMs]),
) as Record<OperationId, LatencyGate>;

export interface SloSettings {
  /** Multiplies every latency budget (e.g. 2 on a slow CI runner). */
  latencyScale: number;
  /** Highest tolerated share of failed HTTP requests (429s are not failures; they are retried and counted). */
  maxFailedRate: number;
  /** Lowest tolerated share of started executions that reach `finish`. */
  minCompletionRate: number;
  /** Budget for the p95 of run → poll → output, in milliseconds. */
  workflowP95Ms: number;
}

export const DEFAULT_SLO: SloSettings = {
  latencyScale: 1,
  maxFailedRate: 0.01,
  minCompletionRate: 0.99,
  workflowP95Ms: 30_000,
};

/**
 * The SLO overrides among a run's settings (k6 `__ENV` through load/k6/lib/config.ts, or the Node side's
 * readK6ScriptSettings()), each a non-negative number; unset or blank keeps the default.
 */
export function sloFromEnv(env: EnvLike): SloSettings {
  const num = (name: string, fallback: number) => number(env[name], name, fallback, { min: 0 });
  return {
    latencyScale: num(ENV.sloLatencyScale, DEFAULT_SLO.latencyScale),
    maxFailedRate: num(ENV.sloMaxFailedRate, DEFAULT_SLO.maxFailedRate),
    minCompletionRate: num(ENV.sloMinCompletionRate, DEFAULT_SLO.minCompletionRate),
    workflowP95Ms: num(ENV.sloWorkflowP95Ms, DEFAULT_SLO.workflowP95Ms),
  };
}

export type Thresholds = Record<string, string[]>;

/**
 * Builds the k6 `thresholds` object for the operations a run drives.
 * Only operations actually exercised get latency gates, so the report does not
 * list empty sub-metrics as passing.
 */
export function buildThresholds(
  operations: readonly OperationId[],
  withWorkflow: boolean,
  slo: SloSettings = DEFAULT_SLO,
  offloadedChecks = false,
): Thresholds {
  const t: Thresholds = {
    http_req_failed: [`rate<${slo.maxFailedRate}`],
    contract_violations: ['count==0'],
  };
  // Offload mode only: responses the Node checker could not check are a harness failure, never a pass.
  if (offloadedChecks) t.contract_unchecked = ['count==0'];
  for (const op of [...new Set(operations)].sort()) {
    const b = LATENCY_BUDGETS_MS[op];
    t[`http_req_duration{operation:${op}}`] = [
      `p(95)<${Math.round(b.p95 * slo.latencyScale)}`,
      `p(99)<${Math.round(b.p99 * slo.latencyScale)}`,
    ];
    // Per operation as well, so a breach names the operation whose responses break the contract.
    t[`contract_violations{operation:${op}}`] = ['count==0'];
    t[`http_req_failed{operation:${op}}`] = [`rate<${slo.maxFailedRate}`];
  }
  if (withWorkflow) {
    t.workflow_completed = [`rate>=${slo.minCompletionRate}`];
    // Per flow as well: executions fed an uploaded file must finish as reliably as the others.
    t['workflow_completed{flow:file}'] = [`rate>=${slo.minCompletionRate}`];
    t.workflow_duration = [`p(95)<${Math.round(slo.workflowP95Ms)}`];
  }
  return t;
}

// ---------------------------------------------------------------------------
// Parsing and evaluating threshold keys/expressions outside k6 (merged runs).

export interface MetricSelector {
  metric: string;
  tags: Record<string, string>;
}

/** `http_req_duration{operation:getExecutionStatus}` → metric + tag filter. */
export function parseThresholdKey(key: string): MetricSelector {
  const m = key.match(/^([^{]+)(?:\{(.*)\})?$/);
  if (!m) throw new Error(`cannot parse threshold key "${key}"`);
  const tags: Record<string, string> = {};
  if (m[2]) {
    for (const part of m[2].split(',')) {
      const i = part.indexOf(':');
      if (i < 0) throw new Error(`cannot parse tag filter "${part}" in "${key}"`);
      tags[part.slice(0, i).trim()] = part.slice(i + 1).trim();
    }
  }
  return { metric: m[1].trim(), tags };
}

export interface ParsedExpression {
  aggregation: string;
  operator: '<' | '<=' | '>' | '>=' | '==' | '!=' | '===';
  value: number;
}

/** `p(95)<300`, `rate==0`, `count>=10` → parts. */
export function parseThresholdExpression(expr: string): ParsedExpression {
  const m = expr
    .replace(/\s+/g, '')
    .match(/^(avg|min|max|med|count|rate|value|p\(\d+(?:\.\d+)?\))(<=|>=|===|==|!=|<|>)(-?\d+(?:\.\d+)?(?:e-?\d+)?)$/);
  if (!m) throw new Error(`cannot parse threshold expression "${expr}"`);
  return { aggregation: m[1], operator: m[2] as ParsedExpression['operator'], value: Number(m[3]) };
}

export function compare(actual: number, op: ParsedExpression['operator'], expected: number): boolean {
  switch (op) {
    case '<':
      return actual < expected;
    case '<=':
      return actual <= expected;
    case '>':
      return actual > expected;
    case '>=':
      return actual >= expected;
    case '==':
    case '===':
      return actual === expected;
    case '!=':
      return actual !== expected;
  }
}
