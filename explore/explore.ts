/**
 * The generative mode: for each operation, fast-check properties over the inputs the contract allows and,
 * separately, those it forbids, each answer judged by the contract checks the suites use (judge.ts).
 *
 * - Each distinct failure is shrunk to a minimal request and reported once: a failure whose shape holds
 *   the shape of a finding already made (same operation and clause) counts as that finding, so the
 *   next round of the property looks for another one.
 * - Stateful where the contract links operations: files uploaded become file-variable values of runs,
 *   executions started become the ids status, output and abort are asked about.
 * - Bounded: a request budget per property, a share of the time budget per operation, caps on the
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
import { scopeSeed } from '../foundation/data/seeded.ts';
import { redactSecrets, registerSecret } from '../foundation/environment/redact.ts';
import { ENV } from '../foundation/environment/rules.ts';
import type { Exchange } from '../engine/live/transport/exchange.ts';
import { dataOf, type SearchItem, type WorkflowPlan } from '../engine/live/judging/judging.ts';
import { mayBe } from '../engine/live/discovery/roles.ts';
import { arbitrariesFor } from './arbitraries.ts';
import { addFinding } from './findings.ts';
import { prepare, type Prepared } from './inputs.ts';
import type { Judgement } from './judge.ts';
import type { ExploreInput, KnownCanvas } from './model.ts';
import {
  exitCodeOf,
  deviationsOf,
  type ExploreReport,
  type OperationSummary,
  type PropertyKind,
  type PropertySummary,
  type StopReason,
} from './report.ts';
import { probe, Session, type ExploreOptions, type ExploreTarget, type Judged, type PropertyRun } from './session.ts';
import { analyseSlow, isSlowAnswer, sweepRuns } from './slowness.ts';
import { timeOf } from './timings.ts';

export type { ExploreOptions, ExploreTarget } from './session.ts';

/** The order operations are explored in: uploads before the runs that use them, runs before the reads of their executions. */
export const EXPLORE_ORDER: readonly OperationId[] = [
  'uploadFiles',
  'searchWorkflows',
  'getWorkflowDetail',
  'runWorkflow',
  'getExecutionStatus',
  'getExecutionOutput',
  'abortExecution',
  'generateWorkflow',
];

export interface ExploreResult {
  report: ExploreReport;
  /** Reproducer bodies too long to inline, by their path under the output folder. */
  bodies: Map<string, string>;
}

const SHARE_ALLOWED = 0.75;
/** Of an operation's time, what its runs of one character may take before the properties start. */
const SHARE_RUNS = 0.3;
/** Requests a property keeps for shrinking when it starts a round. */
const SHRINK_RESERVE = 0.3;
const MAX_ROUNDS = 12;
/** Details read to find canvases to run and to ask about. */
const MAX_DETAILS = 10;
/** Time kept for aborting the executions the exploration started. */
const CLEANUP_RESERVE_MS = 2_000;
const SETUP_PROMPT = 'Summarise the weekly sales report';

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

/** The allowed inputs' summary with the runs of one character added: their requests and the families they tried. */
function withRuns(allowed: PropertySummary, runs: PropertySummary): void {
  allowed.requests += runs.requests;
  allowed.inputs += runs.requests;
  for (const [param, families] of Object.entries(runs.tried)) {
    const into = allowed.tried[param] ?? {};
    allowed.tried[param] = into;
    for (const [family, n] of Object.entries(families)) into[family] = (into[family] ?? 0) + n;
  }
}

// ---- setup: what there is to run and to ask about ----------------------------------------------------------

function fillable(plan: WorkflowPlan | undefined, withFiles: boolean): boolean {
  if (!plan || !Array.isArray(plan.tasks)) return false;
  return (plan.variables ?? []).every((v) => !v.required || v.variableType !== 'resource' || withFiles);
}

function hasFileVariable(plan: WorkflowPlan | undefined): boolean {
  return (plan?.variables ?? []).some((v) => v.variableType === 'resource');
}

