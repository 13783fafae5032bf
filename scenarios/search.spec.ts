/**
 * Search and detail (§4.5, §4.6): keyword in titles, 1-based pages, pageSize
 * honoured, pages disjoint and stable; the values of the open points
 * (order, default and maximum page size) are observed.
 */
import { test } from './fixtures.ts';
import { dataOf, describe, expectStatus, type SearchItem, type WorkflowPlan } from './support/shapes.ts';
import { searchAll } from './support/workflows.ts';
import { checkPlanSemantics } from './support/analysis.ts';

const ids = (items: SearchItem[] | undefined) => (items ?? []).map((i) => i.canvasId);

test('pages are 1-based, hold at most pageSize items, are disjoint and stable [SEARCH-PAGE-1-BASED] [SEARCH-PAGESIZE-HONOURED] [SEARCH-PAGES-DISJOINT] [SEARCH-PAGES-STABLE]', async ({ api, verdict }) => {
  const all = await searchAll(api);
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
  const pages: string[][] = [];
  for (let page = 1; page <= Math.ceil(total / pageSize) + 1 && page <= 40; page++) {
    const ex = await api.search({ page, pageSize });
    const items = dataOf<SearchItem[]>(ex);
    if (!Array.isArray(items)) break;
    verdict.must('SEARCH-PAGESIZE-HONOURED', items.length <= pageSize, { message: `page ${page} with pageSize ${pageSize}`, expected: `at most ${pageSize} items`, actual: `${items.length} items`, exchangeId: ex.record.id });
    if (page === 1) {
      const first = ids(all.items).slice(0, items.length);
      verdict.must('SEARCH-PAGE-1-BASED', items.length > 0 && JSON.stringify(ids(items)) === JSON.stringify(first), {
        message: `page=1 holds the first items of the listing (${total} workflows)`,
        expected: first.join(', '),
        actual: ids(items).join(', ') || '(empty page)',
        exchangeId: ex.record.id,
      });
    }
    if (items.length === 0) break;
    pages.push(ids(items));
  }
  const flat = pages.flat();
  const dupes = flat.filter((id, i) => flat.indexOf(id) !== i);
  const missing = ids(all.items).filter((id) => !flat.includes(id));
  verdict.should('SEARCH-PAGES-DISJOINT', dupes.length === 0 && missing.length === 0, {
    message: `${pages.length} pages of ${pageSize} against the full listing of ${total}`,
    expected: 'pages disjoint and together the full listing',
    actual: `repeated: ${[...new Set(dupes)].join(', ') || 'none'}; never reached: ${missing.join(', ') || 'none'}`,
  });
  const again = await api.search({ page: 1, pageSize });
  verdict.should('SEARCH-PAGES-STABLE', JSON.stringify(ids(dataOf<SearchItem[]>(again))) === JSON.stringify(pages[0] ?? []), {
    message: 'page 1 read twice',
    expected: (pages[0] ?? []).join(', '),
    actual: ids(dataOf<SearchItem[]>(again)).join(', '),
    exchangeId: again.record.id,
  });
  const page0 = await api.search({ page: 0, pageSize });
  verdict.observe('SEARCH-PAGESIZE-DEFAULT', 'page=0 (below the 1-based range) answers', `${describe(page0)}${Array.isArray(dataOf(page0)) ? `, ${(dataOf<SearchItem[]>(page0) ?? []).length} items` : ''}`, page0.record.id);
});

