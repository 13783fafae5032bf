/**
 * Search and detail (§4.5, §4.6): keyword applied and searched in titles,
 * 1-based pages, pageSize honoured, pages disjoint and stable; the values of the
 * open points (order, default and maximum page size, page 0) are observed — those
 * probes name their open point, so no answer to them fails a status clause.
 */
import { test } from './fixtures.ts';
import { accepted, dataOf, describe, served, stopAll, type SearchItem, type Stop, type WorkflowPlan } from './support/shapes.ts';
import { listOf, searchAll, type SearchListing } from './support/listing.ts';
import { checkPlanSemantics } from './support/analysis.ts';
import type { ApiClient } from './support/client.ts';
import type { Verdict } from './verdict/verdict.ts';

const ids = (items: SearchItem[] | undefined) => (items ?? []).map((i) => i.canvasId);

/** A detail is accepted when served with a plan (tasks an array; the rest is the contract checks'). */
const PLAN = { carries: 'a plan', read: (data: unknown) => (Array.isArray((data as WorkflowPlan | null | undefined)?.tasks) ? (data as WorkflowPlan) : undefined) };

const PAGING = ['SEARCH-PAGE-1-BASED', 'SEARCH-PAGESIZE-HONOURED', 'SEARCH-PAGES-DISJOINT', 'SEARCH-PAGES-STABLE'];

/**
 * With a second key: the workflows of tenant A's listing that tenant B's search lists too. A listing
 * holding another tenant's workflows is SEARCH-TENANT-SCOPED's failure (the isolation suite judges
 * it); page sizes and page contents counted over it would fail the paging clauses a second time.
 */
async function foreignListed(apiB: ApiClient | undefined, items: SearchItem[]): Promise<{ shared: Set<string>; stop?: Stop }> {
  if (!apiB) return { shared: new Set() };
  const theirs = new Set(ids((await searchAll(apiB)).items));
  const shared = items.filter((i) => theirs.has(i.canvasId));
  const stop = shared.length ? { blockedBy: 'SEARCH-TENANT-SCOPED', reason: `tenant A's listing holds ${shared.length} workflows tenant B's search lists too (${ids(shared).slice(0, 3).join(', ')}…)` } : undefined;
  return { shared: new Set(ids(shared)), stop };
}

/** Reads pages 1, 2, … of `pageSize` until an empty one, judging each page's size and page 1's content. */
async function readPages(api: ApiClient, verdict: Verdict, all: SearchListing, pageSize: number): Promise<{ pages: string[][]; stop?: Stop; misread?: Stop }> {
  const total = all.items.length;
  const pages: string[][] = [];
  // A page deviation that makes pages overlap or skip items by construction (judged as itself, not again as disjointness).
  let misread: Stop | undefined;
  for (let page = 1; page <= Math.ceil(total / pageSize) + 1 && page <= 40; page++) {
    const ex = await api.search({ page, pageSize });
    const { items, stop } = listOf(ex);
    if (!items) return { pages, stop };
    if (items.length > pageSize) misread ??= { blockedBy: 'SEARCH-PAGESIZE-HONOURED', reason: `page ${page} holds ${items.length} items for pageSize ${pageSize}` };
    verdict.must('SEARCH-PAGESIZE-HONOURED', items.length <= pageSize, { message: `page ${page} with pageSize ${pageSize}`, expected: `at most ${pageSize} items`, actual: `${items.length} items`, exchangeId: ex.record.id });
    if (page === 1) {
      const first = ids(all.items).slice(0, items.length);
      if (!verdict.must('SEARCH-PAGE-1-BASED', items.length > 0 && JSON.stringify(ids(items)) === JSON.stringify(first), {
        message: `page=1 holds the first items of the listing (${total} workflows)`,
        expected: first.join(', '),
        actual: ids(items).join(', ') || '(empty page)',
        exchangeId: ex.record.id,
      }))
        misread = { blockedBy: 'SEARCH-PAGE-1-BASED', reason: 'page=1 does not hold the first items of the listing' };
    }
    if (items.length === 0) break;
    pages.push(ids(items));
  }
  return { pages, misread };
}

