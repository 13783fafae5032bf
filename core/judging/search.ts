/**
 * The judges of search and detail (§4.5, §4.6): how a search answer reads (a list, or why there is none),
 * pages 1-based, pageSize honoured, pages disjoint and stable; a keyword applied, matched in titles and
 * finding them; the open points of paging and order observed; a listed workflow's detail.
 *
 * The listing is not the harness's: canvases are created while it is read. A verdict that compares reads
 * taken at different times is given only on reads during which the listing held still (the search suite
 * walks until one did); otherwise the clause is "not run", never failed.
 */
import type { ClauseId, ObserveClauseId } from '../../contracts/requirements.ts';
import type { AnyRecorder, Recorder } from '../evidence/verdict.ts';
import type { Exchange } from '../transport/exchange.ts';
import { judge } from './judge.ts';
import { accepted } from './expect.ts';
import { bodyDeviation, dataOf, describe, served, statusDeviation } from './answers.ts';
import { stopAll, type Stop } from './stops.ts';
import type { SearchItem, WorkflowPlan } from './payloads.ts';
import { checkPlanSemantics } from './plans.ts';

// ---- reading a search answer --------------------------------------------------------------------------

/** Evidence that the target's first page is not page=1 (§4.5, §8: pages are 1-based). */
export interface FirstPageEvidence {
  /** What page=1 held, and what the first items (search without `page`, and page=0) are. */
  pageOne: string[];
  firstItems: string[];
  /** The target answered page=0 with the first items, as a 0-based target does. */
  zeroBased: boolean;
  exchangeIds: string[];
}

/** The listing as read through its pages (core/discovery/listing.ts reads it). */
export interface SearchListing {
  items: SearchItem[];
  pagesRead: number;
  /** Reading stopped at its page cap (or at the `limit` asked for) with items left unread. */
  capped: boolean;
  /** Set when page=1 lacks the first items of the listing. */
  notOneBased?: FirstPageEvidence;
  /** Set when a page was not answered with a list: the listing may be incomplete, and why. */
  stop?: Stop;
}

/** How a served list was carried: in the envelope as specified, or in a shape the contract checks fail. */
export type ListShape = 'envelope' | 'bare array' | `wrapped in data.${string}`;

/** The one array among a wrapper object's properties (`{items: [...], total}`), if there is exactly one. */
function wrappedList(data: unknown): { key: string; list: unknown[] } | undefined {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const arrays = Object.entries(data as Record<string, unknown>).filter(([, v]) => Array.isArray(v));
  return arrays.length === 1 ? { key: arrays[0][0], list: arrays[0][1] as unknown[] } : undefined;
}

/**
 * A served list of search items, or why there is none: the clause its answer already failed.
 * A bare array or a wrapped list is read as the list it plainly is; its shape is the contract
 * checks' finding on that response, not a reason to stop.
 */
export function listOf(ex: Exchange): { items?: SearchItem[]; shape?: ListShape; stop?: Stop } {
  if (served(ex)) {
    const data = dataOf<unknown>(ex);
    if (Array.isArray(data)) return { items: data as SearchItem[], shape: 'envelope' };
    if (Array.isArray(ex.json)) return { items: ex.json as SearchItem[], shape: 'bare array' };
    const wrapped = wrappedList(data);
    if (wrapped) return { items: wrapped.list as SearchItem[], shape: `wrapped in data.${wrapped.key}` };
  }
  const cause = statusDeviation(ex) ?? (served(ex) ? (bodyDeviation(ex) ?? 'SEARCH-200-DATA') : undefined);
  return {
    stop: {
      blockedBy: cause,
      exchangeIds: [ex.record.id],
      reason: `search ${ex.record.url.replace(/^.*\/v1/, '')}: ${describe(ex)}`,
    },
  };
}

