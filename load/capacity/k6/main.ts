/**
 * The k6 entry of a capacity search (`wfcheck load capacity`): one process runs one plan
 * (load/capacity/plan.ts) — the coarse ramp's steps, or one bisection or confirmation step — with the
 * workflow lifecycle at each step's arrival rate and the read mix at its share of it, every response
 * through the contract checks as in any load run (load/k6/lib/api.ts).
 *
 * Every request carries the tag `window`: the step's steady window it is sent in (`s1`, `s2`, …), or
 * `warmup` / `drain`, so each step is judged on its own steady requests by the load run's gates
 * (load/capacity/gates.ts). Without a plan the process only discovers what to drive, and its summary
 * keeps what setup() found for the steps that follow (CAPACITY_SETUP_FILE), which then start at once.
 *
 * Env: the suite's (load/k6/lib/config.ts: BASE_URL, API_KEY, PROFILE — whose mix the lifecycle walks —,
 * SEED, LOAD_DATA_FILE, REPORT_DIR, SLO_*, …) and CAPACITY_* (load/capacity/settings.ts).
 */
import http from 'k6/http';
import exec from 'k6/execution';
import { Counter } from 'k6/metrics';
import type { Options, Scenario } from 'k6/options';
import { entrySettings, loadConfig } from '../../k6/lib/config.ts';
import { markSetupRequests, onEveryRequest } from '../../k6/lib/api.ts';
import { discover, type SetupData } from '../../k6/lib/discovery.ts';
import { keywords, strings, uploadSamples } from '../../k6/lib/data.ts';
import { flushContractChecks, flushContractChecksIfDue } from '../../k6/lib/contract.ts';
import { SCENARIO_OPERATIONS, type OperationId } from '../../k6/lib/operations.ts';
import { TREND_STATS } from '../../k6/lib/run-report.ts';
import { workflowLifecycle } from '../../k6/flows/lifecycle.ts';
import { readMix as readMixIteration } from '../../k6/flows/read-mix.ts';
import { ARRIVALS_METRIC, k6Thresholds } from '../gates.ts';
import {
  arrivalStages,
  arrivalsPerLifecycle,
  iterationSeconds,
  lifecycleOf,
  peakRate,
  STEPS_START_MARKER,
  timeline,
  vuPool,
  WINDOW_TAG,
  type CapacityPlan,
} from '../plan.ts';
import { CAPACITY_K6_ENV, readCapacitySettings } from '../settings.ts';

const cfg = loadConfig();
const capacity = readCapacitySettings(entrySettings(Object.values(CAPACITY_K6_ENV)));

// 429 is back-pressure, not an error: it is retried with a backoff and counted (as in load/k6/main.ts).
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 399 }, 429));

/** Lifecycles started, tagged with the window they started in: the rate each step actually offered. */
const arrivals = new Counter(ARRIVALS_METRIC);

const OPERATIONS: OperationId[] = [...new Set([...SCENARIO_OPERATIONS.lifecycle, ...SCENARIO_OPERATIONS.readMix])];

/**
 * One arrival-rate scenario for lifecycles and reads: of every 1 + readsPerLifecycle arrivals one is a
 * lifecycle (plan.ts lifecycleOf), so that each VU's reads follow the executions it started.
 */
function scenariosOf(plan: CapacityPlan): Record<string, Scenario> {
  const arrivals = arrivalsPerLifecycle(plan);
  return {
    traffic: {
      executor: 'ramping-arrival-rate',
      ...arrivalStages(plan, arrivals),
      ...vuPool(peakRate(plan) * arrivals, iterationSeconds(plan)),
      // Lifecycles still running after the last step are stopped soon: their requests fall in the drain
      // window, which judges nothing, and every second here is a second of the search's budget.
      gracefulStop: `${Math.ceil(plan.lifecycleS * 2)}s`,
      exec: 'traffic',
    } as Scenario,
  };
}

export const options: Options = capacity.plan
  ? {
      scenarios: scenariosOf(capacity.plan),
      // The thresholds' type in @types/k6 has no room for per-threshold abort options in a list with strings.
      thresholds: k6Thresholds(capacity.plan, OPERATIONS, cfg.slo, cfg.nodeCheckerUrl !== undefined) as never,
      summaryTrendStats: TREND_STATS,
      systemTags: [
        'status',
        'method',
        'name',
        'group',
        'check',
        'error',
        'error_code',
        'scenario',
        'expected_response',
      ],
      setupTimeout: '120s',
    }
  : {
      // Discovery only: one iteration that does nothing, so that setup() runs and its data is summarised.
      scenarios: { discover: { executor: 'shared-iterations', vus: 1, iterations: 1, exec: 'idle' } },
      setupTimeout: '120s',
    };

