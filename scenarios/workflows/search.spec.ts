/**
 * Search and detail (§4.5, §4.6): keyword applied and searched in titles,
 * 1-based pages, pageSize honoured, pages disjoint and stable; the values of the
 * open points (order, default and maximum page size, page 0) are observed — those
 * probes name their open point, so no answer to them fails a status clause.
 *
 * The listing is not ours: canvases are created (by this run's generate tests, by anyone) while
 * these tests read it. A verdict that compares reads taken at different times is only given on
 * reads during which the listing held still; otherwise the clause is "not run", never failed.
 */
import type { Faker } from '@faker-js/faker';
import { test } from '../fixtures.ts';
import {
  accepted,
  dataOf,
  describe,
  stopAll,
  type SearchItem,
  type Stop,
  type WorkflowPlan,
} from '../../engine/live/judging/judging.ts';
import { listOf, searchAll, type SearchListing } from '../../engine/live/discovery/listing.ts';
import type { Workflow } from '../../engine/live/discovery/workflows.ts';
import { checkPlanSemantics } from '../../engine/live/judging/plans.ts';
import type { ApiClient } from '../../engine/live/client/client.ts';
import type { Exchange } from '../../engine/live/transport/exchange.ts';
import type { Verdict } from '../../engine/evidence/verdict.ts';

const ids = (items: SearchItem[] | undefined) => (items ?? []).map((i) => i.canvasId);
const same = (a: readonly string[], b: readonly string[]) => JSON.stringify(a) === JSON.stringify(b);
/** The items of a search answer however it carried them (its shape is the contract checks' finding). */
const itemsIn = (ex: Exchange) => listOf(ex).items;

/** A detail is accepted when served with a plan (tasks an array; the rest is the contract checks'). */
const PLAN = {
  carries: 'a plan',
  read: (data: unknown) =>
    Array.isArray((data as WorkflowPlan | null | undefined)?.tasks) ? (data as WorkflowPlan) : undefined,
};

const PAGING = ['SEARCH-PAGE-1-BASED', 'SEARCH-PAGESIZE-HONOURED', 'SEARCH-PAGES-DISJOINT', 'SEARCH-PAGES-STABLE'];
/** Walks of the pages tried before the listing is taken to be moving too much to judge paging on. */
const MAX_WALKS = 3;
const MAX_WALK_PAGES = 40;

/**
 * With a second key: the workflows of tenant A's listing that tenant B's search lists too. A listing
 * holding another tenant's workflows is SEARCH-TENANT-SCOPED's failure (the isolation suite judges
 * it); page sizes and page contents counted over it would fail the paging clauses a second time.
 */
async function foreignListed(
  apiB: ApiClient | undefined,
  items: SearchItem[],
): Promise<{ shared: Set<string>; stop?: Stop }> {
  if (!apiB) return { shared: new Set() };
  const theirs = new Set(ids((await searchAll(apiB)).items));
  const shared = items.filter((i) => theirs.has(i.canvasId));
  const stop = shared.length
    ? {
        blockedBy: 'SEARCH-TENANT-SCOPED',
        reason: `tenant A's listing holds ${shared.length} workflows tenant B's search lists too (${ids(shared).slice(0, 3).join(', ')}…)`,
      }
    : undefined;
  return { shared: new Set(ids(shared)), stop };
}

// ---- paging: a walk through the pages, taken while the listing held still -------------------------

interface PageRead {
  page: number;
  ids: string[];
  exchangeId: string;
}

interface Walk {
  /** Every page read, the empty one that ended the walk included. */
  pages: PageRead[];
  /** An empty page ended the walk (not the page cap): what it did not reach, it could not reach. */
  ended: boolean;
  /** Page 1 read again right after the walk. */
  again?: PageRead;
  againStop?: Stop;
}

/** A walk, with the listing's prefix the walk can reach read before and after it. */
interface Window {
  walk: Walk;
  /** The listing before the walk, as far as the walk can reach. */
  before: string[];
  still: boolean;
}

