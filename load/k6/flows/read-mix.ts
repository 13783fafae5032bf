/** Read mix: the calls a dashboard or an integration makes most (search, detail, status, output). */
import { sleep } from 'k6';
import type { LoadConfig } from '../lib/config.ts';
import { api } from '../lib/api.ts';
import type { SetupData } from '../lib/discovery.ts';
import { pick, vuRandom } from '../lib/seeded.ts';

/** Relative weights of the reads (status polling dominates real traffic). */
const WEIGHTS = { search: 20, detail: 25, status: 35, output: 20 } as const;

/**
 * One read. Without executions to read (a capacity search's VU before it started one: load/capacity/k6/main.ts,
 * as a target may forget old executions), the read is of workflows only, in their own proportions.
 */
export function readMix(cfg: LoadConfig, data: SetupData): void {
  const rnd = vuRandom(cfg.seed);
  const executions = data.executionIds.length > 0 ? WEIGHTS.status + WEIGHTS.output : 0;
  // Each read takes the next slice of the roll, in the order of WEIGHTS.
  const roll = rnd() * (WEIGHTS.search + WEIGHTS.detail + executions);
  const afterSearch = roll - WEIGHTS.search;
  const afterDetail = afterSearch - WEIGHTS.detail;
  const afterStatus = afterDetail - WEIGHTS.status;
  if (afterSearch < 0) {
    api.searchWorkflows(cfg, { keyword: pick(data.keywords, rnd), page: 1, pageSize: 20 });
  } else if (afterDetail < 0) {
    api.getWorkflowDetail(cfg, pick(data.canvasIds, rnd));
  } else if (afterStatus < 0) {
    api.getExecutionStatus(cfg, pick(data.executionIds, rnd));
  } else {
    api.getExecutionOutput(cfg, pick(data.executionIds, rnd));
  }
  if (cfg.thinkTimeS > 0) sleep(cfg.thinkTimeS);
}

/**
 * Status reads only, no think time unless asked: the scenario used to measure the load generator. Its
 * calls are kept shallow: k6's runtime drops its value stack after every iteration and grows it again by
 * doubling, so every level of calls an iteration reaches is allocated anew each time (setup() never
 * leaves an empty list of executions, which pick() would guard against one call level deeper).
 */
export function statusRead(cfg: LoadConfig, data: SetupData): void {
  const rnd = vuRandom(cfg.seed);
  const ids = data.executionIds;
  getExecutionStatus(cfg, ids[(rnd() * ids.length) | 0]!);
  if (cfg.thinkTimeS > 0) sleep(cfg.thinkTimeS);
}

// A module-local name: in k6's runtime an imported name is looked up by name on every use.
const getExecutionStatus = api.getExecutionStatus;
