/**
 * Workflow discovery through the API itself, built to give the same coverage on the thirtieth night
 * against a long-lived account as on the first: it looks for the roles the suites need (roles.ts),
 * not for "the first N workflows", so workflows created since — by people, or left by the harness
 * itself — cannot push the useful ones out of reach.
 *
 * 1. Configured canvases (WFCHECK_CANVAS_IDS, WFCHECK_ABORT_CANVAS_ID, WFCHECK_DISABLED_CANVAS_ID)
 *    are read whether or not search lists them.
 * 2. What an earlier run learned about this target and key is re-validated (one detail read each).
 * 3. Only when roles are still missing: the listing is sampled across its length (its head, pages at
 *    doubling distances, its tail), keyword probes look for titles that name a behaviour still missing,
 *    and details are read lazily, most promising first, until every role a plan can fill is filled.
 * 4. The roles of behaviour (disabled, failing, long-running) are filled by what a run shows, not by
 *    titles: a trial (trial.ts) runs candidates a few at a time — those whose titles suggest a missing
 *    behaviour first, the longest plans first while the slow one is missing, the rest in a seeded order,
 *    each plan read as its turn comes — until every such role is filled or its budget (executions,
 *    requests, time; WFCHECK_TRIAL_BUDGET) is spent, and aborts what still runs. The slow role goes to
 *    the workflow seen running longest. What it showed is remembered with the workflows, so later runs
 *    do not try again. The trial reads the output of each execution it sees end: whether it wrote files.
 * 5. A role a plan fills that no workflow read fills (none without a required variable, on an account
 *    where every workflow needs an input) gets a workflow made through generate (make.ts), counted in
 *    the footprint and remembered, so that it is made once, not every night.
 */
import { seededFaker } from '../data/seeded.ts';
import type { RunConfig } from '../settings/run-config.ts';
import { ENV } from '../settings/rules.ts';
import type { ApiClient } from '../client/client.ts';
import { memoryFile, readMemory, writeMemory, keyFingerprint, type DiscoveryMemory } from './memory.ts';
import { firstPageOf, listOf } from './listing.ts';
import {
  behaviourOfRole,
  PROBE_WORDS,
  ROLE_NAMES,
  rolesOf,
  titleSuggests,
  trialTier,
  type Role,
  type SpecialBehaviour,
} from './roles.ts';
import { DEFAULT_TRIAL_BUDGET, describeOutcome, trialOptions } from './trial.ts';
import { tryWorkflows } from './trial-driver.ts';
import { unfilledWhy } from './summary.ts';
import { makeMissing, shapeHeld, type Making } from './make.ts';
import { dataOf } from '../judging/answers.ts';
import type { SearchItem, WorkflowPlan } from '../judging/payloads.ts';
import { byRunTime, type Discovery, type DiscoverySummary, type Tried, type Workflow } from './workflows.ts';

const PAGE_SIZE = 50;
/** Details read beyond the configured and remembered canvases: the bound on discovery's cost. */
const MAX_DETAILS = 80;
/** Plans read even when the roles fill sooner: the lifecycle suite runs up to 12 of them, special ones aside. */
const SAMPLE_MIN = 16;
/** Pages at doubling distances stop here: 2^15 pages of 50 is far beyond any account. */
const MAX_PAGE = 1 << 15;
/** A role missing when the memory was saved is searched for again once the memory is this old. */
const RESEARCH_MISSING_AFTER_MS = 7 * 24 * 3600_000;

interface Sample {
  /** Unread items, most promising first. */
  items: SearchItem[];
  pagesRead: number;
  /** The listing's end was not found within MAX_PAGE. */
  capped: boolean;
  /** The number of the first page: 0 on a target that counts from 0 (the search suite fails that). */
  first: number;
}

class Found {
  readonly byId = new Map<string, Workflow>();
  details = 0;
  searches = 0;

  constructor(readonly api: ApiClient) {}