test('pages are 1-based, hold at most pageSize items, are disjoint and stable [SEARCH-PAGE-1-BASED] [SEARCH-PAGESIZE-HONOURED] [SEARCH-PAGES-DISJOINT] [SEARCH-PAGES-STABLE]', async ({ api, apiB, verdict }) => {
  const all = await searchAll(api);
  // A listing cut short by an answer that deviated, or holding another tenant's workflows, is no yardstick.
  const unusable = all.stop ?? (await foreignListed(apiB, all.items)).stop;
  if (unusable) return stopAll(verdict, PAGING, unusable);
  const total = all.items.length;
  // Judged before the skip: a 0-based target's page=1 can be empty, which would otherwise look like "too few workflows".
  const off = all.notOneBased;
  if (off) {
    verdict.must('SEARCH-PAGE-1-BASED', false, {
      message: `page=1 lacks the first items of the listing (search without page${off.zeroBased ? '; page=0 holds them: the target counts pages from 0' : ''})`,
      expected: off.firstItems.join(', '),
      actual: off.pageOne.join(', ') || '(empty page)',
      exchangeId: off.exchangeIds[0],
    });
  }
  test.skip(total < 2, `paging needs at least 2 workflows reachable by the key; search listed ${total}`);
  const pageSize = Math.max(1, Math.min(5, Math.floor(total / 2)));
  const { pages, stop, misread } = await readPages(api, verdict, all, pageSize);
  if (stop) return stopAll(verdict, PAGING, stop);
  const flat = pages.flat();
  const dupes = flat.filter((id, i) => flat.indexOf(id) !== i);
  const missing = ids(all.items).filter((id) => !flat.includes(id));
  // Pages larger than asked overlap, pages counted from 0 skip the first: that deviation, not a second one.
  const skewed = off ? { blockedBy: 'SEARCH-PAGE-1-BASED', reason: 'page=1 lacks the first items of the listing' } : misread;
  if (skewed) stopAll(verdict, ['SEARCH-PAGES-DISJOINT'], skewed);
  else verdict.should('SEARCH-PAGES-DISJOINT', dupes.length === 0 && missing.length === 0, {
    message: `${pages.length} pages of ${pageSize} against the full listing of ${total}`,
    expected: 'pages disjoint and together the full listing',
    actual: `repeated: ${[...new Set(dupes)].join(', ') || 'none'}; never reached: ${missing.join(', ') || 'none'}`,
  });
  const again = await api.search({ page: 1, pageSize });
  const reread = listOf(again);
  if (!reread.items) stopAll(verdict, ['SEARCH-PAGES-STABLE'], reread.stop!);
  else verdict.should('SEARCH-PAGES-STABLE', JSON.stringify(ids(reread.items)) === JSON.stringify(pages[0] ?? []), { message: 'page 1 read twice', expected: (pages[0] ?? []).join(', '), actual: ids(reread.items).join(', '), exchangeId: again.record.id });
  const page0 = await api.search({ page: 0, pageSize }, { openPoint: 'SEARCH-PAGESIZE-DEFAULT', label: 'page=0 (below the 1-based range)' });
  verdict.observe('SEARCH-PAGESIZE-DEFAULT', 'page=0 (below the 1-based range) answers', `${describe(page0)}${Array.isArray(dataOf(page0)) ? `, ${(dataOf<SearchItem[]>(page0) ?? []).length} items` : ''}`, page0.record.id);
});

test('a keyword is applied, and finds the workflows whose titles contain it, and only those [SEARCH-KEYWORD-APPLIED] [SEARCH-KEYWORD-IN-TITLE] [SEARCH-KEYWORD-FINDS-TITLE]', async ({ api, verdict, faker }) => {
  const all = await searchAll(api);
  test.skip(all.items.length === 0, 'search lists no workflow for this key: an ignored keyword would look the same as an applied one');
  const BY_KEYWORD = ['SEARCH-KEYWORD-IN-TITLE', 'SEARCH-KEYWORD-FINDS-TITLE'];
  // Twenty random letters are in no title: only a target that ignores the keyword lists anything.
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
  if (!applied) return stopAll(verdict, BY_KEYWORD, { blockedBy: 'SEARCH-KEYWORD-APPLIED', reason: 'the keyword is not applied, so what it matches cannot be judged' });

  const words = [...new Set(all.items.flatMap((i) => (i.title ?? '').split(/[^\p{L}\p{N}]+/u)).filter((w) => w.length >= 4))];
  if (words.length === 0) return stopAll(verdict, BY_KEYWORD, { reason: 'no listed title has a word of 4+ letters to search for' });
  const keyword = faker.helpers.arrayElement(words);
  for (const variant of [keyword, keyword.toUpperCase()]) {
    const found = await searchAll(api, { keyword: variant });
    if (found.stop) return stopAll(verdict, BY_KEYWORD, found.stop);
    const outside = found.items.filter((i) => !(i.title ?? '').toLowerCase().includes(variant.toLowerCase()));
    verdict.should('SEARCH-KEYWORD-IN-TITLE', outside.length === 0, { message: `keyword "${variant}" (${found.items.length} results)`, expected: 'every title contains the keyword (case-insensitively)', actual: outside.map((i) => i.title).join(' | ') || 'all match' });
  }
  const exact = await searchAll(api, { keyword });
  if (exact.stop) return stopAll(verdict, ['SEARCH-KEYWORD-FINDS-TITLE'], exact.stop);
  const expected = all.items.filter((i) => (i.title ?? '').includes(keyword));
  const missed = expected.filter((i) => !exact.items.some((x) => x.canvasId === i.canvasId));
  verdict.should('SEARCH-KEYWORD-FINDS-TITLE', missed.length === 0, { message: `keyword "${keyword}" taken from listed titles`, expected: expected.map((i) => i.title).join(' | '), actual: missed.length ? `missed: ${missed.map((i) => i.title).join(' | ')}` : 'all found' });
});

