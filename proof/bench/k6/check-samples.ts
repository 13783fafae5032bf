/**
 * Response bodies for measuring what one contract check costs, shared by the k6 side
 * (check-cost.ts) and the Node side (proof/bench/load.ts, proof/bench/contracts.ts), so both time the same inputs.
 * Shapes follow what the reference target answers under load.
 */
import type { OperationId } from '../../../load/k6/lib/operations.ts';

const NOW = '2026-11-22T09:00:00.000Z';
const nodes = (status: string) =>
  ['t1', 't2', 't3'].map((nodeId, i) => ({ nodeId, status, title: ['Collect', 'Write', 'Review'][i] }));

/** Starts the one line check-cost.ts prints its figures on. */
export const CHECK_COST_MARKER = 'CHECK-COST ';

/** One response kind's figures from check-cost.ts (µs per call in k6). */
export interface CheckCost {
  name: string;
  bytes: number;
  checkUs: number;
  jsonParseUs: number;
}

export interface CheckSample {
  name: string;
  operation: OperationId;
  status: number;
  body: string;
}

export const CHECK_SAMPLES: readonly CheckSample[] = [
  {
    name: 'status, createdAt',
    operation: 'getExecutionStatus',
    status: 200,
    body: JSON.stringify({
      success: true,
      data: { executionId: 'ex-0001', status: 'finish', createdAt: NOW, nodeExecutions: nodes('finish') },
    }),
  },
  {
    name: 'status, no date-time',
    operation: 'getExecutionStatus',
    status: 200,
    body: JSON.stringify({
      success: true,
      data: { executionId: 'ex-0001', status: 'finish', nodeExecutions: nodes('finish') },
    }),
  },
  {
    name: 'output, 6 date-times',
    operation: 'getExecutionOutput',
    status: 200,
    body: JSON.stringify({
      success: true,
      data: {
        output: ['t1', 't2', 't3'].map((id) => ({
          nodeId: id,
          title: `Node ${id}`,
          status: 'finish',
          startTime: NOW,
          endTime: NOW,
          messages: [
            { messageId: `${id}-m1`, type: 'ai', content: 'x'.repeat(400), reasoningContent: 'y'.repeat(100) },
            { messageId: `${id}-m2`, type: 'tool', content: 'z'.repeat(200) },
          ],
        })),
        files: [{ name: 'report.pdf', type: 'application/pdf', size: 2048, nodeId: 't3', url: 'http://127.0.0.1/f/1' }],
      },
    }),
  },
  {
    name: 'search, 20 items',
    operation: 'searchWorkflows',
    status: 200,
    body: JSON.stringify({
      success: true,
      data: Array.from({ length: 20 }, (_, i) => ({ canvasId: `c-${i}`, title: `Workflow ${i}` })),
    }),
  },
  {
    name: 'status 404',
    operation: 'getExecutionStatus',
    status: 404,
    body: JSON.stringify({ success: false, errCode: 'E1021', errMsg: 'workflow execution not found' }),
  },
];

/** Headers as k6 hands them to the checks (canonical case). */
export const CHECK_HEADERS: Record<string, string> = {
  'Content-Type': 'application/json; charset=utf-8',
  'Content-Length': '285',
  Date: 'Sun, 22 Nov 2026 09:00:00 GMT',
  Connection: 'keep-alive',
  'Keep-Alive': 'timeout=72',
};
