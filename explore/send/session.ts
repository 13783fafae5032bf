/**
 * One exploration's state: the contract-checked client every request goes through, the core's verdict
 * on each answer, what the exploration holds (the world references resolve to), its footprint on the
 * target and its findings; and `probe`, which sends one prepared input and judges its answer.
 */
import { join } from 'node:path';
import type fc from 'fast-check';
import type { OperationId } from '../../contracts/check.ts';
import { loadRunConfig } from '../../core/settings/run-config.ts';
import { ENV } from '../../core/settings/rules.ts';
import { ApiClient } from '../../core/client/client.ts';
import type { Exchange, RequestSpec } from '../../core/transport/exchange.ts';
import { retryAfterMs } from '../../core/transport/rate-limit.ts';
import { INPUT_NOT_SLOW } from '../../core/judging/latency.ts';
import { dataOf } from '../../core/judging/answers.ts';
import { EvidenceInMemory } from '../../core/evidence/records.ts';
import { Verdict } from '../../core/evidence/verdict.ts';
import { shapeHolds, triedOf } from '../generate/classes.ts';
import { shapeOf, type Prepared } from '../generate/inputs.ts';
import { judgeAnswer, type Judgement, type Judges } from '../judge/judge.ts';
import type { ExploreInput, World } from '../generate/model.ts';
import type { ExploreFinding, Footprint, PropertyKind, PropertySummary } from '../report/explore-report.ts';
import { timeOf, Timings } from './timings.ts';

export interface ExploreTarget {
  /** Ends in /v1. */
  baseUrl: string;
  apiKey: string;
  apiKeyB?: string;
  kind: 'reference' | 'external';
  how: string;
}

export interface ExploreOptions {
  seed: number;
  seedGiven?: boolean;
  /** Seconds for the whole exploration, setup and cleanup included. */
  budgetS: number;
  /** Requests per operation (three quarters for allowed inputs, the rest for forbidden ones). */
  requestsPerOperation: number;
  /** Operations to explore (default: all), in any order. */
  operations?: readonly OperationId[];
  maxExecutions: number;
  maxCanvasesCreated: number;
  /** Generate may overwrite a canvas: the configured one, else one it creates for the purpose. */
  allowOverwrite: boolean;
  overwriteCanvasId?: string;
  /** Canvases to read before those search lists. */
  canvasIds?: readonly string[];
  requestTimeoutMs?: number;
  log?: (line: string) => void;
}

/**
 * Canvases the sweep of runs may create at a site whose request creates one (generate, where overwriting is
 * not allowed): a footprint of its own beside the properties', reported with it.
 */
export const SWEEP_CANVASES = 12;

/**
 * Executions and canvases the inputs sent every run (battery.ts) may leave, beside the properties' caps and
 * within the user's: odd values reach a workflow's variable handling only in a run it starts.
 */
export const BATTERY_EXECUTIONS = 24;
export const BATTERY_CANVASES = 6;

/** References the exploration keeps: at most this many executions and fileKeys. */
const POOL = 50;

export interface Judged {
  input: ExploreInput;
  prepared: Prepared;
  exchange: Exchange;
  outcome: Extract<Judgement, { kind: 'fail' }>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * How long the target may take to answer an ordinary request again after one was given up at the deadline,
 * before the exploration stops: a server still busy with the request it was left with (a regex growing with
 * the cube of its input runs on after the client goes) answers every later input late, and each would read as
 * a slowness of its own.
 */
const RECOVERY_MS = 20_000;
const RECOVERY_POLL_MS = 500;

export class Session {
  readonly api: ApiClient;
  /** The core's verdict on every answer, kept in memory and read back by exchange (judge.ts). */
  readonly judges: Judges;
  readonly world: World;
  readonly footprint: Footprint = {
    executionsStarted: 0,
    canvasesCreated: 0,
    canvasOverwrites: 0,
    filesUploaded: 0,
    requests: { explore: 0, setup: 0, cleanup: 0 },
  };
  readonly findings: ExploreFinding[] = [];
  readonly bodies = new Map<string, string>();
  readonly setupNotes: string[] = [];
  unreachable?: string;
  /** How long each operation ordinarily answers on this target, measured as the run goes (slowness.ts). */
  readonly timings = new Timings();
  /**
   * Time spent narrowing down answers found slow (slowness.ts): a class of input found slow costs its waits,
   * not the time the operation's other inputs are explored in (within the run's budget).
   */
  slowWaitMs = 0;
  private inSlow = false;
  private quietUntil = 0;
  /** An exploring request was given up at the deadline: the target may still be working on it. */
  private mayBeBusy = false;

