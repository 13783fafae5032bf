/**
 * Drives a capacity search: discovery once, then whatever load/capacity/search.ts asks for next (the
 * coarse ramp, bisection steps, the confirmation), each as a k6 process (process.ts), until the
 * search is over or the budget would be exceeded. Every step is printed as it ends, with where the search
 * stands; while a process runs, a progress line says which step is on and how much of the budget is used.
 */
import { ProcessCost } from '../cost.ts';
import type { StepFigures } from '../figures.ts';
import { describeBreak } from '../gates.ts';
import { type CapacityPlan, plannedVus } from '../plan.ts';
import { bracket, nextRun, type SearchEnd, type SearchSettings } from '../search.ts';
import { discoverOnce, runPlan, type SearchProcesses, type StepLabel } from './process.ts';
import { idleLatency, searchProbe, settle } from './settle.ts';

export interface SearchOutcome {
  steps: StepFigures[];
  /** How it ended (a capacity found, none, or incomplete), and why. */
  end: SearchEnd;
  ended: string;
  wallMs: number;
}

/** The longest wait for a target to work off a step's backlog: past it, the next step says what is left. */
const SETTLE_MAX_S = 20;

const clockText = (ms: number) => {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

const rateText = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));

function describePlan(purpose: string, plan: CapacityPlan, first: number): string {
  const s = plan.steps;
  const each = `${s[0]!.warmupS}s warm-up + ${s[0]!.steadyS}s steady`;
  if (s.length === 1) return `step ${first} (${purpose}) at ${rateText(s[0]!.rate)} lifecycles/s, ${each}`;
  return `steps ${first}–${first + s.length - 1} (${purpose}): ${s.map((x) => rateText(x.rate)).join(' → ')} lifecycles/s, ${each} each, stopped at the first break`;
}

function describeStep(s: StepFigures): string {
  const verdict = s.held ? 'held every gate' : `broke ${s.broke ? describeBreak(s.broke) : 'a gate'}`;
  return `step ${s.index} (${s.purpose}) ${rateText(s.rate)}/s: ${rateText(s.requestsPerS)} requests/s, ${verdict}`;
}

function where(steps: readonly StepFigures[]): string {
  const { held, broke } = bracket(steps);
  if (held && broke) return `knee between ${rateText(held.rate)} and ${rateText(broke.rate)}/s`;
  if (held) return `held up to ${rateText(held.rate)}/s so far`;
  if (broke) return `broke already at ${rateText(broke.rate)}/s`;
  return 'nothing run yet';
}

/** A line rewritten every second on a terminal: which process runs and how much of the budget is gone. */
function progressLine(started: number, budgetS: number, what: string): () => void {
  if (!process.stderr.isTTY) return () => undefined;
  const draw = () => {
    const used = Date.now() - started;
    const share = Math.min(1, used / (budgetS * 1000));
    const bar = '#'.repeat(Math.round(share * 20)).padEnd(20, '.');
    process.stderr.write(`\r[${bar}] ${clockText(used)} of ${clockText(budgetS * 1000)} · ${what}`.slice(0, 160));
  };
  draw();
  const timer = setInterval(draw, 1000);
  return () => {
    clearInterval(timer);
    process.stderr.write('\r\x1b[K');
  };
}

/**
 * The lifecycle length the next plans size their VU pools with: what the last step that held measured,
 * half as long again (its aborted lifecycles are not in the figure, and a step nearer the knee is slower),
 * never below the default. Too few VUs make k6 initialise more mid-step, a burst of the generator's CPU
 * while it measures, which costs more than the seconds a larger pool takes to start.
 */
function learntLifecycleS(steps: readonly StepFigures[], floor: number): number {
  const measured = [...steps].reverse().find((x) => x.held && x.lifecycleS !== null)?.lifecycleS;
  return measured ? Math.min(10, Math.max(floor, measured * 1.5)) : floor;
}

export async function searchCapacity(p: SearchProcesses, given: SearchSettings): Promise<SearchOutcome> {
  const s = { ...given };
  const started = Date.now();
  const stopDiscovery = progressLine(started, s.budgetS, 'discovering what to drive');
  try {
    p.setupFile = await discoverOnce(p);
  } finally {
    stopDiscovery();
  }
  const probe = searchProbe(p.baseUrl, p.apiKey, (finding) => p.log(`  contract: ${finding}`));
  const idleMs = await idleLatency(probe);
  const steps: StepFigures[] = [];
  const cost = new ProcessCost();
  for (;;) {
    const leftS = s.budgetS - (Date.now() - started) / 1000;
    const next = nextRun(s, steps, { leftS, costS: (plan) => cost.of(plan) });
    if (next.kind === 'done') return { steps, end: next.end, ended: next.why, wallMs: Date.now() - started };
    const labels: StepLabel[] = next.plan.steps.map((_, i) => ({ index: steps.length + i + 1, purpose: next.purpose }));
    const what = describePlan(next.purpose, next.plan, labels[0]!.index);
    p.log(`→ ${what}`);
    const stop = progressLine(started, s.budgetS, what);
    let outcome: Awaited<ReturnType<typeof runPlan>>;
    try {
      outcome = await runPlan(p, next.plan, labels);
    } finally {
      stop();
    }
    p.log(
      `  (the process took ${(outcome.wallMs / 1000).toFixed(1)}s; k6 started its ${plannedVus(next.plan)} VUs in ${(outcome.startupMs / 1000).toFixed(1)}s)`,
    );
    for (const step of outcome.steps) p.log(`  ${describeStep(step)}`);
    if (outcome.steps.length === 0)
      return { steps, end: 'incomplete', ended: 'a process reached none of its steps', wallMs: Date.now() - started };
    steps.push(...outcome.steps);
    s.lifecycleS = learntLifecycleS(steps, given.lifecycleS);
    let settledS = 0;
    if (outcome.steps.some((x) => !x.held)) {
      settledS = await settle(probe, idleMs, SETTLE_MAX_S);
      if (settledS >= 1) p.log(`  the target worked off the step's backlog in ${settledS.toFixed(1)}s`);
    }
    const ranS = outcome.steps.reduce((n, x) => n + x.warmupS + x.steadyS, 0);
    cost.learn(next.plan, { startupMs: outcome.startupMs, wallMs: outcome.wallMs, ranS, settledS });
    p.log(`  ${where(steps)} · ${clockText(Date.now() - started)} of ${clockText(s.budgetS * 1000)} used`);
  }
}
