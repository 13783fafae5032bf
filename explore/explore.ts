/**
 * The generative mode: for each operation, fast-check properties over the inputs the contract allows and,
 * separately, those it forbids, each answer judged by the contract checks the suites use (judge.ts).
 *
 * - Each distinct failure is shrunk to a minimal request and reported once: a failure whose shape holds
 *   the shape of a finding already made (same operation and clause) counts as that finding, so the
 *   next round of the property looks for another one.
 * - Before them, the inputs sent every run (battery.ts): the widths and sites real servers broke at, which a
 *   sample reaches on some nights only, each failure narrowed and reported as the properties' are.
 * - Stateful where the contract links operations: files uploaded become file-variable values of runs,
 *   executions started become the ids status, output and abort are asked about.
 * - Bounded: a request budget per property, a share of the time budget per operation (a property may go on
 *   past it while the operations after it keep their reserve), caps on the
 *   executions started and canvases created (the footprint, reported), generate overwriting only the
 *   canvas it is allowed to; 429 answers are waited out as Retry-After asks.
 * - Replayable: every property's seed is derived from the run seed and its name, and the fast-check path
 *   of each finding is reported.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { OperationId } from '../contracts/check.ts';
import { OPERATIONS } from '../contracts/generated/operations.ts';
import { scopeSeed } from '../core/data/seeded.ts';
import { redactSecrets, registerSecret } from '../core/settings/redact.ts';
import { ENV } from '../core/settings/rules.ts';
import type { Exchange } from '../core/transport/exchange.ts';
import { arbitrariesFor } from './generate/arbitraries.ts';
import { addFinding } from './send/findings.ts';
import { prepare, type Prepared } from './generate/inputs.ts';
import type { Judgement } from './judge/judge.ts';
import type { ExploreInput } from './generate/model.ts';
import {
  exitCodeOf,
  deviationsOf,
  type ExploreReport,
  type OperationSummary,
  type PropertyKind,
  type PropertySummary,
  type StopReason,
} from './report/explore-report.ts';
import {
  probe,
  Session,
  tally,
  type ExploreOptions,
  type ExploreTarget,
  type Judged,
  type PropertyRun,
} from './send/session.ts';
import { analyseSlow, isSlowAnswer, sweepRuns } from './send/slowness.ts';
import { timeOf } from './send/timings.ts';
import { sendBattery, type BatterySent } from './send/battery.ts';
import { buildWorld, cleanup } from './send/world.ts';

export type { ExploreOptions, ExploreTarget } from './send/session.ts';

/**
 * The order operations are explored in: uploads before the runs that use them, runs before the reads of
 * their executions. Keyed by operation, so that an operation added to openapi.yaml has its place here
 * before it compiles.
 */
const EXPLORED_IN_TURN = {
  uploadFiles: true,
  searchWorkflows: true,
  getWorkflowDetail: true,
  runWorkflow: true,
  getExecutionStatus: true,
  getExecutionOutput: true,
  abortExecution: true,
  generateWorkflow: true,
} as const satisfies Record<OperationId, true>;
export const EXPLORE_ORDER = Object.keys(EXPLORED_IN_TURN) as readonly OperationId[];

export interface ExploreResult {
  report: ExploreReport;
  /** Reproducer bodies too long to inline, by their path under the output folder. */
  bodies: Map<string, string>;
}

/**
 * Of an operation's time, by when the inputs sent every run are sent, then its runs of one character, then
 * its allowed inputs (the forbidden ones have the rest); each phase uses only what it needs, the rest goes on.
 */
const SHARE_BATTERY = 0.5;
const SHARE_RUNS = 0.65;
const SHARE_ALLOWED = 0.85;
/** Of an operation's requests, what its allowed inputs may send (the forbidden ones have the rest). */
const ALLOWED_REQUESTS = 0.75;
/** Requests a property keeps for shrinking when it starts a round. */
const SHRINK_RESERVE = 0.3;
const MAX_ROUNDS = 12;
/**
 * How much of the time left an operation is given beside the others: those that take a body (multipart
 * bodies of thousands of parts, runs that start executions, generations: openapi.yaml's `body`) weigh twice a read.
 */
const weightOf = (op: OperationId) => (OPERATIONS[op].body ? 2 : 1);

/** Time an operation still to explore keeps, per weight, from the properties of the ones before it. */
const RESERVE_PER_WEIGHT_MS = 3_000;

/** Time kept for aborting the executions the exploration started. */
const CLEANUP_RESERVE_MS = 2_000;