  async read(
    canvasId: string,
    title = '',
    label = 'discovery detail',
    known: Pick<Workflow, 'behaviour' | 'shown' | 'ranMs' | 'writesFiles' | 'made'> = {},
  ): Promise<Workflow | undefined> {
    if (this.byId.has(canvasId)) return this.byId.get(canvasId);
    this.details++;
    const plan = dataOf<WorkflowPlan>(await this.api.detail(canvasId, { label, allowFault: true }));
    if (!plan || typeof plan !== 'object' || !Array.isArray(plan.tasks)) return undefined;
    const wf: Workflow = {
      canvasId,
      title: title || (typeof plan.title === 'string' ? plan.title : ''),
      plan,
      ...(known.behaviour ? { behaviour: known.behaviour, shown: known.shown ?? '' } : {}),
      ...(known.ranMs !== undefined ? { ranMs: known.ranMs } : {}),
      ...(known.writesFiles !== undefined ? { writesFiles: known.writesFiles } : {}),
      ...(known.made ? { made: true } : {}),
    };
    this.byId.set(canvasId, wf);
    return wf;
  }

  filled(): Set<Role> {
    return new Set([...this.byId.values()].flatMap(rolesOf));
  }

  missing(): Role[] {
    const have = this.filled();
    return ROLE_NAMES.filter((r) => !have.has(r));
  }

  /** The behaviours whose roles are missing: only a run can fill them. */
  missingBehaviours(): SpecialBehaviour[] {
    return this.missing()
      .map(behaviourOfRole)
      .filter((b): b is SpecialBehaviour => b !== undefined);
  }

  /** Missing roles a plan can fill: reading more details may fill them. */
  missingFromPlans(): Role[] {
    return this.missing().filter((r) => !behaviourOfRole(r));
  }

  async search(query: Record<string, string | number>, label: string): Promise<SearchItem[] | undefined> {
    this.searches++;
    return listOf(await this.api.search({ ...query, pageSize: PAGE_SIZE }, { label })).items;
  }
}

const idsOf = (items: SearchItem[] | undefined) => (items ?? []).map((i) => i.canvasId).join(',');

/**
 * Pages spread over the whole listing: the first three, then pages at doubling distances until one is
 * empty, a bisection to the last page, and the last three. About 2·log2(pages) requests for any size.
 */
async function sampleListing(found: Found): Promise<Sample> {
  const pages = new Map<number, SearchItem[]>();
  const read = async (n: number) => {
    if (!pages.has(n)) pages.set(n, (await found.search({ page: n }, `discovery page ${n}`)) ?? []);
    return pages.get(n)!;
  };
  // A 0-based target answers page=1 with its second page: start where the first items are, found as the search suite finds them.
  const start = await firstPageOf(found.api, {}, PAGE_SIZE, 'discovery');
  found.searches += start.requests;
  const first = start.firstPage;
  if (first === 1) pages.set(1, listOf(start.pageOneEx).items ?? []);
  await read(first);
  const repeatsFirst = (items: SearchItem[]) => items.length > 0 && idsOf(items) === idsOf(pages.get(first));
  const ends = async (n: number) => {
    const items = await read(n);
    // A target that ignores `page` answers every page with the first: there is only one page.
    return items.length === 0 || (n !== first && repeatsFirst(items));
  };
  let last = first;
  let beyond: number | undefined;
  for (const n of [first + 1, first + 2]) {
    if (await ends(n)) {
      beyond = n;
      break;
    }
    last = n;
  }
  for (let step = 4; beyond === undefined && first + step <= MAX_PAGE; step *= 2) {
    if (await ends(first + step)) beyond = first + step;
    else last = first + step;
  }
  while (beyond !== undefined && beyond - last > 1) {
    const mid = Math.floor((last + beyond) / 2);
    if (await ends(mid)) beyond = mid;
    else last = mid;
  }
  for (let n = last; n > Math.max(first, last - 3); n--) await read(n);
  // From the end inward (the tail of a newest-first listing is where long-standing workflows are).
  const order = [...pages.keys()]
    .filter((n) => n <= last && !(n !== first && repeatsFirst(pages.get(n)!)))
    .sort((a, b) => b - a);
  return {
    items: order.flatMap((n) => [...pages.get(n)!].reverse()),
    pagesRead: pages.size,
    capped: beyond === undefined,
    first,
  };
}

/**
 * Items whose title names a missing behaviour come first, then the rest in the sample's order (a title
 * that only hints at one, "Archived report", is no reason to read it before the plans the other roles
 * need: thousands may say so); for a missing behaviour whose word no title in the sample says, its
 * words are searched.
 */
