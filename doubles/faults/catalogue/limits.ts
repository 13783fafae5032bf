/** The content and payload limits (§8, codes E2004 and E2005). */
import { jsonOf, jsonReply, textReply, withJsonRequest } from '../proxy.ts';
import { CONTENT_LIMIT_CHARS, isOp, mapStrings, PAYLOAD_LIMIT_BYTES, planOf, runBodyOf, type Json } from './helpers.ts';
import type { Mutant } from './mutant.ts';

export const LIMITS: readonly Mutant[] = [
  {
    id: 'payload-limit-ignored',
    category: 'limits',
    description: 'The payload limit is 1 MB instead of 100 KB: oversized bodies are processed.',
    breaks: ['LIMIT-PAYLOAD-100KB'],
    request: (req, ctx) => {
      if (!isOp(ctx, 'runWorkflow', 'generateWorkflow') || req.body.length <= PAYLOAD_LIMIT_BYTES) return req;
      const body = jsonOf(req);
      // Upstream enforces 100 KB; shortening long strings lets it process what this bug would process.
      return body === undefined
        ? req
        : withJsonRequest(
            req,
            mapStrings(body, (s) => (s.length > 200 ? s.slice(0, 200) : s)),
          );
    },
  },
  {
    id: 'content-limit-ignored',
    category: 'limits',
    description: 'Content longer than 100k characters is accepted (E2004 never raised).',
    breaks: ['LIMIT-CONTENT-100K'],
    request: (req, ctx) => {
      if (!isOp(ctx, 'runWorkflow', 'generateWorkflow') || req.body.length > PAYLOAD_LIMIT_BYTES) return req;
      const body = jsonOf(req);
      let long = false;
      const shortened = mapStrings(body, (s) => {
        if (s.length <= CONTENT_LIMIT_CHARS) return s;
        long = true;
        return s.slice(0, 1000);
      });
      return long ? withJsonRequest(req, shortened) : req;
    },
  },
  {
    id: 'limit-too-strict',
    category: 'limits',
    description: 'Payloads over 64 KB are rejected with E2005 (a common proxy default), below the 100 KB limit.',
    warns: ['LIMIT-WITHIN-ACCEPTED'],
    request: (req, ctx) =>
      isOp(ctx, 'runWorkflow', 'generateWorkflow') && ctx.carried && req.body.length > 64 * 1024
        ? jsonReply(400, {
            success: false,
            errCode: 'E2005',
            errMsg: 'request payload too large',
            statusCode: 400,
            message: 'request payload too large',
            error: 'Bad Request',
          })
        : req,
  },
  {
    id: 'payload-413-e2005',
    probes: ['LIMIT-PAYLOAD-100KB'],
    category: 'limits',
    description: 'An oversized payload answers 413 with errCode E2005 (E2005 has no listed HTTP status).',
    legal: true,
    response: (res) => ((jsonOf(res) as Json | undefined)?.errCode === 'E2005' ? { ...res, status: 413 } : res),
  },

  // ---- legal variants of implementations written from the specification alone ----
  {
    id: 'undeclared-variables-ignored',
    category: 'limits',
    description:
      'Run ignores variables its plan does not declare, whatever their length or content (long or odd values under undeclared names are accepted unread); the payload limit still applies to the whole body.',
    legal: true,
    explored: true,
    probes: ['LIMIT-CONTENT-100K', 'LIMIT-PAYLOAD-100KB', 'RUN-VALUE-KINDS', 'RUN-LEGACY-TOP-LEVEL'],
    request: async (req, ctx) => {
      const body = isOp(ctx, 'runWorkflow') && ctx.carried ? runBodyOf(req) : undefined;
      // Over 100 KiB the body is refused for its size before any variable is read (upstream does that).
      if (!body || req.body.length > PAYLOAD_LIMIT_BYTES) return req;
      const plan = await planOf(ctx, req);
      if (!plan) return req;
      const declared = new Set(((plan.variables ?? []) as Json[]).map((v) => v.name));
      const only = (o: Json) => Object.fromEntries(Object.entries(o).filter(([k]) => declared.has(k)));
      const { variables, ...legacy } = body;
      const wrapper =
        variables && typeof variables === 'object' && !Array.isArray(variables) ? only(variables) : variables;
      return withJsonRequest(req, { ...only(legacy), ...(variables === undefined ? {} : { variables: wrapper }) });
    },
  },
  {
    id: 'payload-413-gateway',
    category: 'limits',
    description:
      'A gateway in front refuses run and generate bodies over 100 KiB with its own 413 page (text/html, no errCode): the status of the payload limit is not shown.',
    legal: true,
    explored: true,
    probes: ['LIMIT-PAYLOAD-100KB', 'LIMIT-CONTENT-100K'],
    request: (req, ctx) =>
      isOp(ctx, 'runWorkflow', 'generateWorkflow') && req.body.length > PAYLOAD_LIMIT_BYTES
        ? textReply(
            413,
            '<html><head><title>413 Request Entity Too Large</title></head><body><center><h1>413 Request Entity Too Large</h1></center><hr><center>nginx</center></body></html>',
            'text/html',
          )
        : req,
  },
  {
    id: 'payload-limit-early',
    category: 'limits',
    description:
      'A run or generate request whose declared Content-Length is over 100 KiB is answered 413 E2005 as soon as its headers are read, and the connection closed without reading the body (as hyper does).',
    legal: true,
    explored: true,
    probes: ['LIMIT-PAYLOAD-100KB', 'LIMIT-CONTENT-100K'],
    early: (head, ctx) =>
      isOp(ctx, 'runWorkflow', 'generateWorkflow') &&
      ctx.carried &&
      Number(head.headers['content-length'] ?? 0) > PAYLOAD_LIMIT_BYTES
        ? jsonReply(413, { success: false, errCode: 'E2005', errMsg: 'request payload too large; maximum size 100KB' })
        : undefined,
  },
];