function emptySummary(kind: PropertyKind): PropertySummary {
  return {
    kind,
    requests: 0,
    inputs: 0,
    passed: 0,
    failed: 0,
    capped: 0,
    inconclusive: {},
    observed: {},
    rounds: 0,
    shrinks: 0,
    stop: 'not run',
    tried: {},
  };
}

/**
 * The allowed inputs' summary with the runs of one character, or the inputs sent every run, added: their
 * requests, what they judged (a run's length is timed, so each request is an input), the families they tried.
 */
function withApart(allowed: PropertySummary, apart: PropertySummary): void {
  allowed.requests += apart.requests;
  allowed.inputs += apart.inputs || apart.requests;
  allowed.passed += apart.passed;
  allowed.failed += apart.failed;
  allowed.capped += apart.capped;
  if (apart.knownSlow) allowed.knownSlow = (allowed.knownSlow ?? 0) + apart.knownSlow;
  for (const [reason, n] of Object.entries(apart.inconclusive))
    allowed.inconclusive[reason] = (allowed.inconclusive[reason] ?? 0) + n;
  for (const [clause, o] of Object.entries(apart.observed)) {
    const into = allowed.observed[clause] ?? { count: 0, statuses: [] };
    allowed.observed[clause] = into;
    into.count += o.count;
    for (const st of o.statuses) if (!into.statuses.includes(st)) into.statuses.push(st);
  }
  for (const [param, families] of Object.entries(apart.tried)) {
    const into = allowed.tried[param] ?? {};
    allowed.tried[param] = into;
    for (const [family, n] of Object.entries(families)) into[family] = (into[family] ?? 0) + n;
  }
}

/** Requests a property may still send, shared by its rounds and the predicate of each. */
interface Budget {
  left: number;
}

/** What one round of a property shares with its predicate. */
interface RoundState {
  /** Set when fc.check returns: a predicate still running then (cut by the time limit) changes nothing. */
  closed: boolean;
  /** Written by the predicate: the last failure it saw (the minimal one, once shrinking ends). */
  last?: Judged;
  /** An input was left unsent because the request or the time budget was spent. */
  budgetCut: boolean;
  /** Shrinking proposes some inputs more than once: an input already judged in this round is not sent again. */
  judged: Map<string, Judged | true>;
}

/** Why a property stops before its next round, if it does. */
function stopBeforeRound(s: Session, run: PropertyRun, budget: Budget): StopReason | undefined {
  if (s.unreachable) return 'target unreachable';
  if (budget.left <= 0) return 'request budget spent';
  if (Date.now() >= run.deadline) return 'time budget spent';
  return undefined;
}

/** One input, as sent and judged. */
interface Answer {
  input: ExploreInput;
  prepared: Prepared;
  exchange: Exchange;
  outcome: Judgement;
}

/** Whether the property holds for one judged input (recorded in the summary; a new failure is kept). */
function holdsFor(s: Session, sum: PropertySummary, state: RoundState, answer: Answer): boolean {
  const { input, prepared, exchange, outcome } = answer;
  tally(sum, outcome);
  if (outcome.kind !== 'fail') return true;
  if (s.knownAs(input.op, outcome.clause, prepared.features)) return true;
  state.last = { input, prepared, exchange, outcome };
  return false;
}

/** The property of one round: each input sent within the budget and the footprint caps, and judged. */
function roundProperty(s: Session, run: PropertyRun, sum: PropertySummary, budget: Budget, state: RoundState) {
  return fc.asyncProperty(run.arbitrary, async (input) => {
    if (state.closed) return true;
    const key = JSON.stringify(input);
    const seen = state.judged.get(key);
    if (seen === true) return true;
    if (seen) {
      state.last = seen;
      return false;
    }
    if (budget.left <= 0 || Date.now() >= run.deadline || s.unreachable) {
      state.budgetCut = true;
      fc.pre(false);
    }
    const prepared = prepare(input, s.world);
    if (!s.room(prepared, run.kind, state.last !== undefined)) {
      sum.capped++;
      fc.pre(false);
    }
    // A class of input found slow is not sent again: it would only cost its wait again.
    if (s.knownSlow(run.op, prepared.features)) {
      sum.knownSlow = (sum.knownSlow ?? 0) + 1;
      fc.pre(false);
    }
    budget.left--;
    const { exchange, outcome } = await probe(s, input, prepared, sum);
    if (state.closed) return true;
    if (isSlowAnswer(s, run.op, exchange)) {
      const t = timeOf(exchange, s.deadlineMs)!;
      await analyseSlow(s, run.op, run.kind, sum, { input, prepared, exchange, ...t });
    }
    const holds = holdsFor(s, sum, state, { input, prepared, exchange, outcome });
    state.judged.set(key, holds || state.last!);
    return holds;
  });
}