async function prioritise(
  found: Found,
  sample: SearchItem[],
  probes: string[],
  firstPage: number,
): Promise<SearchItem[]> {
  const missing = found.missingBehaviours();
  const said = (b: SpecialBehaviour) => sample.some((i) => titleSuggests(i?.title ?? '', b) === 2);
  const probed: SearchItem[] = [];
  for (const keyword of missing.filter((b) => !said(b)).flatMap((b) => PROBE_WORDS[b])) {
    probes.push(keyword);
    probed.push(...((await found.search({ keyword, page: firstPage }, `discovery keyword "${keyword}"`)) ?? []));
  }
  const all = [...probed, ...sample].filter((i) => i && typeof i.canvasId === 'string');
  const named = (i: SearchItem) => trialTier(typeof i.title === 'string' ? i.title : '', missing) === 2;
  const seen = new Set<string>();
  return [...all.filter(named), ...all.filter((i) => !named(i))].filter(
    (i) => !seen.has(i.canvasId) && seen.add(i.canvasId),
  );
}

/** Reads details until every role a plan can fill is filled and the sample is large enough, or the budget is spent. */
async function readLazily(found: Found, items: SearchItem[]): Promise<void> {
  const budgetEnd = found.details + MAX_DETAILS;
  for (const item of items) {
    if (found.details >= budgetEnd) return;
    if (found.missingFromPlans().length === 0 && found.byId.size >= SAMPLE_MIN) return;
    await found.read(item.canvasId, item.title ?? '');
  }
}

interface Trials {
  tried: Tried[];
  footprint: DiscoverySummary['trialFootprint'];
}

const NO_TRIAL: Trials = { tried: [], footprint: { executionsStarted: 0, executionsAborted: 0, requests: 0, ms: 0 } };

/** A workflow the trial may run: read already, or only listed (its plan is read when its turn comes). */
export interface Candidate {
  canvasId: string;
  title: string;
  tasks?: number;
}

/**
 * The order candidates are tried in: a title that names a missing behaviour first (then one that hints
 * at it), the longest plans first while the slow role is missing (more tasks, more time running), and
 * otherwise a seeded order — the same on every replay of a seed, and no preference for what a listing
 * happens to put first.
 */
export function trialOrder(
  pool: readonly Candidate[],
  missing: readonly SpecialBehaviour[],
  seed: number,
): Candidate[] {
  const shuffled = seededFaker(seed, 'discovery trial order').helpers.shuffle([...pool]);
  const tier = (c: Candidate) => trialTier(c.title, missing);
  const length = (c: Candidate) => (missing.includes('long-running') ? (c.tasks ?? 0) : 0);
  return shuffled.sort((a, b) => tier(b) - tier(a) || length(b) - length(a));
}

/**
 * Runs workflows never run before until every role of behaviour is filled or the trial's budget is
 * spent: the plans read and the listed workflows not read yet, in trial order. What each showed becomes
 * its behaviour, and how long it was seen running, its time.
 */
