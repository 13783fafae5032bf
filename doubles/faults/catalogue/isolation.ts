/** Isolation between keys (§1.3, §5.4): another key's canvases, executions, files and listing. */
import { editJson, jsonOf, withAuth } from '../proxy.ts';
import { isOp, EXECUTION_OPS, otherKey, rememberUploads, withOwnFileKeys, type Json } from './helpers.ts';
import type { Mutant } from './mutant.ts';

export const ISOLATION: readonly Mutant[] = [
  {
    id: 'isolation-keys-share-tenant',
    category: 'isolation',
    description:
      'The second key is resolved to the first tenant (keys mapped to the account owner, not the workspace).',
    breaks: ['ISOLATION-CANVAS', 'ISOLATION-EXECUTION', 'ISOLATION-FILE-KEY', 'SEARCH-TENANT-SCOPED'],
    request: (req, ctx) => (ctx.carried === 'B' ? withAuth(req, ctx.keys.A) : req),
  },
  {
    id: 'isolation-execution-leak',
    category: 'isolation',
    description: "Execution lookups ignore the tenant: another key's execution is readable and abortable.",
    breaks: ['ISOLATION-EXECUTION'],
    response: async (res, req, ctx) => {
      const other = otherKey(ctx);
      if (!isOp(ctx, ...EXECUTION_OPS) || res.status !== 404 || !other) return res;
      const retry = await ctx.forward(withAuth(req, other.key));
      return retry.status === 200 ? retry : res;
    },
  },
  {
    id: 'isolation-canvas-leak',
    category: 'isolation',
    description: "Canvas lookups ignore the tenant: another key's workflow can be read and run.",
    breaks: ['ISOLATION-CANVAS'],
    response: async (res, req, ctx) => {
      rememberUploads(res, ctx);
      const other = otherKey(ctx);
      if (!isOp(ctx, 'getWorkflowDetail', 'runWorkflow') || res.status !== 404 || !other) return res;
      // Only the canvas lookup ignores the tenant: the caller's own file keys stay valid for its run.
      const retry = await ctx.forward(await withOwnFileKeys(withAuth(req, other.key), ctx, other));
      return retry.status === 404 ? res : retry;
    },
  },
  {
    id: 'isolation-file-key-leak',
    category: 'isolation',
    description: "File keys are global: another key's uploaded file is accepted as a file variable value.",
    breaks: ['ISOLATION-FILE-KEY'],
    // The run checks no owner: another tenant's file keys are swapped for the caller's own file, as if accepted.
    request: (req, ctx) =>
      isOp(ctx, 'runWorkflow') && ctx.carried
        ? withOwnFileKeys(req, ctx, { name: ctx.carried, key: ctx.carried === 'A' ? ctx.keys.A : ctx.keys.B! })
        : req,
    response: (res, _req, ctx) => {
      rememberUploads(res, ctx);
      return res;
    },
  },
  {
    id: 'isolation-search-leak',
    category: 'isolation',
    description: 'Search lists the workflows of every workspace (the tenant filter is missing from the query).',
    breaks: ['SEARCH-TENANT-SCOPED'],
    response: async (res, req, ctx) => {
      const other = otherKey(ctx);
      if (!isOp(ctx, 'searchWorkflows') || res.status !== 200 || !other) return res;
      const theirs = (jsonOf(await ctx.forward(withAuth(req, other.key))) as Json | undefined)?.data;
      return editJson(res, (b) => Array.isArray(b.data) && Array.isArray(theirs) && b.data.push(...theirs));
    },
  },
];
