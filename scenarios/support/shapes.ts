/**
 * Typed access to response payloads, and how a response reads in a check.
 * The types come from the generated contract (contracts/generated/api-types.ts);
 * the shapes themselves are validated by checkResponse, so these helpers only
 * *read*: a payload may still lack a field its type promises, which is why
 * callers keep their runtime guards.
 */
import type { components } from '../../contracts/generated/api-types.ts';
import type { Exchange } from './client.ts';
import type { Verdict } from '../verdict/verdict.ts';

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

/** What a clause accepts of a response, and how the report states it. */
export interface StatusExpectation {
  ok(ex: Exchange): boolean;
  /** The expectation as the report shows it, e.g. "HTTP 200", "a status below 500". */
  expected: string;
  /** The response as the report shows it; describe(ex) unless the clause needs more (e.g. a body that is not JSON). */
  actual?(ex: Exchange): string;
}

/** One status or any of several: statusIn(404) reads "HTTP 404", statusIn([200, 202]) "HTTP 200 or 202". */
export function statusIn(statuses: number | readonly number[], expected?: string): StatusExpectation {
  const list = typeof statuses === 'number' ? [statuses] : statuses;
  return { ok: (ex) => ex.status !== undefined && list.includes(ex.status), expected: expected ?? `HTTP ${list.join(' or ')}` };
}

/** Any 4xx: refused as the client's fault — neither accepted nor a server error. */
export function clientError(expected: string): StatusExpectation {
  return { ok: (ex) => ex.status !== undefined && ex.status >= 400 && ex.status < 500, expected };
}

/**
 * Records whether `ex` answers as `want` says, with the response as evidence, and returns the
 * outcome so the caller can branch. The catalogue decides the strength; `implied` only applies to
 * an ID it lacks (see Verdict.check), and states the clause's strength to the reader.
 */
export function expectStatus(verdict: Verdict, id: string, ex: Exchange, want: number | readonly number[] | StatusExpectation, message: string, implied: 'must' | 'should' = 'must'): boolean {
  const rule = typeof want === 'object' && 'ok' in want ? want : statusIn(want);
  return verdict.check(id, rule.ok(ex), { message, expected: rule.expected, actual: rule.actual ? rule.actual(ex) : describe(ex), exchangeId: ex.record.id }, implied);
}