async function tryForBehaviours(found: Found, listed: readonly SearchItem[], config: RunConfig): Promise<Trials> {
  const missing = found.missingBehaviours();
  if (missing.length === 0) return NO_TRIAL;
  const pool = new Map<string, Candidate>();
  for (const w of found.byId.values())
    if (w.behaviour === undefined)
      pool.set(w.canvasId, { canvasId: w.canvasId, title: w.title, tasks: w.plan?.tasks.length });
  for (const i of listed)
    if (!pool.has(i.canvasId) && !found.byId.has(i.canvasId))
      pool.set(i.canvasId, { canvasId: i.canvasId, title: typeof i.title === 'string' ? i.title : '' });
  const budget = { ...DEFAULT_TRIAL_BUDGET, ...config.trialBudget };
  const order = trialOrder([...pool.values()], missing, config.seed);
  // Titles that name a missing behaviour are tried first, on their own: the rest only if they do not show it.
  const ranks = order.map((c) => (trialTier(c.title, missing) === 2 ? 0 : 1));
  // Outputs are read as executions end: an account where only some workflows write files has its writer found.
  const options = trialOptions(config.pollIntervalMs, { seek: missing, budget, ranks, readOutput: true });
  const titles = new Map(order.map((c) => [c.canvasId, c.title]));
  const faker = seededFaker(config.seed, 'discovery trial');
  const detailsBefore = found.details;
  const done = await tryWorkflows(
    found.api,
    faker,
    order.map((c) => c.canvasId),
    options,
    (id) => found.read(id, titles.get(id) ?? '', 'discovery trial detail'),
    () => found.details,
  );
  const f = done.report.footprint;
  const out: Trials = {
    tried: [],
    footprint: {
      executionsStarted: f.executionsStarted,
      executionsAborted: f.executionsAborted,
      requests: f.requests,
      ms: done.ms,
      budget,
      untried: done.report.untried,
      ...(done.report.stoppedBy ? { stoppedBy: done.report.stoppedBy } : {}),
      detailsRead: found.details - detailsBefore,
    },
  };
  for (const t of done.report.trials) {
    const wf = found.byId.get(t.canvasId);
    const shown = describeOutcome(t.outcome);
    if (wf) {
      wf.shown = shown;
      if (t.behaviour) wf.behaviour = t.behaviour;
      if (t.ranMs !== undefined) wf.ranMs = t.ranMs;
      if (t.wroteFiles !== undefined) wf.writesFiles = t.wroteFiles;
    }
    out.tried.push({
      canvasId: t.canvasId,
      title: wf?.title ?? titles.get(t.canvasId) ?? '',
      shown,
      behaviour: t.behaviour,
    });
  }
  return out;
}

/** What a search of the account found and did: the listing's sample, its keyword probes, the trial, what it made. */
interface Searched {
  sample: Sample;
  keywordProbes: string[];
  trials: Trials;
  making: Making;
}

const NOT_SEARCHED: Searched = {
  sample: { items: [], pagesRead: 0, capped: false, first: 1 },
  keywordProbes: [],
  trials: NO_TRIAL,
  making: { made: [], asked: [] },
};

/** Steps 3 to 5: the listing sampled and read, the trial, and what the account lacks made. */
async function search(found: Found, config: RunConfig, options: DiscoverOptions): Promise<Searched> {
  const keywordProbes: string[] = [];
  const sample = await sampleListing(found);
  await readLazily(found, await prioritise(found, sample.items, keywordProbes, sample.first));
  const trials = options.trial !== false ? await tryForBehaviours(found, sample.items, config) : NO_TRIAL;
  const making =
    (options.make ?? options.trial) !== false && found.missingFromPlans().length > 0
      ? await makeMissing(
          found.api,
          () => found.missing(),
          (id) => found.read(id, '', 'discovery: the workflow made'),
          () => found.byId.values(),
        )
      : NOT_SEARCHED.making;
  return { sample, keywordProbes, trials, making };
}

function shouldSearch(missing: Role[], memory: DiscoveryMemory | undefined, gone: number): boolean {
  if (!memory) return true;
  if (missing.length === 0) return false;
  // Roles this account had none of last time are looked for again only once a week, unless a remembered canvas is gone.
  const recent = Date.now() - Date.parse(memory.savedAt) < RESEARCH_MISSING_AFTER_MS;
  const knownAbsent = missing.every((r) => memory.missingRoles.includes(r));
  return gone > 0 || !(recent && knownAbsent);
}

/** What this run learned, for the next: every workflow read (configured ones aside) with its roles and what its trial showed. */
function remember(
  file: string,
  baseUrl: string,
  apiKey: string,
  workflows: readonly Workflow[],
  configured: readonly string[],
  missingRoles: Role[],
): void {
  writeMemory(file, {
    version: 1,
    baseUrl,
    keyFingerprint: keyFingerprint(apiKey),
    savedAt: new Date().toISOString(),
    workflows: workflows
      .filter((w) => !configured.includes(w.canvasId))
      .map((w) => ({
        canvasId: w.canvasId,
        title: w.title,
        roles: rolesOf(w),
        ...(w.behaviour ? { behaviour: w.behaviour, shown: w.shown ?? '' } : {}),
        ...(w.ranMs !== undefined ? { ranMs: w.ranMs } : {}),
        ...(w.writesFiles !== undefined ? { writesFiles: w.writesFiles } : {}),
        ...(w.made ? { made: true } : {}),
      })),
    missingRoles,
  });
}

