/**
 * The clauses judged on every answer, whatever sent the request (a suite, explore, discovery): the
 * contract checks of contracts/check.ts turned into verdicts, the key never echoed, and a transport fault
 * of the target's making failing the operation's status clause. One judge per test keeps one credit per
 * clause: a clean answer is evidence enough once.
 */
import { bodyKindOf, clausesCheckedFor } from '../../../contracts/coverage.ts';
import { operationInfo } from '../../../contracts/check.ts';
import { levelOf } from '../../../contracts/requirements.ts';
import { MIN_SECRET_LENGTH } from '../../../foundation/environment/redact.ts';
import type { Verdict } from '../../evidence/verdict.ts';
import { faultClauseOf, statusClauseOf, type Exchange } from '../transport/exchange.ts';

/** §5.2: answers never carry the key. */
export const KEY_NOT_ECHOED = 'KEY-NOT-ECHOED';

/** Whether an answer carries one of `keys` in its body or a header (keys too short to be secrets are not looked for). */
function carriesKey(ex: Pick<Exchange, 'headers' | 'text'>, keys: readonly (string | undefined)[]): boolean {
  const headers = Object.values(ex.headers).join('\n');
  return keys.some(
    (k) => k !== undefined && k.length >= MIN_SECRET_LENGTH && (ex.text.includes(k) || headers.includes(k)),
  );
}

export class ContractJudge {
  /** Contract clauses already credited with a pass by this judge (one record per clause is enough evidence). */
  private readonly credited = new Set<string>();

  constructor(
    private readonly verdict: Verdict,
    /** The keys an answer must never carry: the caller's and every key of the run. */
    private readonly keys: readonly (string | undefined)[],
  ) {}

  /**
   * Judges one answer: its contract findings become verdicts; a clean answer credits the clauses it was
   * checked against, given the kind of body it carried (one that did not parse is evidence for nothing
   * that needs a body). `credit` is false for an answer that was retried (a 429 waited out). In the
   * answer to a probe of an open point, an unlisted 4xx is that point's observation, not a failure.
   * A transport fault of the target's making fails the status clause (`judgeFaults`). With `anyRefusal`
   * (a body whose framing is broken, refused by the HTTP layer before the operation), any 4xx, listed or
   * not, is the observation, and nothing of its body is judged: it is the HTTP layer's, not the operation's.
   */
  judge(
    ex: Exchange,
    options: {
      credit: boolean;
      openPoint?: string;
      openPointAbout?: string;
      anyRefusal?: boolean;
      judgeFaults?: boolean;
    },
  ): void {
    if (options.judgeFaults !== false) this.judgeFault(ex);
    if (!ex.operation || ex.status === undefined || ex.fault) return;
    this.judgeKeyNotEchoed(ex, options.credit);
    const failed = new Set<string>();
    // A refusal (an unlisted 4xx) of a value the specification leaves open is that point's observation,
    // not a failure of the status clause; a crash never is.
    const { listedStatuses } = operationInfo(ex.operation);
    const refusal = options.openPoint !== undefined && ex.status >= 400 && ex.status < 500;
    const observedAsOpen = refusal && (options.anyRefusal === true || !listedStatuses.includes(ex.status));
    if (observedAsOpen) {
      const about = options.openPointAbout ? ` for ${options.openPointAbout}` : '';
      this.verdict.observe(options.openPoint!, `${ex.operation} status${about}`, ex.status, ex.record.id);
      if (options.anyRefusal) return;
    }
    for (const v of ex.violations) {
      failed.add(v.requirementId);
      if (observedAsOpen && v.requirementId === statusClauseOf(ex.operation)) continue;
      this.verdict.contract(
        v.requirementId,
        v.level,
        false,
        { message: v.message, expected: v.expected, actual: v.actual, exchangeId: ex.record.id },
        `${ex.operation} ${ex.status}`,
      );
    }
    if (!options.credit) return;
    const body = bodyKindOf(ex.json, ex.parsed ? undefined : 'not JSON');
    for (const id of clausesCheckedFor(ex.operation, ex.status, body)) {
      if (failed.has(id) || this.credited.has(id)) continue;
      this.credited.add(id);
      this.verdict.contract(id, levelOf(id) ?? 'must', true, {
        message: `${ex.operation} ${ex.status} response conforms`,
        exchangeId: ex.record.id,
      });
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
      'should',
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
      'must',
      'contract',
    );
  }
}