export const idsOf = (items: readonly SearchItem[] | undefined) => (items ?? []).map((i) => i.canvasId);
const same = (a: readonly string[], b: readonly string[]) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Why a listing holding another tenant's workflows is no yardstick: SEARCH-TENANT-SCOPED's failure (the
 * isolation suite judges it); page sizes and contents counted over it would fail the paging clauses again.
 */
export function foreignStop(shared: readonly SearchItem[]): Stop | undefined {
  if (shared.length === 0) return undefined;
  return {
    blockedBy: 'SEARCH-TENANT-SCOPED',
    reason: `tenant A's listing holds ${shared.length} workflows tenant B's search lists too (${idsOf(shared).slice(0, 3).join(', ')}…)`,
  };
}

// ---- paging ---------------------------------------------------------------------------------------------

const PAGING: ClauseId[] = [
  'SEARCH-PAGE-1-BASED',
  'SEARCH-PAGESIZE-HONOURED',
  'SEARCH-PAGES-DISJOINT',
  'SEARCH-PAGES-STABLE',
];

/** The judge of paging: 1-based, at most pageSize, disjoint, stable. */
export const searchPaging = judge('the pages of search', [
  'SEARCH-PAGE-1-BASED',
  'SEARCH-PAGESIZE-HONOURED',
  'SEARCH-PAGES-DISJOINT',
  'SEARCH-PAGES-STABLE',
]);

export interface PageRead {
  page: number;
  ids: string[];
  exchangeId: string;
}

export interface Walk {
  /** Every page read, the empty one that ended the walk included. */
  pages: PageRead[];
  /** An empty page ended the walk (not the page cap): what it did not reach, it could not reach. */
  ended: boolean;
  /** Page 1 read again right after the walk. */
  again?: PageRead;
  againStop?: Stop;
}

/** A walk, with the listing's prefix the walk can reach read before and after it. */
export interface Window {
  walk: Walk;
  /** The listing before the walk, as far as the walk can reach. */
  before: string[];
  still: boolean;
}

/** What one walk shows against the listing as it held still; `deviant` when any judged clause would be flagged. */
export interface Findings {
  window: Window;
  /** Undefined when page 1 was already judged on the first-page evidence (a 0-based target). */
  pageOne?: { ok: boolean; expected: string[]; actual: PageRead };
  /** Why disjointness cannot be judged: pages that overlap or skip by construction, judged as themselves. */
  skewed?: Stop;
  dupes: string[];
  missing: string[];
  deviant: boolean;
}

/** How the walks went: what one still walk showed, or the last walk and why none held still, or a stop. */
export interface Walked {
  findings?: Findings;
  last?: Window;
  unsettled?: string;
  stop?: Stop;
}

function oversized(walk: Walk, pageSize: number): PageRead | undefined {
  return walk.pages.find((p) => p.ids.length > pageSize);
}

/** Why disjointness cannot be judged on a walk: page 1 was not the first page, or a page was oversized. */
function skewOf(walk: Walk, pageSize: number, pageOneOff: boolean): Stop | undefined {
  if (pageOneOff) return { blockedBy: 'SEARCH-PAGE-1-BASED', reason: 'page=1 lacks the first items of the listing' };
  const big = oversized(walk, pageSize);
  return big
    ? {
        blockedBy: 'SEARCH-PAGESIZE-HONOURED',
        reason: `page ${big.page} holds ${big.ids.length} items for pageSize ${pageSize}`,
      }
    : undefined;
}

