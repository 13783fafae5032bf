/**
 * Search and detail (§4.5, §4.6): keyword applied and searched in titles,
 * 1-based pages, pageSize honoured, pages disjoint and stable; the values of the
 * open points (order, default and maximum page size, page 0) are observed — those
 * probes name their open point, so no answer to them fails a status clause.
 * The suite sends the requests and reads the listing; its judges decide (core/judging/search.ts).
 *
 * The listing is not ours: canvases are created (by this run's generate tests, by anyone) while
 * these tests read it. A verdict that compares reads taken at different times is only given on
 * reads during which the listing held still; otherwise the clause is "not run", never failed.
 */
import type { Faker } from '@faker-js/faker';
import { test } from '../suite.ts';
import type { SearchItem } from '../../core/judging/payloads.ts';
import type { Stop } from '../../core/judging/stops.ts';
import { listOf, searchAll } from '../../core/discovery/listing.ts';
import type { Workflow } from '../../core/discovery/workflows.ts';
import {
  detailsUnusable,
  findingsOf,
  foreignInListing,
  idsOf,
  judgeDetail,
  judgeDiscoveredPlan,
  judgeFirstPageEvidence,
  judgeKeywordApplied,
  judgeKeywordFindsTitle,
  judgeKeywordInTitle,
  judgeWalks,
  keywordUnusable,
  noKeywordToSearch,
  observeDefaultPageSize,
  observeOrder,
  observePageSize,
  observePageZero,
  pagingUnusable,
  removedMeanwhile,
  SEARCH_PROBES,
  unfoundBy,
  type Findings,
  type MissedAgain,
  type PageRead,
  type Walk,
  type Walked,
  type Window,
} from '../../core/judging/search.ts';
import type { ApiClient } from '../../core/client/client.ts';
import type { Verdict } from '../../core/evidence/verdict.ts';

const same = (a: readonly string[], b: readonly string[]) => JSON.stringify(a) === JSON.stringify(b);

/** Walks of the pages tried before the listing is taken to be moving too much to judge paging on. */
const MAX_WALKS = 3;
const MAX_WALK_PAGES = 40;

/** With a second key: the workflows of tenant A's listing that tenant B's search lists too. */
async function listedForBoth(apiB: ApiClient | undefined, items: SearchItem[]): Promise<SearchItem[]> {
  if (!apiB) return [];
  const theirs = new Set(idsOf((await searchAll(apiB)).items));
  return items.filter((i) => theirs.has(i.canvasId));
}

// ---- paging: a walk through the pages, taken while the listing held still -------------------------

async function readPage(
  api: ApiClient,
  page: number,
  pageSize: number,
  label: string,
): Promise<{ read?: PageRead; stop?: Stop }> {
  const ex = await api.search({ page, pageSize }, { label });
  const { items, stop } = listOf(ex);
  return items ? { read: { page, ids: idsOf(items), exchangeId: ex.record.id } } : { stop };
}

/** Pages 1, 2, … of `pageSize` until an empty one or `maxPages`, then page 1 again. */
async function walkPages(api: ApiClient, pageSize: number, maxPages: number): Promise<{ walk?: Walk; stop?: Stop }> {
  const pages: PageRead[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const { read, stop } = await readPage(api, page, pageSize, `walk: page ${page} of ${pageSize}`);
    if (!read) return { stop };
    pages.push(read);
    if (read.ids.length === 0) break;
  }
  const again = await readPage(api, 1, pageSize, `walk: page 1 of ${pageSize} again`);
  return { walk: { pages, ended: pages[pages.length - 1].ids.length === 0, again: again.read, againStop: again.stop } };
}

async function walkWindow(
  api: ApiClient,
  pageSize: number,
  maxPages: number,
): Promise<{ window?: Window; stop?: Stop }> {
  const limit = maxPages * pageSize;
  const before = await searchAll(api, {}, { limit, label: 'listing before the walk' });
  if (before.stop) return { stop: before.stop };
  const { walk, stop } = await walkPages(api, pageSize, maxPages);
  if (!walk) return { stop };
  const after = await searchAll(api, {}, { limit, label: 'listing after the walk' });
  if (after.stop) return { stop: after.stop };
  return { window: { walk, before: idsOf(before.items), still: same(idsOf(before.items), idsOf(after.items)) } };
}

/**
 * Walks until one is taken while the listing held still (it read the same before and after). A walk
 * that shows a deviation is walked again: a deviation of the target shows on every still walk, while
 * a change that came and went during one walk does not. At most MAX_WALKS walks.
 */
