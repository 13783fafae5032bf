/**
 * Benchmark of the reference target (figures, not a test): `npm run bench:target`.
 *
 * - Requests/s of GET …/status and GET /openapi/workflows against a bare fastify route measured in
 *    the same run (ratio; goal ≥ 0.5). Load generator: wrk on loopback.
 * - Executions completed per second for a three-task workflow with zero-length nodes, driven over
 *    HTTP (run requests) and directly through the engine.
 * - Memory after 100,000 executions, bounded by the retention policy (EXECUTION_RETENTION).
 *
 * Env: BENCH_SECONDS (per wrk run, default 5), BENCH_CONNECTIONS (default 50), BENCH_EXECUTIONS (default 100000).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { printedHelp, runCommand } from '../foundation/environment/command.ts';
import { ENV, positiveInt } from '../foundation/environment/rules.ts';
import { DEFAULT_CONFIG } from '../target/config.ts';
import { seedFrom } from '../target/seed.ts';
import { startTarget } from '../target/server.ts';

const run = promisify(execFile);
const USAGE =
  'usage: npm run bench:target   (env: BENCH_SECONDS per wrk run, default 5; BENCH_CONNECTIONS, default 50; BENCH_EXECUTIONS, default 100000)';

/** How long and how hard each measurement runs. */
interface BenchSettings {
  seconds: number;
  connections: number;
  executions: number;
}

function readBenchSettings(env: NodeJS.ProcessEnv): BenchSettings {
  return {
    seconds: positiveInt(env[ENV.benchSeconds], ENV.benchSeconds, 5),
    connections: positiveInt(env[ENV.benchConnections], ENV.benchConnections, 50),
    executions: positiveInt(env[ENV.benchExecutions], ENV.benchExecutions, 100_000),
  };
}
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

async function wrk(o: BenchSettings, url: string, auth: boolean): Promise<number> {
  const args = ['-t1', `-c${o.connections}`, `-d${o.seconds}s`, '--latency'];
  if (auth) args.push('-H', `Authorization: Bearer ${API_KEY}`);
  const { stdout } = await run('wrk', [...args, url]);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(stdout);
  if (!rps) throw new Error(`cannot read wrk output:\n${stdout}`);
  if (non2xx) throw new Error(`${url}: ${non2xx[1]} non-2xx responses`);
  return Number(rps[1]);
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function requestThroughput(o: BenchSettings): Promise<void> {
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ success: true, data: { status: 'finish' } }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareAddress = bare.server.address();
  const bareUrl = `http://127.0.0.1:${typeof bareAddress === 'object' && bareAddress ? bareAddress.port : 0}/bare`;

  const target = await startTarget({ nodeDurationMs: 0, seed });
  const runRes = await fetch(`${target.baseUrl}/openapi/workflow/c_bench_0/run`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}` },
  });
  const executionId = (await runRes.json()).data.executionId as string;
  await new Promise((r) => setTimeout(r, 50));

  console.log(`\nRequests/s (wrk -t1 -c${o.connections} -d${o.seconds}s, loopback; measured in turn in one run)`);
  const bareRps = await wrk(o, bareUrl, false);
  const statusRps = await wrk(o, `${target.baseUrl}/openapi/workflow/${executionId}/status`, true);
  const searchRps = await wrk(o, `${target.baseUrl}/openapi/workflows`, true);
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

async function executionThroughput(o: BenchSettings): Promise<void> {
  console.log('\nExecutions completed per second (three-task chain, zero-length nodes)');
  const target = await startTarget({ nodeDurationMs: 0, seed });
  const { engine } = target.context;
  // wrk drives the run requests (POST via a Lua script), so the client does not share the target's event loop.
  const script = join(mkdtempSync(join(tmpdir(), 'wfcheck-bench-')), 'run.lua');
  writeFileSync(script, `wrk.method = "POST"\nwrk.headers["Authorization"] = "Bearer ${API_KEY}"\n`);
  const t0 = Date.now();
  const { stdout } = await run('wrk', [
    '-t1',
    `-c${o.connections}`,
    `-d${o.seconds}s`,
    '-s',
    script,
    `${target.baseUrl}/openapi/workflow/c_bench_1/run`,
  ]);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(stdout);
  if (non2xx) throw new Error(`run: ${non2xx[1]} non-2xx responses`);
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

async function memoryAfterExecutions(o: BenchSettings): Promise<void> {
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

async function main(): Promise<number | void> {
  if (printedHelp(USAGE)) return 0;
  const o = readBenchSettings(process.env);
  console.log(`wfcheck target benchmark — node ${process.version}, ${o.seconds} s per request measurement`);
  // Memory first, while the process holds nothing else.
  await memoryAfterExecutions(o);
  await requestThroughput(o);
  await executionThroughput(o);
}

runCommand('bench:target', main, { usage: USAGE, failure: (err) => err.message, failureCode: 1 });
