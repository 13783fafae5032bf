/**
 * What a judge is: a named unit that decides a set of clauses, and declares them. Every result of a
 * clause is recorded through the judge that declares it (the catalogue test holds every must and should
 * clause to exactly one judge: core/judging/registry.ts), so a clause is decided in one place,
 * whatever sends the requests — a suite, the generative mode, discovery.
 *
 * A judge's functions are made by `judges(fn)`: the function is handed a recorder that takes only the
 * judge's own clauses, to the compiler (its parameter is `Recorder<C>`) and at run time (an undeclared
 * clause throws: a judge that records what it does not declare is a defect of the harness, found the
 * first time the path runs). Stops (`notRun`, `blocked`) pass for any clause: what a step lost keeps every
 * clause that needed it from being judged. A judge may call another's functions with its recorder: each
 * narrows it to its own clauses again.
 */
import type { ClauseId } from '../../contracts/requirements.ts';
import type { CheckRecord } from '../evidence/records.ts';
import type { AnyRecorder, CheckDetail, Recorder } from '../evidence/verdict.ts';

/** What a judge declares: its name and the clauses it decides (the registry lists these). */
export interface Declaration {
  /** What the judge decides, in words ("pages of search"). */
  readonly name: string;
  /** The clauses it decides (checks and observations): no other judge decides a must or should one of them. */
  readonly clauses: readonly ClauseId[];
}

export interface Judge<C extends ClauseId = ClauseId> extends Declaration {
  readonly clauses: readonly C[];
  /** A function of this judge: it records through a recorder that takes only `clauses`. */
  judges<A extends unknown[], R>(fn: (v: Recorder<C>, ...args: A) => R): (v: AnyRecorder, ...args: A) => R;
  /** This judge's recorder over `v`, for a judge that records over time (a class). */
  over(v: AnyRecorder): Recorder<C>;
}

/** The clauses a judge declares, as a type. */
export type ClausesOf<J extends Declaration> = J['clauses'][number];

/** The recorder a judge's function is handed. */
export type Judging<J extends Declaration> = Recorder<ClausesOf<J>>;

/** A recorder narrowed to a judge's clauses; it records on the verdict it was made from. */
class JudgeRecorder<C extends ClauseId> implements Recorder<C> {
  constructor(
    readonly base: Recorder,
    private readonly judge: Judge<C>,
    private readonly own: ReadonlySet<ClauseId>,
  ) {}

  get recorded(): ReadonlySet<ClauseId> {
    return this.base.recorded;
  }

  private declared(id: ClauseId): void {
    if (!this.own.has(id)) throw new Error(`the judge of ${this.judge.name} records ${id}, which it does not declare`);
  }

  check = (id: C, pass: boolean, detail: CheckDetail, source?: CheckRecord['source']): boolean => {
    this.declared(id);
    return this.base.check(id, pass, detail, source);
  };

  observe = (id: C, key: string, value: unknown, exchangeId?: string): void => {
    this.declared(id);
    this.base.observe(id, key, value, exchangeId);
  };

  blocked: Recorder['blocked'] = (id, cause, reason) => this.base.blocked(id, cause, reason);
  notRun: Recorder['notRun'] = (id, reason) => this.base.notRun(id, reason);
  note: Recorder['note'] = (topic, message) => this.base.note(topic, message);
}

/** The verdict under any judge's recorder: a judge called by another narrows the verdict, not the caller's view. */
function baseOf(v: AnyRecorder): Recorder {
  return v instanceof JudgeRecorder ? (v.base as Recorder) : (v as unknown as Recorder);
}

/** Declares a judge of `clauses`. */
export function judge<const C extends ClauseId>(name: string, clauses: readonly C[]): Judge<C> {
  const own: ReadonlySet<ClauseId> = new Set(clauses);
  const declared: Judge<C> = {
    name,
    clauses,
    judges:
      (fn) =>
      (v, ...args) =>
        fn(declared.over(v), ...args),
    over: (v) => new JudgeRecorder(baseOf(v), declared, own),
  };
  return declared;
}
