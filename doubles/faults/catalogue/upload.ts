/** Upload and file variables (§4.1, §4.7). */
import { editJson, jsonOf, jsonReply, withJsonRequest, type CarriedKey } from '../proxy.ts';
import { isOp, mapOf, rememberUploads, runBodyOf, type Json } from './helpers.ts';
import { findMutant, type Mutant } from './mutant.ts';

export const UPLOAD: readonly Mutant[] = [
  {
    id: 'upload-one-key-for-many',
    category: 'upload',
    description: 'Upload returns a key for the first file only when several are sent.',
    breaks: ['UPLOAD-KEY-PER-FILE'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'uploadFiles')
        ? editJson(res, (b) => Array.isArray(b.data?.files) && b.data.files.length > 1 && b.data.files.splice(1))
        : res,
  },
  {
    id: 'upload-empty-200',
    category: 'upload',
    description: 'An upload without files succeeds with an empty list instead of 400.',
    breaks: ['UPLOAD-400-NO-FILES'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'uploadFiles') && res.status === 400 ? jsonReply(200, { success: true, data: { files: [] } }) : res,
  },
  {
    id: 'upload-key-renamed',
    category: 'upload',
    description: 'Uploaded files carry `key` instead of the required `fileKey`.',
    breaks: ['UPLOAD-200-DATA'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'uploadFiles')
        ? editJson(res, (b) => {
            if (!Array.isArray(b.data?.files)) return;
            for (const f of b.data.files as Json[]) {
              f.key = f.fileKey;
              delete f.fileKey;
            }
          })
        : res,
  },
  {
    id: 'plans-untyped-variables',
    probes: ['RUN-VARIABLES-WRAPPER', 'RUN-LEGACY-TOP-LEVEL', 'RUN-RETURNS-EXECUTION-ID'],
    category: 'upload',
    description:
      'Plans list their variables by name alone: variableType, required and options are left out (all optional, §2.5).',
    legal: true,
    response: (res, _req, ctx) =>
      isOp(ctx, 'getWorkflowDetail', 'generateWorkflow')
        ? editJson(res, (b) => {
            const plan = ctx.op === 'generateWorkflow' ? b.data?.workflowPlan : b.data;
            for (const v of Array.isArray(plan?.variables) ? plan.variables : []) {
              if (!v || typeof v !== 'object') continue;
              delete v.variableType;
              delete v.required;
              delete v.options;
            }
          })
        : res,
  },
  {
    id: 'legacy-form-refused',
    category: 'upload',
    description:
      'Variables given as top-level body fields (the legacy form §9.2 keeps) are refused with 400; only the wrapper works.',
    breaks: ['RUN-LEGACY-TOP-LEVEL'],
    request: (req, ctx) => {
      if (!isOp(ctx, 'runWorkflow')) return req;
      const body = runBodyOf(req);
      const legacy = body && Object.keys(body).some((k) => k !== 'variables');
      return legacy
        ? jsonReply(400, { success: false, errCode: 'INVALID_REQUEST_BODY', errMsg: 'unknown field' })
        : req;
    },
  },
  {
    // The refusal of the legacy form where the plans leave open what every variable takes: a 400 could be
    // the refusal of a value the harness guessed, until the same values are accepted in the wrapper form.
    id: 'legacy-refused-vague-plans',
    category: 'upload',
    description:
      'The legacy body form is refused, and plans list their variables by name alone (no type, required flag or options).',
    breaks: ['RUN-LEGACY-TOP-LEVEL'],
    probes: ['RUN-LEGACY-TOP-LEVEL', 'RUN-VARIABLES-WRAPPER'],
    request: (req, ctx) => findMutant(UPLOAD, 'legacy-form-refused').request!(req, ctx),
    response: (res, req, ctx) => findMutant(UPLOAD, 'plans-untyped-variables').response!(res, req, ctx),
  },
  {
    id: 'file-variable-array-rejected',
    category: 'upload',
    description: 'A file variable given as an array of fileKeys is rejected with 400 (only a single key works).',
    breaks: ['RUN-FILE-VARIABLE'],
    request: (req, ctx) => {
      if (!isOp(ctx, 'runWorkflow') || !ctx.carried) return req;
      const owners = mapOf<CarriedKey>(ctx, 'fileKeys');
      const body = runBodyOf(req);
      const values = body
        ? [
            ...Object.values(body),
            ...(body.variables && typeof body.variables === 'object' ? Object.values(body.variables) : []),
          ]
        : [];
      const hasArray = values.some(
        (v) => Array.isArray(v) && v.length > 0 && v.every((k) => typeof k === 'string' && owners.has(k)),
      );
      return hasArray
        ? jsonReply(400, { success: false, errCode: 'INVALID_REQUEST_BODY', errMsg: 'file variable must be a string' })
        : req;
    },
    response: (res, _req, ctx) => {
      rememberUploads(res, ctx);
      return res;
    },
  },
  {
    id: 'missing-required-variable-accepted',
    category: 'upload',
    description: 'Required variables are not enforced: a run without them starts.',
    warns: ['RUN-400-MISSING-REQUIRED-VARIABLE'],
    response: async (res, req, ctx) => {
      if (!isOp(ctx, 'runWorkflow') || res.status !== 400) return res;
      const m = /required variable (\S+) is missing/.exec(String((jsonOf(res) as Json | undefined)?.errMsg ?? ''));
      const body = runBodyOf(req) ?? {};
      if (!m) return res;
      const detail = (
        jsonOf(
          await ctx.forward({
            method: 'GET',
            path: `/openapi/workflows/${ctx.params.canvasId}`,
            headers: req.headers,
            body: Buffer.alloc(0),
          }),
        ) as Json | undefined
      )?.data;
      // Fill every required variable the way a lax implementation would default it; give up on file variables.
      const variables: Json = { ...(body.variables ?? {}) };
      for (const v of detail?.variables ?? []) {
        if (!v.required || variables[v.name] !== undefined || body[v.name] !== undefined) continue;
        if (v.variableType === 'resource') return res;
        variables[v.name] = v.variableType === 'option' ? v.options?.[0] : 'default';
      }
      return ctx.forward(withJsonRequest(req, { ...body, variables }));
    },
  },

  // ---- legal variants of implementations written from the specification alone ----
  {
    id: 'upload-payload-limit',
    category: 'upload',
    description:
      'The payload limit applies to uploads too (E2005 reads "request payload too large"): an upload body over 100 KiB is refused with 400 E2005.',
    legal: true,
    explored: true,
    probes: ['UPLOAD-KEY-PER-FILE', 'RUN-FILE-VARIABLE'],
    request: (req, ctx) =>
      isOp(ctx, 'uploadFiles') && ctx.carried && req.body.length > 100 * 1024
        ? jsonReply(400, { success: false, errCode: 'E2005', errMsg: 'request payload too large; maximum size 100KB' })
        : req,
  },
  {
    id: 'upload-other-media-415',
    category: 'upload',
    description:
      'An upload whose body is not multipart/form-data is refused with 415, as Django REST framework and Spring do for a media type no parser takes (§4.7: the content type of the upload is not shown).',
    legal: true,
    explored: true,
    probes: ['UPLOAD-400-NO-FILES', 'UPLOAD-CONTENT-TYPE'],
    request: (req, ctx) =>
      isOp(ctx, 'uploadFiles') && ctx.carried && !/^multipart\/form-data/i.test(req.headers['content-type'] ?? '')
        ? jsonReply(415, { success: false, errCode: 'E3009', errMsg: 'unsupported media type' })
        : req,
  },
];