/** What a previous process found, read once per VU (in the init context, where k6 allows open()). */
const found: SetupData | undefined = capacity.setupFile
  ? (JSON.parse(open(capacity.setupFile)) as SetupData)
  : undefined;

export function setup(): SetupData {
  if (found) {
    // The scenarios start as setup() returns: the Node side starts its clock of the windows here.
    console.log(STEPS_START_MARKER);
    return found;
  }
  markSetupRequests();
  const data = discover(cfg, strings, keywords, uploadSamples);
  if ('failure' in data) {
    flushContractChecks(cfg);
    exec.test.abort(data.failure);
    throw new Error(data.failure);
  }
  console.log(
    `discovered ${data.canvasIds.length} workflows; ${data.runnable.length} used for the lifecycle; ${data.executionIds.length} executions to read`,
  );
  console.log(data.trialSummary);
  if (data.runnable.length === 0)
    exec.test.abort('no workflow whose trial run finished: the lifecycle has nothing to run');
  return data;
}

// ---- the window of every request ------------------------------------------------------------------

const windows = capacity.plan ? timeline(capacity.plan) : [];
let scenarioStart = 0;
let windowIndex = -1;
let windowEnds = 0;

/** Before every request: the tag changes only when a window boundary was crossed since the last one. */
function markWindow(): void {
  const now = Date.now();
  if (now < windowEnds) return;
  const offset = now - scenarioStart;
  let i = Math.max(0, windowIndex);
  while (i < windows.length - 1 && offset >= windows[i]!.toMs) i++;
  windowIndex = i;
  windowEnds = scenarioStart + windows[i]!.toMs;
  exec.vu.metrics.tags[WINDOW_TAG] = windows[i]!.name;
}

/** setup()'s data copied once per VU into plain objects (as load/k6/main.ts does: k6 wraps it again on every read). */
let plainData: SetupData | undefined;

function startIteration(data: SetupData): SetupData {
  if (scenarioStart === 0) {
    scenarioStart = exec.scenario.startTime;
    onEveryRequest(markWindow);
  }
  markWindow();
  plainData ??= found ?? (JSON.parse(JSON.stringify(data)) as SetupData);
  return plainData;
}

// Arrival-rate VUs may stay idle until the end after any iteration: what they buffer is flushed each time.
const always = () => true;

/** The executions this VU started last: its reads follow them, as a dashboard follows recent runs. */
const RECENT = 2;
let recent: SetupData | undefined;

function remember(d: SetupData, executionId: string | undefined): void {
  if (executionId === undefined) return;
  recent ??= { ...d, executionIds: [] };
  recent.executionIds.push(executionId);
  if (recent.executionIds.length > RECENT) recent.executionIds.shift();
}

/**
 * A VU reads the executions it started last, and workflows only until it started one: setup's executions
 * may be forgotten by then (a target keeps so many finished executions, and answers 404 for older ones).
 */
let noExecutions: SetupData | undefined;
function readData(d: SetupData): SetupData {
  if (recent) return recent;
  noExecutions ??= { ...d, executionIds: [] };
  return noExecutions;
}

export function traffic(data: SetupData): void {
  const d = startIteration(data);
  const lifecycle = lifecycleOf(exec.scenario.iterationInTest, capacity.plan!);
  if (lifecycle !== undefined) {
    arrivals.add(1);
    // The count of lifecycles across VUs, not the VU's: the mix's shares hold over many VUs.
    remember(d, workflowLifecycle(cfg, d, lifecycle));
  } else readMixIteration(cfg, readData(d));
  flushContractChecksIfDue(cfg, always);
}

export function idle(): void {}

/** Every offloaded response is checked and recorded before the summary. */
export function teardown(): void {
  flushContractChecks(cfg);
}

interface K6SummaryData {
  metrics: Record<string, { type: string; values: Record<string, number> }>;
  state: { testRunDurationMs: number };
  setup_data?: SetupData;
}

/** The figures every step is read from (load/capacity/figures.ts), and what setup() found. */
export function handleSummary(data: K6SummaryData): Record<string, string> {
  const metrics = Object.fromEntries(
    Object.entries(data.metrics).map(([name, m]) => [name, { type: m.type, values: m.values }]),
  );
  const summary = { durationMs: data.state.testRunDurationMs, metrics };
  const out: Record<string, string> = {
    [`${cfg.reportDir}/capacity-summary.json`]: `${JSON.stringify(summary)}\n`,
  };
  if (!capacity.plan && data.setup_data) out[`${cfg.reportDir}/setup-data.json`] = JSON.stringify(data.setup_data);
  return out;
}
