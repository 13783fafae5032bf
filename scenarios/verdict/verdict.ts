/**
 * Verdict: the only way a suite states a result. Every check names the
 * requirement it exercises; the strength comes from the catalogue
 * (contracts/requirements.ts), never from the call site, so a clause the
 * catalogue calls "should" can never fail a run unless the user asks for
 * strictness:
 *   must    → a violation fails the test (soft: the test goes on collecting evidence)
 *   should  → a warning annotation; a failure only under --strict / WFCHECK_STRICT=1
 *   observe → recorded, never failed
 */
import type { CheckRecord, EvidenceWriter, Level, ObservationRecord, TestRef } from './evidence.ts';
import { redactValue } from '../../foundation/environment/redact.ts';
import { levelOf } from '../../contracts/requirements.ts';

export interface CheckDetail {
  message: string;
  expected?: unknown;
  actual?: unknown;
  exchangeId?: string;
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

export class Verdict {
  /** Requirement IDs used by the suites that the catalogue does not list (reported, never silently dropped). */
  static readonly unknownIds = new Set<string>();

  constructor(
    private readonly writer: EvidenceWriter,
    private readonly test: TestRef | undefined,
    private readonly strict: boolean,
    private readonly hooks: VerdictHooks | undefined,
  ) {}

  private resolveLevel(id: string, implied: Level): Level {
    const level = levelOf(id);
    if (level) return level;
    if (!Verdict.unknownIds.has(id)) {
      Verdict.unknownIds.add(id);
      this.writer.write({
        kind: 'note',
        topic: 'unknown-requirement',
        message: `requirement ID ${id} is not in the catalogue; treated as ${implied}`,
        test: this.test,
        at: new Date().toISOString(),
      });
    }
    return implied;
  }

  private record(
    id: string,
    level: Level,
    outcome: CheckRecord['outcome'],
    detail: CheckDetail,
    source: CheckRecord['source'],
  ): void {
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
      exchangeId: detail.exchangeId,
      at: new Date().toISOString(),
    });
    if (outcome !== 'fail') return;
    const text =
      `[${id}] ${detail.message}` +
      (detail.expected !== undefined ? ` — expected ${show(detail.expected)}` : '') +
      (detail.actual !== undefined ? `, got ${show(detail.actual)}` : '');
    if (level === 'must' || (level === 'should' && this.strict)) this.hooks?.softFail(text);
    else this.hooks?.annotate(level === 'should' ? 'warning' : 'observation', text);
  }

  /** Records pass/fail of a clause; the catalogue decides its strength. Returns `cond` so callers can branch. */
  check(
    id: string,
    cond: boolean,
    detail: CheckDetail,
    implied: Level = 'must',
    source: CheckRecord['source'] = 'suite',
  ): boolean {
    const level = this.resolveLevel(id, implied);
    if (level === 'observe') {
      this.observe(id, detail.message, detail.actual ?? cond, detail.exchangeId);
      return cond;
    }
    this.record(id, level, cond ? 'pass' : 'fail', detail, source);
    return cond;
  }

  must(id: string, cond: boolean, detail: CheckDetail): boolean {
    return this.check(id, cond, detail, 'must');
  }

  should(id: string, cond: boolean, detail: CheckDetail): boolean {
    return this.check(id, cond, detail, 'should');
  }

  /** Records a value the spec leaves open ("not shown"). Never fails. */
  observe(id: string, key: string, value: unknown, exchangeId?: string): void {
    this.resolveLevel(id, 'observe');
    const record: ObservationRecord = {
      kind: 'observation',
      requirementId: id,
      key,
      value: redactValue(value),
      test: this.test,
      exchangeId,
      at: new Date().toISOString(),
    };
    this.writer.write(record);
    this.hooks?.annotate('observed', `[${id}] ${key}: ${show(value)}`);
  }

  /** The clause could not be exercised on this target (e.g. no second key): "not run", never pass. */
  /**
   * The clause could not be judged because an earlier step deviated from the specification: its
   * verdict is "blocked by" that step's clause, never a failure of its own.
   */
  blocked(id: string, by: string, reason: string): void {
    const level = this.resolveLevel(id, 'must');
    this.writer.write({
      kind: 'check',
      requirementId: id,
      level,
      outcome: 'blocked',
      blockedBy: by,
      source: 'suite',
      test: this.test,
      message: reason,
      at: new Date().toISOString(),
    });
    this.hooks?.annotate('blocked', `[${id}] blocked by ${by}: ${reason}`);
  }

  notRun(id: string, reason: string): void {
    const level = this.resolveLevel(id, 'must');
    this.record(id, level, 'not-run', { message: reason }, 'suite');
    this.hooks?.annotate('not-run', `[${id}] ${reason}`);
  }

  /** Contract-check results of one response (called by the client for every response). */
  contract(id: string, level: Level, pass: boolean, detail: CheckDetail, observedAs?: string): void {
    if (level === 'observe') {
      if (!pass) this.observe(id, observedAs ?? detail.message, detail.actual, detail.exchangeId);
      return;
    }
    this.record(id, level, pass ? 'pass' : 'fail', detail, 'contract');
  }

  note(topic: string, message: string): void {
    this.writer.write({ kind: 'note', topic, message, test: this.test, at: new Date().toISOString() });
  }
}