export interface DiscoverOptions {
  /** The key whose memory is read and written (default config.apiKey: tenant B's discovery gives its own). */
  apiKey?: string;
  /** Run candidates to fill the roles of behaviour (default true). */
  trial?: boolean;
  /** Make, through generate, a workflow for each role a plan fills and the account lacks (default: as `trial`). */
  make?: boolean;
}

/** What configuration says a canvas does: WFCHECK_DISABLED_CANVAS_ID is disabled, WFCHECK_ABORT_CANVAS_ID long-running. */
function configuredBehaviour(config: RunConfig, canvasId: string): Pick<Workflow, 'behaviour' | 'shown'> {
  if (canvasId === config.disabledCanvasId)
    return { behaviour: 'disabled', shown: `configured (${ENV.disabledCanvasId})` };
  if (canvasId === config.abortCanvasId)
    return { behaviour: 'long-running', shown: `configured (${ENV.abortCanvasId})` };
  return {};
}

export async function discoverWorkflows(
  api: ApiClient,
  config: RunConfig,
  options: DiscoverOptions = {},
): Promise<Discovery> {
  const apiKey = options.apiKey ?? config.apiKey;
  const found = new Found(api);
  const configured = [...config.canvasIds, config.abortCanvasId, config.disabledCanvasId].filter(
    (id): id is string => !!id,
  );
  for (const id of configured) await found.read(id, '', 'configured canvas', configuredBehaviour(config, id));

  const file =
    config.cacheDir && config.targetKind === 'external'
      ? memoryFile(config.cacheDir, config.baseUrl, apiKey)
      : undefined;
  const memory = file ? readMemory(file, config.baseUrl, apiKey) : undefined;
  let gone = 0;
  for (const w of memory?.workflows ?? []) if (!(await found.read(w.canvasId, w.title, 'remembered canvas', w))) gone++;

  const searched = shouldSearch(found.missing(), memory, gone);
  const { sample, keywordProbes, trials, making } = searched ? await search(found, config, options) : NOT_SEARCHED;
  const workflows = [...found.byId.values()].sort(
    (a, b) =>
      Number(!configured.includes(a.canvasId)) - Number(!configured.includes(b.canvasId)) ||
      a.canvasId.localeCompare(b.canvasId),
  );
  const roles: Partial<Record<Role, string>> = {};
  for (const w of byRunTime(workflows)) for (const r of rolesOf(w)) roles[r] ??= w.canvasId;
  const missingRoles = found.missing();
  if (file && (searched || gone > 0 || !memory))
    remember(file, config.baseUrl, apiKey, workflows, configured, missingRoles);
  // This run's trials, or, on a run that tried nothing, what earlier trials showed.
  const tried: Tried[] = searched
    ? trials.tried
    : workflows
        .filter((w) => w.behaviour && !configured.includes(w.canvasId))
        .map((w) => ({ canvasId: w.canvasId, title: w.title, shown: w.shown ?? '', behaviour: w.behaviour }));
  const summary: DiscoverySummary = {
    memory: !file ? 'off' : !memory ? 'none' : searched ? 'used and extended' : 'used',
    remembered: memory?.workflows.length ?? 0,
    gone,
    searches: found.searches,
    details: found.details,
    keywordProbes,
    roles,
    missingRoles,
    tried,
    trialFootprint: trials.footprint,
    made: making.made,
    unfilled: Object.fromEntries(
      missingRoles.map((r) => [
        r,
        unfilledWhy(r, {
          plansRead: workflows.length,
          tried,
          trialsOff: options.trial === false,
          madeTried: making.asked.includes(r),
          shapeHeld: shapeHeld(r, workflows),
          rememberedSince: searched ? undefined : memory?.savedAt,
        }),
      ]),
    ),
  };
  // Capped: the listing's end was out of reach, or the detail budget ran out with roles still missing.
  return {
    workflows,
    pagesRead: sample.pagesRead,
    capped: sample.capped || (missingRoles.length > 0 && sample.items.some((i) => !found.byId.has(i.canvasId))),
    summary,
  };
}