async function settledWalk(api: ApiClient, pageSize: number, maxPages: number, off: boolean): Promise<Walked> {
  let deviantOnce: Findings | undefined;
  let moved = 0;
  let last: Window | undefined;
  for (let attempt = 1; attempt <= MAX_WALKS; attempt++) {
    const { window, stop } = await walkWindow(api, pageSize, maxPages);
    if (!window) return { stop };
    last = window;
    if (!window.still) {
      moved++;
      continue;
    }
    const findings = findingsOf(window, pageSize, off);
    if (!findings.deviant || deviantOnce) return { findings };
    deviantOnce = findings;
  }
  const unsettled = deviantOnce
    ? `a deviation seen on one walk of the pages was not seen again on a walk while the listing held still (it changed during ${moved} of ${MAX_WALKS} walks)`
    : `the listing changed during each of ${MAX_WALKS} walks of the pages (workflows created or updated meanwhile): pages read at different times cannot be compared`;
  return { last, unsettled };
}

test('pages are 1-based, hold at most pageSize items, are disjoint and stable [SEARCH-PAGE-1-BASED] [SEARCH-PAGESIZE-HONOURED] [SEARCH-PAGES-DISJOINT] [SEARCH-PAGES-STABLE]', async ({
  api,
  apiB,
  verdict,
}) => {
  const all = await searchAll(api);
  const shared = all.stop ? [] : await listedForBoth(apiB, all.items);
  if (pagingUnusable(verdict, all, shared)) return;
  const total = all.items.length;
  // Judged before the skip: a 0-based target's page=1 can be empty, which would otherwise look like "too few workflows".
  const off = judgeFirstPageEvidence(verdict, all);
  test.skip(total < 2, `paging needs at least 2 workflows reachable by the key; search listed ${total}`);
  const pageSize = Math.max(1, Math.min(5, Math.floor(total / 2)));
  const maxPages = Math.min(MAX_WALK_PAGES, Math.ceil(total / pageSize) + 1);
  judgeWalks(verdict, await settledWalk(api, pageSize, maxPages, off), pageSize, off);
  observePageZero(verdict, await api.search({ page: 0, pageSize }, SEARCH_PROBES.pageZero));
});

// ---- keyword --------------------------------------------------------------------------------------

/** Titles holding a word: a rare word keeps the keyword's listing short enough to be read whole. */
function keywordFrom(faker: Faker, items: SearchItem[]): string | undefined {
  const words = [
    ...new Set(items.flatMap((i) => (i.title ?? '').split(/[^\p{L}\p{N}]+/u)).filter((w) => w.length >= 4)),
  ];
  if (words.length === 0) return undefined;
  const titlesWith = (w: string) => items.filter((i) => (i.title ?? '').toLowerCase().includes(w.toLowerCase())).length;
  const rare = words.filter((w) => titlesWith(w) <= 20);
  return faker.helpers.arrayElement(rare.length ? rare : words);
}

/**
 * The listed workflows a keyword search did not find are looked for again: the listing before, the keyword
 * searched once more, the listing after (a workflow renamed or removed in the meantime was not missed).
 */
async function searchAgain(api: ApiClient, keyword: string): Promise<MissedAgain> {
  const before = await searchAll(api, {}, { label: 'listing before the keyword is searched again' });
  const again = await searchAll(api, { keyword }, { label: `keyword "${keyword}" again` });
  const after = await searchAll(api, {}, { label: 'listing after the keyword is searched again' });
  return { before, again, after };
}

async function findsTitle(
  api: ApiClient,
  verdict: Verdict,
  all: Awaited<ReturnType<typeof searchAll>>,
  keyword: string,
) {
  const exact = await searchAll(api, { keyword });
  const missed = exact.stop || exact.capped ? [] : unfoundBy(keyword, all, exact);
  judgeKeywordFindsTitle(verdict, keyword, all, exact, missed.length ? await searchAgain(api, keyword) : undefined);
}

