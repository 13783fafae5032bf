/** The settings of the benchmarks (`npm run bench:target`, `bench:contracts`, `bench:matrix`). */
import { ENV, positiveInt, type EnvLike } from '../../core/settings/rules.ts';

export interface BenchSettings {
  /** `npm run bench:target`: seconds of every wrk run, its connections, and executions of the memory measurement. */
  target: { seconds: number; connections: number; executions: number };
  /** `npm run bench:contracts`: milliseconds each cell of the table is measured for (BENCH_MS). */
  contractsMs: number;
  /** `npm run bench:matrix`: implementations, nights and builds of the synthetic matrix (BENCH_MATRIX_*). */
  matrix: { implementations: number; nights: number; builds: number };
}

/** BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_EXECUTIONS, BENCH_MS and BENCH_MATRIX_*, each a positive integer. */
export function readBenchSettings(env: EnvLike = process.env): BenchSettings {
  return {
    target: {
      seconds: positiveInt(env[ENV.benchSeconds], ENV.benchSeconds, 5),
      connections: positiveInt(env[ENV.benchConnections], ENV.benchConnections, 50),
      executions: positiveInt(env[ENV.benchExecutions], ENV.benchExecutions, 100_000),
    },
    contractsMs: positiveInt(env.BENCH_MS, 'BENCH_MS', 1500),
    matrix: {
      implementations: positiveInt(env.BENCH_MATRIX_IMPLEMENTATIONS, 'BENCH_MATRIX_IMPLEMENTATIONS', 20),
      nights: positiveInt(env.BENCH_MATRIX_NIGHTS, 'BENCH_MATRIX_NIGHTS', 30),
      builds: positiveInt(env.BENCH_MATRIX_BUILDS, 'BENCH_MATRIX_BUILDS', 5),
    },
  };
}
