/** Generate (§4.8). */
import {
  editJson,
  envelopeOf,
  jsonOf,
  jsonReply,
  withJson,
  withJsonRequest,
  withQuery,
  type MutantContext,
  type ProxyRequest,
} from '../proxy.ts';
import { isOp, runBodyOf, setOf, type Json } from './helpers.ts';
import type { Mutant } from './mutant.ts';

/**
 * The page a search asks for, of the listing without `hidden` canvases: what a server that never stored them
 * lists. The whole listing is read upstream and paged here, with the reference target's paging rules
 * (page and pageSize positive whole numbers, else 1 and 20; pageSize at most 100).
 */
async function pageWithout(req: ProxyRequest, ctx: MutantContext, hidden: Set<string>): Promise<Json[] | undefined> {
  const q = new URLSearchParams(req.path.split('?')[1] ?? '');
  const whole = (v: string | null) => (v !== null && /^\d+$/.test(v.trim()) && Number(v) >= 1 ? Number(v) : undefined);
  const page = whole(q.get('page')) ?? 1;
  const size = Math.min(whole(q.get('pageSize')) ?? 20, 100);
  const all: Json[] = [];
  for (let p = 1; p <= 1000; p++) {
    const res = await ctx.forward(
      withQuery(req, (qq) => {
        qq.set('page', String(p));
        qq.set('pageSize', '100');
      }),
    );
    const items = (jsonOf(res) as Json | undefined)?.data;
    if (!Array.isArray(items)) return undefined;
    all.push(...items);
    if (items.length < 100) break;
  }
  const kept = all.filter((i) => !hidden.has(String(i?.canvasId)));
  return kept.slice((page - 1) * size, page * size);
}

export const GENERATE: readonly Mutant[] = [
  {
    id: 'generate-400-plain-envelope',
    category: 'generate',
    description: "Generate's 400 is the usual error envelope, without statusCode, message and error (§4.8).",
    breaks: ['GENERATE-400-BODY'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'generateWorkflow') && res.status === 400
        ? withJson(res, { success: false, errCode: 'INVALID_REQUEST_BODY', errMsg: 'generation failed' })
        : res,
  },
  {
    id: 'generate-query-optional',
    category: 'generate',
    description: 'A missing or empty query is replaced by a default prompt instead of 400.',
    breaks: ['GENERATE-400-MISSING-QUERY'],
    request: (req, ctx) => {
      if (!isOp(ctx, 'generateWorkflow') || !ctx.carried) return req;
      const body = runBodyOf(req);
      if (!body || (typeof body.query === 'string' && body.query.trim() !== '')) return req;
      return withJsonRequest(req, { ...body, query: 'Summarise the latest news for the team' });
    },
  },
  {
    id: 'generate-locales-subset',
    category: 'generate',
    description: 'Only six locales are supported; the other listed ones answer 400.',
    warns: ['GENERATE-LOCALES'],
    request: (req, ctx) => {
      const locale = isOp(ctx, 'generateWorkflow') && ctx.carried ? runBodyOf(req)?.locale : undefined;
      if (typeof locale !== 'string' || ['en', 'zh-CN', 'ja', 'fr', 'de-DE', 'es'].includes(locale)) return req;
      return jsonReply(400, { statusCode: 400, message: `unsupported locale ${locale}`, error: 'Bad Request' });
    },
  },
  {
    id: 'generate-unknown-canvas-creates',
    category: 'generate',
    description: 'Generate with an unknown canvasId creates a new workflow instead of answering 404.',
    breaks: ['GENERATE-404-UNKNOWN-CANVAS'],
    response: async (res, req, ctx) => {
      if (!isOp(ctx, 'generateWorkflow') || res.status !== 404) return res;
      const { canvasId: _dropped, ...rest } = runBodyOf(req) ?? {};
      return ctx.forward(withJsonRequest(req, rest));
    },
  },
  {
    id: 'generate-plan-no-tasks',
    category: 'generate',
    description: 'The generated plan omits its required tasks (they are only stored).',
    breaks: ['PLAN-FIELDS', 'GENERATE-200-DATA'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'generateWorkflow')
        ? editJson(res, (b) => b.data?.workflowPlan && delete b.data.workflowPlan.tasks)
        : res,
  },
  {
    id: 'generate-without-canvas-id',
    probes: ['GENERATE-LOCALES', 'GENERATE-OVERWRITE-REPLACES'],
    category: 'generate',
    description: 'Generate without a canvasId answers without data.canvasId (optional in §4.8).',
    legal: true,
    response: (res, req, ctx) =>
      isOp(ctx, 'generateWorkflow') && runBodyOf(req)?.canvasId === undefined
        ? editJson(res, (b) => b.data && delete b.data.canvasId)
        : res,
  },

  // ---- legal variants of implementations written from the specification alone ----
  {
    id: 'generate-stores-nothing',
    category: 'generate',
    description:
      'Generate without a canvasId returns the plan and stores nothing: no canvasId in the answer (optional, §4.8), and the plan is neither listed by search nor readable or runnable.',
    legal: true,
    explored: true,
    probes: ['GENERATE-200-DATA', 'GENERATE-LOCALES', 'GENERATE-OVERWRITE-REPLACES', 'DETAIL-FOR-SEARCH-ITEM'],
    request: (req, ctx) => {
      const id = ctx.params.canvasId ?? (isOp(ctx, 'generateWorkflow') ? runBodyOf(req)?.canvasId : undefined);
      return ctx.carried && typeof id === 'string' && setOf(ctx, 'unstored').has(id)
        ? jsonReply(404, { success: false, errCode: 'CANVAS_NOT_FOUND', errMsg: 'canvas not found' })
        : req;
    },
    response: async (res, req, ctx) => {
      const unstored = setOf(ctx, 'unstored');
      if (isOp(ctx, 'searchWorkflows')) {
        if (unstored.size === 0 || res.status !== 200) return res;
        const page = await pageWithout(req, ctx, unstored);
        return page ? editJson(res, (b) => (b.data = page)) : res;
      }
      if (!isOp(ctx, 'generateWorkflow') || runBodyOf(req)?.canvasId !== undefined) return res;
      const created = (envelopeOf(res)?.data as Json | undefined)?.canvasId;
      if (typeof created === 'string') unstored.add(created);
      return editJson(res, (b) => b.data && delete b.data.canvasId);
    },
  },
];