async function readPage(
  api: ApiClient,
  page: number,
  pageSize: number,
  label: string,
): Promise<{ read?: PageRead; stop?: Stop }> {
  const ex = await api.search({ page, pageSize }, { label });
  const { items, stop } = listOf(ex);
  return items ? { read: { page, ids: ids(items), exchangeId: ex.record.id } } : { stop };
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
  return { window: { walk, before: ids(before.items), still: same(ids(before.items), ids(after.items)) } };
}

/** What one walk shows against the listing as it held still; `deviant` when any judged clause would be flagged. */
interface Findings {
  window: Window;
  /** Undefined when page 1 was already judged on the first-page evidence (a 0-based target). */
  pageOne?: { ok: boolean; expected: string[]; actual: PageRead };
  /** Why disjointness cannot be judged: pages that overlap or skip by construction, judged as themselves. */
  skewed?: Stop;
  dupes: string[];
  missing: string[];
  deviant: boolean;
}

function oversized(walk: Walk, pageSize: number): PageRead | undefined {
  return walk.pages.find((p) => p.ids.length > pageSize);
}

function findingsOf(window: Window, pageSize: number, off: boolean): Findings {
  const { walk, before } = window;
  const first = walk.pages[0];
  const expected = before.slice(0, first.ids.length);
  const pageOne = off ? undefined : { ok: first.ids.length > 0 && same(first.ids, expected), expected, actual: first };
  const big = oversized(walk, pageSize);
  const skewed: Stop | undefined =
    off || (pageOne && !pageOne.ok)
      ? { blockedBy: 'SEARCH-PAGE-1-BASED', reason: 'page=1 lacks the first items of the listing' }
      : big
        ? {
            blockedBy: 'SEARCH-PAGESIZE-HONOURED',
            reason: `page ${big.page} holds ${big.ids.length} items for pageSize ${pageSize}`,
          }
        : undefined;
  const flat = walk.pages.flatMap((p) => p.ids);
  const dupes = [...new Set(flat.filter((id, i) => flat.indexOf(id) !== i))];
  // Only what the walk could reach: the whole listing when an empty page ended it, else as many
  // positions as its pages held (pages smaller than asked, or the page cap, stop short by design).
  const reachable = walk.ended ? before : before.slice(0, flat.length);
  const missing = reachable.filter((id) => !flat.includes(id));
  const unstable = walk.again !== undefined && !same(walk.again.ids, first.ids);
  const deviant =
    (pageOne !== undefined && !pageOne.ok) || (!skewed && (dupes.length > 0 || missing.length > 0)) || unstable;
  return { window, pageOne, skewed, dupes, missing, deviant };
}

/**
 * Walks until one is taken while the listing held still (it read the same before and after). A walk
 * that shows a deviation is walked again: a deviation of the target shows on every still walk, while
 * a change that came and went during one walk does not. At most MAX_WALKS walks.
 */
