/** Executions over time (§3): statuses, files, abort, and what the output shows when. */
import { editJson, envelopeOf, jsonOf, jsonReply, withJson, type MutantContext, type ProxyRequest } from '../proxy.ts';
import { isOp, setOf, mapOf, eachNode, type Json } from './helpers.ts';
import type { Mutant } from './mutant.ts';

/**
 * For a fail-fast server: the nodes that had ended (finish or failed) when a node of the execution was first
 * seen failed, or undefined while none has. Read from the status upstream gives now.
 */
async function endedAtFailure(
  ctx: MutantContext,
  req: ProxyRequest,
  res: Parameters<typeof envelopeOf>[0],
): Promise<Set<string> | undefined> {
  const id = ctx.params.executionId;
  const known = mapOf<Set<string>>(ctx, 'endedAtFailure');
  if (known.has(id)) return known.get(id);
  const status =
    ctx.op === 'getExecutionStatus'
      ? envelopeOf(res)?.data
      : (
          jsonOf(
            await ctx.forward({
              method: 'GET',
              path: `/openapi/workflow/${encodeURIComponent(id)}/status`,
              headers: req.headers,
              body: Buffer.alloc(0),
            }),
          ) as Json | undefined
        )?.data;
  const nodes: Json[] = Array.isArray((status as Json | undefined)?.nodeExecutions)
    ? (status as Json).nodeExecutions
    : [];
  if (!nodes.some((n) => n.status === 'failed')) return undefined;
  const ended = new Set(
    nodes.filter((n) => n.status === 'finish' || n.status === 'failed').map((n) => String(n.nodeId)),
  );
  known.set(id, ended);
  return ended;
}

