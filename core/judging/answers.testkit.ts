/**
 * Hand-made answers for the judging tests, recorded on a verdict as the client records them: a recorder
 * that reads back each clause's outcomes, an answer with the contract violations it carries, and a
 * snapshot of an execution as a poll reads it.
 */
import type { CheckRecord, EvidenceRecord, ObservationRecord } from '../evidence/records.ts';
import { Verdict } from '../evidence/verdict.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { OperationId } from '../../contracts/check.ts';
import { clauseOf, requirement, type ClauseId } from '../../contracts/requirements.ts';
import type { OutputData, Snapshot, StatusData } from './payloads.ts';

/** The verdict answers are recorded on as they arrive, as the client records them (see `answer`). */
let current: Verdict | undefined;

export function recorder() {
  const records: EvidenceRecord[] = [];
  const verdict = Verdict.detached({ write: (r: EvidenceRecord) => records.push(r) } as never);
  current = verdict;
  const checks = (id: string) => records.filter((r): r is CheckRecord => r.kind === 'check' && r.requirementId === id);
  const outcomes = (id: string) =>
    checks(id).map((c) => (c.outcome === 'blocked' ? `blocked by ${c.blockedBy}` : c.outcome));
  const messages = (id: string) => checks(id).map((c) => c.message);
  const observations = (id: string) =>
    records.filter((r): r is ObservationRecord => r.kind === 'observation' && r.requirementId === id);
  return { verdict, records, checks, outcomes, messages, observations };
}

let seq = 0;
/**
 * An answer as the client hands it over: `violations` are what the contract checks found (at their
 * catalogue level), recorded on the current verdict against the answer, as the client records them.
 */
export function answer(
  operation: OperationId,
  status: number | undefined,
  body?: unknown,
  violations: ClauseId[] = [],
  fault?: string,
): Exchange {
  const id = `x${++seq}`;
  for (const requirementId of violations)
    current?.check(requirementId, false, { message: 'contract check', exchangeId: id }, 'contract');
  // A transport fault of the target fails the operation's status clause (the client's judgeFault).
  if (fault)
    current?.check(clauseOf(operation, 'HTTP-STATUS-LISTED'), false, { message: fault, exchangeId: id }, 'contract');
  return {
    record: { id } as Exchange['record'],
    status,
    headers: {},
    text: body === undefined ? '' : JSON.stringify(body),
    json: body,
    parsed: body !== undefined,
    operation,
    violations: violations.map((requirementId) => ({
      requirementId,
      level: requirement(requirementId).level,
      pointer: '',
      expected: '',
      actual: '',
      message: '',
    })),
    ...(fault ? { fault: { kind: fault, message: fault } } : {}),
  };
}

export const T0 = '2026-01-01T10:00:00.000Z';
export const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

/** One poll: its status (and output) answers, with what their contract checks found. */
export function snap(
  status: Partial<StatusData>,
  output?: Partial<OutputData>,
  found: { status?: ClauseId[]; output?: ClauseId[] } = {},
): Snapshot {
  return {
    at: 0,
    status: { executionId: 'e1', status: 'executing', createdAt: T0, nodeExecutions: [], ...status } as StatusData,
    statusExchange: answer('getExecutionStatus', 200, undefined, found.status),
    ...(output
      ? {
          output: { output: [], files: [], ...output } as OutputData,
          outputExchange: answer('getExecutionOutput', 200, undefined, found.output),
        }
      : {}),
  };
}