test('a keyword is applied, and finds the workflows whose titles contain it, and only those [SEARCH-KEYWORD-APPLIED] [SEARCH-KEYWORD-IN-TITLE] [SEARCH-KEYWORD-FINDS-TITLE]', async ({
  api,
  verdict,
  faker,
}) => {
  const all = await searchAll(api);
  if (keywordUnusable(verdict, all)) return;
  test.skip(
    all.items.length === 0,
    'search lists no workflow for this key: an ignored keyword would look the same as an applied one',
  );
  // Twenty random letters are in no title, whatever is created meanwhile: only a target that ignores the keyword lists anything.
  const nonsense = faker.string.alpha({ length: 20, casing: 'lower' });
  const probe = await api.search({ keyword: nonsense });
  if (!judgeKeywordApplied(verdict, nonsense, probe, all)) return;
  const keyword = keywordFrom(faker, all.items);
  if (!keyword) return noKeywordToSearch(verdict);
  for (const variant of [keyword, keyword.toUpperCase()])
    if (!judgeKeywordInTitle(verdict, variant, await searchAll(api, { keyword: variant }))) return;
  await findsTitle(api, verdict, all, keyword);
});

// ---- open points ----------------------------------------------------------------------------------

test('order values and page-size limits are observed [SEARCH-ORDER-VALUES] [SEARCH-PAGESIZE-DEFAULT] [SEARCH-PAGESIZE-MAX]', async ({
  api,
  verdict,
}) => {
  const all = await searchAll(api);
  const base = idsOf(listOf(await api.search({ page: 1, pageSize: 50 })).items);
  // Every value of order is a probe: the allowed values are not shown.
  for (const order of ['asc', 'desc', 'createdAt', 'updatedAt', 'title', '-createdAt', 'newest', 'not-an-order'])
    observeOrder(verdict, order, await api.search({ order, page: 1, pageSize: 50 }, SEARCH_PROBES.order(order)), base);
  observeDefaultPageSize(verdict, await api.search({}), all.items.length);
  // Sizes beyond any maximum or below one, and values that are no numbers: how they are answered is not shown.
  for (const size of [1000, 0, -1]) {
    const ex = await api.search({ page: 1, pageSize: size }, SEARCH_PROBES.pageSize(size));
    observePageSize(verdict, `pageSize=${size}`, ex, all.items.length);
  }
  const junk = await api.search({ page: 'abc', pageSize: 'xyz' }, SEARCH_PROBES.junkPaging);
  observePageSize(verdict, 'page=abc&pageSize=xyz', junk, all.items.length);
});

// ---- detail ---------------------------------------------------------------------------------------

/**
 * The plans discovery chose are coherent too. In a crowded account the head of the listing may hold only
 * plain workflows (no options, one task): the ones discovery found for their roles are those that can
 * break the plan clauses, whatever their place in the listing.
 */
async function readDiscoveredPlans(
  api: ApiClient,
  verdict: Verdict,
  workflows: Workflow[],
  asked: Set<string>,
): Promise<void> {
  for (const wf of workflows.filter((w) => !asked.has(w.canvasId)))
    judgeDiscoveredPlan(
      verdict,
      wf.canvasId,
      await api.detail(wf.canvasId, { label: 'detail of a discovered workflow' }),
    );
}

test('every listed workflow has a detail, and its plan is coherent [DETAIL-FOR-SEARCH-ITEM] [PLAN-DEPENDENCIES-EXIST] [PLAN-OPTIONS-ONLY-FOR-OPTION]', async ({
  api,
  apiB,
  verdict,
  discovery,
}) => {
  const all = await searchAll(api);
  const judged = new Set(all.items.slice(0, 40).map((i) => i.canvasId));
  await readDiscoveredPlans(api, verdict, discovery.workflows, judged);
  if (detailsUnusable(verdict, all)) return;
  test.skip(all.items.length === 0, 'search lists no workflow for this key');
  const shared = await listedForBoth(apiB, all.items);
  foreignInListing(verdict, shared);
  const gone: SearchItem[] = [];
  const asked = all.items.filter((i) => !shared.includes(i)).slice(0, 40);
  for (const item of asked) {
    const ex = await api.detail(item.canvasId);
    // "Not found" for a listed workflow may be a workflow removed since the listing was read: asked again below.
    if (ex.status === 404) gone.push(item);
    else judgeDetail(verdict, item, ex, `detail of listed workflow ${item.canvasId}`);
  }
  if (gone.length === 0) return;
  const fresh = await searchAll(api, {}, { label: 'listing after a detail was not found' });
  // A listing read short by a deviation cannot tell a removed workflow from a listed one: each is asked again.
  const listed = fresh.stop ? gone : gone.filter((i) => fresh.items.some((x) => x.canvasId === i.canvasId));
  for (const item of listed)
    judgeDetail(
      verdict,
      item,
      await api.detail(item.canvasId),
      `detail of workflow ${item.canvasId}, still listed after its detail was not found`,
    );
  removedMeanwhile(verdict, gone.length - listed.length, gone.length, asked.length);
});
