/**
 * wfcheck load suite — the k6 entry point.
 *
 *   k6 run load/k6/main.ts   (normally through `npm run load`, which boots the
 *                          reference target, prepares seeded data and collects reports)
 *
 * Env: BASE_URL, API_KEY, PROFILE (a name of lib/profiles.ts' table, else its DEFAULT_PROFILE),
 * SCENARIOS (lifecycle,generate,readMix,uploads,statusRead), WFCHECK_ALLOW_OVERWRITE,
 * WFCHECK_OVERWRITE_CANVAS_ID, WFCHECK_ABORT_CANVAS_ID, DURATION, VUS_SCALE, SEED,
 * LOAD_DATA_FILE, REPORT_DIR, CONTRACT_CHECK_SAMPLE, REQUEST_TIMEOUT, SLO_* (see lib/thresholds.ts); every
 * name the script reads is in K6_SCRIPT_ENV (core/settings/rules.ts), read by lib/config.ts.
 */
import http from 'k6/http';
import exec from 'k6/execution';
import type { Options, Scenario } from 'k6/options';
import { loadConfig } from './lib/config.ts';
import { describeMix, durationSeconds, executorFor, stopWindows, type ScenarioName } from './lib/profiles.ts';
import { buildThresholds } from './lib/thresholds.ts';
import { SCENARIO_OPERATIONS, type OperationId } from './lib/operations.ts';
import { discover, type SetupData } from './lib/discovery.ts';
import { keywords, strings, uploadSamples } from './lib/data.ts';
import {
  REPORT_HANDOVER_FILE,
  loadReportText,
  thresholdResult,
  TREND_STATS,
  type MetricSummary,
  type RunReport,
} from './lib/run-report.ts';
import { workflowLifecycle } from './flows/lifecycle.ts';
import { generate as generateIteration, generateOnce } from './flows/generate.ts';
import { seededRandom } from './lib/seeded.ts';
import { flushContractChecks, flushContractChecksIfDue } from './lib/contract.ts';
import { markSetupRequests } from './lib/api.ts';
import { readMix as readMixIteration, statusRead as statusReadIteration } from './flows/read-mix.ts';
import { uploads as uploadsIteration } from './flows/uploads.ts';

const cfg = loadConfig();

// 429 is back-pressure, not an error: it is retried with a backoff and counted in rate_limited_responses.
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 399 }, 429));

const EXEC_FUNCTION: Record<ScenarioName, string> = {
  lifecycle: 'lifecycle',
  generate: 'generate',
  readMix: 'readMix',
  uploads: 'uploads',
  statusRead: 'statusRead',
};

const operations: OperationId[] = cfg.scenarios.flatMap((s) => [...SCENARIO_OPERATIONS[s]]);

export const options: Options = {
  scenarios: Object.fromEntries(
    cfg.scenarios.map((s) => [
      s,
      {
        ...executorFor(cfg.profile, s, cfg.duration, cfg.vusScale),
        exec: EXEC_FUNCTION[s],
        tags: { scenario_name: s },
      } as Scenario,
    ]),
  ),
  thresholds: buildThresholds(
    operations,
    cfg.scenarios.includes('lifecycle'),
    cfg.slo,
    cfg.nodeCheckerUrl !== undefined,
  ),
  summaryTrendStats: TREND_STATS,
  // No `url` tag: it carries execution and canvas ids, one series per id in any output;
  // `name` (the path template) and `operation` identify requests instead. Fewer tags also
  // make each sample cheaper for the generator.
  systemTags: ['status', 'method', 'name', 'group', 'check', 'error', 'error_code', 'scenario', 'expected_response'],
  setupTimeout: '120s',
};

/** Ends the whole run with its reason; `npm run load` repeats the reason as its closing message. */
function abortRun(reason: string): never {
  flushContractChecks(cfg);
  exec.test.abort(reason);
  throw new Error(reason); // not reached: abort() ends the run
}

export function setup(): SetupData {
  markSetupRequests();
  console.log(
    `wfcheck load: profile=${cfg.profileName} scenarios=${cfg.scenarios.join(',')} duration=${cfg.duration} seed=${cfg.seed}`,
  );
  console.log(`mix: ${describeMix(cfg.profile, cfg.scenarios, cfg.vusScale)}`);
  console.log(
    `contract checks: ${cfg.nodeCheckerUrl ? `every response handed to the Node checker in batches of ${cfg.contractBatch}` : 'every response checked in the VU'}${cfg.contractSample < 1 ? ` (sample ${cfg.contractSample})` : ''}`,
  );
  const needsExecutions = cfg.scenarios.some((s) => s === 'readMix' || s === 'statusRead');
  const data = discover(cfg, strings, keywords, uploadSamples);
  if ('failure' in data) return abortRun(data.failure);
  console.log(
    `discovered ${data.canvasIds.length} workflows; ${data.runnable.length} used for the lifecycle; ${data.executionIds.length} executions to read`,
  );
  console.log(data.trialSummary);
  for (const s of data.skipped) console.log(`not used for the lifecycle: ${s.canvasId}: ${s.reason}`);
  if (cfg.scenarios.includes('lifecycle') && data.runnable.length === 0)
    abortRun(
      'no workflow whose required variables can be filled and whose trial run finished: the lifecycle scenario has nothing to run',
    );
  if (needsExecutions && data.executionIds.length === 0)
    abortRun('no execution could be started during setup: the read scenarios have no execution ids to read');
  if (cfg.scenarios.includes('readMix') && data.canvasIds.length === 0)
    abortRun('search returned no workflows: the read mix has nothing to read');
  if (cfg.scenarios.includes('lifecycle') && data.withFiles.length === 0)
    console.log('no runnable workflow has a file variable: lifecycle iterations run without uploads');
  if (cfg.scenarios.includes('generate')) data.overwriteCanvasId = canvasToOverwrite(data.keywords);
  flushContractChecks(cfg); // setup's own responses, before its VU goes away
  return data;
}

