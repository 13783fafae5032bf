/**
 * The clauses judged on every answer, whatever sent the request (a suite, explore, discovery): the
 * contract checks of contracts/check.ts turned into verdicts, the key never echoed, and a transport fault
 * of the target's making failing the operation's status clause. One judge per test keeps one credit per
 * clause: a clean answer is evidence enough once.
 *
 * The judge of the contract declares what the automatic checks cover (their `covers()`, over every
 * operation) and the key never echoed; when a flow needs the payload an answer promises, it is judged
 * here too, under the operation's data clause (acceptedPayload, missingPayload).
 */
import { OPERATION_IDS } from '../../contracts/generated/operations.ts';
import { CLAUSE_IDS } from '../../contracts/generated/clause-ids.ts';
import { bodyKindOf, clausesCheckedFor, clausesEverCovered } from '../../contracts/coverage.ts';
import { operationInfo, type OperationId } from '../../contracts/check.ts';
import { clauseOf, levelOf, type ClauseId } from '../../contracts/requirements.ts';
import { MIN_SECRET_LENGTH } from '../settings/redact.ts';
import type { AnyRecorder, Recorder } from '../evidence/verdict.ts';
import { faultClauseOf, statusClauseOf, type Exchange } from '../transport/exchange.ts';
import { CLOSED_UNANSWERED } from '../transport/framing.ts';
import { judge } from './judge.ts';
import { accepted, type Acceptance, type Judged } from './expect.ts';
import { describe } from './answers.ts';
import type { Stop } from './stops.ts';

/** What an open point records for a connection the HTTP layer closed without an answer. */
export const CLOSED_WITHOUT_ANSWER = 'closed without an answer';

/** §5.2: answers never carry the key. */
export const KEY_NOT_ECHOED = 'KEY-NOT-ECHOED' as const satisfies ClauseId;

/** The judge of the contract: every clause the automatic checks cover, and the key an answer never carries. */
export const contract = judge('the contract, on every answer', [...clausesEverCovered(OPERATION_IDS), KEY_NOT_ECHOED]);

/**
 * The judge of probes of the points the specification leaves open: the refusal of a request that names
 * one (page=0, an unknown order, a body whose framing is broken) is recorded under it, whichever it is.
 */
export const openPoints = judge(
  'refusals of probes of the open points',
  CLAUSE_IDS.filter((id) => levelOf(id) === 'observe'),
);

/** Whether an answer carries one of `keys` in its body or a header (keys too short to be secrets are not looked for). */
function carriesKey(ex: Pick<Exchange, 'headers' | 'text'>, keys: readonly (string | undefined)[]): boolean {
  const headers = Object.values(ex.headers).join('\n');
  return keys.some(
    (k) => k !== undefined && k.length >= MIN_SECRET_LENGTH && (ex.text.includes(k) || headers.includes(k)),
  );
}

export class ContractJudge {
  /** Contract clauses already credited with a pass by this judge (one record per clause is enough evidence). */
  private readonly credited = new Set<ClauseId>();
  private readonly verdict: Recorder;
  private readonly open: Recorder;

  constructor(
    verdict: AnyRecorder,
    /** The keys an answer must never carry: the caller's and every key of the run. */
    private readonly keys: readonly (string | undefined)[],
  ) {
    this.verdict = contract.over(verdict);
    this.open = openPoints.over(verdict);
  }

  /**
   * Judges one answer: its contract findings become verdicts; a clean answer credits the clauses it was
   * checked against, given the kind of body it carried (one that did not parse is evidence for nothing
   * that needs a body). `credit` is false for an answer that was retried (a 429 waited out). In the
   * answer to a probe of an open point, an unlisted 4xx is that point's observation, not a failure.
   * A transport fault of the target's making fails the status clause (`judgeFaults`). With `anyRefusal`
   * (a body whose framing is broken, refused by the HTTP layer before the operation), any 4xx, listed or
   * not, is the observation, and nothing of its body is judged: it is the HTTP layer's, not the operation's;
   * so is a close without an answer, which RFC 9112 allows for such a body (transport/framing.ts).
   */
  judge(
    ex: Exchange,
    options: {
      credit: boolean;
      openPoint?: ClauseId;
      openPointAbout?: string;
      anyRefusal?: boolean;
      judgeFaults?: boolean;
    },
  ): void {
    if (options.judgeFaults !== false) this.judgeFault(ex);
    if (options.anyRefusal && ex.operation && ex.fault?.kind === CLOSED_UNANSWERED) {
      const about = options.openPointAbout ? ` to ${options.openPointAbout}` : '';
      this.open.observe(options.openPoint!, `${ex.operation} answer${about}`, CLOSED_WITHOUT_ANSWER, ex.record.id);
      return;
    }
    if (!ex.operation || ex.status === undefined || ex.fault) return;
    this.judgeKeyNotEchoed(ex, options.credit);
    const failed = new Set<ClauseId>();
    // A refusal (an unlisted 4xx) of a value the specification leaves open is that point's observation,
    // not a failure of the status clause; a crash never is.
    const { listedStatuses } = operationInfo(ex.operation);
    const refusal = options.openPoint !== undefined && ex.status >= 400 && ex.status < 500;
    const observedAsOpen = refusal && (options.anyRefusal === true || !listedStatuses.includes(ex.status));
    if (observedAsOpen) {
      const about = options.openPointAbout ? ` for ${options.openPointAbout}` : '';
      this.open.observe(options.openPoint!, `${ex.operation} status${about}`, ex.status, ex.record.id);
      if (options.anyRefusal) return;
    }
    for (const v of ex.violations) {
      failed.add(v.requirementId);
      if (observedAsOpen && v.requirementId === statusClauseOf(ex.operation)) continue;
      this.verdict.check(
        v.requirementId,
        false,
        {
          message: v.message,
          expected: v.expected,
          actual: v.actual,
          exchangeId: ex.record.id,
          observedAs: `${ex.operation} ${ex.status}`,
        },
        'contract',
      );
    }
    if (!options.credit) return;
    const body = bodyKindOf(ex.json, ex.parsed ? undefined : 'not JSON');
    for (const id of clausesCheckedFor(ex.operation, ex.status, body)) {
      if (failed.has(id) || this.credited.has(id)) continue;
      this.credited.add(id);
      this.verdict.check(
        id,
        true,
        { message: `${ex.operation} ${ex.status} response conforms`, exchangeId: ex.record.id },
        'contract',
      );
    }
  }

