/** The content and payload limits (§8, codes E2004 and E2005). */
import { jsonOf, jsonReply, withJsonRequest } from '../proxy.ts';
import { isOp, mapStrings, PAYLOAD_LIMIT_BYTES, CONTENT_LIMIT_CHARS, type Json } from './helpers.ts';
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
];
