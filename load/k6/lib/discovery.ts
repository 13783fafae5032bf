/**
 * Discovers what to drive through the API itself (search → detail → variables → one trial run each),
 * in k6's setup(): the harness knows nothing about a target beyond BASE_URL and API_KEY.
 *
 * The trial run matters: a workflow may be closed to the API (403), or be one that always fails. The
 * lifecycle scenario measures how reliably the service finishes executions that can finish, so it only
 * drives workflows whose trial execution reached `finish`; the others are listed with the reason. The
 * trial is the conformance run's (core/discovery/trial.ts, with the role rules of roles.ts): this
 * module supplies its HTTP — k6's, each response contract-checked by lib/api.ts — and follows every
 * execution to its end, which only the load run needs.
 */
import { sleep } from 'k6';
import type { LoadConfig } from './config.ts';
import { api, bodyText, headerValue, json, type Response } from './api.ts';
import type { DetailBody, SearchBody, UploadBody } from './bodies.ts';
import { pick, seededRandom } from './seeded.ts';
import type { UploadSample } from './data-shape.ts';
import { WIRE_MARKER } from './run-report.ts';
import { BEHAVIOUR_ROLE, SPECIAL_BEHAVIOURS } from '../../../core/discovery/roles.ts';
import {
  describeOutcome,
  driveSync,
  trialOptions,
  trialRuns,
  type Trial,
  type TrialReply,
  type TrialReport,
  type TrialRequest,
} from '../../../core/discovery/trial.ts';

export interface RunnableWorkflow {
  canvasId: string;
  title: string;
  variables: Record<string, unknown>;
  /** Its file (resource) variables, required or not: the lifecycle fills them with a fresh upload's key. */
  fileVariables: string[];
}

export interface SetupData {
  /** Workflows whose required variables could be filled and whose trial run finished. */
  runnable: RunnableWorkflow[];
  /** Every canvas id found by search (read mix: detail). */
  canvasIds: string[];
  /** Executions started by the trial runs (read mix: status, output). */
  executionIds: string[];
  /** Search keywords: words from discovered titles plus seeded ones. */
  keywords: string[];
  /** Runnable workflows with a file variable (lifecycle iterations that upload use these). */
  withFiles: RunnableWorkflow[];
  /** Workflows to abort mid-run: WFCHECK_ABORT_CANVAS_ID, else those the trial saw running long enough to abort after a poll, else the runnable ones. */
  abortable: RunnableWorkflow[];
  /** Whether search pages count from 0 on this target (detected by comparing page 0 and page 1). */
  zeroBasedPages: boolean;
  /** The canvas every generate call overwrites (set by setup when overwrite is allowed). */
  overwriteCanvasId?: string;
  /** Workflows not used for the lifecycle, with the reason (printed, for transparency). */
  skipped: { canvasId: string; reason: string }[];
  /** What the trial runs cost and which roles of behaviour they filled, in a line (printed). */
  trialSummary: string;
}

const PAGE_SIZE = 50;
const MAX_PAGES = 20;
const MAX_DETAILS = 40;

type Variable = NonNullable<NonNullable<DetailBody['data']>['variables']>[number];

/**
 * Why the target cannot be driven at all, judged on the first search (the first request of a run),
 * or undefined when it answered as a service would. The reason names the cause: a down, hanging
 * or misaddressed target otherwise surfaces only as "nothing to run" further on.
 */
export function unusableTarget(cfg: LoadConfig, res: Response, url: string): string | undefined {
  if (res.status === 0) return `target unreachable: ${transportCause(cfg, res.error ?? '')} at ${cfg.baseUrl}`;
  const type = headerValue(res.headers, 'content-type') || 'no content type';
  const text = bodyText(res);
  const hint =
    res.status === 401
      ? ' — the API key was rejected (API_KEY)'
      : res.status === 404
        ? " — is BASE_URL the service's base address ending in /v1?"
        : '';
  if (res.status !== 200) return `search answered ${res.status} (${type}) at GET ${url}${hint}: ${bodyGist(text)}`;
  const body = json<SearchBody>(res);
  if (!Array.isArray(body?.data))
    return `search answered 200 (${type}) at GET ${url} without a JSON envelope whose data is a list of workflows: ${bodyGist(text)}`;
  return undefined;
}

/** The cause of a transport failure in a few words, from k6's error text (e.g. `Get "…": dial tcp …: connect: connection refused`). */
function transportCause(cfg: LoadConfig, error: string): string {
  if (/connection refused/i.test(error)) return 'connection refused';
  if (/timeout|deadline exceeded/i.test(error)) return `no answer within ${cfg.requestTimeoutMs} ms (REQUEST_TIMEOUT)`;
  if (/connection reset|EOF/i.test(error)) return 'connection reset before an answer';
  if (/no such host|lookup/i.test(error)) return 'host name not found';
  const detail = error.replace(/^\w+ "[^"]*": /, '');
  return detail || 'no HTTP response';
}

