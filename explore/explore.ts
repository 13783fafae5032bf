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
import { hasRequirement } from '../contracts/requirements.ts';
import { scopeSeed } from '../foundation/data/seeded.ts';
import { loadRunConfig } from '../foundation/environment/config.ts';
import { redactSecrets, registerSecret } from '../foundation/environment/redact.ts';
import { ENV } from '../foundation/environment/rules.ts';
import { ApiClient } from '../engine/client/client.ts';
import type { Exchange, RequestSpec } from '../engine/transport/exchange.ts';
import { retryAfterMs } from '../engine/transport/rate-limit.ts';
import { dataOf, type SearchItem, type WorkflowPlan } from '../engine/judging/judging.ts';
import { EvidenceInMemory } from '../engine/evidence/records.ts';
import { curlFor, INLINE_BODY_LIMIT, type ReproBody } from '../engine/evidence/reproducer.ts';
import { Verdict } from '../engine/evidence/verdict.ts';
import { mayBe } from '../engine/discovery/roles.ts';
import { arbitrariesFor } from './arbitraries.ts';
import {
  prepare,
  shapeOf,
  showInput,
  type ExploreInput,
  type KnownCanvas,
  type Prepared,
  type World,
} from './inputs.ts';
import { judgeAnswer, type Judgement, type Judges } from './judge.ts';
import {
  exitCodeOf,
  fingerprintOf,
  deviationsOf,
  type ExploreFinding,
  type ExploreReport,
  type Footprint,
  type OperationSummary,
  type PropertyKind,
  type PropertySummary,
  type ShownExchange,
  type StopReason,
} from './report.ts';

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

export interface ExploreResult {
  report: ExploreReport;
  /** Reproducer bodies too long to inline, by their path under the output folder. */
  bodies: Map<string, string>;
}

const SHARE_ALLOWED = 0.75;
/** Requests a property keeps for shrinking when it starts a round. */
const SHRINK_RESERVE = 0.3;
const MAX_ROUNDS = 12;
/** Details read to find canvases to run and to ask about. */
const MAX_DETAILS = 10;
/** Time kept for aborting the executions the exploration started. */
const CLEANUP_RESERVE_MS = 2_000;
const POOL = 50;
const EXCERPT = 2_000;
const SETUP_PROMPT = 'Summarise the weekly sales report';