  constructor(
    readonly target: ExploreTarget,
    readonly options: ExploreOptions,
    workDir: string,
  ) {
    const config = loadRunConfig({
      [ENV.baseUrl]: target.baseUrl,
      [ENV.apiKey]: target.apiKey,
      ...(target.apiKeyB ? { [ENV.apiKeyB]: target.apiKeyB } : {}),
      [ENV.seed]: String(options.seed),
      [ENV.evidenceDir]: join(workDir, 'evidence'),
      [ENV.cacheDir]: 'off',
      ...(options.requestTimeoutMs ? { [ENV.requestTimeoutMs]: String(options.requestTimeoutMs) } : {}),
    });
    const records = new EvidenceInMemory();
    const verdict = Verdict.detached(records);
    this.judges = { verdict, records };
    this.api = new ApiClient({ config, caller: { name: 'A', apiKey: target.apiKey }, writer: records, verdict });
    const keys = [target.apiKey, ...(target.apiKeyB ? [target.apiKeyB] : [])];
    this.world = { canvases: [], fileKeys: [], executions: [], keys };
  }

  log(line: string): void {
    this.options.log?.(line);
  }

  /**
   * One request through the contract-checked client, after any quiet time a 429 asked for, and, once a
   * request was given up at the deadline, only when the target answers an ordinary request in time again.
   */
  async send(spec: RequestSpec, phase: keyof Footprint['requests']): Promise<Exchange> {
    const wait = this.quietUntil - Date.now();
    if (wait > 0) await sleep(wait);
    if (this.mayBeBusy && phase === 'explore') await this.recovered();
    return this.sendNow(spec, phase);
  }

  private async sendNow(spec: RequestSpec, phase: keyof Footprint['requests']): Promise<Exchange> {
    this.footprint.requests[phase]++;
    // Each input is judged on its own: a hang or a reset on one class of input says nothing of the others.
    const ex = await this.api.send({ ...spec, allowFault: true, rememberFault: false });
    this.timings.record(ex);
    // Setup and cleanup answers are judged as every answer is, but no judgement reads them back.
    if (phase !== 'explore') this.judges.records.take(ex.record.id);
    // The client waited out a few 429s already; one still standing quiets the exploration as long as asked.
    if (ex.status === 429) this.quietUntil = Date.now() + (retryAfterMs(ex.headers['retry-after']) ?? 5_000);
    if (ex.fault?.kind === 'connection-refused')
      this.unreachable = `the target could not be reached: ${ex.fault.message}`;
    if (phase === 'explore' && timeOf(ex, this.deadlineMs)?.abandoned) this.mayBeBusy = true;
    return ex;
  }

  /**
   * Waits until a cheap search is answered in about its ordinary time (RECOVERY_MS at most); a target that
   * does not recover stops the exploration, named as the cause: what it would answer now says nothing of
   * the input sent.
   */
  private async recovered(): Promise<void> {
    this.mayBeBusy = false;
    const until = Date.now() + RECOVERY_MS;
    const ordinary = this.timings.ordinaryMs('searchWorkflows') ?? 0;
    const other = this.target.apiKeyB;
    for (;;) {
      const ex = await this.sendNow(
        {
          method: 'GET',
          path: '/openapi/workflows?pageSize=1',
          ...(other ? { auth: { kind: 'literal', value: `Bearer ${other}` } } : {}),
          label: 'explore: is the target answering in time again?',
          timeoutMs: Math.max(1_000, until - Date.now()),
        },
        'setup',
      );
      const t = timeOf(ex, this.deadlineMs);
      if (t && !t.abandoned && t.ms <= Math.max(1_000, 10 * ordinary)) return;
      if (Date.now() >= until) break;
      await sleep(RECOVERY_POLL_MS);
    }
    this.unreachable =
      `the target stopped answering in time: ${RECOVERY_MS / 1000} s after a request was given up at the ` +
      'deadline, an ordinary search still got no answer in time (a request it is still working on holds it)';
  }

  /** What a served request left on the target, and what it adds to the references. */
  account(p: Prepared, ex: Exchange): void {
    if (ex.fault || ex.status === undefined || ex.status < 200 || ex.status > 299) return;
    const data = dataOf<Record<string, unknown>>(ex);
    if (this.batteryAllowance && (p.writes === 'execution' || p.writes === 'canvas')) this.batteryUsed[p.writes]++;
    if (p.writes === 'execution') {
      this.footprint.executionsStarted++;
      const id = data?.executionId;
      if (typeof id === 'string' && this.world.executions.length < POOL) this.world.executions.push(id);
    } else if (p.writes === 'canvas') this.footprint.canvasesCreated++;
    else if (p.writes === 'overwrite') this.footprint.canvasOverwrites++;
    else if (ex.operation === 'uploadFiles' && Array.isArray(data?.files)) {
      for (const f of data.files as { fileKey?: unknown }[]) {
        this.footprint.filesUploaded++;
        if (typeof f?.fileKey === 'string' && this.world.fileKeys.length < POOL) this.world.fileKeys.push(f.fileKey);
      }
    }
  }

