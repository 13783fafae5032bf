/**
 * Discovers what to drive through the API itself (search → detail →
 * variables), in k6's setup(): the harness knows nothing about a target
 * beyond BASE_URL and API_KEY.
 */
import { sleep } from 'k6';
import type { LoadConfig } from './config.ts';
import { api, json } from './api.ts';
import type { DetailBody, RunBody, SearchBody, UploadBody } from './bodies.ts';
import { pick, seededRandom } from './data.ts';
import type { UploadSample } from './data-shape.ts';

export interface RunnableWorkflow { canvasId: string; title: string; variables: Record<string, unknown> }

export interface SetupData {
  /** Workflows whose required variables could all be filled. */
  runnable: RunnableWorkflow[];
  /** Every canvas id found by search (read mix: detail). */
  canvasIds: string[];
  /** Executions started during setup (read mix: status, output). */
  executionIds: string[];
  /** Search keywords: words from discovered titles plus seeded ones. */
  keywords: string[];
  /** Workflows skipped for the lifecycle, with the reason (printed, for transparency). */
  skipped: { canvasId: string; reason: string }[];
}

const PAGE_SIZE = 50;
const MAX_PAGES = 20;
const MAX_DETAILS = 40;
const SEED_EXECUTIONS = 5;

type Variable = NonNullable<NonNullable<DetailBody['data']>['variables']>[number];

function searchAll(cfg: LoadConfig): { canvasId: string; title: string }[] {
  const found: { canvasId: string; title: string }[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const res = api.searchWorkflows(cfg, { page, pageSize: PAGE_SIZE });
    const items = res.status === 200 ? json<SearchBody>(res)?.data : undefined;
    if (!Array.isArray(items) || items.length === 0) break;
    const before = found.length;
    for (const it of items) if (!found.some((f) => f.canvasId === it.canvasId)) found.push({ canvasId: it.canvasId, title: it.title });
    // A target that ignores `page` returns the same items again: stop instead of looping.
    if (found.length === before || items.length < PAGE_SIZE) break;
  }
  return found;
}

function uploadOne(cfg: LoadConfig, sample: UploadSample): string | undefined {
  const res = api.uploadFiles(cfg, [sample]);
  return res.status === 200 ? json<UploadBody>(res)?.data?.files?.[0]?.fileKey : undefined;
}

/** A value for each required variable, or the reason none can be given. */
function fillVariables(cfg: LoadConfig, vars: readonly Variable[], rnd: () => number, strings: readonly string[], files: readonly UploadSample[]): Record<string, unknown> | string {
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

export function discover(cfg: LoadConfig, strings: readonly string[], seedKeywords: readonly string[], files: readonly UploadSample[], needExecutions: boolean): SetupData {
  const rnd = seededRandom(cfg.seed);
  const workflows = searchAll(cfg);
  const runnable: RunnableWorkflow[] = [];
  const skipped: SetupData['skipped'] = [];
  for (const wf of workflows.slice(0, MAX_DETAILS)) {
    const res = api.getWorkflowDetail(cfg, wf.canvasId);
    const plan = res.status === 200 ? json<DetailBody>(res)?.data : undefined;
    if (!plan) { skipped.push({ canvasId: wf.canvasId, reason: `detail answered ${res.status}` }); continue; }
    const filled = fillVariables(cfg, plan.variables ?? [], rnd, strings, files);
    if (typeof filled === 'string') skipped.push({ canvasId: wf.canvasId, reason: filled });
    else runnable.push({ canvasId: wf.canvasId, title: wf.title, variables: filled });
  }
  const executionIds: string[] = [];
  if (needExecutions) {
    for (let i = 0; i < SEED_EXECUTIONS && runnable.length > 0; i++) {
      const wf = runnable[i % runnable.length];
      const res = api.runWorkflow(cfg, wf.canvasId, wf.variables);
      const id = res.status === 200 ? json<RunBody>(res)?.data?.executionId : undefined;
      if (id) executionIds.push(id);
      sleep(0.05);
    }
  }
  const titleWords = workflows.flatMap((w) => w.title.split(/\s+/)).filter((w) => w.length >= 3);
  return {
    runnable,
    canvasIds: workflows.map((w) => w.canvasId),
    executionIds,
    keywords: [...new Set([...titleWords.slice(0, 50), ...seedKeywords])],
    skipped,
  };
}
