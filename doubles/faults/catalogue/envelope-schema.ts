/** Envelope and schema: fields missing, mistyped or outside their enum; extra and absent optional fields. */
import { editJson, jsonOf, textReply, withJson } from '../proxy.ts';
import { isOp, eachNode, eachPlan, isJsonResponse, perOp, type Json } from './helpers.ts';
import type { Mutant } from './mutant.ts';

export const ENVELOPE_SCHEMA: readonly Mutant[] = [
  {
    id: 'envelope-no-success',
    category: 'envelope-schema',
    description: 'Success envelopes omit the required `success` field.',
    breaks: perOp('200-ENVELOPE'),
    response: (res) => editJson(res, (b) => delete b.success),
  },
  {
    id: 'envelope-success-string',
    category: 'envelope-schema',
    description: '`success` is the string "true" instead of a boolean.',
    breaks: perOp('200-ENVELOPE'),
    response: (res) => editJson(res, (b) => (b.success = String(b.success))),
  },
  {
    id: 'status-body-not-json',
    category: 'envelope-schema',
    description: 'The status endpoint answers 200 with a plain-text status line instead of the JSON envelope.',
    breaks: ['STATUS-200-ENVELOPE'],
    response: (res, _req, ctx) => {
      if (!isOp(ctx, 'getExecutionStatus') || res.status !== 200) return res;
      const status = (jsonOf(res) as Json | undefined)?.data?.status ?? 'unknown';
      return textReply(200, `status: ${status}`);
    },
  },
  {
    id: 'exec-status-renamed',
    probes: ['STATE-TERMINAL', 'RUN-RETURNS-EXECUTION-ID'],
    category: 'envelope-schema',
    description: 'Execution status uses its own words: "pending" for init, "running" for executing.',
    breaks: ['EXEC-STATUS-ENUM'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'runWorkflow', 'getExecutionStatus')
        ? editJson(res, (b) => {
            if (b.data?.status === 'executing') b.data.status = 'running';
            if (b.data?.status === 'init') b.data.status = 'pending';
          })
        : res,
  },
  {
    id: 'node-status-done',
    category: 'envelope-schema',
    description: 'Finished nodes report "done" instead of "finish".',
    breaks: ['NODE-STATUS-ENUM'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'getExecutionStatus', 'getExecutionOutput')
        ? editJson(res, (b) =>
            eachNode(b.data, (n) => {
              if (n.status === 'finish') n.status = 'done';
            }),
          )
        : res,
  },
  {
    id: 'run-data-extra-field',
    category: 'envelope-schema',
    description: 'The run response data also carries canvasId and createdAt (§2.2: only executionId and status).',
    breaks: ['RUN-200-ONLY-EXECUTIONID-STATUS'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'runWorkflow')
        ? editJson(
            res,
            (b) =>
              b.data && Object.assign(b.data, { canvasId: ctx.params.canvasId, createdAt: new Date().toISOString() }),
          )
        : res,
  },
  {
    id: 'created-at-locale-format',
    category: 'envelope-schema',
    description: 'createdAt is a locale-formatted date ("11/22/2026, 9:40:00 AM"), not an RFC 3339 date-time.',
    breaks: ['DATETIME-FORMAT'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'getExecutionStatus')
        ? editJson(res, (b) => {
            if (b.data?.createdAt)
              b.data.createdAt = new Date(b.data.createdAt).toLocaleString('en-US', { timeZone: 'UTC' });
          })
        : res,
  },
  {
    id: 'message-type-assistant',
    category: 'envelope-schema',
    description: 'Output messages of type ai are labelled "assistant".',
    breaks: ['MESSAGE-TYPE-ENUM'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'getExecutionOutput')
        ? editJson(res, (b) =>
            eachNode(b.data, (n) => {
              if (!Array.isArray(n.messages)) return;
              for (const m of n.messages as Json[]) if (m?.type === 'ai') m.type = 'assistant';
            }),
          )
        : res,
  },
  {
    id: 'search-item-name-not-title',
    category: 'envelope-schema',
    description: 'Search items carry `name` instead of the required `title`.',
    breaks: ['SEARCH-ITEM-FIELDS'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'searchWorkflows')
        ? editJson(res, (b) => {
            if (!Array.isArray(b.data)) return;
            for (const i of b.data as Json[]) {
              i.name = i.title;
              delete i.title;
            }
          })
        : res,
  },
  {
    id: 'plan-toolsets-string',
    category: 'envelope-schema',
    description: 'Plan tasks list their toolsets as one comma-separated string instead of an array.',
    breaks: ['PLAN-TASK-FIELDS'],
    response: (res, _req, ctx) =>
      editJson(res, (b) =>
        eachPlan(ctx, b, (p) => {
          if (!Array.isArray(p.tasks)) return;
          for (const t of p.tasks as Json[]) if (Array.isArray(t.toolsets)) t.toolsets = t.toolsets.join(',');
        }),
      ),
  },
  {
    id: 'variable-type-file',
    category: 'envelope-schema',
    description: 'File variables are typed "file" instead of "resource".',
    breaks: ['VARIABLE-TYPE-ENUM'],
    response: (res, _req, ctx) =>
      editJson(res, (b) =>
        eachPlan(ctx, b, (p) => {
          if (!Array.isArray(p.variables)) return;
          for (const v of p.variables as Json[]) if (v.variableType === 'resource') v.variableType = 'file';
        }),
      ),
  },
  {
    id: 'output-file-no-type',
    category: 'envelope-schema',
    description: 'Output files lack their required `type`.',
    breaks: ['OUTPUT-FILE-FIELDS'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'getExecutionOutput')
        ? editJson(res, (b) => {
            if (Array.isArray(b.data?.files)) for (const f of b.data.files as Json[]) delete f.type;
          })
        : res,
  },
  {
    id: 'abort-returns-data',
    category: 'envelope-schema',
    description: 'The abort response carries data (§4.2: an envelope without data).',
    breaks: ['ABORT-200-NO-DATA'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'abortExecution')
        ? editJson(res, (b) => (b.data = { executionId: ctx.params.executionId, aborted: true }))
        : res,
  },
  {
    id: 'run-status-bad-enum-201',
    category: 'envelope-schema',
    description: 'Run answers 201 with status "queued", outside the execution status enum.',
    breaks: ['RUN-HTTP-STATUS-LISTED', 'EXEC-STATUS-ENUM'],
    findings: 2,
    probes: ['RUN-RETURNS-EXECUTION-ID'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'runWorkflow') && res.status >= 200 && res.status < 300
        ? {
            ...editJson(res, (b) => {
              if (b.data) b.data.status = 'queued';
            }),
            status: 201,
          }
        : res,
  },

  {
    id: 'success-false-on-200',
    category: 'envelope-schema',
    description: 'Successful answers say success: false.',
    warns: ['ENVELOPE-SUCCESS-TRUE-ON-200'],
    response: (res) =>
      editJson(res, (b) => {
        if (b.success === true) b.success = false;
      }),
  },
  {
    id: 'stack-in-errors',
    category: 'envelope-schema',
    description: 'Error bodies expose a stack trace outside development.',
    warns: ['ENVELOPE-STACK-DEV-ONLY'],
    response: (res) => {
      if (res.status < 400 || !isJsonResponse(res)) return res;
      const body = jsonOf(res) as Json | undefined;
      return body && typeof body === 'object'
        ? withJson(res, { ...body, stack: 'Error: failed\n    at handler (/app/server.js:10:5)' })
        : res;
    },
  },
  {
    id: 'json-labelled-text',
    category: 'envelope-schema',
    description: 'JSON bodies are sent as text/plain.',
    warns: ['JSON-CONTENT-TYPE'],
    response: (res) =>
      isJsonResponse(res) ? { ...res, headers: { ...res.headers, 'content-type': 'text/plain; charset=utf-8' } } : res,
  },
  {
    id: 'dependent-task-unknown',
    category: 'envelope-schema',
    description: 'Plans name a dependency on a task that does not exist.',
    warns: ['PLAN-DEPENDENCIES-EXIST'],
    response: (res, _req, ctx) =>
      editJson(res, (b) =>
        eachPlan(ctx, b, (p) => {
          if (p.tasks?.[0]) p.tasks[0].dependentTasks = [...(p.tasks[0].dependentTasks ?? []), 'task_removed'];
        }),
      ),
  },
  {
    id: 'extra-fields',
    probes: [
      'RUN-RETURNS-EXECUTION-ID',
      'UPLOAD-KEY-PER-FILE',
      'STATE-TERMINAL',
      'GENERATE-LOCALES',
      'DETAIL-FOR-SEARCH-ITEM',
    ],
    category: 'envelope-schema',
    description:
      'Envelopes and objects carry extra fields (requestId, updatedAt, description, …); run data stays exact.',
    legal: true,
    response: (res, _req, ctx) => {
      if (!isJsonResponse(res) || (ctx.op === 'generateWorkflow' && res.status === 400)) return res;
      const body = jsonOf(res) as Json | undefined;
      if (!body || typeof body !== 'object' || Array.isArray(body)) return res;
      body.requestId = `req-${ctx.seq}`;
      body.serverTime = new Date().toISOString();
      const d = body.data;
      if (ctx.op === 'searchWorkflows' && Array.isArray(d))
        for (const i of d as Json[]) Object.assign(i, { updatedAt: '2026-01-01T00:00:00Z', owner: 'someone' });
      if (ctx.op === 'getExecutionStatus' && d)
        Object.assign(d, { canvasId: 'c_x', updatedAt: new Date().toISOString() });
      eachNode(d, (n) => Object.assign(n, { progress: 0.5 }));
      if (ctx.op === 'getExecutionOutput' && Array.isArray(d?.files))
        for (const f of d.files as Json[]) Object.assign(f, { createdAt: new Date().toISOString() });
      eachPlan(ctx, body, (p) => {
        p.description = 'extra';
        for (const t of (p.tasks ?? []) as Json[]) t.estimatedMinutes = 3;
        for (const v of (p.variables ?? []) as Json[]) v.description = 'extra';
      });
      if (ctx.op === 'uploadFiles' && Array.isArray(d?.files))
        for (const f of d.files as Json[]) Object.assign(f, { size: 1, expiresAt: '2026-01-02T00:00:00Z' });
      return withJson(res, body);
    },
  },
  {
    id: 'optional-fields-absent',
    probes: ['OUTPUT-FILES-ONLY-AFTER-FINISH', 'STATE-TERMINAL'],
    category: 'envelope-schema',
    description: 'Optional node fields (title, startTime, endTime, file url and size) are left out.',
    legal: true,
    response: (res, _req, ctx) =>
      isOp(ctx, 'getExecutionStatus', 'getExecutionOutput')
        ? editJson(res, (b) => {
            eachNode(b.data, (n) => {
              delete n.title;
              delete n.startTime;
              delete n.endTime;
            });
            if (Array.isArray(b.data?.files))
              for (const f of b.data.files as Json[]) {
                delete f.url;
                delete f.size;
              }
          })
        : res,
  },

  // One habit shows on every operation, so under many clauses and probes: the report counts it once.
  // Two such habits count the same way: auth-403-for-bad-key (403 for every 401) and post-201 (201 for
  // every successful POST).
  {
    id: 'trace-id-number',
    category: 'envelope-schema',
    description: 'Every JSON response carries traceId as a number (a database sequence) instead of a string.',
    breaks: perOp('200-ENVELOPE'),
    findings: 1,
    // No test cites the envelope clauses (every response is checked): tests that reach all eight operations.
    probes: ['RUN-FILE-VARIABLE', 'ABORT-ACCEPTED', 'DETAIL-FOR-SEARCH-ITEM', 'GENERATE-LOCALES'],
    response: (res, _req, ctx) => {
      const body = isJsonResponse(res) ? jsonOf(res) : undefined;
      return body && typeof body === 'object' && !Array.isArray(body)
        ? withJson(res, { ...body, traceId: 1_000_000 + ctx.seq })
        : res;
    },
  },

  // Every optional field absent.
  // What a response exists to carry stays (executionId and status, the node, output and file lists):
  // without it nothing is left to check. Everything §2 and §4.8 mark optional inside goes. Where an
  // optional list holds items with optional fields of their own (messages, variables), half the items'
  // owners leave the list out and the other half keep it with only the required fields, so both shapes
  // are seen. A relation check that needs a missing field is "not run", never failed nor warned.
  {
    id: 'every-optional-field-absent',
    probes: [
      'RUN-RETURNS-EXECUTION-ID',
      'RUN-400-MISSING-REQUIRED-VARIABLE',
      'RUN-FILE-VARIABLE',
      'STATE-TERMINAL',
      'STATUS-ECHOES-EXECUTION',
      'TIMES-ORDERED',
      'OUTPUT-FILE-NODE-EXISTS',
      'PLAN-DEPENDENCIES-EXIST',
      'PLAN-OPTIONS-ONLY-FOR-OPTION',
      'GENERATE-OVERWRITE-REPLACES',
      'GENERATE-400-BODY',
      'LIMIT-PAYLOAD-100KB',
      'AUTH-401-MISSING-KEY',
      'STATUS-404-UNKNOWN-EXECUTION',
    ],
    category: 'envelope-schema',
    description:
      'Every optional field is left out: errCode, errMsg, traceId and stack; createdAt; node status, title and errorMessage; output times and messages (or their content); file size, nodeId and url; dependentTasks; variables (or their type, required and options); generate’s canvasId and modelResponse.',
    legal: true,
    findings: 0,
    response: (res, _req, ctx) => {
      const body = isJsonResponse(res) ? (jsonOf(res) as Json | undefined) : undefined;
      if (!body || typeof body !== 'object' || Array.isArray(body)) return res;
      // A stable choice per owner (node position, canvas): the same item has the same shape in every answer.
      const keeps = (key: string) => [...key].reduce((n, c) => n + c.charCodeAt(0), 0) % 2 === 1;
      for (const k of ['errCode', 'errMsg', 'traceId', 'stack', 'modelResponse']) delete body[k];
      if (ctx.op === 'abortExecution') delete body.data;
      const d = res.status >= 200 && res.status < 300 ? body.data : undefined;
      if (!d || typeof d !== 'object' || Array.isArray(d)) return withJson(res, body);
      if (ctx.op === 'getExecutionStatus') delete d.createdAt;
      if (Array.isArray(d.nodeExecutions))
        for (const n of d.nodeExecutions as Json[]) for (const k of ['status', 'title', 'errorMessage']) delete n[k];
      if (Array.isArray(d.output))
        (d.output as Json[]).forEach((n, i) => {
          for (const k of ['title', 'status', 'errorMessage', 'startTime', 'endTime']) delete n[k];
          if (!keeps(String(i)) || !Array.isArray(n.messages)) delete n.messages;
          else n.messages = (n.messages as Json[]).map((m) => ({ messageId: m.messageId, type: m.type }));
        });
      if (ctx.op === 'getExecutionOutput' && Array.isArray(d.files))
        for (const f of d.files as Json[]) for (const k of ['size', 'nodeId', 'url']) delete f[k];
      const canvas = String(ctx.op === 'generateWorkflow' ? d.canvasId : ctx.params.canvasId);
      eachPlan(ctx, body, (p) => {
        for (const t of (p.tasks ?? []) as Json[]) delete t.dependentTasks;
        if (!keeps(canvas) || !Array.isArray(p.variables)) delete p.variables;
        else p.variables = (p.variables as Json[]).map((v) => ({ name: v.name }));
      });
      if (ctx.op === 'generateWorkflow') delete d.canvasId;
      return withJson(res, body);
    },
  },
];
