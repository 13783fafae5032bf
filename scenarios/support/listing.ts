/**
 * Reading the search listing (§4.5): paging through it, with page 1 checked against the first items
 * so a 0-based target is still read whole. Discovery and the search suite read it the same way.
 */
import type { ApiClient, Exchange } from './client.ts';
import { bodyDeviation, dataOf, describe, served, statusDeviation, type SearchItem, type Stop } from './shapes.ts';

const DISCOVERY_PAGE_SIZE = 50;
const MAX_PAGES = 40;

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

