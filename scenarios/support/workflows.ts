/**
 * Workflow discovery through the API itself (search → detail), and run
 * preparation: seeded variable values per variableType, with file variables
 * filled by real uploads.
 */
import type { Faker } from '@faker-js/faker';
import { buildFile, type FileSpec } from '../../fixtures/data/files.ts';
import { variableValues, type VariableValue } from '../../fixtures/data/variables.ts';
import type { ApiClient, Exchange } from './client.ts';
import type { RunConfig } from '../../fixtures/environment/config.ts';
import { accepted, bodyDeviation, dataOf, describe, served, statusDeviation, VARIABLE_TYPES, type Judged, type SearchItem, type Stop, type UploadData, type WorkflowPlan } from './shapes.ts';
import type { Verdict } from '../verdict/verdict.ts';

export interface Workflow {
  canvasId: string;
  title: string;
  /** Undefined when the detail could not be read. */
  plan?: WorkflowPlan;
}

export interface Discovery {
  workflows: Workflow[];
  /** Search pages read, and whether discovery stopped at its cap. */
  pagesRead: number;
  capped: boolean;
}

const DISCOVERY_PAGE_SIZE = 50;
const MAX_PAGES = 40;
const MAX_DETAILS = 80;

/** Evidence that the target's first page is not page=1 (§4.5, §8: pages are 1-based). */
export interface FirstPageEvidence {
  /** What page=1 held, and what the first items (search without `page`, and page=0) are. */
  pageOne: string[];
  firstItems: string[];
  /** The target answered page=0 with the first items, as a 0-based target does. */
  zeroBased: boolean;
  exchangeIds: string[];
}

export interface SearchListing {
  items: SearchItem[];
  pagesRead: number;
  capped: boolean;
  /** Set when page=1 lacks the first items of the listing. */
  notOneBased?: FirstPageEvidence;
  /** Set when a page was not answered with a list: the listing may be incomplete, and why. */
  stop?: Stop;
}

/** A served list of search items, or why there is none: the clause its answer already failed. */
export function listOf(ex: Exchange): { items?: SearchItem[]; stop?: Stop } {
  const data = dataOf<SearchItem[]>(ex);
  if (Array.isArray(data)) return { items: data };
  const cause = statusDeviation(ex) ?? (served(ex) ? bodyDeviation(ex) ?? 'SEARCH-200-DATA' : undefined);
  return { stop: { blockedBy: cause, reason: `search ${ex.record.url.replace(/^.*\/v1/, '')}: ${describe(ex)}` } };
}

const idsOf = (items: SearchItem[]) => items.map((i) => i?.canvasId).filter((id): id is string => typeof id === 'string');
const itemsOf = (ex: Exchange) => {
  const data = dataOf<SearchItem[]>(ex);
  return Array.isArray(data) ? data : [];
};

/**
 * Pages through search until an empty page or a page that repeats what was seen (a target ignoring `page`).
 *
 * Page 1 is compared with the first items of the listing (search without `page`): a 0-based target
 * answers page=1 with the *second* page — often empty — and discovery would otherwise find nothing
 * and every suite skip. When page 1 lacks them and page=0 holds them, paging starts at 0 so the
 * suites still run, and the deviation is returned for SEARCH-PAGE-1-BASED.
 */
export async function searchAll(api: ApiClient, query: Record<string, string | number | undefined> = {}): Promise<SearchListing> {
  const pageSize = DISCOVERY_PAGE_SIZE;
  const pageOneEx = await api.search({ ...query, page: 1, pageSize }, { label: 'discovery page 1' });
  const pageOne = idsOf(itemsOf(pageOneEx));
  const unpagedEx = await api.search({ ...query, pageSize }, { label: 'discovery first items (no page)' });
  const unpaged = itemsOf(unpagedEx);
  const firstItems = idsOf(unpaged).slice(0, pageSize);
  const head = firstItems.slice(0, pageOne.length);
  let firstPage = 1;
  let notOneBased: FirstPageEvidence | undefined;
  const pageOneAnswered = served(pageOneEx) && Array.isArray(dataOf(pageOneEx)); // an error is no paging evidence
  if (pageOneAnswered && firstItems.length > 0 && (pageOne.length === 0 || JSON.stringify(pageOne) !== JSON.stringify(head))) {
    // page=0 is outside the 1-based range: how a target answers it is not shown.
    const pageZeroEx = await api.search({ ...query, page: 0, pageSize }, { label: 'discovery page 0', openPoint: 'SEARCH-PAGESIZE-DEFAULT' });
    const pageZero = idsOf(itemsOf(pageZeroEx));
    const zeroBased = pageZero.length > 0 && JSON.stringify(pageZero) === JSON.stringify(firstItems.slice(0, pageZero.length));
    // A non-empty page 1 that merely differs (another order between calls) is not evidence; an empty
    // page 1 while items exist, or a page 0 holding what page 1 should, is.
    if (pageOne.length === 0 || zeroBased) {
      notOneBased = { pageOne, firstItems, zeroBased, exchangeIds: [pageOneEx.record.id, unpagedEx.record.id, pageZeroEx.record.id] };
      firstPage = zeroBased ? 0 : firstPage;
    }
  }
  const items: SearchItem[] = [];
  const seen = new Set<string>();
  const take = (data: SearchItem[]) => {
    const fresh = data.filter((i) => i && typeof i.canvasId === 'string' && !seen.has(i.canvasId));
    for (const i of fresh) {
      seen.add(i.canvasId);
      items.push(i);
    }
    return fresh.length;
  };
  // Neither page 1 nor page 0 lists the first items: discovery makes do with the unpaged answer.
  if (notOneBased && !notOneBased.zeroBased) {
    take(unpaged);
    return { items, pagesRead: 1, capped: false, notOneBased };
  }
  for (let page = firstPage, read = 1; read <= MAX_PAGES; page++, read++) {
    const answer = listOf(page === 1 ? pageOneEx : await api.search({ ...query, page, pageSize }, { label: `discovery page ${page}` }));
    if (answer.stop) return { items, pagesRead: read, capped: false, notOneBased, stop: answer.stop };
    if (answer.items!.length === 0 || take(answer.items!) === 0) return { items, pagesRead: read, capped: false, notOneBased };
  }
  return { items, pagesRead: MAX_PAGES, capped: true, notOneBased };
}