/**
 * What the discovery role rules make of a canvas from its plan's title (explore runs nothing to see
 * its behaviour): one that may be disabled, long-running or failing ranks after the plain ones, a
 * possibly disabled one last.
 */
const SUSPECT_ORDER = ['failing', 'long-running', 'disabled'] as const;
const suspicion = (c: KnownCanvas) =>
  SUSPECT_ORDER.reduce((n, b, i) => n + (mayBe({ title: c.plan?.title ?? '', plan: c.plan }, b) ? 1 << i : 0), 0);

const simplest = (a: KnownCanvas, b: KnownCanvas) =>
  suspicion(a) - suspicion(b) ||
  (a.plan?.tasks.length ?? 99) - (b.plan?.tasks.length ?? 99) ||
  (a.plan?.variables?.length ?? 0) - (b.plan?.variables?.length ?? 0);

async function readCanvases(s: Session): Promise<void> {
  const listed = dataOf<SearchItem[]>(
    await s.send({ method: 'GET', path: '/openapi/workflows', query: { pageSize: 50 } }, 'setup'),
  );
  const ids = [...(s.options.canvasIds ?? [])];
  for (const item of Array.isArray(listed) ? listed : [])
    if (typeof item?.canvasId === 'string' && !ids.includes(item.canvasId)) ids.push(item.canvasId);
  for (const canvasId of ids.slice(0, MAX_DETAILS)) {
    const plan = dataOf<WorkflowPlan>(
      await s.send({ method: 'GET', path: `/openapi/workflows/${encodeURIComponent(canvasId)}` }, 'setup'),
    );
    if (plan && typeof plan === 'object' && Array.isArray(plan.tasks)) s.world.canvases.push({ canvasId, plan });
  }
  s.setupNotes.push(`read ${s.world.canvases.length} canvas detail(s) of ${ids.length} listed or configured`);
}

/** Sends a setup input through the same preparation as explored ones (references, declared variables). */
async function setupSend(s: Session, input: ExploreInput): Promise<Exchange> {
  const p = prepare(input, s.world);
  const ex = await s.send(p.spec, 'setup');
  s.account(p, ex);
  return ex;
}

const PLAIN_RUN = (canvas: 'plain' | 'files'): ExploreInput => ({
  op: 'runWorkflow',
  family: 'setup',
  canvas: { $canvas: canvas },
  body: { form: 'json', variables: { $object: [] }, legacy: [] },
  fill: { text: 'wfcheck', option: 0, fileKeys: [{ $fileKey: 0 }], asArray: false },
});

async function buildWorld(s: Session, ops: readonly OperationId[]): Promise<void> {
  const runs = ops.some((o) =>
    ['runWorkflow', 'getExecutionStatus', 'getExecutionOutput', 'abortExecution'].includes(o),
  );
  if (runs || ops.includes('getWorkflowDetail')) await readCanvases(s);
  const sorted = [...s.world.canvases].sort(simplest);
  const files = sorted.find((c) => hasFileVariable(c.plan) && fillable(c.plan, true));
  if (ops.includes('runWorkflow') && files) {
    const ex = await setupSend(s, {
      op: 'uploadFiles',
      family: 'setup',
      body: { form: 'files', files: [{ name: 'wfcheck-explore.txt', type: 'text/plain', size: 32, fill: 7 }] },
    });
    if (s.world.fileKeys.length) s.world.files = files;
    else s.setupNotes.push(`no file uploaded (${ex.status ?? ex.fault?.kind}): runs carry no fileKey`);
  }
  // The runnable canvas is the simplest one that starts an execution; trying costs one execution each.
  for (const c of sorted.filter((x) => fillable(x.plan, false)).slice(0, runs ? 3 : 1)) {
    s.world.plain = c;
    if (!runs) break;
    const ex = await setupSend(s, PLAIN_RUN('plain'));
    if (ex.status !== undefined && ex.status >= 200 && ex.status < 300) break;
    s.world.plain = undefined;
  }
  s.setupNotes.push(
    `runnable canvas: ${s.world.plain?.canvasId ?? 'none'}; canvas with a file variable: ${s.world.files?.canvasId ?? 'none'}`,
  );
  if (ops.includes('generateWorkflow') && s.options.allowOverwrite) {
    if (s.options.overwriteCanvasId) s.world.overwrite = s.options.overwriteCanvasId;
    else {
      const ex = await setupSend(s, {
        op: 'generateWorkflow',
        family: 'setup',
        body: { form: 'json', query: SETUP_PROMPT, create: true },
      });
      const id = dataOf<{ canvasId?: unknown }>(ex)?.canvasId;
      if (typeof id === 'string') s.world.overwrite = id;
    }
    s.setupNotes.push(`generate overwrites ${s.world.overwrite ?? 'nothing (no canvas to overwrite)'}`);
  } else if (ops.includes('generateWorkflow'))
    s.setupNotes.push('overwriting is not allowed: every generation creates a canvas (capped)');
}