test('a keyword finds the workflows whose titles contain it, and only those [SEARCH-KEYWORD-IN-TITLE] [SEARCH-KEYWORD-FINDS-TITLE]', async ({ api, verdict, faker }) => {
  const all = await searchAll(api);
  const words = [...new Set(all.items.flatMap((i) => (i.title ?? '').split(/[^\p{L}\p{N}]+/u)).filter((w) => w.length >= 4))];
  test.skip(words.length === 0, 'no listed title has a word of 4+ letters to search for');
  const keyword = faker.helpers.arrayElement(words);
  for (const variant of [keyword, keyword.toUpperCase()]) {
    const found = await searchAll(api, { keyword: variant });
    const outside = found.items.filter((i) => !(i.title ?? '').toLowerCase().includes(variant.toLowerCase()));
    verdict.should('SEARCH-KEYWORD-IN-TITLE', outside.length === 0, { message: `keyword "${variant}" (${found.items.length} results)`, expected: 'every title contains the keyword (case-insensitively)', actual: outside.map((i) => i.title).join(' | ') || 'all match' });
  }
  const exact = await searchAll(api, { keyword });
  const expected = all.items.filter((i) => (i.title ?? '').includes(keyword));
  const missed = expected.filter((i) => !exact.items.some((x) => x.canvasId === i.canvasId));
  verdict.should('SEARCH-KEYWORD-FINDS-TITLE', missed.length === 0, { message: `keyword "${keyword}" taken from listed titles`, expected: expected.map((i) => i.title).join(' | '), actual: missed.length ? `missed: ${missed.map((i) => i.title).join(' | ')}` : 'all found' });
  const nothing = await api.search({ keyword: `zz${faker.string.alphanumeric(16)}qq` });
  verdict.should('SEARCH-KEYWORD-IN-TITLE', (dataOf<SearchItem[]>(nothing) ?? []).length === 0, { message: 'a keyword that is in no title', expected: 'no results', actual: `${(dataOf<SearchItem[]>(nothing) ?? []).length} results`, exchangeId: nothing.record.id });
});

test('order values and page-size limits are observed [SEARCH-ORDER-VALUES] [SEARCH-PAGESIZE-DEFAULT] [SEARCH-PAGESIZE-MAX]', async ({ api, verdict }) => {
  const all = await searchAll(api);
  const baseline = await api.search({ page: 1, pageSize: 50 });
  const base = ids(dataOf<SearchItem[]>(baseline));
  for (const order of ['asc', 'desc', 'createdAt', 'updatedAt', 'title', '-createdAt', 'newest', 'not-an-order']) {
    const ex = await api.search({ order, page: 1, pageSize: 50 });
    const got = ids(dataOf<SearchItem[]>(ex));
    const shape = ex.status !== 200 ? describe(ex) : JSON.stringify(got) === JSON.stringify(base) ? 'HTTP 200, default order' : got.length === base.length ? 'HTTP 200, different order' : `HTTP 200, ${got.length} items`;
    verdict.observe('SEARCH-ORDER-VALUES', `order=${order}`, shape, ex.record.id);
  }
  const dflt = await api.search({});
  const n = (dataOf<SearchItem[]>(dflt) ?? []).length;
  verdict.observe('SEARCH-PAGESIZE-DEFAULT', 'items without pageSize', n < all.items.length ? `${n} (of ${all.items.length})` : `${n} (all ${all.items.length}; default ≥ ${n})`, dflt.record.id);
  for (const size of [1000, 0, -1]) {
    const ex = await api.search({ page: 1, pageSize: size });
    const items = dataOf<SearchItem[]>(ex);
    verdict.observe('SEARCH-PAGESIZE-MAX', `pageSize=${size}`, ex.status === 200 && Array.isArray(items) ? `HTTP 200, ${items.length} items (of ${all.items.length})` : describe(ex), ex.record.id);
  }
  const junk = await api.search({ page: 'abc', pageSize: 'xyz' });
  verdict.observe('SEARCH-PAGESIZE-MAX', 'page=abc&pageSize=xyz', describe(junk), junk.record.id);
});

test('every listed workflow has a detail, and its plan is coherent [DETAIL-FOR-SEARCH-ITEM] [PLAN-DEPENDENCIES-EXIST] [PLAN-OPTIONS-ONLY-FOR-OPTION]', async ({ api, verdict }) => {
  const all = await searchAll(api);
  test.skip(all.items.length === 0, 'search lists no workflow for this key');
  for (const item of all.items.slice(0, 40)) {
    const ex = await api.detail(item.canvasId);
    expectStatus(verdict, 'DETAIL-FOR-SEARCH-ITEM', ex, 200, `detail of listed workflow ${item.canvasId}`, 'should');
    const plan = dataOf<WorkflowPlan>(ex);
    if (plan) checkPlanSemantics(verdict, plan, `the plan of ${item.canvasId}`, ex.record.id);
  }
});