/** Why a property stops after a round that found no new failure; undefined when it found one. */
function stopAfterRound(details: fc.RunDetails<unknown>, state: RoundState, run: PropertyRun): StopReason | undefined {
  if (!details.failed) return details.interrupted ? 'time budget spent' : 'done';
  if (details.counterexample === null || details.counterexamplePath === null) {
    // Stopped before any failure: too many inputs left unsent (the footprint cap, or the budget).
    return state.budgetCut
      ? Date.now() >= run.deadline
        ? 'time budget spent'
        : 'request budget spent'
      : 'footprint cap reached';
  }
  return undefined;
}

/**
 * One property in rounds: each round runs until it meets a new failure, which is shrunk and reported;
 * the next round, with a seed of its own, looks for another, until the budget or the rounds run out.
 */
async function exploreProperty(s: Session, run: PropertyRun, sum: PropertySummary): Promise<void> {
  const budget: Budget = { left: run.requests };
  const reserve = Math.floor(run.requests * SHRINK_RESERVE);
  let stop: StopReason = 'done';
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const before = stopBeforeRound(s, run, budget);
    if (before) {
      stop = before;
      break;
    }
    const propertySeed = scopeSeed(s.options.seed, `${run.op}/${run.kind}/${round}`);
    const state: RoundState = { closed: false, budgetCut: false, judged: new Map() };
    const details = await fc.check(roundProperty(s, run, sum, budget, state), {
      seed: propertySeed,
      numRuns: Math.max(1, budget.left - reserve),
      maxSkipsPerRun: 1,
      plugins: [fc.interruptAfterTimeLimit(Math.max(1, run.deadline - Date.now()))],
    });
    state.closed = true;
    sum.rounds++;
    const after = stopAfterRound(details, state, run);
    if (after) {
      stop = after;
      break;
    }
    sum.shrinks += details.numShrinks;
    const minimal = (details.counterexample as [ExploreInput])[0];
    const last = state.last;
    const found = last && JSON.stringify(last.input) === JSON.stringify(minimal) ? last : undefined;
    await addFinding(s, run, sum, minimal, found, {
      propertySeed,
      path: details.counterexamplePath!,
      round,
      numRuns: details.numRuns,
      shrinks: details.numShrinks,
      shrinkComplete: !state.budgetCut && !details.interrupted,
    });
    budget.left = run.requests - sum.requests;
  }
  sum.stop = s.unreachable ? 'target unreachable' : stop;
}

// ---- the exploration -----------------------------------------------------------------------------------

/** When an operation is explored: from `start` for `share` ms, within the run's `end` less what the ones after it keep. */
interface Slot {
  start: number;
  share: number;
  end: number;
  /** Time kept for the operations still to explore after this one. */
  reserve: number;
}

/**
 * Explores one operation: the inputs sent every run and the runs of one character by their fractions of the
 * share (lengthened by the waits of answers found slow), then its allowed inputs and its forbidden ones, each
 * property until its requests are spent or the share's fraction, or later while the run keeps the reserve of
 * the operations after it: a busy machine or a slow target costs time, not coverage.
 */
async function exploreOperation(s: Session, op: OperationId, slot: Slot): Promise<OperationSummary> {
  const { start: opStart, share, end } = slot;
  const waitedBefore = s.slowWaitMs;
  const by = (fraction: number) => Math.min(end, opStart + share * fraction + s.slowWaitMs - waitedBefore);
  const atLeast = (fraction: number) => Math.min(end, Math.max(by(fraction), end - slot.reserve));
  const arbs = arbitrariesFor(op, s.world);
  const allowedRequests = Math.ceil(s.options.requestsPerOperation * ALLOWED_REQUESTS);
  const allowed = emptySummary('allowed');
  const forbidden = emptySummary('forbidden');
  // The inputs sent every run first, then long runs of one character in every string parameter (slowness.ts):
  // the requests of both count apart.
  const battery = emptySummary('allowed');
  const sent = await sendBattery(s, op, battery, by(SHARE_BATTERY), by(1));
  const runs = emptySummary('allowed');
  await sweepRuns(s, op, runs, by(SHARE_RUNS));
  await exploreProperty(
    s,
    {
      op,
      kind: 'allowed',
      arbitrary: arbs.allowed,
      requests: allowedRequests,
      // Read as the property goes: an answer found slow on the way lengthens it by its waits.
      get deadline() {
        return atLeast(SHARE_ALLOWED);
      },
    },
    allowed,
  );
  await exploreProperty(
    s,
    {
      op,
      kind: 'forbidden',
      arbitrary: arbs.forbidden,
      requests: s.options.requestsPerOperation - allowedRequests,
      get deadline() {
        return atLeast(1);
      },
    },
    forbidden,
  );
  withApart(allowed, runs);
  withApart(allowed, battery);
  const summary: OperationSummary = {
    operation: op,
    wallMs: Date.now() - opStart,
    allowed,
    forbidden,
    findings: s.findings.filter((f) => f.operation === op).length,
    battery: sent,
  };
  s.log(
    `${op}: ${allowed.inputs} allowed and ${forbidden.inputs} forbidden inputs, ${summary.findings} finding(s), ` +
      `${(summary.wallMs / 1000).toFixed(1)} s`,
  );
  return summary;
}

