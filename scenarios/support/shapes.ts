/**
 * Typed access to response payloads. The types come from the generated
 * contract (contracts/generated/api-types.ts); the shapes themselves are
 * validated by checkResponse, so these helpers only *read*.
 */
import type { components } from '../../contracts/generated/api-types.ts';
import type { Exchange } from './client.ts';

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

export const TERMINAL: readonly string[] = ['finish', 'failed'];

/** `data` of a 200 JSON envelope, else undefined. */
export function dataOf<T>(ex: Exchange): T | undefined {
  if (ex.status !== 200 || !ex.json || typeof ex.json !== 'object') return undefined;
  return (ex.json as { data?: T }).data;
}

/** `data` of a response the test cannot go on without; throws a failure that shows the response. */
export function needData<T>(ex: Exchange, what: string): T {
  const data = dataOf<T>(ex);
  if (data === undefined || data === null) {
    throw new Error(`${what}: expected a 200 envelope with data, got ${ex.status ?? ex.fault?.kind} ${ex.text.slice(0, 300)}\nreproduce: ${ex.record.curl}`);
  }
  return data;
}

/** The errCode of an error body, when it is the usual envelope (the shape is not shown, so it may be absent). */
export function errCodeOf(ex: Exchange): string | undefined {
  const code = ex.json && typeof ex.json === 'object' ? (ex.json as { errCode?: unknown }).errCode : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** Short description of a response for check messages. */
export function describe(ex: Exchange): string {
  if (ex.fault) return `${ex.fault.kind}: ${ex.fault.message}`;
  const code = errCodeOf(ex);
  return `HTTP ${ex.status}${code ? ` (${code})` : ''}`;
}