/** A short, single-line view of a body: an HTML page's title, else its first characters. */
function bodyGist(text: string): string {
  if (!text) return '(empty body)';
  const title = /<title>([^<]*)<\/title>/i.exec(text)?.[1];
  const line = (title ? `HTML page "${title.trim()}"` : text).replace(/\s+/g, ' ').trim();
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}

interface Listed {
  canvasId: string;
  title: string;
}

function searchPage(cfg: LoadConfig, page: number): Listed[] | undefined {
  // page=0 is an open point (§4.5 says pages are 1-based): whatever a target answers there is observed.
  const res = api.searchWorkflows(
    cfg,
    { page, pageSize: PAGE_SIZE },
    page === 0 ? 'SEARCH-PAGESIZE-DEFAULT' : undefined,
  );
  const items = res.status === 200 ? json<SearchBody>(res)?.data : undefined;
  return Array.isArray(items) ? items.map((it) => ({ canvasId: it.canvasId, title: it.title })) : undefined;
}

const sameIds = (a: readonly Listed[], b: readonly Listed[]) =>
  a.length === b.length && a.every((x, i) => x.canvasId === b[i]!.canvasId);

/**
 * Every workflow search lists, or why the target cannot be driven. Read tolerantly: a target may cap
 * pageSize below what was asked (a short page is not the last one) or count pages from 0 (page 0 then
 * differs from page 1); pages are followed until one is empty or brings nothing new.
 */
function searchAll(cfg: LoadConfig): { workflows: Listed[]; zeroBasedPages: boolean } | { failure: string } {
  const res = api.searchWorkflows(cfg, { page: 1, pageSize: PAGE_SIZE });
  const failure = unusableTarget(cfg, res, `${cfg.baseUrl}/openapi/workflows?page=1&pageSize=${PAGE_SIZE}`);
  if (failure) return { failure };
  // What k6 spoke to the target (HTTP/2 when the server offers it over TLS): the Node side reports it.
  console.log(`${WIRE_MARKER}${res.proto || 'unknown'} ${res.tls_version || 'no-tls'}`);
  const first = json<SearchBody>(res)?.data?.map((it) => ({ canvasId: it.canvasId, title: it.title })) ?? [];
  const zero = searchPage(cfg, 0);
  const zeroBasedPages = zero !== undefined && zero.length > 0 && !sameIds(zero, first);
  const found = new Map<string, Listed>();
  const addNew = (items: readonly Listed[]) => {
    const before = found.size;
    for (const it of items) if (!found.has(it.canvasId)) found.set(it.canvasId, it);
    return found.size > before;
  };
  if (zeroBasedPages) addNew(zero!);
  // Page 1 is the first page, or the second on a 0-based target; either way the next one is page + 1.
  let items: Listed[] | undefined = first;
  for (let page = 1; items && page <= MAX_PAGES; page++) {
    // An empty page ends the list; so does a page with nothing new (a target that ignores `page`).
    if (!addNew(items)) break;
    items = searchPage(cfg, page + 1);
  }
  return { workflows: [...found.values()], zeroBasedPages };
}

function uploadOne(cfg: LoadConfig, sample: UploadSample): string | undefined {
  const res = api.uploadFiles(cfg, [sample]);
  return res.status === 200 ? json<UploadBody>(res)?.data?.files?.[0]?.fileKey : undefined;
}

/** A value for each required variable, or the reason none can be given. */
function fillVariables(
  cfg: LoadConfig,
  vars: readonly Variable[],
  rnd: () => number,
  strings: readonly string[],
  files: readonly UploadSample[],
): Record<string, unknown> | string {
  const values: Record<string, unknown> = {};
  for (const v of vars) {
    if (!v.required) continue;
    switch (v.variableType) {
      case 'option':
        if (!v.options?.length) return `required option variable "${v.name}" lists no options`;
        values[v.name] = pick(v.options, rnd);
        break;
      case 'resource': {
        const key = uploadOne(cfg, pick(files, rnd));
        if (!key) return `upload for resource variable "${v.name}" failed`;
        values[v.name] = key;
        break;
      }
      default:
        // `string`, or no type given: a seeded text value.
        values[v.name] = pick(strings, rnd);
    }
  }
  return values;
}

/** The trial's requests, sent with k6's http through lib/api.ts (tagged as setup's, contract-checked). */
function trialSender(cfg: LoadConfig, byId: Map<string, RunnableWorkflow>): (r: TrialRequest) => TrialReply {
  return (r) => {
    const res =
      r.op === 'run'
        ? // 400/403/404 are legal answers here (e.g. a workflow closed to the API): expected, not failures.
          api.runWorkflow(cfg, r.canvasId, byId.get(r.canvasId)?.variables ?? {}, [400, 403, 404])
        : r.op === 'status'
          ? api.getExecutionStatus(cfg, r.executionId)
          : r.op === 'output'
            ? api.getExecutionOutput(cfg, r.executionId)
            : api.abortExecution(cfg, r.executionId);
    return res.status === 0 ? { error: res.error || 'no HTTP response' } : { status: res.status, body: json(res) };
  };
}

