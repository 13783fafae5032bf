/**
 * The names of the settings only the benchmark's k6 scripts read (settings.ts, their reader), besides the
 * suite's own (BASE_URL, API_KEY, SEED, DURATION: core/settings/rules.ts ENV). Pure: the Node side
 * of the benchmark (proof/bench/load.ts) writes them under the same names.
 */
export const BENCH_K6_ENV = {
  /** The workflows the bare lifecycle loop drives: a JSON file (BenchPlan). */
  plan: 'BENCH_PLAN',
  /** The executions the bare status loop reads: a JSON file of ids. */
  ids: 'BENCH_IDS',
  /** VUs of a bare loop. */
  vus: 'VUS',
  /** Pause between two polls of the bare lifecycle loop, in seconds. */
  pollS: 'POLL_S',
  /** Where a bare loop writes its request count. */
  summaryFile: 'SUMMARY_FILE',
  /** Calls per timed round of check-cost.ts. */
  checkCostCalls: 'CHECK_COST_CALLS',
} as const;
