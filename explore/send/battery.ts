/**
 * Sends the inputs of every run (battery-inputs.ts) to one operation, before its properties: each judged as
 * every input is, a slow answer analysed as the properties' are, and a failure narrowed and reported as
 * theirs are (findings.ts: confirmed, simplified, a crash probed for its class), so a failure the properties
 * meet later in the same class counts as the same finding. The requests count apart from the properties'
 * budget; what they leave on the target (executions of a declared variable's runs, canvases where
 * overwriting is not allowed) has an allowance of its own within the user's caps (session.ts).
 */
import fc from 'fast-check';
import type { OperationId } from '../../contracts/check.ts';
import { batteryOf } from '../generate/battery-inputs.ts';
import { addFinding } from './findings.ts';
import { prepare } from '../generate/inputs.ts';
import type { ExploreInput } from '../generate/model.ts';
import type { PropertySummary } from '../report/explore-report.ts';
import { probe, tally, type Session } from './session.ts';
import { analyseSlow, isSlowAnswer } from './slowness.ts';
import { timeOf } from './timings.ts';

/** What the battery of one operation sent of what it planned, and what the footprint's allowance left unsent. */
export interface BatterySent {
  planned: number;
  sent: number;
  capped: number;
}

async function sendOne(
  s: Session,
  op: OperationId,
  sum: PropertySummary,
  family: string,
  input: ExploreInput,
  deadline: number,
) {
  const prepared = prepare(input, s.world);
  if (!s.room(prepared, 'allowed', false)) {
    sum.capped++;
    return false;
  }
  if (s.knownSlow(op, prepared.features)) {
    sum.knownSlow = (sum.knownSlow ?? 0) + 1;
    return true;
  }
  const { exchange, outcome } = await probe(s, input, prepared, sum);
  tally(sum, outcome);
  if (isSlowAnswer(s, op, exchange))
    await analyseSlow(s, op, 'allowed', sum, { input, prepared, exchange, ...timeOf(exchange, s.deadlineMs)! });
  if (outcome.kind !== 'fail' || s.knownAs(op, outcome.clause, prepared.features)) return true;
  const run = { op, kind: 'allowed' as const, arbitrary: fc.constant(input), requests: 0, deadline };
  const replay = { propertySeed: 0, path: '', round: 0, numRuns: 0, shrinks: 0, shrinkComplete: true };
  const found = { input, prepared, exchange, outcome };
  await s.narrowing(() => addFinding(s, run, sum, input, found, replay, `sent every run: ${family}`));
  return true;
}

/**
 * The battery of `op`, sent until `until`; findings narrowed until `deadline`. Returns how many of its
 * inputs were sent, and left unsent for the footprint, of those planned.
 */
export async function sendBattery(
  s: Session,
  op: OperationId,
  sum: PropertySummary,
  until: number,
  deadline: number,
): Promise<BatterySent> {
  const families = batteryOf(op, s.world);
  const planned = families.reduce((n, f) => n + f.inputs.length, 0);
  let sent = 0;
  let capped = 0;
  await s.battery(async () => {
    for (const family of families)
      for (const input of family.inputs) {
        if (Date.now() >= until || s.unreachable) return;
        if (await sendOne(s, op, sum, family.name, input, deadline)) sent++;
        else capped++;
      }
  });
  if (capped)
    s.setupNotes.push(
      `${op}: ${capped} of the ${planned} inputs sent every run not sent: what they would leave on the target is past the allowance`,
    );
  return { planned, sent, capped };
}
