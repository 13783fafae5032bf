/**
 * `npm run bench:target`: the reference target's own figures (what each measurement is:
 * scripts/bench-target.ts). Every target it measures is served from this process with a seed of its own:
 * thirty three-task workflows under one key, whose nodes take no time, so the figures are the server's
 * and the engine's cost alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import type { BenchSettings } from './settings.ts';
import { DEFAULT_CONFIG } from '../../fixtures/reference/config.ts';
import { seedFrom } from '../../fixtures/reference/seed.ts';
import { startTarget } from '../../fixtures/reference/server.ts';
import { BenchClient, operationPath } from './client.ts';
import { wrk } from './wrk.ts';

/** How long and how hard each measurement runs (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_EXECUTIONS). */
export type TargetBenchSettings = BenchSettings['target'];

const API_KEY = 'bench-key';

const seed = seedFrom({
  tenants: [
    {
      name: 'bench',
      apiKey: API_KEY,
      workflows: Array.from({ length: 30 }, (_, i) => ({
        canvasId: `c_bench_${i}`,
        createdAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
        plan: {
          title: `Three-task pipeline ${i}`,
          tasks: [
            { id: 'a', title: 'Fetch', prompt: 'Fetch the data', toolsets: ['web_search'], dependentTasks: [] },
            { id: 'b', title: 'Transform', prompt: 'Transform it', toolsets: [], dependentTasks: ['a'] },
            { id: 'c', title: 'Report', prompt: 'Report on it', toolsets: [], dependentTasks: ['b'] },
          ],
          variables: [],
        },
      })),
    },
  ],
});

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function requestThroughput(o: TargetBenchSettings): Promise<void> {
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ success: true, data: { status: 'finish' } }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareAddress = bare.server.address();
  const bareUrl = `http://127.0.0.1:${typeof bareAddress === 'object' && bareAddress ? bareAddress.port : 0}/bare`;

  const target = await startTarget({ nodeDurationMs: 0, seed });
  const evidence = mkdtempSync(join(tmpdir(), 'wfcheck-bench-target-'));
  const client = new BenchClient(target.baseUrl, API_KEY, evidence);
  const executionId = (await client.data('runWorkflow', { params: { canvasId: 'c_bench_0' }, label: 'bench run' }))
    ?.executionId;
  rmSync(evidence, { recursive: true, force: true });
  if (!executionId) throw new Error('the run request for the status reads started no execution');
  await new Promise((r) => setTimeout(r, 50));

  const measure = (url: string, apiKey?: string) =>
    wrk({ urls: [url], apiKey, connections: o.connections, seconds: o.seconds });
  console.log(`\nRequests/s (wrk -t1 -c${o.connections} -d${o.seconds}s, loopback; measured in turn in one run)`);
  const bareRps = await measure(bareUrl);
  const statusRps = await measure(target.baseUrl + operationPath('getExecutionStatus', { executionId }), API_KEY);
  const searchRps = await measure(target.baseUrl + operationPath('searchWorkflows', undefined), API_KEY);
  console.log(`   bare fastify route           ${fmt(bareRps).padStart(8)} req/s`);
  console.log(
    `   GET …/status                 ${fmt(statusRps).padStart(8)} req/s   ratio ${(statusRps / bareRps).toFixed(2)} (goal ≥ 0.5)`,
  );
  console.log(
    `   GET /openapi/workflows (20)  ${fmt(searchRps).padStart(8)} req/s   ratio ${(searchRps / bareRps).toFixed(2)} (goal ≥ 0.5)`,
  );
  await bare.close();
  await target.close();
}

async function executionThroughput(o: TargetBenchSettings): Promise<void> {
  console.log('\nExecutions completed per second (three-task chain, zero-length nodes)');
  const target = await startTarget({ nodeDurationMs: 0, seed });
  const { engine } = target.context;
  // wrk drives the run requests, so the client does not share the target's event loop.
  const t0 = Date.now();
  await wrk({
    urls: [target.baseUrl + operationPath('runWorkflow', { canvasId: 'c_bench_1' })],
    method: 'POST',
    apiKey: API_KEY,
    connections: o.connections,
    seconds: o.seconds,
  });
  while (engine.stats.completed < engine.stats.started) await new Promise((r) => setImmediate(r));
  const httpRate = engine.stats.completed / ((Date.now() - t0) / 1000);
  console.log(
    `   over HTTP (wrk, ${o.connections} connections of run requests)  ${fmt(httpRate).padStart(7)} executions/s`,
  );
  await target.close();

  const direct = await startTarget({ nodeDurationMs: 0, seed });
  const canvas = direct.context.store.canvas('bench', 'c_bench_1')!;
  const n = 20_000;
  const t1 = Date.now();
  await launchAndDrain(direct.context.engine, () => direct.context.engine.start(canvas, 'bench', {}), n);
  console.log(
    `   engine only (${fmt(n)} executions, no HTTP)                ${fmt(n / ((Date.now() - t1) / 1000)).padStart(7)} executions/s`,
  );
  await direct.close();
}

/** Starts `total` executions in batches, waiting for each batch to end. */
async function launchAndDrain(
  engine: { stats: { started: number; completed: number } },
  start: () => void,
  total: number,
) {
  const batch = 1000;
  for (let done = 0; done < total; done += batch) {
    for (let i = 0; i < Math.min(batch, total - done); i++) start();
    while (engine.stats.completed < engine.stats.started) await new Promise((r) => setImmediate(r));
  }
}

async function memoryAfterExecutions(o: TargetBenchSettings): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const settle = () => {
    gc?.();
    return process.memoryUsage();
  };
  console.log(
    `\nMemory after ${fmt(o.executions)} executions (retention ${fmt(DEFAULT_CONFIG.executionRetention)} finished executions)`,
  );
  if (!gc) console.log('   (run with node --expose-gc for settled figures: npm run bench:target does)');
  const target = await startTarget({ nodeDurationMs: 0, seed });
  const { engine, store } = target.context;
  const canvas = store.canvas('bench', 'c_bench_2')!;
  const before = settle();
  const t0 = Date.now();
  await launchAndDrain(engine, () => engine.start(canvas, 'bench', {}), o.executions);
  const after = settle();
  const kept = store.executionCount();
  console.log(
    `   ran ${fmt(engine.stats.completed)} in ${((Date.now() - t0) / 1000).toFixed(1)} s; kept ${fmt(kept.total)} (retention evicts the oldest finished)`,
  );
  console.log(
    `   heap used  ${mib(before.heapUsed)} → ${mib(after.heapUsed)}   rss ${mib(before.rss)} → ${mib(after.rss)}`,
  );
  console.log(
    `   ≈ ${((after.heapUsed - before.heapUsed) / Math.max(1, kept.total) / 1024).toFixed(1)} KiB heap per retained execution (3 nodes, messages)`,
  );
  await target.close();
}

/** The whole benchmark, printed as it goes. */
export async function benchTarget(o: TargetBenchSettings): Promise<void> {
  console.log(`wfcheck target benchmark — node ${process.version}, ${o.seconds} s per request measurement`);
  // Memory first, while the process holds nothing else.
  await memoryAfterExecutions(o);
  await requestThroughput(o);
  await executionThroughput(o);
}
