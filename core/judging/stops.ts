/**
 * Why a flow cannot go on, and what a clause is recorded as when it could not be judged: blocked by the
 * failure on the data the flow lost, or not run for a reason of the harness.
 */
import type { ClauseId } from '../../contracts/requirements.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { AnyRecorder, Cause, Recorder } from '../evidence/verdict.ts';

/**
 * Why a flow cannot go on, and what data it lost: the exchanges (`exchangeIds`) whose answer deviated —
 * `blockedBy` names the clause that failed there — or a step that was never taken (`step`). Without a
 * clause the harness is the cause (no suitable workflow, our deadline): what depends on it is "not run".
 */
export type Stop = Cause;

/**
 * What a probe gave a clause: the answer to judge, or why there is none — a stop (the step it needed
 * deviated, or a reason of the harness's), or the reason it could not be exercised on this target.
 */
export type Attempt = { ex: Exchange; message: string } | { stop: Stop } | { unexercised: string };

/**
 * Judges `id` on an attempt: the answer by `judgeAnswer`, a stop as the stop says, a probe that could not
 * be made as not run.
 */
export function onAttempt<C extends ClauseId>(
  verdict: Recorder<C>,
  id: C,
  attempt: Attempt,
  judgeAnswer: (ex: Exchange, message: string) => void,
): void {
  if ('ex' in attempt) judgeAnswer(attempt.ex, attempt.message);
  else if ('stop' in attempt) stopAll(verdict, [id], attempt.stop);
  else verdict.notRun(id, attempt.unexercised);
}

/**
 * Records each clause of `ids` as blocked by the failure on the data the stop lost (see Verdict.blocked),
 * or as not run for a reason of the harness.
 */
export function stopAll(verdict: AnyRecorder, ids: readonly ClauseId[], stop: Stop): void {
  for (const id of ids) {
    if (id === stop.blockedBy) continue;
    if (stop.blockedBy || stop.exchangeIds?.length) verdict.blocked(id, stop);
    else verdict.notRun(id, stop.reason);
  }
}

/**
 * The stop of a step that was never taken because `clause` could not be judged: what needed the step is
 * blocked by `clause`, itself blocked by the stop's cause (the chain "A ← clause ← cause"). A stop of the
 * harness's own passes through unchanged.
 */
export function dependsOn(clause: ClauseId, stop: Stop, step: string): Stop {
  return stop.blockedBy || stop.exchangeIds?.length ? { blockedBy: clause, step, reason: stop.reason } : stop;
}