/** With overwrite allowed, generate reuses one canvas: the given one, else one made by a first call. */
function canvasToOverwrite(keywords: readonly string[]): string | undefined {
  if (!cfg.allowOverwrite) {
    console.log(
      'generate: overwrite not allowed (WFCHECK_ALLOW_OVERWRITE), so every call creates a canvas (counted in canvases_created)',
    );
    return undefined;
  }
  const id = cfg.overwriteCanvasId ?? generateOnce(cfg, keywords, seededRandom(cfg.seed));
  console.log(
    id
      ? `generate: every call overwrites canvas ${id}`
      : 'generate: the first call gave no canvas to overwrite; every call creates one',
  );
  return id;
}

/** When this VU may be stopped after an iteration (ms since the epoch), known from its first iteration on. */
let stopSpans: [number, number][] | undefined;

function spansOf(scenario: ScenarioName): [number, number][] {
  const start = exec.scenario.startTime;
  return stopWindows(executorFor(cfg.profile, scenario, cfg.duration, cfg.vusScale)).map(([from, to]) => [
    start + from,
    start + to,
  ]);
}

/** Called after every iteration: an indexed loop, as for…of with destructuring is costly in k6's interpreter. */
function mayStopAt(now: number): boolean {
  const spans = stopSpans!;
  for (let i = 0; i < spans.length; i++) if (now >= spans[i]![0] && now <= spans[i]![1]) return true;
  return false;
}

// Module-local names for what every iteration calls: in k6's runtime an imported name is looked up by name on every use.
const flushIfDue = flushContractChecksIfDue;
const statusReadOnce = statusReadIteration;

/** After every iteration: buffered contract-check work is flushed when it is due or the VU may stop now. */
function endIteration(scenario: ScenarioName): void {
  stopSpans ??= spansOf(scenario);
  flushIfDue(cfg, mayStopAt);
}

/** What the teardown VU still holds is checked and recorded before the summary. */
export function teardown(): void {
  flushContractChecks(cfg);
}

/**
 * setup()'s data as plain JavaScript values, copied once per VU. k6 hands it to every iteration as a
 * wrapped Go map, and every read of it wraps again (an execution id costs a new wrapped Go slice per
 * iteration); the copy reads like any object.
 */
let plainData: SetupData | undefined;
const plain = (data: SetupData): SetupData => JSON.parse(JSON.stringify(data)) as SetupData;

export function lifecycle(data: SetupData): void {
  if (plainData === undefined) plainData = plain(data);
  workflowLifecycle(cfg, plainData);
  endIteration('lifecycle');
}
export function generate(data: SetupData): void {
  if (plainData === undefined) plainData = plain(data);
  generateIteration(cfg, plainData);
  endIteration('generate');
}
export function readMix(data: SetupData): void {
  if (plainData === undefined) plainData = plain(data);
  readMixIteration(cfg, plainData);
  endIteration('readMix');
}
export function uploads(): void {
  uploadsIteration(cfg);
  endIteration('uploads');
}
export function statusRead(data: SetupData): void {
  if (plainData === undefined) plainData = plain(data);
  statusReadOnce(cfg, plainData);
  endIteration('statusRead');
}

interface K6SummaryMetric {
  type: MetricSummary['type'];
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}
interface K6SummaryData {
  metrics: Record<string, K6SummaryMetric>;
  state: { testRunDurationMs: number };
}

export function handleSummary(data: K6SummaryData): Record<string, string> {
  const metrics: Record<string, MetricSummary> = {};
  const thresholds: RunReport['thresholds'] = [];
  for (const [name, m] of Object.entries(data.metrics)) {
    metrics[name] = { type: m.type, values: m.values };
    for (const [expression, verdict] of Object.entries(m.thresholds ?? {})) {
      // k6's own verdict is authoritative; the actual value is added for the report.
      thresholds.push({ ...thresholdResult(name, expression, metrics[name]), ok: verdict.ok });
    }
  }
  thresholds.sort((a, b) => a.metric.localeCompare(b.metric) || a.expression.localeCompare(b.expression));
  const report: RunReport = {
    meta: {
      profile: cfg.profileName,
      scenarios: cfg.scenarios,
      seed: cfg.seed,
      baseUrl: cfg.baseUrl,
      contractSample: cfg.contractSample,
      durationMs: data.state.testRunDurationMs,
      scenarioSeconds: durationSeconds(cfg.duration),
      mix: describeMix(cfg.profile, cfg.scenarios, cfg.vusScale),
      evaluation: cfg.segmentLabel
        ? `segment ${cfg.segmentLabel} of a distributed run (gates are judged on the merged data)`
        : 'single',
    },
    passed: thresholds.every((t) => t.ok),
    thresholds,
    metrics,
  };
  // The model only: k6 cannot load the report kit's renderers; the Node side writes every format from it.
  return {
    [`${cfg.reportDir}/${REPORT_HANDOVER_FILE}`]: `${JSON.stringify(report, null, 2)}\n`,
    stdout: loadReportText(report),
  };
}
