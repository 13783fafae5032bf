/** Latency, intermittent errors and single-operation faults: what a target does under load or breakage. */
import { jsonReply, textReply } from '../proxy.ts';
import { isOp, mapOf, perOp } from './helpers.ts';
import type { Mutant } from './mutant.ts';

export const LATENCY_ERRORS: readonly Mutant[] = [
  {
    id: 'intermittent-503',
    probes: ['STATE-TERMINAL', 'SEARCH-PAGE-1-BASED', 'UPLOAD-KEY-PER-FILE'],
    category: 'latency-errors',
    description: 'Every 10th request is answered 503 with an HTML page by an overloaded gateway.',
    breaks: perOp('HTTP-STATUS-LISTED'),
    request: (req, ctx) =>
      ctx.seq % 10 === 0
        ? textReply(503, '<html><body><h1>503 Service Unavailable</h1></body></html>', 'text/html')
        : req,
  },
  {
    id: 'intermittent-reset',
    category: 'latency-errors',
    description: 'Every 12th connection is reset without an answer.',
    // The engine records an answer that never came under the hit operation's status clause.
    breaks: perOp('HTTP-STATUS-LISTED'),
    request: (req, ctx) => (ctx.seq % 12 === 0 ? { destroy: true } : req),
  },
  {
    id: 'latency-spikes',
    category: 'latency-errors',
    description:
      "Every 15th request takes 12 s, longer than the harness's request deadline (the specification states no latency).",
    harnessLimit: true,
    probes: ['STATE-TERMINAL', 'SEARCH-PAGE-1-BASED', 'UPLOAD-KEY-PER-FILE'],
    delayMs: (_req, ctx) => (ctx.seq % 15 === 0 ? 12_000 : 0),
  },
  {
    id: 'intermittent-500-on-run',
    category: 'latency-errors',
    description: 'Every 4th run fails with a 500 (a flaky queue).',
    breaks: ['RUN-HTTP-STATUS-LISTED'],
    request: (req, ctx) => {
      if (!isOp(ctx, 'runWorkflow') || !ctx.carried) return req;
      const n = (mapOf<number>(ctx, 'runs').get('n') ?? 0) + 1;
      mapOf<number>(ctx, 'runs').set('n', n);
      return n % 4 === 0 ? jsonReply(500, { success: false, errCode: 'E0000', errMsg: 'queue unavailable' }) : req;
    },
  },

  {
    id: 'control-passthrough',
    category: 'latency-errors',
    description: 'Control: the proxy forwards everything unchanged.',
    legal: true,
  },
  {
    id: 'uniform-latency',
    probes: ['STATE-TERMINAL', 'ABORT-ACCEPTED'],
    category: 'latency-errors',
    description: 'Every answer takes 40 ms longer (the specification sets no latency).',
    legal: true,
    delayMs: () => 40,
  },
  {
    id: 'rate-limited-429',
    probes: ['RUN-RETURNS-EXECUTION-ID', 'SEARCH-PAGE-1-BASED', 'UPLOAD-KEY-PER-FILE'],
    category: 'latency-errors',
    description:
      'Every 25th request is rate limited: 429 with Retry-After: 1 and WEBHOOK_RATE_LIMITED (§8: rate limits not shown).',
    legal: true,
    request: (req, ctx) =>
      ctx.seq % 25 === 0
        ? jsonReply(
            429,
            { success: false, errCode: 'WEBHOOK_RATE_LIMITED', errMsg: 'request rate exceeds the limit' },
            { 'retry-after': '1' },
          )
        : req,
  },

  // One operation goes wrong in a way that would cost the harness its deadline again and again: no answer,
  // a body slower than the request deadline, a status that never reads as terminal. The run names the
  // fault once, does not wait for that operation again, and ends about as soon as a healthy run would.
  // A wait the harness gives up on is its own limit, never the target's failure: the hang and the drip are
  // harness limits (what needed the operation is "not run" because of that one fault, nothing fails);
  // a status outside the enum is a deviation (EXEC-STATUS-ENUM), and what needed the end of an execution
  // is blocked by it.
  {
    id: 'status-hangs',
    category: 'latency-errors',
    description: 'The status endpoint reads the request and never answers; every other operation is healthy.',
    harnessLimit: true,
    probes: ['RUN-RETURNS-EXECUTION-ID', 'STATE-TERMINAL'],
    stillRuns: ['RUN-VARIABLES-WRAPPER', 'SEARCH-PAGE-1-BASED', 'UPLOAD-KEY-PER-FILE', 'DETAIL-FOR-SEARCH-ITEM'],
    // An endless delay: the proxy never answers (proxy.ts, NEVER).
    delayMs: (_req, ctx) => (isOp(ctx, 'getExecutionStatus') ? Number.POSITIVE_INFINITY : 0),
  },
  {
    id: 'output-drips',
    category: 'latency-errors',
    description:
      'The output endpoint sends its status line at once, then its body one byte every 2 s: slower than the request deadline.',
    harnessLimit: true,
    probes: ['OUTPUT-FILE-URL-SERVES', 'STATE-TERMINAL'],
    stillRuns: ['STATE-TERMINAL', 'RUN-RETURNS-EXECUTION-ID', 'ABORT-ACCEPTED', 'SEARCH-PAGE-1-BASED'],
    response: (res, _req, ctx) => (isOp(ctx, 'getExecutionOutput') ? { ...res, dripMs: 2_000 } : res),
  },
  {
    id: 'detail-drips',
    category: 'latency-errors',
    description:
      'The detail endpoint sends its status line at once, then its body one byte every 100 ms: slower than the request deadline.',
    harnessLimit: true,
    probes: ['DETAIL-FOR-SEARCH-ITEM', 'SEARCH-PAGE-1-BASED'],
    stillRuns: ['SEARCH-PAGE-1-BASED', 'UPLOAD-KEY-PER-FILE', 'AUTH-401-MISSING-KEY', 'GENERATE-400-MISSING-QUERY'],
    response: (res, _req, ctx) => (isOp(ctx, 'getWorkflowDetail') ? { ...res, dripMs: 100 } : res),
  },
];
