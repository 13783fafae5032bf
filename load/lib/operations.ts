/**
 * Operation identity for the load suite. The id type is the generated operation
 * table's (contracts/openapi.yaml is the one source); only the choice of
 * operations per scenario is the load suite's own.
 */
import type { OperationId } from '../../contracts/generated/operations.ts';

export type { OperationId };

/** Which operations each scenario drives (used to emit per-operation thresholds). */
export const SCENARIO_OPERATIONS = {
  lifecycle: ['runWorkflow', 'getExecutionStatus', 'getExecutionOutput'],
  readMix: ['searchWorkflows', 'getWorkflowDetail', 'getExecutionStatus', 'getExecutionOutput'],
  uploads: ['uploadFiles'],
  statusRead: ['getExecutionStatus'],
} as const satisfies Record<string, readonly OperationId[]>;
