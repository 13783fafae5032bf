/**
 * The gates of a capacity step: the load run's own (load/k6/lib/thresholds.ts buildThresholds, every gate of
 * a release: failed requests, p95/p99 per operation, contract violations, workflow completion), each
 * applied to one step's steady window, plus the one a search adds: the offered rate was held.
 *
 * The same keys serve k6 (options.thresholds, with abortOnFail for the coarse ramp) and the Node side,
 * which judges each step from the summary's figures and names the gate that broke first.
 *
 * Pure, no k6 imports.
 */
import type { OperationId } from '../k6/lib/operations.ts';
import { compare, parseThresholdExpression, parseThresholdKey, type SloSettings } from '../k6/lib/thresholds.ts';
import { buildThresholds } from '../k6/lib/thresholds.ts';
import { type CapacityPlan, steadyEndMs, steadyWindow, WINDOW_TAG } from './plan.ts';

/** Lifecycles started in a steady window, per step (a Counter the capacity entry adds to at each start). */
export const ARRIVALS_METRIC = 'capacity_arrivals';

/**
 * Share of the offered lifecycles that must have started for a step to count as holding its rate: below
 * it k6 dropped arrivals (no VU was free), so the target was not offered the rate the step names.
 */
export const MIN_ARRIVAL_SHARE = 0.95;

/** `metric{a:b}` with the window added to its tags: the same gate, judged on one step's requests. */
export function windowedKey(key: string, window: string): string {
  const { metric, tags } = parseThresholdKey(key);
  const all = Object.entries({ ...tags, [WINDOW_TAG]: window }).map(([k, v]) => `${k}:${v}`);
  return `${metric}{${all.join(',')}}`;
}

export interface StepGate {
  key: string;
  expression: string;
}

/** Every gate of one step, keyed as k6 and the Node side both read them. */
export function stepGates(
  plan: CapacityPlan,
  step: number,
  operations: readonly OperationId[],
  slo: SloSettings,
): StepGate[] {
  const window = steadyWindow(step);
  const base = buildThresholds(operations, true, slo, false);
  const gates = Object.entries(base).flatMap(([key, exprs]) =>
    exprs.map((expression) => ({ key: windowedKey(key, window), expression })),
  );
  const s = plan.steps[step]!;
  const offered = s.rate * s.steadyS * (plan.share ?? 1);
  gates.push({
    key: windowedKey(ARRIVALS_METRIC, window),
    expression: `count>=${Math.floor(offered * MIN_ARRIVAL_SHARE)}`,
  });
  return gates;
}

type ThresholdEntry = string | { threshold: string; abortOnFail: boolean; delayAbortEval: string };

/**
 * k6's thresholds for a plan: each step's gates; in an aborting plan (the coarse ramp) each with
 * abortOnFail, evaluated from the end of its steady window on (`delayAbortEval`, counted from the test's
 * start: setup reads a file and takes milliseconds), so a step is judged whole, never on its first samples.
 */
export function k6Thresholds(
  plan: CapacityPlan,
  operations: readonly OperationId[],
  slo: SloSettings,
  offloaded: boolean,
): Record<string, ThresholdEntry[]> {
  const out: Record<string, ThresholdEntry[]> = {};
  const add = (key: string, entry: ThresholdEntry) => {
    out[key] ??= [];
    out[key]!.push(entry);
  };
  plan.steps.forEach((_, i) => {
    // One second after the window: its last responses are in (k6 evaluates every 2 s besides).
    const delay = `${Math.ceil(steadyEndMs(plan, i) / 1000) + 1}s`;
    for (const g of stepGates(plan, i, operations, slo))
      add(
        g.key,
        plan.abortOnFail ? { threshold: g.expression, abortOnFail: true, delayAbortEval: delay } : g.expression,
      );
  });
  // Any violation, whichever step it came in, breaks the contract gate: a violation is never excused by load.
  add(
    'contract_violations',
    plan.abortOnFail ? { threshold: 'count==0', abortOnFail: true, delayAbortEval: '0s' } : 'count==0',
  );
  if (offloaded) add('contract_unchecked', 'count==0');
  return out;
}

