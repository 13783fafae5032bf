/**
 * The contract violations of each steady window of a capacity plan, when the checks run in Node: the
 * checker's verdicts carry no window (they come back after the request, in batches), so its running total
 * is sampled over the process's time and a window's violations are those counted while it ran, shifted by
 * how long a response waits for its batch.
 */
import { type CapacityPlan, steadyWindow, type TimeWindow, timeline } from '../plan.ts';
import type { NodeChecker } from '../../node/node-checker.ts';

/** A response reaches the checker with its VU's batch, sent at the end of the iteration: within about a second. */
const BATCH_LAG_MS = 1000;
const SAMPLE_EVERY_MS = 250;

export class ViolationClock {
  private readonly totals: { at: number; violating: number }[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;
  private origin: number | undefined;
  private windows: TimeWindow[] = [];

  constructor(private readonly checker: Pick<NodeChecker, 'totals'>) {}

  /** The steps begin now (the entry's marker line came in). */
  start(plan: CapacityPlan, now = Date.now()): void {
    this.origin = now;
    this.windows = timeline(plan);
    this.sample(now);
    this.timer = setInterval(() => this.sample(Date.now()), SAMPLE_EVERY_MS);
  }

  sample(now: number): void {
    const violating = Object.values(this.checker.totals()).reduce((n, t) => n + t.violating, 0);
    this.totals.push({ at: now, violating });
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.origin !== undefined) this.sample(Date.now());
  }

  /** ms from `began` to the steps' start (0 when they never started). */
  startedAfterMs(began: number): number {
    return this.origin === undefined ? 0 : this.origin - began;
  }

  private totalAt(at: number): number {
    let v = 0;
    for (const t of this.totals) if (t.at <= at) v = t.violating;
    return v;
  }

  /** Violations counted during a step's steady window; undefined when the steps never started. */
  inWindow(step: number): number | undefined {
    if (this.origin === undefined) return undefined;
    const w = this.windows.find((x) => x.name === steadyWindow(step));
    if (!w) return undefined;
    return this.totalAt(this.origin + w.toMs + BATCH_LAG_MS) - this.totalAt(this.origin + w.fromMs + BATCH_LAG_MS);
  }
}