  /**
   * Whether the footprint leaves room for this request. Forbidden inputs keep a small reserve of their own;
   * of the rest, looking for a failure may use half, and narrowing a failure down the other half: every
   * simpler input that no longer fails is accepted, and so writes.
   */
  room(p: Prepared, kind: PropertyKind, shrinking: boolean): boolean {
    if (!p.mayWrite) return true;
    // The sweep of runs at a site that creates a canvas has a footprint of its own (slowness.ts), and so do
    // the inputs sent every run.
    if (this.sweepCanvasesLeft !== undefined && p.writes === 'canvas') return this.sweepCanvasesLeft-- > 0;
    // The battery's allowance counts what was left (a refused request leaves nothing): it is sent one at a time.
    if (this.batteryAllowance && (p.writes === 'execution' || p.writes === 'canvas'))
      return this.batteryUsed[p.writes] < this.batteryAllowance[p.writes];
    const [used, max] =
      p.writes === 'execution'
        ? [this.footprint.executionsStarted - this.batteryUsed.execution, this.options.maxExecutions]
        : [this.footprint.canvasesCreated - this.batteryUsed.canvas, this.options.maxCanvasesCreated];
    const allowed = max - Math.min(5, Math.floor(max / 4));
    if (kind === 'forbidden') return used < max;
    return used < (shrinking ? allowed : Math.ceil(allowed / 2));
  }

  /** Canvases the sweep of runs may still create, while it sweeps a site that creates them. */
  private sweepCanvasesLeft: number | undefined;

  /** What the inputs sent every run may leave, while they are sent; and what they left (the whole run). */
  private batteryAllowance: { execution: number; canvas: number } | undefined;
  readonly batteryUsed = { execution: 0, canvas: 0 };

  /**
   * Runs `narrow` outside the battery's allowance: a failure it met is narrowed down (confirmed, simplified,
   * its class probed) on the properties' share for narrowing, as theirs are.
   */
  async narrowing<T>(narrow: () => Promise<T>): Promise<T> {
    const allowance = this.batteryAllowance;
    this.batteryAllowance = undefined;
    try {
      return await narrow();
    } finally {
      this.batteryAllowance = allowance;
    }
  }

  /** Runs `send` with the battery's own allowance (within the user's caps), which it may use up. */
  async battery<T>(send: () => Promise<T>): Promise<T> {
    this.batteryAllowance = {
      execution: Math.min(BATTERY_EXECUTIONS, this.options.maxExecutions),
      canvas: Math.min(BATTERY_CANVASES, this.options.maxCanvasesCreated),
    };
    try {
      return await send();
    } finally {
      this.batteryAllowance = undefined;
    }
  }

  /** Runs `sweep` with the sweep's own allowance of canvases (SWEEP_CANVASES), which it may use up. */
  async sweeping<T>(sweep: () => Promise<T>): Promise<T> {
    this.sweepCanvasesLeft = SWEEP_CANVASES;
    try {
      return await sweep();
    } finally {
      this.sweepCanvasesLeft = undefined;
    }
  }

  /** Runs an analysis of a slow answer, its time counted in slowWaitMs (once, however the analyses nest). */
  async slowly<T>(analyse: () => Promise<T>): Promise<T> {
    if (this.inSlow) return analyse();
    this.inSlow = true;
    const started = Date.now();
    try {
      return await analyse();
    } finally {
      this.inSlow = false;
      this.slowWaitMs += Date.now() - started;
    }
  }

  /** The request deadline every exploring request is sent under. */
  get deadlineMs(): number {
    return this.api.config.requestTimeoutMs;
  }

  /** A slow finding of the operation whose class this request holds: sending it again would only wait again. */
  knownSlow(op: OperationId, features: readonly string[]): ExploreFinding | undefined {
    return this.knownAs(op, INPUT_NOT_SLOW, features);
  }

  /** The finding a failure belongs to: same operation and clause, its minimal shape found in this input's shape. */
  knownAs(op: OperationId, clause: string, features: readonly string[]): ExploreFinding | undefined {
    const have = new Set(shapeOf(features));
    return this.findings.find((f) => f.operation === op && f.clause === clause && shapeHolds(have, f.shape));
  }
}

export interface PropertyRun {
  op: OperationId;
  kind: PropertyKind;
  arbitrary: fc.Arbitrary<ExploreInput>;
  requests: number;
  deadline: number;
}

/** Counts a judged input in its summary: passed (and what it observed), failed, or why it could not be judged. */
export function tally(sum: PropertySummary, outcome: Judgement): void {
  sum.inputs++;
  if (outcome.kind === 'inconclusive') {
    sum.inconclusive[outcome.reason] = (sum.inconclusive[outcome.reason] ?? 0) + 1;
    return;
  }
  if (outcome.kind === 'fail') {
    sum.failed++;
    return;
  }
  sum.passed++;
  if (!outcome.observed) return;
  const o = sum.observed[outcome.observed.clause] ?? { count: 0, statuses: [] };
  sum.observed[outcome.observed.clause] = o;
  o.count++;
  if (!o.statuses.includes(outcome.observed.status)) o.statuses.push(outcome.observed.status);
}

/** Sends and judges one prepared input. */
export async function probe(s: Session, input: ExploreInput, prepared: Prepared, sum: PropertySummary) {
  sum.requests++;
  triedOf(prepared.features, sum.tried);
  const exchange = await s.send(prepared.spec, 'explore');
  s.account(prepared, exchange);
  const outcome = judgeAnswer(s.judges, input, prepared, exchange);
  return { prepared, exchange, outcome };
}