interface Judged {
  input: ExploreInput;
  prepared: Prepared;
  exchange: Exchange;
  outcome: Extract<Judgement, { kind: 'fail' }>;
}

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
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class Session {
  readonly api: ApiClient;
  /** The engine's verdict on every answer, kept in memory and read back by exchange (judge.ts). */
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
  private quietUntil = 0;

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

  /** One request through the contract-checked client, after any quiet time a 429 asked for. */
  async send(spec: RequestSpec, phase: keyof Footprint['requests']): Promise<Exchange> {
    const wait = this.quietUntil - Date.now();
    if (wait > 0) await sleep(wait);
    this.footprint.requests[phase]++;
    const ex = await this.api.send({ ...spec, allowFault: true });
    // Setup and cleanup answers are judged as every answer is, but no judgement reads them back.
    if (phase !== 'explore') this.judges.records.take(ex.record.id);
    // The client waited out a few 429s already; one still standing quiets the exploration as long as asked.
    if (ex.status === 429) this.quietUntil = Date.now() + (retryAfterMs(ex.headers['retry-after']) ?? 5_000);
    if (ex.fault?.kind === 'connection-refused') this.unreachable = ex.fault.message;
    return ex;
  }

  /** What a served request left on the target, and what it adds to the references. */
  account(p: Prepared, ex: Exchange): void {
    if (ex.fault || ex.status === undefined || ex.status < 200 || ex.status > 299) return;
    const data = dataOf<Record<string, unknown>>(ex);
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
    const [used, max] =
      p.writes === 'execution'
        ? [this.footprint.executionsStarted, this.options.maxExecutions]
        : [this.footprint.canvasesCreated, this.options.maxCanvasesCreated];
    const allowed = max - Math.min(5, Math.floor(max / 4));
    if (kind === 'forbidden') return used < max;
    return used < (shrinking ? allowed : Math.ceil(allowed / 2));
  }

  /** The finding a failure belongs to: same operation and clause, its minimal shape found in this input's shape. */
  knownAs(op: OperationId, clause: string, features: readonly string[]): ExploreFinding | undefined {
    const have = new Set(shapeOf(features));
    return this.findings.find((f) => f.operation === op && f.clause === clause && f.shape.every((s) => have.has(s)));
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

// ---- findings ---------------------------------------------------------------------------------------

function shownExchange(ex: Exchange): ShownExchange {
  const r = ex.record;
  return {
    request: {
      method: r.method,
      url: r.url,
      headers: r.request.headers,
      bodyExcerpt: r.request.bodyExcerpt,
      bodyBytes: r.request.bodyBytes,
    },
    ...(r.response
      ? {
          response: {
            status: r.response.status,
            contentType: r.response.headers['content-type'],
            bodyExcerpt: r.response.bodyExcerpt.slice(0, EXCERPT),
          },
        }
      : {}),
    ...(r.fault ? { fault: r.fault } : {}),
  };
}

/** The curl reproducer of a request as prepared, the key written `${API_KEY}`; long bodies go to a file. */
function reproducer(s: Session, p: Prepared, ex: Exchange, fingerprint: string): { curl: string; bodyFile?: string } {
  const headers: Record<string, string> = { accept: 'application/json' };
  const auth = p.spec.auth ?? { kind: 'tenant' };
  if (auth.kind === 'tenant') headers.authorization = `Bearer ${s.target.apiKey}`;
  if (auth.kind === 'literal') headers.authorization = auth.value;
  let body: ReproBody | undefined;
  let bodyFile: string | undefined;
  if (p.spec.raw) {
    const text =
      typeof p.spec.raw.body === 'string' ? p.spec.raw.body : Buffer.from(p.spec.raw.body).toString('latin1');
    if (p.spec.raw.contentType) headers['content-type'] = p.spec.raw.contentType;
    if (Buffer.byteLength(text) <= INLINE_BODY_LIMIT) body = { kind: 'text', text };
    else {
      bodyFile = `bodies/${fingerprint}.txt`;
      s.bodies.set(bodyFile, text);
      body = { kind: 'file', path: bodyFile };
    }
  } else if (p.spec.multipart) {
    headers['content-type'] = 'multipart/form-data';
    body = {
      kind: 'multipart',
      field: p.spec.multipart.field ?? 'files',
      files: p.spec.multipart.files.map((f) => ({ name: f.name, type: f.type, bytes: f.content.length })),
    };
  }
  const url = ex.record.url;
  return {
    curl: curlFor({ method: p.spec.method, url, headers, body }, s.target.baseUrl),
    ...(bodyFile ? { bodyFile } : {}),
  };
}

// ---- properties ---------------------------------------------------------------------------------------

interface PropertyRun {
  op: OperationId;
  kind: PropertyKind;
  arbitrary: fc.Arbitrary<ExploreInput>;
  requests: number;
  deadline: number;
}

/** Sends and judges one prepared input. */
async function probe(s: Session, input: ExploreInput, prepared: Prepared, sum: PropertySummary) {
  sum.requests++;
  const exchange = await s.send(prepared.spec, 'explore');
  s.account(prepared, exchange);
  const outcome = judgeAnswer(s.judges, input, prepared, exchange);
  return { prepared, exchange, outcome };
}

async function exploreProperty(s: Session, run: PropertyRun, sum: PropertySummary): Promise<void> {
  let left = run.requests;
  const reserve = Math.floor(run.requests * SHRINK_RESERVE);
  let stop: StopReason = 'done';
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (s.unreachable) {
      stop = 'target unreachable';
      break;
    }
    if (left <= 0) {
      stop = 'request budget spent';
      break;
    }
    if (Date.now() >= run.deadline) {
      stop = 'time budget spent';
      break;
    }
    const propertySeed = scopeSeed(s.options.seed, `${run.op}/${run.kind}/${round}`);
    // Written by the predicate: the last failure it saw (the minimal one, once shrinking ends).
    const state: { closed: boolean; last?: Judged; budgetCut: boolean } = { closed: false, budgetCut: false };
    // Shrinking proposes some inputs more than once: an input already judged in this round is not sent again.
    const judged = new Map<string, Judged | true>();
    const property = fc.asyncProperty(run.arbitrary, async (input) => {
      if (state.closed) return true;
      const key = JSON.stringify(input);
      const seen = judged.get(key);
      if (seen === true) return true;
      if (seen) {
        state.last = seen;
        return false;
      }
      if (left <= 0 || Date.now() >= run.deadline || s.unreachable) {
        state.budgetCut = true;
        fc.pre(false);
      }
      const prepared = prepare(input, s.world);
      if (!s.room(prepared, run.kind, state.last !== undefined)) {
        sum.capped++;
        fc.pre(false);
      }
      left--;
      const { exchange, outcome } = await probe(s, input, prepared, sum);
      if (state.closed) return true;
      const holds = verdictOf(input, prepared, exchange, outcome);
      judged.set(key, holds || state.last!);
      return holds;
    });
    /** Whether the property holds for one judged input (recorded in the summary; a new failure is kept). */
    function verdictOf(input: ExploreInput, prepared: Prepared, exchange: Exchange, outcome: Judgement): boolean {
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
    const details = await fc.check(property, {
      seed: propertySeed,
      numRuns: Math.max(1, left - reserve),
      maxSkipsPerRun: 1,
      plugins: [fc.interruptAfterTimeLimit(Math.max(1, run.deadline - Date.now()))],
    });
    state.closed = true;
    sum.rounds++;
    if (!details.failed) {
      stop = details.interrupted ? 'time budget spent' : 'done';
      break;
    }
    if (details.counterexample === null || details.counterexamplePath === null) {
      // Stopped before any failure: too many inputs left unsent (the footprint cap, or the budget).
      stop = state.budgetCut
        ? Date.now() >= run.deadline
          ? 'time budget spent'
          : 'request budget spent'
        : 'footprint cap reached';
      break;
    }
    sum.shrinks += details.numShrinks;
    const minimal = (details.counterexample as [ExploreInput])[0];
    const last = state.last;
    const found = last && JSON.stringify(last.input) === JSON.stringify(minimal) ? last : undefined;
    await addFinding(s, run, sum, minimal, found, {
      propertySeed,
      path: details.counterexamplePath,
      round,
      numRuns: details.numRuns,
      shrinks: details.numShrinks,
      shrinkComplete: !state.budgetCut && !details.interrupted,
    });
    left = run.requests - sum.requests;
  }
  sum.stop = s.unreachable ? 'target unreachable' : stop;
}

/** Parts of an input that name its kind rather than hold a value: never shortened. */
const FIXED_KEYS = new Set(['op', 'family', 'form', 'scheme', 'type', '$canvas']);
/** Longer texts are left as shrinking made them: shortening them one character at a time costs too much. */
const SIMPLIFY_TEXT_UP_TO = 24;
/** Requests one finding may spend after shrinking. */
const SIMPLIFY_REQUESTS = 24;

/**
 * Inputs one step simpler than `value`: a text one character shorter, a list one element shorter (texts and
 * lists keep at least one). fast-check shrinks lists by dropping leading elements; these steps also drop
 * inner and trailing ones ("Àa" → "À").
 */
function* simpler(value: unknown): Generator<unknown> {
  if (typeof value === 'string') {
    const chars = [...value];
    if (chars.length < 2 || chars.length > SIMPLIFY_TEXT_UP_TO) return;
    for (let i = 0; i < chars.length; i++) yield [...chars.slice(0, i), ...chars.slice(i + 1)].join('');
  } else if (Array.isArray(value)) {
    if (value.length > 1) for (let i = 0; i < value.length; i++) yield [...value.slice(0, i), ...value.slice(i + 1)];
    for (let i = 0; i < value.length; i++)
      for (const c of simpler(value[i])) yield [...value.slice(0, i), c, ...value.slice(i + 1)];
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (FIXED_KEYS.has(k)) continue;
      for (const c of simpler(v)) yield { ...value, [k]: c };
    }
  }
}

/** Greedy steps after shrinking, each kept when the simpler input fails the same way (and is no other finding). */
async function simplify(
  s: Session,
  run: PropertyRun,
  sum: PropertySummary,
  start: Judged,
): Promise<{ judged: Judged; steps: number }> {
  let current = start;
  let steps = 0;
  let budget = SIMPLIFY_REQUESTS;
  search: while (budget > 0) {
    for (const candidate of simpler(current.input) as Generator<ExploreInput>) {
      if (budget <= 0 || Date.now() >= run.deadline || s.unreachable) break search;
      const prepared = prepare(candidate, s.world);
      if (!s.room(prepared, run.kind, true)) continue;
      budget--;
      const r = await probe(s, candidate, prepared, sum);
      if (r.outcome.kind !== 'fail' || r.outcome.clause !== current.outcome.clause) continue;
      if (s.knownAs(run.op, r.outcome.clause, prepared.features)) continue;
      current = { input: candidate, prepared, exchange: r.exchange, outcome: r.outcome };
      steps++;
      continue search;
    }
    break;
  }
  return { judged: current, steps };
}

const ODD_IDS = 'ODD-IDS-NO-5XX';

/** A server error caused by the shape of an id alone also breaks the clause about odd ids. */
function oddIdCrash(clause: string, ex: Exchange, shape: readonly string[]): boolean {
  return (
    clause.endsWith('-HTTP-STATUS-LISTED') &&
    (ex.status ?? 0) >= 500 &&
    shape.length > 0 &&
    shape.every((f) => f.startsWith('canvasId:') || f.startsWith('executionId:'))
  );
}

async function addFinding(
  s: Session,
  run: PropertyRun,
  sum: PropertySummary,
  minimal: ExploreInput,
  found: Judged | undefined,
  replay: {
    propertySeed: number;
    path: string;
    round: number;
    numRuns: number;
    shrinks: number;
    shrinkComplete: boolean;
  },
): Promise<void> {
  // Sent once more: to confirm the failure, and for the exchange of the minimal input when the last one sent was another.
  const again = await probe(s, minimal, prepare(minimal, s.world), sum);
  const first: Judged | undefined =
    found ??
    (again.outcome.kind === 'fail'
      ? { input: minimal, prepared: again.prepared, exchange: again.exchange, outcome: again.outcome }
      : undefined);
  if (!first) {
    s.log(
      `${run.op}: a failure did not reproduce on its minimal input; not reported (${JSON.stringify(showInput(minimal)).slice(0, 200)})`,
    );
    return;
  }
  let reproduced = again.outcome.kind === 'fail' && again.outcome.clause === first.outcome.clause;
  const { judged, steps } = await simplify(s, run, sum, first);
  if (steps > 0) {
    const last = await probe(s, judged.input, prepare(judged.input, s.world), sum);
    reproduced &&= last.outcome.kind === 'fail' && last.outcome.clause === judged.outcome.clause;
  }
  const { outcome, prepared, exchange, input } = judged;
  const shape = shapeOf(prepared.features);
  const fingerprint = fingerprintOf(run.op, outcome.clause, shape);
  const same = s.findings.find((f) => f.fingerprint === fingerprint);
  if (same) {
    same.occurrences++;
    return;
  }
  const { curl, bodyFile } = reproducer(s, prepared, exchange, fingerprint);
  s.findings.push({
    fingerprint,
    operation: run.op,
    clause: outcome.clause,
    level: outcome.level,
    catalogued: hasRequirement(outcome.clause),
    property: run.kind,
    family: minimal.family,
    message: redactSecrets(outcome.message),
    expected: outcome.expected,
    actual: redactSecrets(outcome.actual),
    alsoBreaks: [...new Set([...outcome.others, ...(oddIdCrash(outcome.clause, exchange, shape) ? [ODD_IDS] : [])])],
    shape,
    minimalInput: showInput(input),
    exchange: shownExchange(exchange),
    curl,
    ...(bodyFile ? { bodyFile } : {}),
    replay: { seed: s.options.seed, ...replay, simplified: steps },
    reproduced,
    shrinkComplete: replay.shrinkComplete,
    occurrences: 1,
  });
  s.log(
    `${run.op}: [${outcome.clause}] ${outcome.message} — minimal ${JSON.stringify(showInput(input)).slice(0, 300)}`,
  );
}

// ---- the exploration -----------------------------------------------------------------------------------

export async function explore(target: ExploreTarget, options: ExploreOptions): Promise<ExploreResult> {
  const startedAt = new Date();
  const started = Date.now();
  const deadline = started + options.budgetS * 1000;
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
      const arbs = arbitrariesFor(op, s.world);
      const allowedRequests = Math.ceil(options.requestsPerOperation * SHARE_ALLOWED);
      const allowed = emptySummary('allowed');
      const forbidden = emptySummary('forbidden');
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
          requests: options.requestsPerOperation - allowedRequests,
          deadline: opStart + share,
        },
        forbidden,
      );
      const summary: OperationSummary = {
        operation: op,
        wallMs: Date.now() - opStart,
        allowed,
        forbidden,
        findings: s.findings.filter((f) => f.operation === op).length,
      };
      summaries.push(summary);
      s.log(
        `${op}: ${allowed.inputs} allowed and ${forbidden.inputs} forbidden inputs, ${summary.findings} finding(s), ` +
          `${(summary.wallMs / 1000).toFixed(1)} s`,
      );
      for (const p of [allowed, forbidden]) {
        if (p.stop === 'time budget spent')
          incomplete.push(`${op} (${p.kind}): time budget spent after ${p.inputs} inputs`);
        const unjudged = Object.values(p.inconclusive).reduce((a, b) => a + b, 0);
        if (p.inputs > 0 && unjudged * 2 > p.inputs)
          incomplete.push(`${op} (${p.kind}): ${unjudged} of ${p.inputs} answers could not be judged`);
      }
      if (s.unreachable) break;
    }
    await cleanup(s);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  if (s.unreachable) incomplete.unshift(`the target could not be reached: ${s.unreachable}`);
  for (const op of ops)
    if (!summaries.some((o) => o.operation === op)) incomplete.push(`${op}: not explored (the exploration stopped)`);
  const report: ExploreReport = {
    kind: 'wfcheck-explore',
    version: 1,
    seed: options.seed,
    seedGiven: options.seedGiven ?? true,
    startedAt: startedAt.toISOString(),
    wallMs: Date.now() - started,
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
  return { report, bodies: s.bodies };
}