async function settledWalk(
  api: ApiClient,
  pageSize: number,
  maxPages: number,
  off: boolean,
): Promise<{ findings?: Findings; last?: Window; unsettled?: string; stop?: Stop }> {
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

function judgePageSizes(verdict: Verdict, walk: Walk, pageSize: number): void {
  // A page never grows because the listing moved: sizes are judged on any walk.
  for (const p of walk.pages) {
    verdict.must('SEARCH-PAGESIZE-HONOURED', p.ids.length <= pageSize, {
      message: `page ${p.page} with pageSize ${pageSize}`,
      expected: `at most ${pageSize} items`,
      actual: `${p.ids.length} items`,
      exchangeId: p.exchangeId,
    });
  }
}

function judgeFindings(verdict: Verdict, f: Findings, pageSize: number): void {
  const { walk, before } = f.window;
  if (f.pageOne) {
    verdict.must('SEARCH-PAGE-1-BASED', f.pageOne.ok, {
      message: `page=1 holds the first items of the listing (${before.length} workflows read before the walk)`,
      expected: f.pageOne.expected.join(', '),
      actual: f.pageOne.actual.ids.join(', ') || '(empty page)',
      exchangeId: f.pageOne.actual.exchangeId,
    });
  }
  const nonEmpty = walk.pages.filter((p) => p.ids.length > 0).length;
  const against = walk.ended
    ? `the listing of ${before.length}`
    : `the first ${walk.pages.flatMap((p) => p.ids).length} positions of the listing (the walk stops at ${walk.pages.length} pages)`;
  if (f.skewed) stopAll(verdict, ['SEARCH-PAGES-DISJOINT'], f.skewed);
  else
    verdict.should('SEARCH-PAGES-DISJOINT', f.dupes.length === 0 && f.missing.length === 0, {
      message: `${nonEmpty} pages of ${pageSize} against ${against}, which held still during the walk`,
      expected: 'pages disjoint and together the listing',
      actual: `repeated: ${f.dupes.join(', ') || 'none'}; never reached: ${f.missing.join(', ') || 'none'}`,
    });
  if (!walk.again) {
    stopAll(verdict, ['SEARCH-PAGES-STABLE'], walk.againStop!);
    return;
  }
  verdict.should('SEARCH-PAGES-STABLE', same(walk.again.ids, walk.pages[0].ids), {
    message: 'page 1 read twice while the listing held still',
    expected: walk.pages[0].ids.join(', '),
    actual: walk.again.ids.join(', '),
    exchangeId: walk.again.exchangeId,
  });
}

/** No walk held still: sizes are still judged; what compares reads is not run, unless a deviation already blocks it. */
function judgeUnsettled(verdict: Verdict, last: Window, pageSize: number, off: boolean, reason: string): void {
  judgePageSizes(verdict, last.walk, pageSize);
  if (!off) verdict.notRun('SEARCH-PAGE-1-BASED', reason);
  const big = oversized(last.walk, pageSize);
  const skewed = off
    ? { blockedBy: 'SEARCH-PAGE-1-BASED', reason: 'page=1 lacks the first items of the listing' }
    : big
      ? {
          blockedBy: 'SEARCH-PAGESIZE-HONOURED',
          reason: `page ${big.page} holds ${big.ids.length} items for pageSize ${pageSize}`,
        }
      : undefined;
  stopAll(verdict, ['SEARCH-PAGES-DISJOINT'], skewed ?? { reason });
  verdict.notRun('SEARCH-PAGES-STABLE', reason);
}

function judgeFirstPageEvidence(verdict: Verdict, all: SearchListing): boolean {
  const off = all.notOneBased;
  if (!off) return false;
  verdict.must('SEARCH-PAGE-1-BASED', false, {
    message: `page=1 lacks the first items of the listing (search without page${off.zeroBased ? '; page=0 holds them: the target counts pages from 0' : ''})`,
    expected: off.firstItems.join(', '),
    actual: off.pageOne.join(', ') || '(empty page)',
    exchangeId: off.exchangeIds[0],
  });
  return true;
}

test('pages are 1-based, hold at most pageSize items, are disjoint and stable [SEARCH-PAGE-1-BASED] [SEARCH-PAGESIZE-HONOURED] [SEARCH-PAGES-DISJOINT] [SEARCH-PAGES-STABLE]', async ({
  api,
  apiB,
  verdict,
}) => {
  const all = await searchAll(api);
  // A listing cut short by an answer that deviated, or holding another tenant's workflows, is no yardstick.
  const unusable = all.stop ?? (await foreignListed(apiB, all.items)).stop;
  if (unusable) return stopAll(verdict, PAGING, unusable);
  const total = all.items.length;
  // Judged before the skip: a 0-based target's page=1 can be empty, which would otherwise look like "too few workflows".
  const off = judgeFirstPageEvidence(verdict, all);
  test.skip(total < 2, `paging needs at least 2 workflows reachable by the key; search listed ${total}`);
  const pageSize = Math.max(1, Math.min(5, Math.floor(total / 2)));
  const maxPages = Math.min(MAX_WALK_PAGES, Math.ceil(total / pageSize) + 1);
  const { findings, last, unsettled, stop } = await settledWalk(api, pageSize, maxPages, off);
  if (stop) stopAll(verdict, PAGING, stop);
  else if (findings) {
    judgePageSizes(verdict, findings.window.walk, pageSize);
    judgeFindings(verdict, findings, pageSize);
  } else judgeUnsettled(verdict, last!, pageSize, off, unsettled!);
  const page0 = await api.search(
    { page: 0, pageSize },
    { openPoint: 'SEARCH-PAGESIZE-DEFAULT', label: 'page=0 (below the 1-based range)' },
  );
  const items0 = itemsIn(page0);
  verdict.observe(
    'SEARCH-PAGESIZE-DEFAULT',
    'page=0 (below the 1-based range) answers',
    `${describe(page0)}${items0 ? `, ${items0.length} items` : ''}`,
    page0.record.id,
  );
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
 * Of the listed workflows a keyword search did not find, those it still misses while they are listed,
 * with the keyword in their title, both before and after a second search: a workflow renamed or
 * removed in the meantime was not missed.
 */
async function confirmMissed(
  api: ApiClient,
  keyword: string,
  missed: SearchItem[],
): Promise<{ missed: SearchItem[]; stop?: Stop }> {
  const before = await searchAll(api, {}, { label: 'listing before the keyword is searched again' });
  const again = await searchAll(api, { keyword }, { label: `keyword "${keyword}" again` });
  const after = await searchAll(api, {}, { label: 'listing after the keyword is searched again' });
  const stop = before.stop ?? again.stop ?? after.stop;
  if (stop) return { missed: [], stop };
  const listedWith = (l: SearchListing, i: SearchItem) =>
    l.items.some((x) => x.canvasId === i.canvasId && (x.title ?? '').includes(keyword));
  return {
    missed: missed.filter(
      (i) => listedWith(before, i) && listedWith(after, i) && !again.items.some((x) => x.canvasId === i.canvasId),
    ),
  };
}

async function judgeFindsTitle(api: ApiClient, verdict: Verdict, all: SearchListing, keyword: string): Promise<void> {
  const exact = await searchAll(api, { keyword });
  if (exact.stop) return stopAll(verdict, ['SEARCH-KEYWORD-FINDS-TITLE'], exact.stop);
  if (exact.capped)
    return verdict.notRun(
      'SEARCH-KEYWORD-FINDS-TITLE',
      `keyword "${keyword}" lists more workflows than the harness pages through: a workflow not reached is not missed`,
    );
  const expected = all.items.filter((i) => (i.title ?? '').includes(keyword));
  const unfound = expected.filter((i) => !exact.items.some((x) => x.canvasId === i.canvasId));
  const confirmed = unfound.length ? await confirmMissed(api, keyword, unfound) : { missed: [] };
  if (confirmed.stop) return stopAll(verdict, ['SEARCH-KEYWORD-FINDS-TITLE'], confirmed.stop);
  const { missed } = confirmed;
  verdict.should('SEARCH-KEYWORD-FINDS-TITLE', missed.length === 0, {
    message: `keyword "${keyword}" taken from listed titles`,
    expected: expected.map((i) => i.title).join(' | '),
    actual: missed.length
      ? `missed, while listed with that title before and after: ${missed.map((i) => i.title).join(' | ')}`
      : 'all found',
  });
}

test('a keyword is applied, and finds the workflows whose titles contain it, and only those [SEARCH-KEYWORD-APPLIED] [SEARCH-KEYWORD-IN-TITLE] [SEARCH-KEYWORD-FINDS-TITLE]', async ({
  api,
  verdict,
  faker,
}) => {
  const all = await searchAll(api);
  const BY_KEYWORD = ['SEARCH-KEYWORD-IN-TITLE', 'SEARCH-KEYWORD-FINDS-TITLE'];
  // A listing that an answer cut short before any item is no listing to compare a keyword with.
  if (all.stop && all.items.length === 0) return stopAll(verdict, ['SEARCH-KEYWORD-APPLIED', ...BY_KEYWORD], all.stop);
  test.skip(
    all.items.length === 0,
    'search lists no workflow for this key: an ignored keyword would look the same as an applied one',
  );
  // Twenty random letters are in no title, whatever is created meanwhile: only a target that ignores the keyword lists anything.
  const nonsense = faker.string.alpha({ length: 20, casing: 'lower' });
  const probe = await api.search({ keyword: nonsense });
  const answer = listOf(probe);
  if (!answer.items) return stopAll(verdict, ['SEARCH-KEYWORD-APPLIED', ...BY_KEYWORD], answer.stop!);
  const unfiltered = answer.items.length > 0 && ids(answer.items).every((id) => ids(all.items).includes(id));
  const applied = verdict.must('SEARCH-KEYWORD-APPLIED', answer.items.length === 0, {
    message: `keyword "${nonsense}", which no title contains (${all.items.length} workflows listed without a keyword)`,
    expected: 'no results',
    actual: `${answer.items.length} results${unfiltered ? ', from the unfiltered listing: the keyword is ignored' : ''}`,
    exchangeId: probe.record.id,
  });
  if (!applied)
    return stopAll(verdict, BY_KEYWORD, {
      blockedBy: 'SEARCH-KEYWORD-APPLIED',
      reason: 'the keyword is not applied, so what it matches cannot be judged',
    });

  const keyword = keywordFrom(faker, all.items);
  if (!keyword)
    return stopAll(verdict, BY_KEYWORD, { reason: 'no listed title has a word of 4+ letters to search for' });
  for (const variant of [keyword, keyword.toUpperCase()]) {
    const found = await searchAll(api, { keyword: variant });
    if (found.stop) return stopAll(verdict, BY_KEYWORD, found.stop);
    // Each result is judged on the title it is listed with in that very answer: a listing that moves cannot skew it.
    const outside = found.items.filter((i) => !(i.title ?? '').toLowerCase().includes(variant.toLowerCase()));
    verdict.should('SEARCH-KEYWORD-IN-TITLE', outside.length === 0, {
      message: `keyword "${variant}" (${found.items.length} results)`,
      expected: 'every title contains the keyword (case-insensitively)',
      actual: outside.map((i) => i.title).join(' | ') || 'all match',
    });
  }
  await judgeFindsTitle(api, verdict, all, keyword);
});

// ---- open points ----------------------------------------------------------------------------------

test('order values and page-size limits are observed [SEARCH-ORDER-VALUES] [SEARCH-PAGESIZE-DEFAULT] [SEARCH-PAGESIZE-MAX]', async ({
  api,
  verdict,
}) => {
  const all = await searchAll(api);
  const baseline = await api.search({ page: 1, pageSize: 50 });
  const base = ids(itemsIn(baseline));
  // Every value of order is a probe: the allowed values are not shown.
  for (const order of ['asc', 'desc', 'createdAt', 'updatedAt', 'title', '-createdAt', 'newest', 'not-an-order']) {
    const ex = await api.search(
      { order, page: 1, pageSize: 50 },
      { openPoint: 'SEARCH-ORDER-VALUES', label: `order=${order}` },
    );
    const got = itemsIn(ex);
    const shape = !got
      ? describe(ex)
      : same(ids(got), base)
        ? `${describe(ex)}, default order`
        : got.length === base.length
          ? `${describe(ex)}, different order`
          : `${describe(ex)}, ${got.length} items`;
    verdict.observe('SEARCH-ORDER-VALUES', `order=${order}`, shape, ex.record.id);
  }
  const dflt = await api.search({});
  const n = (itemsIn(dflt) ?? []).length;
  verdict.observe(
    'SEARCH-PAGESIZE-DEFAULT',
    'items without pageSize',
    n < all.items.length ? `${n} (of ${all.items.length})` : `${n} (all ${all.items.length}; default ≥ ${n})`,
    dflt.record.id,
  );
  // Sizes beyond any maximum or below one, and values that are no numbers: how they are answered is not shown.
  for (const size of [1000, 0, -1]) {
    const ex = await api.search(
      { page: 1, pageSize: size },
      { openPoint: 'SEARCH-PAGESIZE-MAX', label: `pageSize=${size}` },
    );
    const items = itemsIn(ex);
    verdict.observe(
      'SEARCH-PAGESIZE-MAX',
      `pageSize=${size}`,
      items ? `${describe(ex)}, ${items.length} items (of ${all.items.length})` : describe(ex),
      ex.record.id,
    );
  }
  const junk = await api.search(
    { page: 'abc', pageSize: 'xyz' },
    { openPoint: 'SEARCH-PAGESIZE-MAX', label: 'page=abc&pageSize=xyz' },
  );
  verdict.observe('SEARCH-PAGESIZE-MAX', 'page=abc&pageSize=xyz', describe(junk), junk.record.id);
});

// ---- detail ---------------------------------------------------------------------------------------

const DETAIL_CLAUSES = ['DETAIL-FOR-SEARCH-ITEM', 'PLAN-DEPENDENCIES-EXIST', 'PLAN-OPTIONS-ONLY-FOR-OPTION'];

function judgeDetail(verdict: Verdict, item: SearchItem, ex: Exchange, message: string): void {
  const plan = accepted(verdict, 'DETAIL-FOR-SEARCH-ITEM', ex, PLAN, message);
  if (plan.ok) checkPlanSemantics(verdict, plan.value, `the plan of ${item.canvasId}`, ex.record.id);
}

/**
 * The plans discovery chose are coherent too. In a crowded account the head of the listing may hold only
 * plain workflows (no options, one task): the ones discovery found for their roles are those that can
 * break the plan clauses, whatever their place in the listing.
 */
async function judgeDiscoveredPlans(
  api: ApiClient,
  verdict: Verdict,
  workflows: Workflow[],
  asked: Set<string>,
): Promise<void> {
  for (const wf of workflows.filter((w) => !asked.has(w.canvasId))) {
    const ex = await api.detail(wf.canvasId, { label: 'detail of a discovered workflow' });
    const plan = PLAN.read(dataOf(ex));
    if (plan) checkPlanSemantics(verdict, plan, `the plan of ${wf.canvasId} (found by discovery)`, ex.record.id);
  }
}

test('every listed workflow has a detail, and its plan is coherent [DETAIL-FOR-SEARCH-ITEM] [PLAN-DEPENDENCIES-EXIST] [PLAN-OPTIONS-ONLY-FOR-OPTION]', async ({
  api,
  apiB,
  verdict,
  discovery,
}) => {
  const all = await searchAll(api);
  const judged = new Set(all.items.slice(0, 40).map((i) => i.canvasId));
  await judgeDiscoveredPlans(api, verdict, discovery.workflows, judged);
  if (all.stop && all.items.length === 0) return stopAll(verdict, DETAIL_CLAUSES, all.stop);
  test.skip(all.items.length === 0, 'search lists no workflow for this key');
  // Another tenant's workflows in this listing are SEARCH-TENANT-SCOPED's failure: that their detail is
  // refused to this key is the isolation holding, not a listed workflow without a detail.
  const foreign = await foreignListed(apiB, all.items);
  if (foreign.stop) stopAll(verdict, ['DETAIL-FOR-SEARCH-ITEM'], foreign.stop);
  const gone: SearchItem[] = [];
  const asked = all.items.filter((i) => !foreign.shared.has(i.canvasId)).slice(0, 40);
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
  const removed = `${gone.length - listed.length} listed workflow(s) whose detail was not found are no longer listed: removed meanwhile, so not judged`;
  if (listed.length === 0 && gone.length === asked.length) verdict.notRun('DETAIL-FOR-SEARCH-ITEM', removed);
  else if (listed.length < gone.length) verdict.note('listing-moved', removed);
});
