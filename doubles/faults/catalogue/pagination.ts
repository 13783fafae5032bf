/** Search (§4.5, §8): pages, page sizes, order, keyword and the shape of the listing. */
import { editJson, envelopeOf, jsonOf, withJson, withJsonRequest, withQuery } from '../proxy.ts';
import { isOp, BEYOND_SEARCH, SEARCH_STILL_JUDGED, type Json } from './helpers.ts';
import type { Mutant } from './mutant.ts';

export const PAGINATION: readonly Mutant[] = [
  {
    id: 'page-zero-based',
    category: 'pagination',
    description: 'Pages are 0-based: page=1 returns the second page.',
    breaks: ['SEARCH-PAGE-1-BASED'],
    stillRuns: [...BEYOND_SEARCH, ...SEARCH_STILL_JUDGED],
    request: (req, ctx) =>
      isOp(ctx, 'searchWorkflows')
        ? withQuery(
            req,
            (q) => q.has('page') && /^\d+$/.test(q.get('page')!) && q.set('page', String(Number(q.get('page')) + 1)),
          )
        : req,
  },
  {
    id: 'page-size-ignored',
    category: 'pagination',
    description: 'pageSize is ignored: every page has the default size (20).',
    breaks: ['SEARCH-PAGESIZE-HONOURED'],
    stillRuns: [...BEYOND_SEARCH, ...SEARCH_STILL_JUDGED, 'SEARCH-PAGE-1-BASED'],
    request: (req, ctx) => (isOp(ctx, 'searchWorkflows') ? withQuery(req, (q) => q.delete('pageSize')) : req),
  },
  {
    id: 'page-size-off-by-one',
    category: 'pagination',
    description: 'Each page holds pageSize + 1 items (an inclusive slice end).',
    breaks: ['SEARCH-PAGESIZE-HONOURED'],
    response: async (res, req, ctx) => {
      if (!isOp(ctx, 'searchWorkflows') || res.status !== 200) return res;
      const q = new URLSearchParams(req.path.split('?')[1] ?? '');
      const size = Number(q.get('pageSize'));
      const page = Number(q.get('page') ?? '1');
      if (!Number.isInteger(size) || size < 1 || size >= 100 || !Number.isInteger(page) || page < 1) return res;
      // The item just after this page: first item of the next page.
      const next = await ctx.forward(withQuery(req, (qq) => qq.set('page', String(page + 1))));
      const extra = (jsonOf(next) as Json | undefined)?.data?.[0];
      return extra ? editJson(res, (b) => Array.isArray(b.data) && b.data.length === size && b.data.push(extra)) : res;
    },
  },
  {
    id: 'pages-overlap',
    category: 'pagination',
    description:
      'Pages are cut with a stride of pageSize - 1: each page after the first repeats the last item of the page before.',
    warns: ['SEARCH-PAGES-DISJOINT'],
    response: async (res, req, ctx) => {
      if (!isOp(ctx, 'searchWorkflows') || res.status !== 200) return res;
      const q = new URLSearchParams(req.path.split('?')[1] ?? '');
      const size = Number(q.get('pageSize'));
      const page = Number(q.get('page'));
      if (!q.has('page') || !Number.isInteger(size) || size < 2 || size > 100 || !Number.isInteger(page) || page < 1)
        return res;
      // Items (page-1)*(size-1) … (page-1)*(size-1)+size-1: this page and the next at size - 1, one item of the latter.
      const itemsAt = async (p: number) =>
        (
          jsonOf(
            await ctx.forward(
              withQuery(req, (qq) => {
                qq.set('page', String(p));
                qq.set('pageSize', String(size - 1));
              }),
            ),
          ) as Json | undefined
        )?.data;
      const [head, next] = [await itemsAt(page), await itemsAt(page + 1)];
      if (!Array.isArray(head) || !Array.isArray(next)) return res;
      return editJson(res, (b) => (b.data = head.length ? [...head, ...next.slice(0, 1)] : []));
    },
  },
  {
    id: 'search-bare-array',
    category: 'pagination',
    description: 'Search answers the bare array of items, without the envelope ({success, data}).',
    breaks: ['SEARCH-200-ENVELOPE'],
    stillRuns: [...BEYOND_SEARCH, ...SEARCH_STILL_JUDGED, 'SEARCH-PAGE-1-BASED'],
    response: (res, _req, ctx) => {
      if (!isOp(ctx, 'searchWorkflows') || res.status !== 200) return res;
      const data = envelopeOf(res)?.data;
      return Array.isArray(data) ? withJson(res, data) : res;
    },
  },
  {
    id: 'search-wrapped-items',
    category: 'pagination',
    description: 'Search wraps its list: data is {items, total} instead of the array of items.',
    breaks: ['SEARCH-200-DATA'],
    stillRuns: [...BEYOND_SEARCH, ...SEARCH_STILL_JUDGED, 'SEARCH-PAGE-1-BASED'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'searchWorkflows')
        ? editJson(res, (b) => {
            if (Array.isArray(b.data)) b.data = { items: b.data, total: b.data.length };
          })
        : res,
  },
  {
    id: 'keyword-ignored',
    category: 'pagination',
    description: 'The keyword is ignored: search always lists every workflow.',
    breaks: ['SEARCH-KEYWORD-APPLIED'],
    request: (req, ctx) => (isOp(ctx, 'searchWorkflows') ? withQuery(req, (q) => q.delete('keyword')) : req),
  },
  {
    id: 'search-wrapped-list',
    category: 'pagination',
    description: 'Search wraps its list: data is {list, total} instead of the array of items.',
    breaks: ['SEARCH-200-DATA'],
    probes: ['SEARCH-PAGE-1-BASED', 'SEARCH-KEYWORD-APPLIED'],
    stillRuns: [...BEYOND_SEARCH, ...SEARCH_STILL_JUDGED, 'SEARCH-PAGE-1-BASED'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'searchWorkflows')
        ? editJson(res, (b) => {
            if (Array.isArray(b.data)) b.data = { list: b.data, total: b.data.length };
          })
        : res,
  },
  {
    id: 'order-ignored',
    probes: ['SEARCH-ORDER-VALUES', 'SEARCH-PAGE-1-BASED'],
    category: 'pagination',
    description: 'The order parameter is ignored (§4.5: allowed values not shown).',
    legal: true,
    request: (req, ctx) => (isOp(ctx, 'searchWorkflows') ? withQuery(req, (q) => q.delete('order')) : req),
  },
  {
    id: 'order-reversed',
    probes: ['SEARCH-ORDER-VALUES', 'SEARCH-PAGE-1-BASED'],
    category: 'pagination',
    description: 'Unknown order values sort by title; the default order is oldest first (§4.5: not shown).',
    legal: true,
    request: (req, ctx) =>
      isOp(ctx, 'searchWorkflows')
        ? withQuery(req, (q) => {
            const o = q.get('order');
            q.set(
              'order',
              o === null
                ? 'creationAsc'
                : ['updationDesc', 'updationAsc', 'creationDesc', 'creationAsc', 'titleAsc', 'titleDesc'].includes(o)
                  ? o
                  : 'titleAsc',
            );
          })
        : req,
  },
  {
    id: 'default-page-size-5',
    probes: ['SEARCH-PAGESIZE-DEFAULT', 'SEARCH-PAGE-1-BASED'],
    category: 'pagination',
    description: 'Without pageSize a page holds 5 items (§8: default page size not shown).',
    legal: true,
    request: (req, ctx) =>
      isOp(ctx, 'searchWorkflows') ? withQuery(req, (q) => !q.has('pageSize') && q.set('pageSize', '5')) : req,
  },
  {
    id: 'max-page-size-10',
    probes: ['SEARCH-PAGESIZE-MAX', 'SEARCH-PAGESIZE-HONOURED', 'SEARCH-PAGE-1-BASED'],
    category: 'pagination',
    description: 'pageSize is capped at 10 (§8: maximum page size not shown).',
    legal: true,
    request: (req, ctx) =>
      isOp(ctx, 'searchWorkflows')
        ? withQuery(req, (q) => {
            const n = Number(q.get('pageSize'));
            if (!q.has('pageSize') || !(n <= 10)) q.set('pageSize', '10');
          })
        : req,
  },
  {
    id: 'max-page-size-20',
    probes: ['SEARCH-PAGESIZE-MAX', 'SEARCH-PAGESIZE-HONOURED', 'SEARCH-PAGE-1-BASED'],
    category: 'pagination',
    description: 'pageSize is capped at 20, below what discovery asks for (§8: maximum page size not shown).',
    legal: true,
    stillRuns: [
      ...BEYOND_SEARCH,
      ...SEARCH_STILL_JUDGED,
      'SEARCH-PAGE-1-BASED',
      'SEARCH-PAGESIZE-HONOURED',
      'SEARCH-PAGES-DISJOINT',
    ],
    request: (req, ctx) =>
      isOp(ctx, 'searchWorkflows')
        ? withQuery(req, (q) => Number(q.get('pageSize')) > 20 && q.set('pageSize', '20'))
        : req,
  },
  {
    id: 'listing-grows',
    probes: ['SEARCH-PAGE-1-BASED', 'SEARCH-KEYWORD-APPLIED', 'DETAIL-FOR-SEARCH-ITEM'],
    category: 'pagination',
    description:
      'The account is shared: another client creates a workflow after every 15th search, so the listing grows at its head while it is read.',
    legal: true,
    request: async (req, ctx) => {
      if (!isOp(ctx, 'searchWorkflows') || !ctx.carried) return req;
      const searches = ((ctx.state.get('searches') as number | undefined) ?? 0) + 1;
      ctx.state.set('searches', searches);
      if (searches % 15 === 0) {
        const created = withJsonRequest(
          { ...req, method: 'POST', path: '/openapi/copilot/workflow/generate' },
          { query: `Weekly digest of open tickets ${searches}` },
        );
        await ctx.forward(created);
      }
      return req;
    },
  },

  // ---- legal variants of implementations written from the specification alone ----
  {
    id: 'paging-naive-slice',
    category: 'pagination',
    description:
      'Pages are a plain slice: a page that is no positive whole number (0, -1, "abc") or beyond the last gives an empty page, a pageSize that is none gives the default, an unknown order the default order; nothing is refused (§4.5 lists no 400).',
    legal: true,
    explored: true,
    probes: ['SEARCH-PAGE-1-BASED', 'SEARCH-PAGESIZE-DEFAULT', 'SEARCH-PAGESIZE-MAX', 'SEARCH-ORDER-VALUES'],
    request: (req, ctx) =>
      isOp(ctx, 'searchWorkflows')
        ? withQuery(req, (q) => {
            const page = q.get('page');
            // Far beyond any listing: the empty page a slice at a negative or NaN offset gives.
            if (page !== null && !/^[1-9]\d{0,8}$/.test(page.trim())) q.set('page', '999999999');
            const size = q.get('pageSize');
            if (size !== null && !/^[1-9]\d*$/.test(size.trim())) q.delete('pageSize');
          })
        : req,
  },
];
