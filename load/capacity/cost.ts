/**
 * What a k6 process of a capacity search costs besides its steps' own seconds: k6's start, the
 * initialisation of every VU it pre-allocates (the suite's modules, a few ms of CPU each), the drain of
 * the last lifecycles, and the wait for the target to work off a step that broke. Learnt from each
 * process run, so the search starts a plan only when it fits the budget with what must follow it.
 *
 * Pure, no k6 or Node imports: the driver (load/capacity/node/search.ts) and the simulated target of the
 * search's tests use the same estimate.
 */
import { type CapacityPlan, plannedVus, planSeconds } from './plan.ts';

/** VUs enough for a process's start to measure what one costs. */
const LARGE_POOL = 50;

/** What one process took, as the driver measured it. */
export interface ProcessTiming {
  /** ms from the process's start to its steps' start. */
  startupMs: number;
  /** ms from the process's start to its end. */
  wallMs: number;
  /** Seconds of steps it ran (a ramp stops at its first break). */
  ranS: number;
  /** Seconds waited after it for the target to work off a step's backlog. */
  settledS: number;
}

export class ProcessCost {
  /**
   * Until a process has been timed: k6 compiles the entry in about a second on a quiet machine, and each
   * VU evaluates the suite's modules (the contract checks' bundle among them): 28 ms of CPU per VU measured
   * on 2 cores, 40 ms with the machine loaded. Guessed low, a first ramp sized for thousands of VUs spent
   * two of the budget's three minutes starting them.
   */
  private fixedS = 2;
  private perVuS = 0.03;
  private drainS = 3;

  learn(plan: CapacityPlan, t: ProcessTiming): void {
    const startupS = t.startupMs / 1000;
    const vus = plannedVus(plan);
    // A few VUs start within k6's fixed time and say nothing of one VU's cost: a pool of 14 once set it
    // near 0, and the next plan, of hundreds, overran the budget. Only a large pool teaches the per-VU cost.
    if (vus >= LARGE_POOL) this.perVuS = Math.max(0.005, (startupS - this.fixedS / 2) / vus);
    else this.fixedS = Math.max(0.5, startupS);
    // The next process cannot start before the target has settled: that wait is part of a process's cost.
    this.drainS = Math.max(1, t.wallMs / 1000 - startupS - t.ranS + t.settledS);
  }

  /** Seconds a plan would take, with a tenth to spare. */
  of(plan: CapacityPlan): number {
    return (this.fixedS + this.perVuS * plannedVus(plan) + this.drainS + planSeconds(plan)) * 1.1;
  }
}
