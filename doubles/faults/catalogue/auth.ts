/** Authentication (§5): requests served without a valid key, refusals with the wrong status, the key echoed. */
import { jsonOf, jsonReply, withAuth, withJson } from '../proxy.ts';
import { isOp, isJsonResponse, runBodyOf, perOp, type Json } from './helpers.ts';
import type { Mutant } from './mutant.ts';

const UNAUTHORIZED = jsonReply(401, { success: false, errCode: 'E0004', errMsg: 'missing or invalid API key' });

export const AUTH: readonly Mutant[] = [
  {
    id: 'auth-missing-key-accepted',
    category: 'auth',
    description: 'A request without Authorization is served as the first tenant (a default key in the gateway).',
    breaks: ['AUTH-401-MISSING-KEY', 'AUTH-NOT-SERVED-WITHOUT-KEY', ...perOp('401-MISSING-OR-INVALID-KEY')],
    request: (req, ctx) => (req.headers.authorization === undefined ? withAuth(req, ctx.keys.A) : req),
  },
  {
    id: 'auth-invalid-key-accepted',
    category: 'auth',
    description: 'Any well-formed Bearer value is accepted (the key is never looked up).',
    breaks: ['AUTH-401-INVALID-KEY', 'AUTH-NOT-SERVED-WITHOUT-KEY', ...perOp('401-MISSING-OR-INVALID-KEY')],
    request: (req, ctx) =>
      /^Bearer \S+$/i.test(req.headers.authorization ?? '') && !ctx.carried ? withAuth(req, ctx.keys.A) : req,
  },
  {
    id: 'auth-any-scheme-accepted',
    category: 'auth',
    description: 'The key is found anywhere in Authorization, whatever the scheme ("Token <key>", "<key>").',
    breaks: ['AUTH-401-WRONG-SCHEME', 'AUTH-NOT-SERVED-WITHOUT-KEY', ...perOp('401-MISSING-OR-INVALID-KEY')],
    request: (req, ctx) => {
      const auth = req.headers.authorization;
      if (auth === undefined || ctx.carried) return req;
      const key = [ctx.keys.A, ctx.keys.B].find((k) => k && auth.includes(k));
      return key ? withAuth(req, key) : req;
    },
  },
  {
    id: 'auth-empty-bearer-accepted',
    category: 'auth',
    description: '"Bearer" with no key falls through to a default tenant.',
    breaks: ['AUTH-401-EMPTY-BEARER', 'AUTH-NOT-SERVED-WITHOUT-KEY', ...perOp('401-MISSING-OR-INVALID-KEY')],
    request: (req, ctx) => (/^\s*Bearer\s*$/i.test(req.headers.authorization ?? '') ? withAuth(req, ctx.keys.A) : req),
  },
  {
    id: 'auth-403-for-bad-key',
    category: 'auth',
    description: 'A missing or invalid key answers 403 instead of 401.',
    breaks: [
      'AUTH-401-MISSING-KEY',
      'AUTH-401-INVALID-KEY',
      'AUTH-401-EMPTY-BEARER',
      'AUTH-401-WRONG-SCHEME',
      ...perOp('401-MISSING-OR-INVALID-KEY'),
      ...perOp('HTTP-STATUS-LISTED'),
    ],
    response: (res) =>
      res.status === 401 ? withJson(res, { success: false, errCode: 'E0004', errMsg: 'forbidden' }, 403) : res,
  },
  {
    id: 'key-echoed-in-errors',
    category: 'auth',
    description: "Error bodies repeat the request's Authorization header in a debug field (the key in clear).",
    warns: ['KEY-NOT-ECHOED'],
    // Every answer is judged for it; the tests of refusals with the key (an unknown execution) meet it first.
    probes: ['KEY-NOT-ECHOED', 'STATUS-404-UNKNOWN-EXECUTION'],
    response: (res, req, ctx) => {
      if (res.status < 400 || !isJsonResponse(res) || !ctx.carried) return res;
      const body = jsonOf(res) as Json | undefined;
      return body && typeof body === 'object' && !Array.isArray(body)
        ? withJson(res, { ...body, debug: { authorization: req.headers.authorization } })
        : res;
    },
  },
  // A request processed without a key is exposure whatever its status.
  {
    id: 'run-ignores-missing-key',
    probes: ['RUN-401-MISSING-OR-INVALID-KEY'],
    category: 'auth',
    description:
      'A run without Authorization is validated before the key is checked: one lacking a required variable gets the same 400 as with the key.',
    breaks: ['AUTH-NOT-SERVED-WITHOUT-KEY'],
    request: async (req, ctx) => {
      if (!isOp(ctx, 'runWorkflow') || req.headers.authorization !== undefined) return req;
      const plan = (
        jsonOf(
          await ctx.forward({
            method: 'GET',
            path: `/openapi/workflows/${ctx.params.canvasId}`,
            headers: { authorization: `Bearer ${ctx.keys.A}` },
            body: Buffer.alloc(0),
          }),
        ) as Json | undefined
      )?.data;
      const body = runBodyOf(req) ?? {};
      const given = { ...body, ...(body.variables && typeof body.variables === 'object' ? body.variables : {}) };
      const lacking = (plan?.variables ?? []).some((v: Json) => v.required && given[v.name] === undefined);
      // Only the refusal is processed as the first tenant's (nothing starts); anything else still gets 401.
      return lacking ? ctx.forward(withAuth(req, ctx.keys.A)) : req;
    },
  },

  // ---- legal variants of implementations written from the specification alone ----
  {
    id: 'bearer-strict',
    category: 'auth',
    description:
      'Only "Bearer" followed by one space and the key is read: "bearer", "BEARER" or two spaces before a valid key answer 401.',
    legal: true,
    explored: true,
    probes: ['AUTH-SCHEME-SPELLING', 'AUTH-401-WRONG-SCHEME'],
    request: (req, ctx) =>
      ctx.op !== undefined && ctx.carried && !/^Bearer \S+$/.test(req.headers.authorization ?? '')
        ? { ...UNAUTHORIZED, headers: { ...UNAUTHORIZED.headers, 'www-authenticate': 'Bearer' } }
        : req,
  },
  {
    id: 'bearer-any-case-and-spacing',
    category: 'auth',
    description:
      'The scheme is read case-insensitively and any run of spaces or tabs may precede the key ("bearer", "BEARER", "Bearer  <key>" are accepted), as RFC 9110 allows.',
    legal: true,
    explored: true,
    probes: ['AUTH-SCHEME-SPELLING', 'AUTH-401-WRONG-SCHEME'],
    request: (req, ctx) => {
      const m = /^\s*bearer[ \t]+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
      const key = m && [ctx.keys.A, ctx.keys.B].find((k) => k === m[1]);
      return key ? withAuth(req, key) : req;
    },
  },
  {
    id: 'unkeyed-refused-early',
    category: 'auth',
    description:
      'A request without a valid key is answered 401 as soon as its headers are read, and the connection closed without reading its body (as hyper does).',
    legal: true,
    explored: true,
    probes: ['AUTH-401-MISSING-KEY', 'AUTH-NOT-SERVED-WITHOUT-KEY', 'RUN-401-MISSING-OR-INVALID-KEY'],
    early: (_head, ctx) => (ctx.op !== undefined && !ctx.carried ? UNAUTHORIZED : undefined),
  },
  {
    id: 'file-url-behind-key',
    category: 'auth',
    description:
      "A produced file's url answers 401 without the API key and serves the file with it (§4: every endpoint requires the key).",
    legal: true,
    explored: true,
    probes: ['OUTPUT-FILE-URL-SERVES', 'OUTPUT-FILE-SIZE-UNIT'],
    request: (req, ctx) =>
      ctx.op === undefined && /\/drive\/files\//.test(req.path) && !ctx.carried ? UNAUTHORIZED : req,
  },
];
