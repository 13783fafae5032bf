/**
 * `npm run bench:contracts` — validations per second for a status, an output and a search response,
 * measured side by side in one run:
 *   compiled     Ajv compiling the schema bundle at start-up (what a naive harness would do)
 *   standalone   the generated validators (contracts/generated/validators.js), as scenarios use them
 *   k6 bundle    the same validators inside contracts/generated/check.k6.js
 *   checkResponse the whole checking API on body text (JSON parse + validation + semantic checks)
 * Figures vary run to run on a shared machine; compare the columns of one run.
 */
import { newAjv, schemaBundle, SCHEMA_BUNDLE_ID } from './generate-contracts.ts';
import * as standalone from '../contracts/generated/validators.js';
import { checkResponse, type OperationId } from '../contracts/check.ts';
import { readFileSync } from 'node:fs';
import YAML from 'yaml';

const NOW = '2026-11-22T09:00:00.000Z';
const SAMPLES: { name: string; schema: keyof typeof standalone; operation: OperationId; body: unknown }[] = [
  {
    name: 'status',
    schema: 'StatusResponse',
    operation: 'getExecutionStatus',
    body: {
      success: true,
      data: {
        executionId: 'ex-0001', status: 'executing', createdAt: NOW,
        nodeExecutions: [
          { nodeId: 't1', status: 'finish', title: 'Collect' },
          { nodeId: 't2', status: 'executing', title: 'Write' },
          { nodeId: 't3', status: 'waiting', title: 'Review' },
        ],
      },
    },
  },
  {
    name: 'output',
    schema: 'OutputResponse',
    operation: 'getExecutionOutput',
    body: {
      success: true,
      data: {
        output: ['t1', 't2', 't3'].map((id) => ({
          nodeId: id, title: `Node ${id}`, status: 'finish', startTime: NOW, endTime: NOW,
          messages: [
            { messageId: `${id}-m1`, type: 'ai', content: 'x'.repeat(400), reasoningContent: 'y'.repeat(100) },
            { messageId: `${id}-m2`, type: 'tool', content: 'z'.repeat(200) },
          ],
        })),
        files: [{ name: 'report.pdf', type: 'application/pdf', size: 2048, nodeId: 't3', url: 'http://127.0.0.1/f/1' }],
      },
    },
  },
  {
    name: 'search',
    schema: 'SearchResponse',
    operation: 'searchWorkflows',
    body: { success: true, data: Array.from({ length: 20 }, (_, i) => ({ canvasId: `c-${i}`, title: `Workflow ${i}` })) },
  },
];

const DURATION_MS = Number(process.env.BENCH_MS ?? 1500);

/** Runs fn repeatedly for DURATION_MS (after a warm-up) and returns calls per second. */
function rate(fn: () => unknown): number {
  const warmUntil = performance.now() + 200;
  while (performance.now() < warmUntil) fn();
  let calls = 0;
  const start = performance.now();
  let now = start;
  while (now - start < DURATION_MS) {
    for (let i = 0; i < 1000; i++) fn();
    calls += 1000;
    now = performance.now();
  }
  return (calls / (now - start)) * 1000;
}

async function main(): Promise<void> {
  const doc = YAML.parse(readFileSync(new URL('../contracts/openapi.yaml', import.meta.url), 'utf8'));
  const ajv = newAjv({ standalone: false });
  ajv.addSchema(schemaBundle(doc));
  const k6 = await import('../contracts/generated/check.k6.js' as string);

  const fmt = (n: number) => Math.round(n).toLocaleString('en-US').padStart(12);
  console.log(`validations per second (${DURATION_MS} ms per cell, node ${process.version})`);
  console.log(`${'response'.padEnd(8)} ${'compiled'.padStart(12)} ${'standalone'.padStart(12)} ${'checkResponse'.padStart(14)} ${'k6 bundle'.padStart(12)}   body bytes`);
  for (const s of SAMPLES) {
    const compiled = ajv.getSchema(`${SCHEMA_BUNDLE_ID}#/$defs/${s.schema}`)!;
    const generated = standalone[s.schema];
    const text = JSON.stringify(s.body);
    const input = { operation: s.operation, status: 200, headers: { 'content-type': 'application/json' }, body: text };
    if (!compiled(s.body) || !generated(s.body) || checkResponse(input).length || k6.checkResponse(input).length) {
      throw new Error(`sample ${s.name} does not validate`);
    }
    const r = [rate(() => compiled(s.body)), rate(() => generated(s.body)), rate(() => checkResponse(input)), rate(() => k6.checkResponse(input))];
    console.log(`${s.name.padEnd(8)} ${fmt(r[0]!)} ${fmt(r[1]!)} ${fmt(r[2]!).padStart(14)} ${fmt(r[3]!)}   ${text.length}`);
  }
  console.log('goal: ≥ 500,000/s for a status response (standalone validator)');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
