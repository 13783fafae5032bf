/**
 * Verdict: where every result of a clause is recorded, by the judges of core/judging/. A result
 * names its clause by a ClauseId (a mistyped ID does not compile), and there is one way to record a
 * check: `check`. Its strength comes from the catalogue (contracts/requirements.ts) alone, never from
 * the call site, so a clause the catalogue calls "should" can never fail a run unless the user asks for
 * strictness:
 *   must    → a violation fails the test (soft: the test goes on collecting evidence)
 *   should  → a warning annotation; a failure only under --strict / WFCHECK_STRICT=1
 *   observe → recorded, never failed
 */
import type { BlockLink, CheckRecord, EvidenceSink, Level, ObservationRecord, TestRef } from './records.ts';
import { redactValue } from '../settings/redact.ts';
import { requirement, type ClauseId } from '../../contracts/requirements.ts';
import { answersOfCheck, answersOfObservation } from '../../contracts/open-points.ts';

export interface CheckDetail {
  message: string;
  expected?: unknown;
  actual?: unknown;
  /** The exchange shown as evidence. */
  exchangeId?: string;
  /** Every exchange judged, when several were (a relation across polls); a failure is recorded on each. */
  exchangeIds?: readonly string[];
  /** What the value is recorded under when the clause is observe-level (default: the message). */
  observedAs?: string;
}

/**
 * Why a clause could not be judged: the data it needed was lost to a failure. The blocker is the failure
 * recorded on the exchanges it needed (`exchangeIds`) — `blockedBy` says which when several failed there;
 * a failure elsewhere in the test never blocks it. Without `exchangeIds` (a step that is no exchange of
 * this test, such as a plan read by discovery) `blockedBy` is taken as given. Without `blockedBy` and
 * without a failure on the exchanges, the cause is the harness's own and the clause is "not run".
 */
export interface Cause {
  blockedBy?: ClauseId;
  exchangeIds?: readonly string[];
  step?: string;
  /** `blockedBy` is judged right after this, on the same data: its failure is not recorded yet. */
  judgedNext?: true;
  reason: string;
}

/** A failure recorded on an exchange: what a clause that needed the exchange's data is blocked by. */
interface FailureOn {
  id: ClauseId;
  level: Level;
  message: string;
}

/**
 * Failures by the exchange they were judged on, shared by the verdicts that judge the same answers (a
 * worker's discovery and its tests): a verdict whose clause needed an answer another verdict found at
 * fault is blocked by that failure. Exchange ids are unique to their process.
 */
export class FailureLedger {
  private readonly byExchange = new Map<string, FailureOn[]>();

  add(exchangeId: string, failure: FailureOn): void {
    const list = this.byExchange.get(exchangeId) ?? [];
    if (!list.some((f) => f.id === failure.id)) list.push(failure);
    this.byExchange.set(exchangeId, list);
  }

  on(exchangeId: string): readonly FailureOn[] {
    return this.byExchange.get(exchangeId) ?? [];
  }
}

export interface VerdictHooks {
  /** Marks the running test failed without stopping it (expect.soft). */
  softFail(message: string): void;
  /** Adds an annotation to the running test (HTML report). */
  annotate(type: string, description: string): void;
}

