/**
 * Example steps for the capacity tests (search, report, baseline): a step that held or broke on the p99 of
 * getExecutionStatus, shaped as readStep() gives them, so each test states only the rate and the outcome.
 */
import type { StepFigures, StepPurpose } from '../figures.ts';
import type { GateResult } from '../gates.ts';

export const P99_STATUS: GateResult = {
  gate: 'p99 of getExecutionStatus',
  key: 'http_req_duration{operation:getExecutionStatus,window:s1}',
  expression: 'p(99)<800',
  actual: 912,
  limit: 800,
  unit: 'ms',
  ok: false,
  excess: 912 / 800,
};

/** A steady step at `rate` lifecycles/s that held every gate, or broke on P99_STATUS. */
export function exampleStep(index: number, rate: number, held: boolean, purpose: StepPurpose = 'bisect'): StepFigures {
  return {
    index,
    purpose,
    rate,
    warmupS: 2,
    steadyS: 8,
    lifecyclesPerS: rate,
    requestsPerS: rate * 6,
    failedRate: 0,
    completion: 1,
    lifecycleS: 0.5,
    operations: {},
    gates: held ? [] : [P99_STATUS],
    held,
    ...(held ? {} : { broke: P99_STATUS }),
  };
}