/** Executions the exploration started are aborted: nothing it started keeps running (or costing) after it. */
async function cleanup(s: Session): Promise<void> {
  for (const id of s.world.executions)
    await s.send({ method: 'POST', path: `/openapi/workflow/${encodeURIComponent(id)}/abort` }, 'cleanup');
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
  sum.inputs++;
  if (outcome.kind === 'inconclusive') {
    sum.inconclusive[outcome.reason] = (sum.inconclusive[outcome.reason] ?? 0) + 1;
    return true;
  }
  if (outcome.kind === 'pass') {
    sum.passed++;
    if (outcome.observed) {
      const o = sum.observed[outcome.observed.clause] ?? { count: 0, statuses: [] };
      sum.observed[outcome.observed.clause] = o;
      o.count++;
      if (!o.statuses.includes(outcome.observed.status)) o.statuses.push(outcome.observed.status);
    }
    return true;
  }
  sum.failed++;
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

/** Explores one operation, its allowed inputs then its forbidden ones, within `share` ms from `opStart`. */
async function exploreOperation(
  s: Session,
  op: OperationId,
  opStart: number,
  share: number,
): Promise<OperationSummary> {
  const arbs = arbitrariesFor(op, s.world);
  const allowedRequests = Math.ceil(s.options.requestsPerOperation * SHARE_ALLOWED);
  const allowed = emptySummary('allowed');
  const forbidden = emptySummary('forbidden');
  // Long runs of one character first, in every string parameter (slowness.ts): their requests count apart.
  const runs = emptySummary('allowed');
  await sweepRuns(s, op, runs, opStart + share * SHARE_RUNS);
  await exploreProperty(
    s,
    {
      op,
      kind: 'allowed',
      arbitrary: arbs.allowed,
      requests: allowedRequests,
      deadline: opStart + share * SHARE_ALLOWED,
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
      deadline: opStart + share,
    },
    forbidden,
  );
  withRuns(allowed, runs);
  const summary: OperationSummary = {
    operation: op,
    wallMs: Date.now() - opStart,
    allowed,
    forbidden,
    findings: s.findings.filter((f) => f.operation === op).length,
  };
  s.log(
    `${op}: ${allowed.inputs} allowed and ${forbidden.inputs} forbidden inputs, ${summary.findings} finding(s), ` +
      `${(summary.wallMs / 1000).toFixed(1)} s`,
  );
  return summary;
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
      const share = Math.max(0, (deadline - CLEANUP_RESERVE_MS - opStart) / (ops.length - i));
      const summary = await exploreOperation(s, op, opStart, share);
      summaries.push(summary);
      for (const p of [summary.allowed, summary.forbidden]) incomplete.push(...shortfallsOf(op, p));
      if (s.unreachable) break;
    }
    await cleanup(s);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  if (s.unreachable) incomplete.unshift(`the target could not be reached: ${s.unreachable}`);
  for (const op of ops)
    if (!summaries.some((o) => o.operation === op)) incomplete.push(`${op}: not explored (the exploration stopped)`);
  return { report: reportOf(s, startedAt, summaries, incomplete), bodies: s.bodies };
}