export interface GateResult {
  /** What it judges, as a reader names it: `p99 of getExecutionStatus`. */
  gate: string;
  key: string;
  expression: string;
  actual: number | null;
  limit: number;
  unit: 'ms' | '%' | '';
  ok: boolean;
  /** How far past its limit (1 at the limit, Infinity for any count above 0): the worst names a step's break. */
  excess: number;
}

/** A gate's metric and tags in words. */
export function gateName(key: string, expression: string): string {
  const { metric, tags } = parseThresholdKey(key);
  const { aggregation } = parseThresholdExpression(expression);
  const op = tags.operation ? ` of ${tags.operation}` : '';
  const pct = aggregation.match(/^p\((\d+(?:\.\d+)?)\)$/)?.[1];
  switch (metric) {
    case 'http_req_duration':
      return `p${pct}${op}`;
    case 'http_req_failed':
      return `failed requests${op}`;
    case 'contract_violations':
      return `contract violations${op}`;
    case 'contract_unchecked':
      return 'responses left unchecked';
    case 'workflow_completed':
      return tags.flow ? `workflow completion (${tags.flow} flow)` : 'workflow completion';
    case 'workflow_duration':
      return `p${pct} of the whole workflow`;
    case ARRIVALS_METRIC:
      return 'offered rate held (lifecycles started)';
    default:
      return `${metric}${op}`;
  }
}

const unitOf = (metric: string, aggregation: string): GateResult['unit'] =>
  aggregation === 'rate' ? '%' : /duration/.test(metric) ? 'ms' : '';

function excessOf(actual: number, op: string, limit: number): number {
  if (op === '==' || op === '===') return actual === limit ? 1 : Number.POSITIVE_INFINITY;
  if (op === '<' || op === '<=') return limit === 0 ? (actual > 0 ? Number.POSITIVE_INFINITY : 1) : actual / limit;
  return actual === 0 ? Number.POSITIVE_INFINITY : limit / actual;
}

/**
 * A gate judged on summarised values; `actual` null (no sample) counts as held, as k6 counts it, except
 * for the arrivals gate, whose empty window means no lifecycle started at all.
 */
export function judgeGate(gate: StepGate, actual: number | null): GateResult {
  const { metric } = parseThresholdKey(gate.key);
  const { aggregation, operator, value } = parseThresholdExpression(gate.expression);
  const seen = actual ?? (aggregation === 'count' ? 0 : null);
  const ok = seen === null ? true : compare(seen, operator, value);
  return {
    gate: gateName(gate.key, gate.expression),
    key: gate.key,
    expression: gate.expression,
    actual: seen,
    limit: value,
    unit: unitOf(metric, aggregation),
    ok,
    excess: seen === null ? 0 : excessOf(seen, operator, value),
  };
}

/** The gate whose break names the step: the one furthest past its limit (a contract violation first). */
export function worstBreak(results: readonly GateResult[]): GateResult | undefined {
  return results.filter((r) => !r.ok).sort((a, b) => b.excess - a.excess || a.gate.localeCompare(b.gate))[0];
}

const figure = (n: number | null, unit: GateResult['unit']): string => {
  if (n === null) return '—';
  if (unit === 'ms') return `${n >= 100 ? Math.round(n) : n.toFixed(1)} ms`;
  if (unit === '%') return `${(n * 100).toFixed(n * 100 >= 10 ? 0 : 2)}%`;
  return String(Number.isInteger(n) ? n : Number(n.toFixed(2)));
};

/** `p99 of getExecutionStatus (912 ms > 800 ms)`. */
export function describeBreak(r: GateResult): string {
  const { operator } = parseThresholdExpression(r.expression);
  const against = operator === '<' || operator === '<=' ? '>' : operator.startsWith('>') ? '<' : '≠';
  return `${r.gate} (${figure(r.actual, r.unit)} ${against} ${figure(r.limit, r.unit)})`;
}
