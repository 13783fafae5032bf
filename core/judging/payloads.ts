/**
 * Typed access to response payloads: the types come from the generated contract
 * (contracts/generated/api-types.ts), the enumerations are read from it. The shapes themselves are
 * validated by checkResponse, so these only *read*: a payload may still lack a field its type promises,
 * which is why callers keep their runtime guards.
 */
import type { components } from '../../contracts/generated/api-types.ts';
import { SCHEMA_BUNDLE } from '../../contracts/generated/schemas.ts';
import type { Exchange } from '../transport/exchange.ts';

type S = components['schemas'];
export type RunData = S['RunData'];
export type StatusData = S['StatusData'];
export type NodeExecution = S['NodeExecution'];
export type OutputData = S['OutputData'];
export type OutputNode = S['OutputNode'];
export type OutputFile = S['OutputFile'];
export type SearchItem = S['SearchItem'];
export type WorkflowPlan = S['WorkflowPlan'];
export type PlanVariable = S['PlanVariable'];
export type ExecutionStatus = S['ExecutionStatus'];
export type NodeStatus = S['NodeStatus'];
export type UploadData = S['UploadData'];
export type UploadedFile = S['UploadedFile'];
export type GenerateData = S['GenerateData'];
export type GenerateError = S['GenerateError'];

export const TERMINAL: readonly string[] = ['finish', 'failed'];

/** One read of an execution: its status, and its output when it was read at the same moment. */
export interface Snapshot {
  at: number;
  status: StatusData;
  statusExchange: Exchange;
  output?: OutputData;
  outputExchange?: Exchange;
  /**
   * The status read at once after an output that lists a file whose producing node it does not show
   * ended: what that node was when the file was listed, as near to the output as two requests can be.
   */
  confirm?: { status: StatusData; exchange: Exchange };
}

/** The enumerations of the contract, read from it (never written twice). */
const DEFS = (
  SCHEMA_BUNDLE as unknown as {
    $defs: Record<string, { enum?: string[]; properties?: Record<string, { enum?: string[] }> }>;
  }
).$defs;
export const EXEC_STATUSES: readonly string[] = DEFS.ExecutionStatus.enum ?? [];
export const NODE_STATUSES: readonly string[] = DEFS.NodeStatus.enum ?? [];
export const VARIABLE_TYPES: readonly string[] = DEFS.PlanVariable.properties?.variableType.enum ?? [];
