/**
 * Reading the search listing (§4.5): paging through it, with page 1 checked against the first items
 * so a 0-based target is still read whole. Discovery and the search suite read it the same way.
 *
 * The reading is tolerant of the shapes deviant targets answer in — a bare array without the
 * envelope, a list wrapped in an object (`data: {items: [...], total}`), pages smaller than asked —
 * because the contract checks already fail that deviation on every response, by its own clause
 * (SEARCH-200-ENVELOPE, SEARCH-200-DATA): reading nothing would leave every suite that needs a
 * workflow "not run" for one deviation.
 */
import type { ApiClient } from '../client/client.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { SearchItem } from '../judging/payloads.ts';
import { listOf, type FirstPageEvidence, type SearchListing } from '../judging/search.ts';

export { listOf, type FirstPageEvidence, type ListShape, type SearchListing } from '../judging/search.ts';

const DISCOVERY_PAGE_SIZE = 50;
const MAX_PAGES = 40;

const idsOf = (items: SearchItem[]) =>
  items.map((i) => i?.canvasId).filter((id): id is string => typeof id === 'string');
const itemsOf = (ex: Exchange) => listOf(ex).items ?? [];
const same = (a: readonly string[], b: readonly string[]) => JSON.stringify(a) === JSON.stringify(b);

export interface SearchAllOptions {
  /** Stop once this many items are read (the listing's first items): for reading a prefix. */
  limit?: number;
  /** Evidence label of the requests (default "discovery"). */
  label?: string;
}

export interface FirstPage {
  firstPage: number;
  /** Searches it took: two, or three when page 0 had to be asked. */
  requests: number;
  pageOneEx: Exchange;
  unpaged: SearchItem[];
  notOneBased?: FirstPageEvidence;
}

/**
 * Where paging starts. Page 1 is compared with the first items of the listing (search without
 * `page`): a 0-based target answers page=1 with the *second* page — often empty — and discovery
 * would otherwise find nothing and every suite skip. When page 1 lacks them and page=0 holds them,
 * paging starts at 0 so the suites still run, and the deviation is returned for SEARCH-PAGE-1-BASED.
 */
export async function firstPageOf(
  api: ApiClient,
  query: Record<string, string | number | undefined>,
  pageSize: number,
  label: string,
): Promise<FirstPage> {
  const pageOneEx = await api.search({ ...query, page: 1, pageSize }, { label: `${label} page 1` });
  const pageOne = idsOf(itemsOf(pageOneEx));
  const unpagedEx = await api.search({ ...query, pageSize }, { label: `${label} first items (no page)` });
  const unpaged = itemsOf(unpagedEx);
  const firstItems = idsOf(unpaged).slice(0, pageSize);
  const pageOneAnswered = listOf(pageOneEx).items !== undefined; // an error is no paging evidence
  if (
    !pageOneAnswered ||
    firstItems.length === 0 ||
    (pageOne.length > 0 && same(pageOne, firstItems.slice(0, pageOne.length)))
  )
    return { firstPage: 1, requests: 2, pageOneEx, unpaged };
  // page=0 is outside the 1-based range: how a target answers it is not shown.
  const pageZeroEx = await api.search(
    { ...query, page: 0, pageSize },
    { label: `${label} page 0`, openPoint: 'SEARCH-PAGESIZE-DEFAULT' },
  );
  const pageZero = idsOf(itemsOf(pageZeroEx));
  // A 0-based target's page 1 is the page after page 0, so the two share nothing; a listing that merely
  // moved between the calls (an item created at its head) shifts page 1 against items it still shares.
  const zeroBased =
    pageZero.length > 0 &&
    same(pageZero, firstItems.slice(0, pageZero.length)) &&
    !pageOne.some((id) => pageZero.includes(id));
  // A non-empty page 1 that merely differs (another order between calls) is not evidence; an empty
  // page 1 while items exist, or a page 0 holding what page 1 should, is.
  if (pageOne.length > 0 && !zeroBased) return { firstPage: 1, requests: 3, pageOneEx, unpaged };
  const notOneBased = {
    pageOne,
    firstItems,
    zeroBased,
    exchangeIds: [pageOneEx.record.id, unpagedEx.record.id, pageZeroEx.record.id],
  };
  return { firstPage: zeroBased ? 0 : 1, requests: 3, pageOneEx, unpaged, notOneBased };
}

/**
 * Pages through search until an empty page or a page that repeats what was seen (a target ignoring
 * `page`), at most MAX_PAGES pages. A page smaller than asked (a maximum page size, a pageSize
 * ignored) is read like any other: paging goes on until a page adds nothing.
 */
export async function searchAll(
  api: ApiClient,
  query: Record<string, string | number | undefined> = {},
  options: SearchAllOptions = {},
): Promise<SearchListing> {
  const pageSize = DISCOVERY_PAGE_SIZE;
  const limit = options.limit ?? Infinity;
  const { firstPage, pageOneEx, unpaged, notOneBased } = await firstPageOf(
    api,
    query,
    pageSize,
    options.label ?? 'discovery',
  );
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
  const done = (pagesRead: number, extra: Partial<SearchListing> = {}): SearchListing => ({
    items: items.slice(0, limit),
    pagesRead,
    capped: items.length > limit,
    notOneBased,
    ...extra,
  });
  // Neither page 1 nor page 0 lists the first items: discovery makes do with the unpaged answer.
  if (notOneBased && !notOneBased.zeroBased) {
    take(unpaged);
    return done(1);
  }
  for (let page = firstPage, read = 1; read <= MAX_PAGES; page++, read++) {
    const ex =
      page === 1
        ? pageOneEx
        : await api.search({ ...query, page, pageSize }, { label: `${options.label ?? 'discovery'} page ${page}` });
    const answer = listOf(ex);
    if (answer.stop) return done(read, { stop: answer.stop });
    if (answer.items!.length === 0 || take(answer.items!) === 0) return done(read);
    if (items.length >= limit) return done(read, { capped: true });
  }
  return done(MAX_PAGES, { capped: true });
}