/** What the inputs sent every run left unsent for lack of time (the footprint's allowance is a setup note). */
function batteryShortfall(op: OperationId, b: BatterySent): string[] {
  const unsent = b.planned - b.sent - b.capped;
  return unsent > 0 ? [`${op}: time budget spent before ${unsent} of the ${b.planned} inputs sent every run`] : [];
}

/** What a property of `op` left unjudged: its time budget ran out, or most of its answers could not be judged. */
function shortfallsOf(op: OperationId, p: PropertySummary): string[] {
  const out: string[] = [];
  if (p.stop === 'time budget spent') out.push(`${op} (${p.kind}): time budget spent after ${p.inputs} inputs`);
  const unjudged = Object.values(p.inconclusive).reduce((a, b) => a + b, 0);
  if (p.inputs > 0 && unjudged * 2 > p.inputs)
    out.push(`${op} (${p.kind}): ${unjudged} of ${p.inputs} answers could not be judged`);
  return out;
}

function reportOf(s: Session, startedAt: Date, summaries: OperationSummary[], incomplete: string[]): ExploreReport {
  const { target, options } = s;
  return {
    kind: 'wfcheck-explore',
    version: 1,
    seed: options.seed,
    seedGiven: options.seedGiven ?? true,
    startedAt: startedAt.toISOString(),
    wallMs: Date.now() - startedAt.getTime(),
    target: { kind: target.kind, how: target.how, baseUrl: redactSecrets(target.baseUrl) },
    budget: {
      seconds: options.budgetS,
      requestsPerOperation: options.requestsPerOperation,
      maxExecutions: options.maxExecutions,
      maxCanvasesCreated: options.maxCanvasesCreated,
      allowOverwrite: options.allowOverwrite,
    },
    setup: s.setupNotes,
    operations: summaries,
    findings: s.findings,
    deviations: deviationsOf(s.findings),
    footprint: s.footprint,
    incomplete,
    exitCode: exitCodeOf(s.findings, incomplete),
  };
}

export async function explore(target: ExploreTarget, options: ExploreOptions): Promise<ExploreResult> {
  const startedAt = new Date();
  const deadline = startedAt.getTime() + options.budgetS * 1000;
  const ops = EXPLORE_ORDER.filter((o) => !options.operations?.length || options.operations.includes(o));
  // Keys are registered before anything is sent: every record and reproducer has them redacted.
  registerSecret(target.apiKey, ENV.apiKey);
  registerSecret(target.apiKeyB, ENV.apiKeyB);
  const workDir = mkdtempSync(join(tmpdir(), 'wfcheck-explore-'));
  const s = new Session(target, options, workDir);
  const summaries: OperationSummary[] = [];
  const incomplete: string[] = [];
  try {
    await buildWorld(s, ops);
    for (const [i, op] of ops.entries()) {
      const opStart = Date.now();
      // What is left of the time budget is shared by the operations still to explore.
      const end = deadline - CLEANUP_RESERVE_MS;
      const weights = ops.slice(i).reduce((n, o) => n + weightOf(o), 0);
      const share = Math.max(0, ((end - opStart) * weightOf(op)) / weights);
      const reserve = (weights - weightOf(op)) * RESERVE_PER_WEIGHT_MS;
      const summary = await exploreOperation(s, op, { start: opStart, share, end, reserve });
      summaries.push(summary);
      for (const p of [summary.allowed, summary.forbidden]) incomplete.push(...shortfallsOf(op, p));
      if (summary.battery) incomplete.push(...batteryShortfall(op, summary.battery));
      if (s.unreachable) break;
    }
    await cleanup(s);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  if (s.unreachable) incomplete.unshift(s.unreachable);
  for (const op of ops)
    if (!summaries.some((o) => o.operation === op)) incomplete.push(`${op}: not explored (the exploration stopped)`);
  return { report: reportOf(s, startedAt, summaries, incomplete), bodies: s.bodies };
}