/** What a walk shows against the listing as read before it (`off`: page 1 already known not to be the first). */
export function findingsOf(window: Window, pageSize: number, off: boolean): Findings {
  const { walk, before } = window;
  const first = walk.pages[0];
  const expected = before.slice(0, first.ids.length);
  const pageOne = off ? undefined : { ok: first.ids.length > 0 && same(first.ids, expected), expected, actual: first };
  const skewed = skewOf(walk, pageSize, off || (pageOne !== undefined && !pageOne.ok));
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
 * A listing cut short by an answer that deviated, or holding another tenant's workflows, is no yardstick:
 * every paging clause is stopped by it. Returns whether it was.
 */
export const pagingUnusable = searchPaging.judges((v, all: SearchListing, shared: readonly SearchItem[]): boolean => {
  const stop = all.stop ?? foreignStop(shared);
  if (stop) stopAll(v, PAGING, stop);
  return stop !== undefined;
});

/**
 * Page 1 judged on the first-page evidence the listing was read with (a 0-based target answers page=1
 * with its second page): returns whether page 1 is known not to be the first.
 */
export const judgeFirstPageEvidence = searchPaging.judges((v, all: SearchListing): boolean => {
  const off = all.notOneBased;
  if (!off) return false;
  v.check('SEARCH-PAGE-1-BASED', false, {
    message: `page=1 lacks the first items of the listing (search without page${off.zeroBased ? '; page=0 holds them: the target counts pages from 0' : ''})`,
    expected: off.firstItems.join(', '),
    actual: off.pageOne.join(', ') || '(empty page)',
    exchangeId: off.exchangeIds[0],
  });
  return true;
});

function judgePageSizes(v: Recorder<'SEARCH-PAGESIZE-HONOURED'>, walk: Walk, pageSize: number): void {
  // A page never grows because the listing moved: sizes are judged on any walk.
  for (const p of walk.pages) {
    v.check('SEARCH-PAGESIZE-HONOURED', p.ids.length <= pageSize, {
      message: `page ${p.page} with pageSize ${pageSize}`,
      expected: `at most ${pageSize} items`,
      actual: `${p.ids.length} items`,
      exchangeId: p.exchangeId,
    });
  }
}

function judgeStillWalk(v: Recorder<ClauseOfPaging>, f: Findings, pageSize: number): void {
  const { walk, before } = f.window;
  if (f.pageOne) {
    v.check('SEARCH-PAGE-1-BASED', f.pageOne.ok, {
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
  if (f.skewed) stopAll(v, ['SEARCH-PAGES-DISJOINT'], f.skewed);
  else
    v.check('SEARCH-PAGES-DISJOINT', f.dupes.length === 0 && f.missing.length === 0, {
      message: `${nonEmpty} pages of ${pageSize} against ${against}, which held still during the walk`,
      expected: 'pages disjoint and together the listing',
      actual: `repeated: ${f.dupes.join(', ') || 'none'}; never reached: ${f.missing.join(', ') || 'none'}`,
    });
  if (!walk.again) {
    stopAll(v, ['SEARCH-PAGES-STABLE'], walk.againStop!);
    return;
  }
  v.check('SEARCH-PAGES-STABLE', same(walk.again.ids, walk.pages[0].ids), {
    message: 'page 1 read twice while the listing held still',
    expected: walk.pages[0].ids.join(', '),
    actual: walk.again.ids.join(', '),
    exchangeId: walk.again.exchangeId,
  });
}

type ClauseOfPaging = (typeof searchPaging.clauses)[number];

/**
 * The walks of the pages: a still walk is judged whole; when none held still, sizes are still judged and
 * what compares reads is not run, unless a deviation already blocks it; a walk cut short stops them all.
 */
export const judgeWalks = searchPaging.judges((v, walked: Walked, pageSize: number, off: boolean) => {
  if (walked.stop) return stopAll(v, PAGING, walked.stop);
  if (walked.findings) {
    judgePageSizes(v, walked.findings.window.walk, pageSize);
    return judgeStillWalk(v, walked.findings, pageSize);
  }
  const last = walked.last!;
  const reason = walked.unsettled!;
  judgePageSizes(v, last.walk, pageSize);
  if (!off) v.notRun('SEARCH-PAGE-1-BASED', reason);
  stopAll(v, ['SEARCH-PAGES-DISJOINT'], skewOf(last.walk, pageSize, off) ?? { reason });
  v.notRun('SEARCH-PAGES-STABLE', reason);
});

// ---- keyword --------------------------------------------------------------------------------------------

/** The judge of the keyword: applied, matched in titles (case-insensitively), finding the titles holding it. */
export const searchKeyword = judge('the keyword of search', [
  'SEARCH-KEYWORD-APPLIED',
  'SEARCH-KEYWORD-IN-TITLE',
  'SEARCH-KEYWORD-FINDS-TITLE',
]);

const BY_KEYWORD: ClauseId[] = ['SEARCH-KEYWORD-IN-TITLE', 'SEARCH-KEYWORD-FINDS-TITLE'];

/** A listing that an answer cut short before any item is no listing to compare a keyword with: returns whether it was. */
export const keywordUnusable = searchKeyword.judges((v, all: SearchListing): boolean => {
  if (!all.stop || all.items.length > 0) return false;
  stopAll(v, ['SEARCH-KEYWORD-APPLIED', ...BY_KEYWORD], all.stop);
  return true;
});

/**
 * A keyword no title contains (`nonsense`) lists nothing where the keyword is applied. What the keyword
 * matches cannot be judged when it is not: returns whether it is.
 */
export const judgeKeywordApplied = searchKeyword.judges(
  (v, nonsense: string, probe: Exchange, all: SearchListing): boolean => {
    const answer = listOf(probe);
    if (!answer.items) {
      stopAll(v, ['SEARCH-KEYWORD-APPLIED', ...BY_KEYWORD], answer.stop!);
      return false;
    }
    const listed = idsOf(all.items);
    const unfiltered = answer.items.length > 0 && idsOf(answer.items).every((id) => listed.includes(id));
    const applied = v.check('SEARCH-KEYWORD-APPLIED', answer.items.length === 0, {
      message: `keyword "${nonsense}", which no title contains (${all.items.length} workflows listed without a keyword)`,
      expected: 'no results',
      actual: `${answer.items.length} results${unfiltered ? ', from the unfiltered listing: the keyword is ignored' : ''}`,
      exchangeId: probe.record.id,
    });
    if (!applied)
      stopAll(v, BY_KEYWORD, {
        blockedBy: 'SEARCH-KEYWORD-APPLIED',
        reason: 'the keyword is not applied, so what it matches cannot be judged',
      });
    return applied;
  },
);

/** No listed title has a word to search for: what a keyword matches is not run. */
export const noKeywordToSearch = searchKeyword.judges((v): void =>
  stopAll(v, BY_KEYWORD, { reason: 'no listed title has a word of 4+ letters to search for' }),
);

/**
 * Each result of a keyword search is judged on the title it is listed with in that very answer: a listing
 * that moves cannot skew it. Returns whether the search was read (a listing cut short stops the clauses).
 */
export const judgeKeywordInTitle = searchKeyword.judges((v, variant: string, found: SearchListing): boolean => {
  if (found.stop) {
    stopAll(v, BY_KEYWORD, found.stop);
    return false;
  }
  const outside = found.items.filter((i) => !(i.title ?? '').toLowerCase().includes(variant.toLowerCase()));
  v.check('SEARCH-KEYWORD-IN-TITLE', outside.length === 0, {
    message: `keyword "${variant}" (${found.items.length} results)`,
    expected: 'every title contains the keyword (case-insensitively)',
    actual: outside.map((i) => i.title).join(' | ') || 'all match',
  });
  return true;
});

/** The listed workflows whose title holds `keyword` that a search for it did not list. */
export function unfoundBy(keyword: string, all: SearchListing, exact: SearchListing): SearchItem[] {
  return all.items
    .filter((i) => (i.title ?? '').includes(keyword))
    .filter((i) => !exact.items.some((x) => x.canvasId === i.canvasId));
}

/** What searching the keyword again showed of the workflows first missed. */
export interface MissedAgain {
  /** The listing before the second search, the second search, and the listing after it. */
  before: SearchListing;
  again: SearchListing;
  after: SearchListing;
}

/**
 * A workflow listed with the keyword in its title is found by it: judged on the ones the first search
 * missed that the second still missed while they were listed with that title before and after it (one
 * renamed or removed meanwhile was not missed).
 */
export const judgeKeywordFindsTitle = searchKeyword.judges(
  (v, keyword: string, all: SearchListing, exact: SearchListing, again?: MissedAgain) => {
    if (exact.stop) return stopAll(v, ['SEARCH-KEYWORD-FINDS-TITLE'], exact.stop);
    if (exact.capped)
      return v.notRun(
        'SEARCH-KEYWORD-FINDS-TITLE',
        `keyword "${keyword}" lists more workflows than the harness pages through: a workflow not reached is not missed`,
      );
    const expected = all.items.filter((i) => (i.title ?? '').includes(keyword));
    const stop = again && (again.before.stop ?? again.again.stop ?? again.after.stop);
    if (stop) return stopAll(v, ['SEARCH-KEYWORD-FINDS-TITLE'], stop);
    const listedWith = (l: SearchListing, i: SearchItem) =>
      l.items.some((x) => x.canvasId === i.canvasId && (x.title ?? '').includes(keyword));
    const missed = again
      ? unfoundBy(keyword, all, exact).filter(
          (i) =>
            listedWith(again.before, i) &&
            listedWith(again.after, i) &&
            !again.again.items.some((x) => x.canvasId === i.canvasId),
        )
      : [];
    v.check('SEARCH-KEYWORD-FINDS-TITLE', missed.length === 0, {
      message: `keyword "${keyword}" taken from listed titles`,
      expected: expected.map((i) => i.title).join(' | '),
      actual: missed.length
        ? `missed, while listed with that title before and after: ${missed.map((i) => i.title).join(' | ')}`
        : 'all found',
    });
  },
);

// ---- the open points of search ------------------------------------------------------------------------

/** The judge of what search leaves open: order values, the default and maximum page size, page 0. */
export const searchOpenPoints = judge('the open points of search', [
  'SEARCH-ORDER-VALUES',
  'SEARCH-PAGESIZE-DEFAULT',
  'SEARCH-PAGESIZE-MAX',
]);

/** A request probing an open point: the point it names, so no answer to it fails a status clause. */
export interface Probe {
  openPoint: ObserveClauseId;
  label: string;
}

/** The probes of the open points of search. */
export const SEARCH_PROBES = {
  pageZero: { openPoint: 'SEARCH-PAGESIZE-DEFAULT', label: 'page=0 (below the 1-based range)' } satisfies Probe,
  order: (order: string): Probe => ({ openPoint: 'SEARCH-ORDER-VALUES', label: `order=${order}` }),
  pageSize: (size: number): Probe => ({ openPoint: 'SEARCH-PAGESIZE-MAX', label: `pageSize=${size}` }),
  junkPaging: { openPoint: 'SEARCH-PAGESIZE-MAX', label: 'page=abc&pageSize=xyz' } satisfies Probe,
};

/** How page=0 (below the 1-based range) is answered. */
export const observePageZero = searchOpenPoints.judges((v, ex: Exchange): void => {
  const items = listOf(ex).items;
  v.observe(
    'SEARCH-PAGESIZE-DEFAULT',
    'page=0 (below the 1-based range) answers',
    `${describe(ex)}${items ? `, ${items.length} items` : ''}`,
    ex.record.id,
  );
});

/** How a value of order is answered, against the listing's default order (`base`). */
export const observeOrder = searchOpenPoints.judges((v, order: string, ex: Exchange, base: readonly string[]): void => {
  const got = listOf(ex).items;
  const shape = !got
    ? describe(ex)
    : same(idsOf(got), base)
      ? `${describe(ex)}, default order`
      : got.length === base.length
        ? `${describe(ex)}, different order`
        : `${describe(ex)}, ${got.length} items`;
  v.observe('SEARCH-ORDER-VALUES', `order=${order}`, shape, ex.record.id);
});

/** How many items a search without pageSize lists, of the `total` listed. */
export const observeDefaultPageSize = searchOpenPoints.judges((v, ex: Exchange, total: number): void => {
  const n = (listOf(ex).items ?? []).length;
  v.observe(
    'SEARCH-PAGESIZE-DEFAULT',
    'items without pageSize',
    n < total ? `${n} (of ${total})` : `${n} (all ${total}; default ≥ ${n})`,
    ex.record.id,
  );
});

/** How a page size beyond any maximum, below one, or no number at all is answered. */
export const observePageSize = searchOpenPoints.judges((v, what: string, ex: Exchange, total: number): void => {
  const items = listOf(ex).items;
  v.observe(
    'SEARCH-PAGESIZE-MAX',
    what,
    items ? `${describe(ex)}, ${items.length} items (of ${total})` : describe(ex),
    ex.record.id,
  );
});

// ---- detail ---------------------------------------------------------------------------------------------

/** The judge of details: every listed workflow has one. */
export const detailOfListed = judge('the detail of a listed workflow', ['DETAIL-FOR-SEARCH-ITEM']);

/** The clauses the detail test judges: the detail's own and the coherence of each plan read. */
const DETAIL_CLAUSES: ClauseId[] = [
  'DETAIL-FOR-SEARCH-ITEM',
  'PLAN-DEPENDENCIES-EXIST',
  'PLAN-OPTIONS-ONLY-FOR-OPTION',
];

/** A detail is accepted when served with a plan (tasks an array; the rest is the contract checks'). */
export const PLAN = {
  carries: 'a plan',
  read: (data: unknown) =>
    Array.isArray((data as WorkflowPlan | null | undefined)?.tasks) ? (data as WorkflowPlan) : undefined,
};

/** A listing cut short before any item says nothing of details: returns whether it was. */
export const detailsUnusable = detailOfListed.judges((v, all: SearchListing): boolean => {
  if (!all.stop || all.items.length > 0) return false;
  stopAll(v, DETAIL_CLAUSES, all.stop);
  return true;
});

/**
 * Another tenant's workflows in the listing are SEARCH-TENANT-SCOPED's failure: that their detail is
 * refused to this key is the isolation holding, not a listed workflow without a detail.
 */
export const foreignInListing = detailOfListed.judges((v, shared: readonly SearchItem[]): void => {
  const stop = foreignStop(shared);
  if (stop) stopAll(v, ['DETAIL-FOR-SEARCH-ITEM'], stop);
});

/** The detail of a listed workflow: accepted with a plan, and the plan coherent. */
export const judgeDetail = detailOfListed.judges((v, item: SearchItem, ex: Exchange, message: string): void => {
  const plan = accepted(v, 'DETAIL-FOR-SEARCH-ITEM', ex, PLAN, message);
  if (plan.ok) checkPlanSemantics(v, plan.value, `the plan of ${item.canvasId}`, ex.record.id);
});

/** The plan of a workflow discovery chose (for its role) is coherent too, when it reads as one. */
export function judgeDiscoveredPlan(v: AnyRecorder, canvasId: string, ex: Exchange): void {
  const plan = PLAN.read(dataOf(ex));
  if (plan) checkPlanSemantics(v, plan, `the plan of ${canvasId} (found by discovery)`, ex.record.id);
}

/**
 * Listed workflows whose detail was "not found" and that are no longer listed were removed meanwhile: not
 * judged; when every one asked was, the clause is not run.
 */
export const removedMeanwhile = detailOfListed.judges((v, removed: number, gone: number, asked: number): void => {
  if (removed === 0) return;
  const reason = `${removed} listed workflow(s) whose detail was not found are no longer listed: removed meanwhile, so not judged`;
  if (removed === gone && gone === asked) v.notRun('DETAIL-FOR-SEARCH-ITEM', reason);
  else v.note('listing-moved', reason);
});
