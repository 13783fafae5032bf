/** Generate (§4.8). */
import { editJson, jsonReply, withJson, withJsonRequest } from '../proxy.ts';
import { isOp, runBodyOf } from './helpers.ts';
import type { Mutant } from './mutant.ts';

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
];
