/**
 * One step of a capacity search read back from a k6 summary (or the merged samples of several k6
 * processes): the rate offered and held, the target's requests per second, latency per operation,
 * failed share, workflow completion, every gate judged, and whether the step held them all.
 *
 * Pure, no k6 imports: the Node side reads the summary a capacity process wrote.
 */
import type { MetricSummary } from '../k6/lib/run-report.ts';
import { aggregationValue } from '../k6/lib/run-report.ts';
import type { OperationId } from '../k6/lib/operations.ts';
import { parseThresholdExpression, type SloSettings } from '../k6/lib/thresholds.ts';
import { ARRIVALS_METRIC, judgeGate, stepGates, type GateResult, windowedKey, worstBreak } from './gates.ts';
import { type CapacityPlan, steadyWindow } from './plan.ts';

/** Why a step was run (a recheck: a bisection step at a rate only a short ramp step saw break). */
export type StepPurpose = 'ramp' | 'bisect' | 'recheck' | 'confirm';

export interface OperationFigures {
  count: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

export interface StepFigures {
  /** 1-based, in the order the search ran them. */
  index: number;
  purpose: StepPurpose;
  /** Lifecycles offered per second. */
  rate: number;
  warmupS: number;
  steadyS: number;
  /** Lifecycles started per second in the steady window (below `rate` when k6 dropped arrivals). */
  lifecyclesPerS: number;
  /** The target's requests per second in the steady window (every operation, the read mix's included). */
  requestsPerS: number;
  /** Share of failed requests in the steady window. */
  failedRate: number | null;
  /** Share of lifecycles that reached `finish`. */
  completion: number | null;
  /** Mean length of the lifecycles that finished in the window, in seconds (upload to output). */
  lifecycleS: number | null;
  operations: Partial<Record<OperationId, OperationFigures>>;
  gates: GateResult[];
  held: boolean;
  /** The gate furthest past its limit, when the step broke any. */
  broke?: GateResult;
  /** Contract violations the Node checker counted in the window (offloaded checks), added to k6's own count. */
  nodeViolations?: number;
}

/**
 * A figure of a metric; null when the window has no sample of it (k6 summarises an empty rate as 0 and an
 * empty trend's percentiles as 0, which would read as a break or as a perfect latency).
 */
const value = (m: Record<string, MetricSummary>, key: string, aggregation: string): number | null => {
  const s = m[key];
  if (!s) return null;
  if (s.type === 'rate' && (s.values.passes ?? 0) + (s.values.fails ?? 0) === 0) return null;
  if (s.type === 'trend' && aggregation !== 'count' && !s.values.count) return null;
  return aggregationValue(s.values, aggregation);
};

function operationFigures(
  metrics: Record<string, MetricSummary>,
  window: string,
  operations: readonly OperationId[],
): Partial<Record<OperationId, OperationFigures>> {
  const out: Partial<Record<OperationId, OperationFigures>> = {};
  for (const op of operations) {
    const key = windowedKey(`http_req_duration{operation:${op}}`, window);
    const count = value(metrics, key, 'count') ?? 0;
    if (count === 0) continue;
    out[op] = {
      count,
      p50: value(metrics, key, 'med'),
      p95: value(metrics, key, 'p(95)'),
      p99: value(metrics, key, 'p(99)'),
    };
  }
  return out;
}

/** The contract gates count what the Node checker saw in the window too: offloaded verdicts carry no window tag. */
function withNodeViolations(actual: number | null, key: string, nodeViolations: number | undefined): number | null {
  if (nodeViolations === undefined || !/^contract_violations\{window:/.test(key)) return actual;
  return Math.max(actual ?? 0, nodeViolations);
}

export interface StepInput {
  plan: CapacityPlan;
  /** 0-based within the plan. */
  step: number;
  index: number;
  purpose: StepPurpose;
  metrics: Record<string, MetricSummary>;
  operations: readonly OperationId[];
  slo: SloSettings;
  nodeViolations?: number;
}

/** A step's figures and verdict from the summary of the process that ran it. */
export function readStep(i: StepInput): StepFigures {
  const s = i.plan.steps[i.step]!;
  const window = steadyWindow(i.step);
  const operations = operationFigures(i.metrics, window, i.operations);
  const requests = Object.values(operations).reduce((n, o) => n + (o?.count ?? 0), 0);
  const gates = stepGates(i.plan, i.step, i.operations, i.slo).map((g) =>
    judgeGate(
      g,
      withNodeViolations(
        value(i.metrics, g.key, parseThresholdExpression(g.expression).aggregation),
        g.key,
        i.nodeViolations,
      ),
    ),
  );
  const broke = worstBreak(gates);
  return {
    index: i.index,
    purpose: i.purpose,
    rate: s.rate,
    warmupS: s.warmupS,
    steadyS: s.steadyS,
    lifecyclesPerS: (value(i.metrics, windowedKey(ARRIVALS_METRIC, window), 'count') ?? 0) / s.steadyS,
    requestsPerS: requests / s.steadyS,
    failedRate: value(i.metrics, windowedKey('http_req_failed', window), 'rate'),
    completion: value(i.metrics, windowedKey('workflow_completed', window), 'rate'),
    lifecycleS: secondsOf(value(i.metrics, windowedKey('workflow_duration', window), 'avg')),
    operations,
    gates,
    held: broke === undefined,
    ...(broke ? { broke } : {}),
    ...(i.nodeViolations !== undefined ? { nodeViolations: i.nodeViolations } : {}),
  };
}

const secondsOf = (ms: number | null) => (ms === null ? null : ms / 1000);

/** Whether the process reached a step at all: an aborted ramp leaves the steps above its break unrun. */
export function stepRan(metrics: Record<string, MetricSummary>, step: number): boolean {
  return (value(metrics, windowedKey(ARRIVALS_METRIC, steadyWindow(step)), 'count') ?? 0) > 0;
}
