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
import { printedHelp, runCommand } from '../core/settings/command.ts';
import { readBenchSettings } from '../proof/bench/settings.ts';
import { benchTarget } from '../proof/bench/target.ts';

const USAGE =
  'usage: npm run bench:target   (env: BENCH_SECONDS per wrk run, default 5; BENCH_CONNECTIONS, default 50; BENCH_EXECUTIONS, default 100000)';

async function main(): Promise<number> {
  if (printedHelp(USAGE)) return 0;
  await benchTarget(readBenchSettings().target);
  return 0;
}

runCommand('bench:target', main, { usage: USAGE, failure: (err) => err.message, failureCode: 1 });