function show(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(redactValue(value));
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

/** The clause that judges an operation's status line: a failure of it loses the whole answer. */
const STATUS_LINE = /-HTTP-STATUS-LISTED$/;

/** What a test's result of a clause could be recorded as: judged (a check), blocked, or not run. */
export type BlockOutcome = 'blocked' | 'not-run' | 'judged';

/**
 * Where results of the clauses `C` are recorded: the verdict itself, or a judge's view of it that takes
 * only the clauses the judge declares (core/judging/judge.ts). The members are function-typed
 * properties, not methods, so that a recorder of some clauses is no recorder of others to the compiler.
 * Stops (`notRun`, `blocked`) take any clause: what an earlier step lost keeps every clause that needed
 * it from being judged, whichever judge it belongs to.
 */
export interface Recorder<C extends ClauseId = ClauseId> {
  /** Clauses recorded so far, by any judge (a check, an observation or a stop). */
  readonly recorded: ReadonlySet<ClauseId>;
  /** Records pass or fail of a clause, at the level the catalogue gives it; returns `pass`. */
  check: (id: C, pass: boolean, detail: CheckDetail, source?: CheckRecord['source']) => boolean;
  /** Records a value the specification leaves open. Never fails. */
  observe: (id: C, key: string, value: unknown, exchangeId?: string) => void;
  /** The clause could not be judged because data it needed was lost (see Verdict.blocked). */
  blocked: (id: ClauseId, cause: Cause | ClauseId, reason?: string) => BlockOutcome;
  /** The clause could not be exercised on this target: "not run", never pass. */
  notRun: (id: ClauseId, reason: string) => void;
  note: (topic: string, message: string) => void;
}

/** A recorder whatever clauses it takes: what a judge's entry point accepts (it narrows it to its own). */
export type AnyRecorder = Recorder<never>;

export interface VerdictOptions {
  writer: EvidenceSink;
  /** The test whose results these are; none for discovery, probes and explore. */
  test?: TestRef;
  /** Should-level failures fail the test too (--strict). */
  strict?: boolean;
  /** How a running test is told of failures and annotations (Playwright's expect.soft and annotations). */
  hooks?: VerdictHooks;
  /** Shared with the verdicts that judge the same answers; default this verdict's own. */
  ledger?: FailureLedger;
}

export class Verdict implements Recorder {
  /** Clauses this verdict recorded anything for (check or observation). */
  readonly recorded = new Set<ClauseId>();
  /** Clauses this verdict recorded as failed, with the exchange of their first failure. */
  private readonly failedHere = new Map<ClauseId, string | undefined>();
  /** Clauses this verdict recorded as blocked, with the chain of their last blocked record. */
  private readonly blockedHere = new Map<ClauseId, BlockLink[]>();
  /** Soft failures the hooks were told of (the test's other errors are thrown ones). */
  softFailures = 0;
  /** The exchange at which a transport fault ended the test's flow, when one did. */
  stoppedAt?: { exchangeId: string; message: string };

  private readonly writer: EvidenceSink;
  private readonly test: TestRef | undefined;
  private readonly strict: boolean;
  private readonly hooks: VerdictHooks | undefined;
  private readonly ledger: FailureLedger;

  constructor(options: VerdictOptions) {
    this.writer = options.writer;
    this.test = options.test;
    this.strict = options.strict ?? false;
    this.hooks = options.hooks;
    this.ledger = options.ledger ?? new FailureLedger();
  }

  /**
   * A verdict that belongs to no test (discovery, the reachability probe, explore, benchmarks): its
   * records carry no test, and nothing is told to a test runner.
   */
  static detached(writer: EvidenceSink, strict = false, ledger?: FailureLedger): Verdict {
    return new Verdict({ writer, strict, ...(ledger ? { ledger } : {}) });
  }

  private record(
    id: ClauseId,
    level: Level,
    outcome: CheckRecord['outcome'],
    detail: CheckDetail,
    source: CheckRecord['source'],
  ): void {
    const exchangeIds = [...new Set([detail.exchangeId, ...(detail.exchangeIds ?? [])])].filter(
      (x): x is string => x !== undefined,
    );
    this.recorded.add(id);
    const points = outcome === 'pass' || outcome === 'fail' ? answersOfCheck(id, outcome === 'pass') : [];
    this.writer.write({
      kind: 'check',
      requirementId: id,
      level,
      outcome,
      source,
      test: this.test,
      message: detail.message,
      expected: show(detail.expected),
      actual: show(detail.actual),
      exchangeId: detail.exchangeId ?? exchangeIds[0],
      ...(exchangeIds.length > 1 ? { exchangeIds } : {}),
      ...(points.length ? { points } : {}),
      at: new Date().toISOString(),
    });
    if (outcome !== 'fail') return;
    if (!this.failedHere.has(id)) this.failedHere.set(id, exchangeIds[0]);
    for (const x of exchangeIds) this.ledger.add(x, { id, level, message: detail.message });
    const text =
      `[${id}] ${detail.message}` +
      (detail.expected !== undefined ? ` — expected ${show(detail.expected)}` : '') +
      (detail.actual !== undefined ? `, got ${show(detail.actual)}` : '');
    if (level === 'must' || (level === 'should' && this.strict)) {
      this.softFailures++;
      this.hooks?.softFail(text);
    } else this.hooks?.annotate(level === 'should' ? 'warning' : 'observation', text);
  }

  /**
   * The chain from `by` to the failure at its root, as far as this test knows it: `by` failed (one link),
   * or was blocked here (a link, then its own chain).
   */
  private chainFrom(by: ClauseId, exchangeId?: string, message?: string): BlockLink[] {
    const failedOn = exchangeId ?? this.failedHere.get(by);
    if (this.failedHere.has(by) || exchangeId !== undefined || !this.blockedHere.has(by))
      return [{ requirementId: by, outcome: 'fail', ...(failedOn ? { exchangeId: failedOn } : {}), message }];
    const rest = this.blockedHere.get(by)!;
    return [{ requirementId: by, outcome: 'blocked', message }, ...rest.filter((l) => l.requirementId !== by)];
  }

  /**
   * The blocker of a cause: the failure recorded on the exchanges it names (the named clause when it is
   * one of them, else the status line's, else the first of must level); a clause blocked here when the
   * named clause was; the named clause as given when no exchange is named. Undefined: nothing failed
   * that the clause needed.
   */
  private resolve(cause: Cause): BlockLink[] | undefined {
    const exchanges = cause.exchangeIds ?? [];
    if (exchanges.length === 0) {
      const by = cause.blockedBy;
      if (!by) return undefined;
      // A clause this test judged without a failure, or could not judge itself, blocks nothing.
      const judgedClean = this.recorded.has(by) && !this.failedHere.has(by) && !this.blockedHere.has(by);
      return judgedClean && !cause.judgedNext ? undefined : this.chainFrom(by);
    }
    const failures = exchanges.flatMap((x) => this.ledger.on(x).map((f) => ({ ...f, exchangeId: x })));
    const named = failures.find((f) => f.id === cause.blockedBy);
    if (named) return this.chainFrom(named.id, named.exchangeId, named.message);
    if (cause.blockedBy && this.blockedHere.has(cause.blockedBy)) return this.chainFrom(cause.blockedBy);
    const pick =
      failures.find((f) => f.level === 'must' && STATUS_LINE.test(f.id)) ?? failures.find((f) => f.level === 'must');
    return pick ? this.chainFrom(pick.id, pick.exchangeId, pick.message) : undefined;
  }

  /**
   * Records pass/fail of a clause; the catalogue decides its strength (an observe-level clause records
   * the value instead). Returns `pass` so callers can branch.
   */
  check(id: ClauseId, pass: boolean, detail: CheckDetail, source: CheckRecord['source'] = 'suite'): boolean {
    const { level } = requirement(id);
    if (level === 'observe') {
      this.observe(id, detail.observedAs ?? detail.message, detail.actual ?? pass, detail.exchangeId);
      return pass;
    }
    this.record(id, level, pass ? 'pass' : 'fail', detail, source);
    return pass;
  }

  /** Records a value the spec leaves open ("not shown"). Never fails. */
  observe(id: ClauseId, key: string, value: unknown, exchangeId?: string): void {
    this.recorded.add(id);
    const redacted = redactValue(value);
    const points = answersOfObservation(id, key, redacted);
    const record: ObservationRecord = {
      kind: 'observation',
      requirementId: id,
      key,
      value: redacted,
      ...(points.length ? { points } : {}),
      test: this.test,
      exchangeId,
      at: new Date().toISOString(),
    };
    this.writer.write(record);
    this.hooks?.annotate('observed', `[${id}] ${key}: ${show(value)}`);
  }

  /**
   * The clause could not be judged because data it needed was lost to a deviation: its verdict is
   * "blocked by" the failure recorded on that data (see Cause), never a failure of its own. When
   * nothing failed there, the cause is the harness's and the clause is "not run" with the reason.
   * (`blocked(id, clause, reason)` names a step's clause directly, as a cause without exchanges.)
   * Returns what was recorded.
   */
  blocked(id: ClauseId, cause: Cause | ClauseId, reason?: string): BlockOutcome {
    const c: Cause = typeof cause === 'string' ? { blockedBy: cause, reason: reason ?? '' } : cause;
    const chain = this.resolve(c);
    if (!chain) {
      this.notRun(id, c.reason);
      return 'not-run';
    }
    const by = chain[0].requirementId;
    // The clause's own failure on the data is its verdict already.
    if (by === id) return 'judged';
    const { level } = requirement(id);
    const exchangeIds = c.exchangeIds?.length ? [...c.exchangeIds] : undefined;
    this.recorded.add(id);
    this.blockedHere.set(id, chain);
    this.writer.write({
      kind: 'check',
      requirementId: id,
      level,
      outcome: 'blocked',
      blockedBy: by,
      blockedChain: chain,
      ...(exchangeIds || c.step
        ? { needed: { ...(exchangeIds ? { exchangeIds } : {}), ...(c.step ? { step: c.step } : {}) } }
        : {}),
      source: 'suite',
      test: this.test,
      message: c.reason,
      exchangeId: exchangeIds?.[0],
      at: new Date().toISOString(),
    });
    const via = chain.map((l) => l.requirementId).join(' ← ');
    this.hooks?.annotate('blocked', `[${id}] blocked by ${via}: ${c.reason}`);
    return 'blocked';
  }

  /** The clause could not be exercised on this target (e.g. no second key): "not run", never pass. */
  notRun(id: ClauseId, reason: string): void {
    this.record(id, requirement(id).level, 'not-run', { message: reason }, 'suite');
    this.hooks?.annotate('not-run', `[${id}] ${reason}`);
  }

  note(topic: string, message: string): void {
    this.writer.write({ kind: 'note', topic, message, test: this.test, at: new Date().toISOString() });
  }
}