export const STATE_MACHINE: readonly Mutant[] = [
  {
    id: 'files-before-finish',
    category: 'state-machine',
    description: 'Files are listed as soon as their node starts, before it finished (§3.2).',
    breaks: ['OUTPUT-FILES-ONLY-AFTER-FINISH'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'getExecutionOutput')
        ? editJson(res, (b) => {
            if (!Array.isArray(b.data?.output)) return;
            b.data.files = Array.isArray(b.data.files) ? b.data.files : [];
            for (const n of b.data.output) {
              if (n && ['init', 'waiting', 'executing'].includes(n.status))
                b.data.files.push({ name: `${n.nodeId}-draft.txt`, type: 'text/plain', size: 0, nodeId: n.nodeId });
            }
          })
        : res,
  },
  {
    id: 'files-while-executing',
    category: 'state-machine',
    description:
      'A node that writes a file lists its draft in the output while it is still executing (§3.2): only a read made while a node runs can see it.',
    breaks: ['OUTPUT-FILES-ONLY-AFTER-FINISH'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'getExecutionOutput')
        ? editJson(res, (b) => {
            if (!Array.isArray(b.data?.output)) return;
            b.data.files = Array.isArray(b.data.files) ? b.data.files : [];
            for (const n of b.data.output)
              if (n?.status === 'executing')
                b.data.files.push({ name: `${n.nodeId}-draft.txt`, type: 'text/plain', size: 0, nodeId: n.nodeId });
          })
        : res,
  },
  {
    id: 'abort-running-404',
    category: 'state-machine',
    description: 'Abort only finds queued executions: a running one answers 404.',
    breaks: ['ABORT-ACCEPTED'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'abortExecution') && res.status === 200
        ? withJson(res, { success: false, errCode: 'E1021', errMsg: 'execution not found' }, 404)
        : res,
  },
  {
    id: 'run-returns-foreign-id',
    category: 'state-machine',
    description: 'Run returns an id the status endpoint does not know (a run-record id, not the execution id).',
    breaks: ['RUN-RETURNS-EXECUTION-ID'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'runWorkflow')
        ? editJson(res, (b) => {
            if (typeof b.data?.executionId === 'string')
              b.data.executionId = b.data.executionId.replace(/^we_/, 'run_');
          })
        : res,
  },
  {
    id: 'finish-before-nodes',
    category: 'state-machine',
    description: 'The execution reports finish as soon as its first node finished, while others still run.',
    warns: ['STATE-EXEC-FINISH-NODES-FINISHED', 'STATE-TERMINAL'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'getExecutionStatus')
        ? editJson(res, (b) => {
            const nodes: Json[] = Array.isArray(b.data?.nodeExecutions) ? b.data.nodeExecutions : [];
            if (b.data?.status === 'executing' && nodes.some((n) => n.status === 'finish')) b.data.status = 'finish';
          })
        : res,
  },
  {
    id: 'exec-status-backwards',
    category: 'state-machine',
    description:
      'A lagging replica: an executing execution is sometimes reported as init again (§3: transitions not shown, recorded only).',
    legal: true,
    probes: ['STATE-EXEC-FORWARD-ONLY', 'STATE-TERMINAL'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'getExecutionStatus')
        ? editJson(res, (b) => {
            if (b.data?.status !== 'executing') return;
            const seen = mapOf<number>(ctx, 'executingSeen');
            const n = (seen.get(ctx.params.executionId) ?? 0) + 1;
            seen.set(ctx.params.executionId, n);
            if (n % 2 === 0) b.data.status = 'init';
          })
        : res,
  },
  {
    id: 'file-node-unknown',
    category: 'state-machine',
    description: 'Output files name a node that is not part of the execution.',
    warns: ['OUTPUT-FILE-NODE-EXISTS'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'getExecutionOutput')
        ? editJson(res, (b) => {
            if (Array.isArray(b.data?.files)) for (const f of b.data.files as Json[]) f.nodeId = 'node_deleted';
          })
        : res,
  },
  {
    id: 'abort-outcome-finish',
    probes: ['ABORT-OUTCOME', 'ABORT-ACCEPTED'],
    category: 'state-machine',
    description: 'An aborted execution ends finish instead of failed (§3: the status after abort is not shown).',
    legal: true,
    response: (res, _req, ctx) => {
      const aborted = setOf(ctx, 'aborted');
      if (isOp(ctx, 'abortExecution') && res.status === 200) aborted.add(ctx.params.executionId);
      if (!isOp(ctx, 'getExecutionStatus', 'getExecutionOutput') || !aborted.has(ctx.params.executionId)) return res;
      return editJson(res, (b) => {
        if (b.data?.status === 'failed') b.data.status = 'finish';
      });
    },
  },
  {
    id: 'abort-outcome-runs-on',
    probes: ['ABORT-OUTCOME', 'ABORT-ACCEPTED'],
    category: 'state-machine',
    description:
      'Abort is accepted but the execution runs to its normal end (§3: the status after abort is not shown).',
    legal: true,
    request: async (req, ctx) => {
      if (!isOp(ctx, 'abortExecution')) return req;
      // Same 401/404 answers as the real abort: ask the status endpoint whether the execution exists.
      const probe = await ctx.forward({
        method: 'GET',
        path: `/openapi/workflow/${encodeURIComponent(ctx.params.executionId)}/status`,
        headers: req.headers,
        body: Buffer.alloc(0),
      });
      return probe.status === 200 ? jsonReply(200, { success: true }) : probe;
    },
  },
  {
    id: 'file-type-extension',
    probes: ['OUTPUT-FILE-TYPE-VALUES', 'OUTPUT-FILES-ONLY-AFTER-FINISH'],
    category: 'state-machine',
    description: 'Output file types are extensions ("md") instead of media types (§2.3: set of values not shown).',
    legal: true,
    response: (res, _req, ctx) =>
      isOp(ctx, 'getExecutionOutput')
        ? editJson(res, (b) => {
            if (!Array.isArray(b.data?.files)) return;
            for (const f of b.data.files as Json[]) f.type = String(f.name).split('.').pop() ?? 'bin';
          })
        : res,
  },
  {
    id: 'file-size-kilobytes',
    probes: ['OUTPUT-FILE-SIZE-UNIT', 'OUTPUT-FILES-ONLY-AFTER-FINISH'],
    category: 'state-machine',
    description: 'Output file sizes are in kilobytes, fractional (§2.3: unit not shown).',
    legal: true,
    response: (res, _req, ctx) =>
      isOp(ctx, 'getExecutionOutput')
        ? editJson(res, (b) => {
            if (!Array.isArray(b.data?.files)) return;
            for (const f of b.data.files as Json[]) if (typeof f.size === 'number') f.size = f.size / 1024;
          })
        : res,
  },
  {
    id: 'run-status-executing',
    probes: ['RUN-RETURNS-EXECUTION-ID', 'STATE-EXEC-FORWARD-ONLY'],
    category: 'state-machine',
    description: 'The run response already says executing (§3: transitions not shown).',
    legal: true,
    response: (res, _req, ctx) =>
      isOp(ctx, 'runWorkflow')
        ? editJson(res, (b) => {
            if (b.data?.status === 'init') b.data.status = 'executing';
          })
        : res,
  },
  {
    id: 'opaque-execution-ids',
    probes: ['RUN-RETURNS-EXECUTION-ID', 'ABORT-ACCEPTED', 'ISOLATION-EXECUTION'],
    category: 'state-machine',
    description: 'Execution ids look different (UUID-like with a colon prefix); ids are opaque strings.',
    legal: true,
    request: (req) => ({
      ...req,
      path: req.path
        .replace(/\/workflow\/exec%3A([^/]+)\//i, '/workflow/$1/')
        .replace(/\/workflow\/exec:([^/]+)\//, '/workflow/$1/'),
    }),
    response: (res, _req, ctx) =>
      isOp(ctx, 'runWorkflow', 'getExecutionStatus')
        ? editJson(res, (b) => {
            if (typeof b.data?.executionId === 'string') b.data.executionId = `exec:${b.data.executionId}`;
          })
        : res,
  },
  {
    id: 'never-ends',
    category: 'state-machine',
    description:
      'An execution whose nodes have all finished stays "executing" for good: its status never follows its nodes.',
    warns: ['STATE-ENDS-WHEN-NODES-SETTLE'],
    probes: ['STATE-TERMINAL', 'RUN-RETURNS-EXECUTION-ID'],
    stillRuns: ['RUN-RETURNS-EXECUTION-ID', 'ABORT-ACCEPTED', 'SEARCH-PAGE-1-BASED', 'UPLOAD-KEY-PER-FILE'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'getExecutionStatus')
        ? editJson(res, (b) => {
            if (b.data?.status === 'finish') b.data.status = 'executing';
          })
        : res,
  },
  {
    id: 'never-ends-after-failure',
    category: 'state-machine',
    description:
      'An execution never leaves "executing", whether its nodes finished or one failed: after a failure, the nodes that depended on it stay waiting for good, so its nodes never all settle.',
    warns: ['STATE-ENDS-WHEN-NODES-SETTLE'],
    probes: ['STATE-TERMINAL', 'RUN-RETURNS-EXECUTION-ID'],
    stillRuns: ['RUN-RETURNS-EXECUTION-ID', 'ABORT-ACCEPTED', 'SEARCH-PAGE-1-BASED', 'UPLOAD-KEY-PER-FILE'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'getExecutionStatus')
        ? editJson(res, (b) => {
            if (b.data?.status !== 'finish' && b.data?.status !== 'failed') return;
            const failed = (b.data.nodeExecutions ?? []).some((n: Json) => n?.status === 'failed');
            b.data.status = 'executing';
            // What a failure left unstarted waits for good, as an engine that stops scheduling does.
            if (failed)
              for (const n of b.data.nodeExecutions ?? [])
                if (n?.status === 'failed' && String(n.errorMessage ?? '').startsWith('not run')) {
                  n.status = 'waiting';
                  delete n.errorMessage;
                }
          })
        : res,
  },
  {
    id: 'status-unknown-value',
    category: 'state-machine',
    description:
      'An execution that ended reports status "finished", outside the enum: it never reads as terminal, so a poll must not wait for it.',
    breaks: ['EXEC-STATUS-ENUM'],
    probes: ['STATE-TERMINAL', 'RUN-RETURNS-EXECUTION-ID'],
    stillRuns: ['RUN-RETURNS-EXECUTION-ID', 'ABORT-ACCEPTED', 'SEARCH-PAGE-1-BASED', 'UPLOAD-KEY-PER-FILE'],
    response: (res, _req, ctx) =>
      isOp(ctx, 'getExecutionStatus')
        ? editJson(res, (b) => {
            if (b.data?.status === 'finish') b.data.status = 'finished';
          })
        : res,
  },

  // A check that needs data the specification leaves optional or open is "not run" without it; a target
  // without slow workflows still gets its abort exercised.
  {
    id: 'omits-optional-node-titles',
    probes: ['STATE-NODES-MATCH-PLAN', 'OUTPUT-FILES-ONLY-AFTER-FINISH'],
    category: 'state-machine',
    description:
      'Nodes carry no title (optional, §2.2/2.3) and ids of their own, not derived from the task ids (how they relate is not shown).',
    legal: true,
    response: (res, _req, ctx) => {
      if (!isOp(ctx, 'getExecutionStatus', 'getExecutionOutput')) return res;
      // The same node gets the same opaque id in every answer, files included (a string hash, no task id in it).
      const opaque = (id: unknown) =>
        typeof id === 'string'
          ? `n_${([...id].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7) >>> 0).toString(36)}`
          : id;
      return editJson(res, (b) => {
        eachNode(b.data, (n) => {
          delete n.title;
          n.nodeId = opaque(n.nodeId);
        });
        if (Array.isArray(b.data?.files)) for (const f of b.data.files as Json[]) f.nodeId = opaque(f.nodeId);
      });
    },
  },
  {
    id: 'no-slow-workflow',
    probes: ['ABORT-ACCEPTED', 'ABORT-STOPS-NODES'],
    stillRuns: ['ABORT-ACCEPTED', 'ABORT-STOPS-NODES'],
    category: 'state-machine',
    description:
      'The account has no workflow whose title says slow, long or batch (a configured one is not found): abort is exercised on a workflow of several tasks.',
    legal: true,
    // Such a canvas is not there at all, even when named: its detail and its run are those of an unknown canvas.
    request: async (req, ctx) => {
      if (!isOp(ctx, 'getWorkflowDetail', 'runWorkflow') || !ctx.carried) return req;
      const titles = mapOf<string>(ctx, 'titles');
      const id = ctx.params.canvasId;
      if (!titles.has(id)) {
        const detail = await ctx.forward({
          method: 'GET',
          path: `/openapi/workflows/${encodeURIComponent(id)}`,
          headers: { authorization: req.headers.authorization ?? '' },
          body: Buffer.alloc(0),
        });
        titles.set(id, String((jsonOf(detail) as Json | undefined)?.data?.title ?? ''));
      }
      return /slow|long|batch/i.test(titles.get(id) ?? '')
        ? jsonReply(404, { success: false, errCode: 'CANVAS_NOT_FOUND', errMsg: 'canvas not found' })
        : req;
    },
    response: (res, _req, ctx) =>
      isOp(ctx, 'searchWorkflows')
        ? editJson(res, (b) => {
            if (Array.isArray(b.data))
              b.data = (b.data as Json[]).filter((i) => !/slow|long|batch/i.test(String(i?.title ?? '')));
          })
        : res,
  },

  // ---- legal variants of implementations written from the specification alone ----
  {
    id: 'fail-fast-nodes-never-run',
    category: 'state-machine',
    description:
      'A failed node fails the execution at once: every node that had not ended is marked failed ("Not executed: upstream node failed") and never runs: no start or end time, no messages, no files.',
    legal: true,
    explored: true,
    probes: ['STATE-TERMINAL', 'OUTPUT-PARTIAL-CONTENT', 'STATE-EXEC-FINISH-NODES-FINISHED', 'TIMES-ORDERED'],
    response: async (res, req, ctx) => {
      if (!isOp(ctx, 'getExecutionStatus', 'getExecutionOutput') || res.status !== 200) return res;
      const ended = await endedAtFailure(ctx, req, res);
      if (!ended) return res;
      return editJson(res, (b) => {
        if (ctx.op === 'getExecutionStatus' && b.data) b.data.status = 'failed';
        eachNode(b.data, (n) => {
          if (ended.has(n.nodeId)) return;
          n.status = 'failed';
          n.errorMessage = 'Not executed: upstream node failed';
          delete n.startTime;
          delete n.endTime;
          if (ctx.op === 'getExecutionOutput') n.messages = [];
        });
        if (Array.isArray(b.data?.files))
          b.data.files = (b.data.files as Json[]).filter((f) => f.nodeId === undefined || ended.has(f.nodeId));
      });
    },
  },
];