export async function discoverWorkflows(api: ApiClient, config: RunConfig): Promise<Discovery> {
  const { items, pagesRead, capped } = await searchAll(api);
  const byId = new Map<string, Workflow>();
  for (const id of config.canvasIds) byId.set(id, { canvasId: id, title: '' });
  for (const i of items) byId.set(i.canvasId, { canvasId: i.canvasId, title: i.title ?? '' });
  const workflows = [...byId.values()].slice(0, MAX_DETAILS);
  for (const wf of workflows) {
    const plan = dataOf<WorkflowPlan>(await api.detail(wf.canvasId, { label: 'discovery detail' }));
    if (plan && typeof plan === 'object' && Array.isArray(plan.tasks)) {
      wf.plan = plan;
      if (!wf.title) wf.title = plan.title ?? '';
    }
  }
  return { workflows, pagesRead, capped: capped || byId.size > MAX_DETAILS };
}

/** Variable types outside the contract's enum: the harness cannot know what values they take. */
export function unlistedVariableTypes(w: Workflow): string[] {
  return (w.plan?.variables ?? []).map((v): string | undefined => v.variableType).filter((t): t is string => t !== undefined && !VARIABLE_TYPES.includes(t));
}

/**
 * Workflows with a readable plan, the ones matching `hint` (by title) first, and among those the
 * ones whose variables are all typed as the enum says first: only their values can be prepared.
 */
export function candidates(d: Discovery, hint?: RegExp): Workflow[] {
  const rank = (w: Workflow) => (hint && !hint.test(w.title) ? 2 : 0) + (unlistedVariableTypes(w).length > 0 ? 1 : 0);
  return d.workflows.filter((w) => w.plan).sort((a, b) => rank(a) - rank(b));
}

export function hasVariableType(w: Workflow, type: string): boolean {
  return (w.plan?.variables ?? []).some((v) => v.variableType === type);
}

export interface PreparedRun {
  values: Record<string, VariableValue>;
  fileKeys: string[];
  /** Set when a file variable could not be given a key: the upload was not accepted. */
  stop?: Stop;
}

/** The keys of an upload, accepted when there is one distinct fileKey per file sent [UPLOAD-KEY-PER-FILE]. */
export function acceptedUpload(verdict: Verdict, ex: Exchange, sent: readonly FileSpec[], message: string): Judged<string[]> {
  const keysOf = (data: unknown) => ((data as UploadData | undefined)?.files ?? []).map((f) => f?.fileKey).filter((k): k is string => typeof k === 'string' && k !== '');
  return accepted(verdict, 'UPLOAD-KEY-PER-FILE', ex, {
    carries: `${sent.length} distinct fileKey${sent.length === 1 ? '' : 's'}`,
    read: (data) => {
      const keys = keysOf(data);
      return keys.length === sent.length && new Set(keys).size === keys.length ? keys : undefined;
    },
  }, `${message}: ${sent.map((f) => `${f.name} (${f.type}, ${f.content.length} B)`).join(', ')}`);
}

/**
 * Values for every variable of the plan; resource variables get keys of freshly uploaded seeded files.
 * When the plan has a file variable and the upload gives no keys, the run cannot be made as intended:
 * `stop` names the clause that kept it from being made.
 */
export async function prepareRun(api: ApiClient, verdict: Verdict, faker: Faker, plan: WorkflowPlan, fileCount = 1): Promise<PreparedRun> {
  const fileKeys: string[] = [];
  if ((plan.variables ?? []).some((v) => v.variableType === 'resource')) {
    const files = Array.from({ length: fileCount }, (_, i) => buildFile(faker, i % 2 === 0 ? 'txt' : 'pdf', 'small'));
    const ex = await api.upload(files, { label: 'upload for file variable' });
    const upload = acceptedUpload(verdict, ex, files, 'upload for a file variable');
    // The values are still returned (without the file variable) for probes that send them anyway.
    if (!upload.ok) return { values: variableValues(faker, plan.variables ?? [], []), fileKeys, stop: upload.stop };
    fileKeys.push(...upload.value);
  }
  return { values: variableValues(faker, plan.variables ?? [], fileKeys), fileKeys };
}

/** Run body in the recommended form or the legacy top-level form (§4.1, §9.2). */
export function runBody(values: Readonly<Record<string, unknown>>, form: 'wrapper' | 'legacy' = 'wrapper'): Record<string, unknown> {
  return form === 'wrapper' ? { variables: values } : { ...values };
}