/**
 * Runs every candidate once (the shared trial protocol) and follows each execution to its end, for at
 * most WORKFLOW_TIMEOUT_MS; what still runs then is aborted.
 */
function trialRunsOf(cfg: LoadConfig, candidates: RunnableWorkflow[]): TrialReport {
  return driveSync(
    trialRuns(
      candidates.map((w) => w.canvasId),
      // Every candidate at once, each followed to its end: the lifecycle drives only those that finish.
      trialOptions(cfg.pollIntervalMs, {
        followMs: cfg.workflowTimeoutMs,
        seek: 'every',
        window: Math.max(1, candidates.length),
        budget: { executions: candidates.length, requests: Number.POSITIVE_INFINITY, ms: cfg.workflowTimeoutMs },
      }),
    ),
    {
      send: trialSender(cfg, new Map(candidates.map((w) => [w.canvasId, w]))),
      sleep: (ms) => sleep(ms / 1000),
      now: () => Date.now(),
    },
  );
}

const finished = (t: Trial) => t.outcome.kind === 'ended' && t.outcome.status === 'finish';

/** Workflows to abort mid-run: the one named by the environment, else those the trial saw running long, else the runnable ones. */
function abortCandidates(
  cfg: LoadConfig,
  candidates: RunnableWorkflow[],
  trials: Trial[],
  runnable: RunnableWorkflow[],
): RunnableWorkflow[] {
  const named = candidates.filter((w) => w.canvasId === cfg.abortCanvasId);
  if (named.length > 0) return named;
  const long = new Set(trials.filter((t) => t.behaviour === 'long-running').map((t) => t.canvasId));
  const slow = candidates.filter((w) => long.has(w.canvasId));
  return slow.length > 0 ? slow : runnable;
}

/** The trial in a line: what it cost the target, and the workflow that showed each role of behaviour. */
function summariseTrial(report: TrialReport): string {
  const f = report.footprint;
  const roles = SPECIAL_BEHAVIOURS.map((b) => {
    const t = report.trials.find((x) => x.behaviour === b);
    return `${BEHAVIOUR_ROLE[b]}: ${t ? `${t.canvasId} (${describeOutcome(t.outcome)})` : 'none'}`;
  });
  return `trial runs: ${report.trials.length} workflow(s), ${f.executionsStarted} execution(s) started, ${f.executionsAborted} aborted, ${f.requests} request(s); ${roles.join('; ')}`;
}

/** What setup() found, or why the target cannot be driven at all (the run is then aborted with that reason). */
export function discover(
  cfg: LoadConfig,
  strings: readonly string[],
  seedKeywords: readonly string[],
  files: readonly UploadSample[],
): SetupData | { failure: string } {
  const rnd = seededRandom(cfg.seed);
  const listed = searchAll(cfg);
  if ('failure' in listed) return listed;
  const workflows = listed.workflows;
  const candidates: RunnableWorkflow[] = [];
  const skipped: SetupData['skipped'] = [];
  for (const wf of workflows.slice(0, MAX_DETAILS)) {
    const res = api.getWorkflowDetail(cfg, wf.canvasId);
    const plan = res.status === 200 ? json<DetailBody>(res)?.data : undefined;
    if (!plan) {
      skipped.push({ canvasId: wf.canvasId, reason: `detail answered ${res.status}` });
      continue;
    }
    const filled = fillVariables(cfg, plan.variables ?? [], rnd, strings, files);
    if (typeof filled === 'string') skipped.push({ canvasId: wf.canvasId, reason: filled });
    else
      candidates.push({
        canvasId: wf.canvasId,
        title: wf.title,
        variables: filled,
        fileVariables: (plan.variables ?? []).filter((v) => v.variableType === 'resource').map((v) => v.name),
      });
  }
  const report = trialRunsOf(cfg, candidates);
  for (const t of report.trials)
    if (!finished(t)) skipped.push({ canvasId: t.canvasId, reason: `trial ${describeOutcome(t.outcome)}` });
  const titleWords = workflows.flatMap((w) => w.title.split(/\s+/)).filter((w) => /^[\p{L}\p{N}]{3,}$/u.test(w));
  const ran = new Set(report.trials.filter(finished).map((t) => t.canvasId));
  const runnable = candidates.filter((w) => ran.has(w.canvasId));
  return {
    runnable,
    withFiles: runnable.filter((w) => w.fileVariables.length > 0),
    abortable: abortCandidates(cfg, candidates, report.trials, runnable),
    zeroBasedPages: listed.zeroBasedPages,
    canvasIds: workflows.map((w) => w.canvasId),
    executionIds: report.trials.flatMap((t) => (t.executionId ? [t.executionId] : [])),
    keywords: [...new Set([...titleWords.slice(0, 50), ...seedKeywords])],
    skipped,
    trialSummary: summariseTrial(report),
  };
}
