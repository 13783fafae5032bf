/**
 * Workflow discovery through the API itself (search → detail), and run
 * preparation: seeded variable values per variableType, with file variables
 * filled by real uploads.
 */
import type { Faker } from '@faker-js/faker';
import { buildFile } from '../../fixtures/data/files.ts';
import { variableValues, type VariableValue } from '../../fixtures/data/variables.ts';
import type { ApiClient, Exchange } from './client.ts';
import type { RunConfig } from '../../fixtures/environment/config.ts';
import { dataOf, type SearchItem, type UploadData, type WorkflowPlan } from './shapes.ts';

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
  const pageOneAnswered = pageOneEx.status === 200 && Array.isArray(dataOf(pageOneEx)); // an error is no paging evidence
  if (pageOneAnswered && firstItems.length > 0 && (pageOne.length === 0 || JSON.stringify(pageOne) !== JSON.stringify(head))) {
    const pageZeroEx = await api.search({ ...query, page: 0, pageSize }, { label: 'discovery page 0' });
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
    const data = page === 1 ? itemsOf(pageOneEx) : itemsOf(await api.search({ ...query, page, pageSize }, { label: `discovery page ${page}` }));
    if (data.length === 0 || take(data) === 0) return { items, pagesRead: read, capped: false, notOneBased };
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

/** Workflows with a readable plan, the ones matching `hint` (by title) first. */
export function candidates(d: Discovery, hint?: RegExp): Workflow[] {
  const usable = d.workflows.filter((w) => w.plan);
  if (!hint) return usable;
  return [...usable.filter((w) => hint.test(w.title)), ...usable.filter((w) => !hint.test(w.title))];
}

export function hasVariableType(w: Workflow, type: string): boolean {
  return (w.plan?.variables ?? []).some((v) => v.variableType === type);
}

export interface PreparedRun {
  values: Record<string, VariableValue>;
  fileKeys: string[];
}

/** Values for every variable of the plan; resource variables get keys of freshly uploaded seeded files. */
export async function prepareRun(api: ApiClient, faker: Faker, plan: WorkflowPlan, fileCount = 1): Promise<PreparedRun> {
  const fileKeys: string[] = [];
  if ((plan.variables ?? []).some((v) => v.variableType === 'resource')) {
    const files = Array.from({ length: fileCount }, (_, i) => buildFile(faker, i % 2 === 0 ? 'txt' : 'pdf', 'small'));
    const ex = await api.upload(files, { label: 'upload for file variable' });
    const data = dataOf<UploadData>(ex);
    for (const f of data?.files ?? []) if (typeof f?.fileKey === 'string') fileKeys.push(f.fileKey);
  }
  return { values: variableValues(faker, plan.variables ?? [], fileKeys), fileKeys };
}

/** Run body in the recommended form or the legacy top-level form (§4.1, §9.2). */
export function runBody(values: Record<string, VariableValue>, form: 'wrapper' | 'legacy' = 'wrapper'): Record<string, unknown> {
  return form === 'wrapper' ? { variables: values } : { ...values };
}
