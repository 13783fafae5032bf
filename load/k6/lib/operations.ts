/**
 * Operation identity for the load suite. The id type is the generated operation
 * table's (contracts/openapi.yaml is the one source); only the choice of
 * operations per scenario is the load suite's own.
 */
import { OPERATION_IDS, type OperationId } from '../../../contracts/generated/operations.ts';

export { OPERATION_IDS };
export type { OperationId };

/** Which operations each scenario drives (used to emit per-operation thresholds). */
export const SCENARIO_OPERATIONS = {
  lifecycle: ['uploadFiles', 'runWorkflow', 'getExecutionStatus', 'getExecutionOutput', 'abortExecution'],
  generate: ['generateWorkflow'],
  readMix: ['searchWorkflows', 'getWorkflowDetail', 'getExecutionStatus', 'getExecutionOutput'],
  uploads: ['uploadFiles'],
  statusRead: ['getExecutionStatus'],
} as const satisfies Record<string, readonly OperationId[]>;
