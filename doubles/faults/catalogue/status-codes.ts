/** Status codes: an answer with another status than the one §4 lists for the case. */
import { randomUUID } from 'node:crypto';
import { jsonOf, jsonReply, textReply, withJson } from '../proxy.ts';
import {
  EXECUTION_OPS,
  givenVariables,
  isJsonResponse,
  isOp,
  NOT_FOUND_CLAUSES,
  perOp,
  planOf,
  runBodyOf,
  type Json,
} from './helpers.ts';
import type { Mutant } from './mutant.ts';

export const STATUS_CODES: readonly Mutant[] = [
  {
    id: 'unknown-execution-500',
    category: 'status-codes',
    description: 'An unknown execution crashes the lookup: 500 instead of 404 on status, output and abort.',
    breaks: [
      'STATUS-404-UNKNOWN-EXECUTION',
      'OUTPUT-404-UNKNOWN-EXECUTION',
      'ABORT-404-UNKNOWN-EXECUTION',
      'STATUS-HTTP-STATUS-LISTED',
      'OUTPUT-HTTP-STATUS-LISTED',
      'ABORT-HTTP-STATUS-LISTED',
    ],
    response: (res, _req, ctx) =>
      isOp(ctx, ...EXECUTION_OPS) && res.status === 404
        ? jsonReply(500, { success: false, errCode: 'E0000', errMsg: 'Cannot read properties of undefined' })
        : res,
  },
  {
    id: 'run-unknown-canvas-400',
    category: 'status-codes',
    description: 'Running an unknown canvas answers 400 instead of 404.',
    breaks: ['RUN-404-UNKNOWN-CANVAS'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'runWorkflow') && res.status === 404
        ? withJson(res, { success: false, errCode: 'INVALID_REQUEST_BODY', errMsg: 'invalid canvasId' }, 400)
        : res,
  },
  {
    id: 'detail-unknown-200-null',
    category: 'status-codes',
    description: 'The detail of an unknown canvas answers 200 with data: null.',
    // A 200 that says success carries its data to be judged: null is no plan (the engine names PLAN-FIELDS).
    breaks: ['DETAIL-404-UNKNOWN-CANVAS', 'DETAIL-200-DATA', 'PLAN-FIELDS'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'getWorkflowDetail') && res.status === 404 ? jsonReply(200, { success: true, data: null }) : res,
  },
  {
    id: 'api-disabled-ignored',
    category: 'status-codes',
    description: 'A canvas whose workflow API is disabled still starts an execution (200 instead of 403).',
    breaks: ['RUN-403-API-DISABLED'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'runWorkflow') && res.status === 403
        ? jsonReply(200, { success: true, data: { executionId: `we_${randomUUID().slice(0, 12)}`, status: 'init' } })
        : res,
  },
  {
    id: 'run-invalid-body-500',
    category: 'status-codes',
    description: 'A run body that is not a JSON object crashes the handler: 500 instead of 400.',
    breaks: ['RUN-400-INVALID-BODY', 'RUN-HTTP-STATUS-LISTED'],
    request: (req, ctx) => {
      if (!isOp(ctx, 'runWorkflow') || req.body.length === 0 || !ctx.carried) return req;
      const v = jsonOf(req);
      return v && typeof v === 'object' && !Array.isArray(v)
        ? req
        : jsonReply(500, { success: false, errCode: 'E0000', errMsg: 'Unexpected token' });
    },
  },
  {
    id: 'odd-ids-500',
    category: 'status-codes',
    description: 'Ids that are very long, non-ASCII or contain dots and slashes crash the router: 500.',
    breaks: ['ODD-IDS-NO-5XX', ...perOp('HTTP-STATUS-LISTED')],
    request: (req, ctx) => {
      const id = ctx.params.executionId ?? ctx.params.canvasId;
      if (!ctx.carried || id === undefined) return req;
      return id.length > 100 || /[^\x20-\x7e]|\.\.|\//.test(id)
        ? jsonReply(500, { success: false, errCode: 'E0000', errMsg: 'internal error' })
        : req;
    },
  },

  // Single deviations the compound entries combine.
  {
    id: 'post-201',
    category: 'status-codes',
    description: 'Every successful POST is answered 201 Created, bodies unchanged (§4 lists 200).',
    breaks: [
      'RUN-HTTP-STATUS-LISTED',
      'UPLOAD-HTTP-STATUS-LISTED',
      'GENERATE-HTTP-STATUS-LISTED',
      'ABORT-HTTP-STATUS-LISTED',
    ],
    probes: ['RUN-RETURNS-EXECUTION-ID', 'UPLOAD-KEY-PER-FILE', 'ABORT-ACCEPTED', 'GENERATE-400-MISSING-QUERY'],
    response: (res, req, ctx) =>
      ctx.op && req.method === 'POST' && res.status === 200 ? { ...res, status: 201 } : res,
  },
  {
    id: 'not-found-as-200',
    category: 'status-codes',
    description: 'Not found is answered 200 with {success: false, errCode: "E1000"} instead of 404.',
    breaks: NOT_FOUND_CLAUSES,
    warns: ['ENVELOPE-SUCCESS-TRUE-ON-200'],
    response: (res, _req, ctx) =>
      ctx.op && res.status === 404 ? jsonReply(200, { success: false, errCode: 'E1000', errMsg: 'not found' }) : res,
  },
  {
    id: 'plain-text-401-404',
    probes: ['AUTH-401-MISSING-KEY', 'STATUS-404-UNKNOWN-EXECUTION', 'ISOLATION-EXECUTION'],
    category: 'status-codes',
    description: '401 and 404 come with a plain-text body (§7: error body shape not shown).',
    legal: true,
    response: (res) =>
      res.status === 401 ? textReply(401, 'Unauthorized') : res.status === 404 ? textReply(404, 'Not Found') : res,
  },
  {
    id: 'minimal-error-envelope',
    probes: ['AUTH-401-MISSING-KEY', 'STATUS-404-UNKNOWN-EXECUTION', 'LIMIT-PAYLOAD-100KB', 'GENERATE-400-BODY'],
    category: 'status-codes',
    description: 'Error envelopes carry only success and errCode, and traceIds are UUIDs (§7, §2.1 optional fields).',
    legal: true,
    response: (res, _req, ctx) => {
      if (!isJsonResponse(res)) return res;
      const body = jsonOf(res) as Json | undefined;
      if (!body || typeof body !== 'object' || Array.isArray(body)) return res;
      if (res.status >= 400 && !(ctx.op === 'generateWorkflow' && res.status === 400))
        return withJson(res, { success: false, errCode: body.errCode });
      if (typeof body.traceId === 'string') body.traceId = randomUUID();
      return withJson(res, body);
    },
  },

  // ---- legal variants of implementations written from the specification alone ----
  {
    id: 'typed-variables-refuse-other-kinds',
    category: 'status-codes',
    description:
      'A variable the plan declares `string` given an object or an array is refused with 400 INVALID_REQUEST_BODY: a typed variable takes its type (§4.1 lists the kinds values take, not what each variable accepts).',
    legal: true,
    explored: true,
    probes: ['RUN-VALUE-KINDS', 'RUN-RETURNS-EXECUTION-ID'],
    request: async (req, ctx) => {
      const body = isOp(ctx, 'runWorkflow') && ctx.carried ? runBodyOf(req) : undefined;
      if (!body) return req;
      const plan = await planOf(ctx, req);
      const given = givenVariables(body);
      const refused = ((plan?.variables ?? []) as Json[]).find(
        (v) => v.variableType === 'string' && given[v.name] !== null && typeof given[v.name] === 'object',
      );
      return refused
        ? jsonReply(400, {
            success: false,
            errCode: 'INVALID_REQUEST_BODY',
            errMsg: `variable ${refused.name} takes a string`,
          })
        : req;
    },
  },
  {
    id: 'http-layer-refuses-unroutable-ids',
    category: 'status-codes',
    description:
      'As Tomcat (every Spring Boot service) does before any code of the service runs: a request whose path holds an encoded slash, backslash or NUL, or a percent-escape that is malformed or not UTF-8, is answered 400 with an HTML page (RFC 9110 lets a server refuse a request target it will not route).',
    legal: true,
    explored: true,
    probes: ['ODD-IDS-NO-5XX', 'HTTP-LAYER-REFUSAL'],
    early: (head) => (tomcatRefuses(head.path.split('?')[0]!) ? TOMCAT_400 : undefined),
  },
];

const TOMCAT_400 = textReply(
  400,
  '<!doctype html><html lang="en"><head><title>HTTP Status 400 – Bad Request</title></head><body><h1>HTTP Status 400 – Bad Request</h1></body></html>',
  'text/html;charset=utf-8',
);

/** Tomcat's own refusals of a request path: an encoded slash, backslash or NUL, a malformed or non-UTF-8 escape. */
function tomcatRefuses(path: string): boolean {
  if (/%(?![0-9A-Fa-f]{2})|%2[Ff]|%5[Cc]|%00/.test(path)) return true;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}
