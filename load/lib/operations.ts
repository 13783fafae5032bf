/**
 * Operation identity for the load suite. The id type comes from the generated
 * OpenAPI types (one source of truth); the templates below are the `name` tag
 * each request carries so ids in paths do not explode metric cardinality.
 */
import type { operations } from '../../contracts/generated/api-types.ts';

export type OperationId = keyof operations & string;

/** Which operations each scenario drives (used to emit per-operation thresholds). */
export const SCENARIO_OPERATIONS = {
  lifecycle: ['runWorkflow', 'getExecutionStatus', 'getExecutionOutput'],
  readMix: ['searchWorkflows', 'getWorkflowDetail', 'getExecutionStatus', 'getExecutionOutput'],
  uploads: ['uploadFiles'],
  statusRead: ['getExecutionStatus'],
} as const satisfies Record<string, readonly OperationId[]>;
