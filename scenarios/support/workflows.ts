/**
 * Workflow discovery through the API itself (search → detail), and run
 * preparation: seeded variable values per variableType, with file variables
 * filled by real uploads.
 */
import type { Faker } from '@faker-js/faker';
import { buildFile } from '../../fixtures/data/files.ts';
import { variableValues, type VariableValue } from '../../fixtures/data/variables.ts';
import type { ApiClient } from './client.ts';
import type { RunConfig } from './config.ts';
import { dataOf, type SearchItem, type WorkflowPlan } from './shapes.ts';

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

/** Pages through search until an empty page or a page that repeats what was seen (a target ignoring `page`). */
export async function searchAll(api: ApiClient, query: Record<string, string | number | undefined> = {}): Promise<{ items: SearchItem[]; pagesRead: number; capped: boolean }> {
  const items: SearchItem[] = [];
  const seen = new Set<string>();
  for (let page = 1; page <= MAX_PAGES; page++) {
    const ex = await api.search({ ...query, page, pageSize: DISCOVERY_PAGE_SIZE }, { label: `discovery page ${page}` });
    const data = dataOf<SearchItem[]>(ex);
    if (!Array.isArray(data) || data.length === 0) return { items, pagesRead: page, capped: false };
    const fresh = data.filter((i) => i && typeof i.canvasId === 'string' && !seen.has(i.canvasId));
    if (fresh.length === 0) return { items, pagesRead: page, capped: false };
    for (const i of fresh) {
      seen.add(i.canvasId);
      items.push(i);
    }
  }
  return { items, pagesRead: MAX_PAGES, capped: true };
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
    const data = dataOf<{ files?: { fileKey?: string }[] }>(ex);
    for (const f of data?.files ?? []) if (typeof f?.fileKey === 'string') fileKeys.push(f.fileKey);
  }
  return { values: variableValues(faker, plan.variables ?? [], fileKeys), fileKeys };
}

/** Run body in the recommended form or the legacy top-level form (§4.1, §9.2). */
export function runBody(values: Record<string, VariableValue>, form: 'wrapper' | 'legacy' = 'wrapper'): Record<string, unknown> {
  return form === 'wrapper' ? { variables: values } : { ...values };
}