  /**
   * KEY-NOT-ECHOED on every answer: neither key in use may come back in the body or a header. The
   * evidence never holds the key: the exchange is recorded redacted, and the check names it only as "the key".
   */
  private judgeKeyNotEchoed(ex: Exchange, credit: boolean): void {
    const echoed = carriesKey(ex, this.keys);
    if (!echoed && (!credit || this.credited.has(KEY_NOT_ECHOED))) return;
    if (!echoed) this.credited.add(KEY_NOT_ECHOED);
    this.verdict.check(
      KEY_NOT_ECHOED,
      !echoed,
      {
        message: `${ex.operation} ${ex.status} answer ${echoed ? 'carries' : 'does not carry'} the API key`,
        expected: 'no API key in the answer',
        actual: echoed ? 'the API key (redacted here)' : 'none',
        exchangeId: ex.record.id,
      },
      'contract',
    );
  }

  /**
   * A transport fault of the target's own making (reset, malformed answer, body cut short) is its
   * deviation: no listed status came back, or a 200 whose envelope never arrived whole. Recorded as a
   * failure of the clause it breaks (faultClauseOf) with the exchange as evidence; the harness's own
   * limits are not judged here. A refusal whose body was cut is no fault: its status is judged.
   */
  private judgeFault(ex: Exchange): void {
    const clause = faultClauseOf(ex);
    if (!clause || !ex.operation || !ex.fault) return;
    const { listedStatuses } = operationInfo(ex.operation);
    const envelope = clause !== statusClauseOf(ex.operation);
    this.verdict.check(
      clause,
      false,
      {
        message: envelope
          ? `${ex.operation} ${ex.status} answer broke off before its envelope was complete`
          : `${ex.operation} got no listed status: ${ex.fault.kind}`,
        expected: envelope ? 'a complete JSON envelope' : `one of ${listedStatuses.join(', ')}`,
        actual: `${ex.fault.kind}: ${ex.fault.message}`,
        exchangeId: ex.record.id,
      },
      'contract',
    );
  }

  /**
   * A 429 the client waits out and retries (§8: rate limits are not shown): recorded, and nothing of it
   * judged but its contract, without credit.
   */
  rateLimited(ex: Exchange, waitMs: number): void {
    const retryAfter = ex.headers['retry-after'] ?? '(none)';
    this.verdict.observe(
      'LIMIT-RATE',
      `${ex.operation ?? ex.record.method} answered 429`,
      `Retry-After ${retryAfter}; retried after ${waitMs} ms`,
      ex.record.id,
    );
  }

  /**
   * An operation the run found faulted answers no more: the clauses judged on every answer of it are not
   * run for that reason (but the one the fault failed), said once, by the call that met the fault.
   */
  lostTo(operation: OperationId, failed: ClauseId | undefined, reason: string): void {
    const lost = new Set(
      operationInfo(operation).listedStatuses.flatMap((status) => clausesCheckedFor(operation, status)),
    );
    for (const id of lost) if (id !== failed) this.verdict.notRun(id, reason);
  }
}

/**
 * The payload an operation's success promises, where a flow needs it (a generated plan): accepted when
 * served carrying it (see `accepted`), judged under the operation's data clause (GENERATE-200-DATA…).
 */
export function acceptedPayload<T>(
  verdict: AnyRecorder,
  ex: Exchange,
  operation: OperationId,
  want: Acceptance<T>,
  message: string,
): Judged<T> {
  return accepted(contract.over(verdict), clauseOf(operation, '200-DATA'), ex, want, message);
}

/**
 * A served answer without the payload its operation promises, where the contract checks found nothing to
 * say (an envelope `success: false` without data, answered as a success): the operation's data clause
 * fails on it. Returns the stop of what needed the payload.
 */
export function missingPayload(verdict: AnyRecorder, ex: Exchange, operation: OperationId, what: string): Stop {
  const clause = clauseOf(operation, '200-DATA');
  contract.over(verdict).check(clause, false, {
    message: what,
    expected: 'an envelope with data',
    actual: ex.parsed ? describe(ex) : `${describe(ex)} with a body that is not JSON`,
    exchangeId: ex.record.id,
  });
  return { blockedBy: clause, reason: `${what}: ${describe(ex)}` };
}

/** What a served payload carries where the contract leaves it optional (a canvasId, say), recorded under its data clause. */
export function observePayload(verdict: AnyRecorder, operation: OperationId, what: string, value: unknown): void {
  contract.over(verdict).observe(clauseOf(operation, '200-DATA'), what, value);
}