test('order values and page-size limits are observed [SEARCH-ORDER-VALUES] [SEARCH-PAGESIZE-DEFAULT] [SEARCH-PAGESIZE-MAX]', async ({ api, verdict }) => {
  const all = await searchAll(api);
  const baseline = await api.search({ page: 1, pageSize: 50 });
  const base = ids(dataOf<SearchItem[]>(baseline));
  // Every value of order is a probe: the allowed values are not shown.
  for (const order of ['asc', 'desc', 'createdAt', 'updatedAt', 'title', '-createdAt', 'newest', 'not-an-order']) {
    const ex = await api.search({ order, page: 1, pageSize: 50 }, { openPoint: 'SEARCH-ORDER-VALUES', label: `order=${order}` });
    const got = ids(dataOf<SearchItem[]>(ex));
    const shape = !served(ex) ? describe(ex) : JSON.stringify(got) === JSON.stringify(base) ? `${describe(ex)}, default order` : got.length === base.length ? `${describe(ex)}, different order` : `${describe(ex)}, ${got.length} items`;
    verdict.observe('SEARCH-ORDER-VALUES', `order=${order}`, shape, ex.record.id);
  }
  const dflt = await api.search({});
  const n = (dataOf<SearchItem[]>(dflt) ?? []).length;
  verdict.observe('SEARCH-PAGESIZE-DEFAULT', 'items without pageSize', n < all.items.length ? `${n} (of ${all.items.length})` : `${n} (all ${all.items.length}; default ≥ ${n})`, dflt.record.id);
  // Sizes beyond any maximum or below one, and values that are no numbers: how they are answered is not shown.
  for (const size of [1000, 0, -1]) {
    const ex = await api.search({ page: 1, pageSize: size }, { openPoint: 'SEARCH-PAGESIZE-MAX', label: `pageSize=${size}` });
    const items = dataOf<SearchItem[]>(ex);
    verdict.observe('SEARCH-PAGESIZE-MAX', `pageSize=${size}`, Array.isArray(items) ? `${describe(ex)}, ${items.length} items (of ${all.items.length})` : describe(ex), ex.record.id);
  }
  const junk = await api.search({ page: 'abc', pageSize: 'xyz' }, { openPoint: 'SEARCH-PAGESIZE-MAX', label: 'page=abc&pageSize=xyz' });
  verdict.observe('SEARCH-PAGESIZE-MAX', 'page=abc&pageSize=xyz', describe(junk), junk.record.id);
});

test('every listed workflow has a detail, and its plan is coherent [DETAIL-FOR-SEARCH-ITEM] [PLAN-DEPENDENCIES-EXIST] [PLAN-OPTIONS-ONLY-FOR-OPTION]', async ({ api, apiB, verdict }) => {
  const all = await searchAll(api);
  if (all.stop && all.items.length === 0) return stopAll(verdict, ['DETAIL-FOR-SEARCH-ITEM', 'PLAN-DEPENDENCIES-EXIST', 'PLAN-OPTIONS-ONLY-FOR-OPTION'], all.stop);
  test.skip(all.items.length === 0, 'search lists no workflow for this key');
  // Another tenant's workflows in this listing are SEARCH-TENANT-SCOPED's failure: that their detail is
  // refused to this key is the isolation holding, not a listed workflow without a detail.
  const foreign = await foreignListed(apiB, all.items);
  if (foreign.stop) stopAll(verdict, ['DETAIL-FOR-SEARCH-ITEM'], foreign.stop);
  for (const item of all.items.filter((i) => !foreign.shared.has(i.canvasId)).slice(0, 40)) {
    const ex = await api.detail(item.canvasId);
    const plan = accepted(verdict, 'DETAIL-FOR-SEARCH-ITEM', ex, PLAN, `detail of listed workflow ${item.canvasId}`);
    if (plan.ok) checkPlanSemantics(verdict, plan.value, `the plan of ${item.canvasId}`, ex.record.id);
  }
});
