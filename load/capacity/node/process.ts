/**
 * Runs the k6 processes of a capacity search (load/capacity/k6/main.ts): the first one discovers what to
 * drive and keeps it (setup-data.json), each later one runs a plan — the coarse ramp, or one step — and
 * is read back into one StepFigures per step it reached. With several instances a plan runs as execution
 * segments of one test (as `wfcheck load distributed` does), each writing its samples, and the steps are
 * judged on the merged samples.
 *
 * Contract checks are offloaded to one Node checker per plan, as in `wfcheck load`: the verdicts come back
 * without the window of their request, so the checker's totals are sampled over time and the violations
 * of each steady window are those it counted while the window ran (a batch waits at most a second).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { K6ScriptValues } from '../../../core/settings/rules.ts';
import { pathFromWorkDir } from '../../../core/settings/roots.ts';
import { type GateResult, k6Thresholds } from '../gates.ts';
import { readStep, type StepFigures, type StepPurpose, stepRan } from '../figures.ts';
import { type CapacityPlan, STEPS_START_MARKER } from '../plan.ts';
import { CAPACITY_K6_ENV } from '../settings.ts';
import { SCENARIO_OPERATIONS, type OperationId } from '../../k6/lib/operations.ts';
import type { MetricSummary } from '../../k6/lib/report.ts';
import type { SloSettings } from '../../k6/lib/thresholds.ts';
import { executionSegments, mergeK6Json } from '../../node/merge.ts';
import { startNodeChecker } from '../../node/node-checker.ts';
import { K6_EXIT, LOAD_DIR, runK6, type K6RunResult } from '../../node/run-k6.ts';
import { ViolationClock } from './violations.ts';

export const CAPACITY_ENTRY = {
  portable: join(LOAD_DIR, 'capacity', 'k6', 'main.ts'),
  native: join(LOAD_DIR, 'capacity', 'k6', 'main-native.ts'),
};

export const OPERATIONS: OperationId[] = [
  ...new Set([...SCENARIO_OPERATIONS.lifecycle, ...SCENARIO_OPERATIONS.readMix]),
] as OperationId[];

/** What every process of one search shares. */
export interface SearchProcesses {
  k6: string;
  baseUrl: string;
  apiKey: string;
  seed: number;
  dataFile: string;
  /** The search's folder: each process writes into steps/<nn>-<purpose>/. */
  dir: string;
  /** The load profile whose mix (file and abort shares) the lifecycle walks. */
  mixProfile: string;
  /** Settings for the script (SLO_*, WFCHECK_ALLOW_OVERWRITE, …), the suite's names only. */
  env: K6ScriptValues;
  slo: SloSettings;
  /** 1: one process; more: execution segments of one test, merged. */
  instances: number;
  /** setup-data.json once discovery ran. */
  setupFile?: string;
  log: (line: string) => void;
}

export interface PlanOutcome {
  /** The steps reached, in order; a ramp stops at its first break. */
  steps: StepFigures[];
  wallMs: number;
  /** ms from the process's start to its steps' start: what a step costs besides its own seconds. */
  startupMs: number;
}

/** One label per step of a plan: where it goes in the search's list and why it runs. */
export interface StepLabel {
  index: number;
  purpose: StepPurpose;
}

const stepDir = (s: SearchProcesses, label: string) => join(s.dir, 'steps', label);

function baseOptions(s: SearchProcesses, reportDir: string) {
  return {
    k6: s.k6,
    baseUrl: s.baseUrl,
    apiKey: s.apiKey,
    profile: s.mixProfile,
    seed: s.seed,
    dataFile: s.dataFile,
    reportDir,
    scenarios: 'lifecycle,readMix',
    entry: CAPACITY_ENTRY,
    quiet: true,
  };
}

/** Why a process gave nothing to read, from its exit and log. */
function failureOf(r: K6RunResult, dir: string): string {
  if (r.abortReason) return `the target cannot be driven: ${r.abortReason}`;
  if (r.scriptError) return `the capacity script failed: ${r.scriptError}`;
  return `k6 exited with code ${r.exitCode} (see ${pathFromWorkDir(join(dir, 'k6.log'))})`;
}

/** The first process: discovers the workflows, runs and reads, and keeps what it found for every step. */
export async function discoverOnce(s: SearchProcesses): Promise<string> {
  const dir = stepDir(s, '00-discover');
  const r = await runK6({
    ...baseOptions(s, dir),
    env: s.env,
    onLine: (l) => {
      if (/discovered \d+ workflows|trial runs:/.test(l)) s.log(l.replace(/^.*msg="(.*)" source=console$/, '$1'));
    },
  });
  const file = join(dir, 'setup-data.json');
  if (r.exitCode !== K6_EXIT.ok || !existsSync(file)) throw new Error(failureOf(r, dir));
  return file;
}

function readMetrics(file: string): Record<string, MetricSummary> | undefined {
  if (!existsSync(file)) return undefined;
  return (JSON.parse(readFileSync(file, 'utf8')) as { metrics: Record<string, MetricSummary> }).metrics;
}

/** The plan's processes: one, or one per execution segment, all writing under `dir`; their results. */
async function runProcesses(
  s: SearchProcesses,
  plan: CapacityPlan,
  dir: string,
  checkerUrl: string,
  onStart: () => void,
): Promise<K6RunResult[]> {
  const { sequence, parts } = executionSegments(s.instances);
  const distributed = s.instances > 1;
  let started = false;
  return Promise.all(
    parts.map((segment, i) => {
      const own = distributed ? join(dir, `segment-${i + 1}`) : dir;
      // Each instance judges its own share for abortOnFail: its gate on lifecycles started is its share's.
      const share = { ...plan, share: 1 / s.instances };
      return runK6({
        ...baseOptions(s, own),
        env: { ...s.env, CONTRACT_CHECK_SINK: checkerUrl },
        extraArgs: [
          '-e',
          `${CAPACITY_K6_ENV.plan}=${JSON.stringify(share)}`,
          '-e',
          `${CAPACITY_K6_ENV.setupFile}=${s.setupFile}`,
        ],
        ...(distributed
          ? { segment: { segment, sequence, label: `${i + 1}/${s.instances}` }, jsonOut: join(own, 'samples.ndjson') }
          : {}),
        onLine: (l) => {
          if (!started && l.includes(STEPS_START_MARKER)) {
            started = true;
            onStart();
          }
        },
      });
    }),
  );
}

/** The metrics the steps are read from: the process's summary, or the instances' samples merged. */
async function planMetrics(
  s: SearchProcesses,
  plan: CapacityPlan,
  dir: string,
): Promise<Record<string, MetricSummary> | undefined> {
  if (s.instances === 1) return readMetrics(join(dir, 'capacity-summary.json'));
  const files = Array.from({ length: s.instances }, (_, i) => join(dir, `segment-${i + 1}`, 'samples.ndjson'));
  if (!files.every(existsSync)) return undefined;
  const thresholds = k6Thresholds(plan, OPERATIONS, s.slo, true);
  const keys = Object.fromEntries(Object.keys(thresholds).map((k) => [k, []]));
  return (await mergeK6Json(files, keys)).metrics;
}

/** Runs a plan and reads every step it reached; a ramp's steps end with its first break. */
export async function runPlan(s: SearchProcesses, plan: CapacityPlan, labels: StepLabel[]): Promise<PlanOutcome> {
  const first = labels[0]!;
  const dir = stepDir(s, `${String(first.index).padStart(2, '0')}-${first.purpose}`);
  const checker = await startNodeChecker(join(dir, 'violations.ndjson'));
  const clock = new ViolationClock(checker);
  const began = Date.now();
  let results: K6RunResult[];
  try {
    results = await runProcesses(s, plan, dir, checker.url, () => clock.start(plan));
  } finally {
    clock.stop();
    await checker.close();
  }
  const broken = results.find((r) => r.exitCode !== K6_EXIT.ok && r.exitCode !== K6_EXIT.thresholdsFailed);
  const metrics = await planMetrics(s, plan, dir);
  if (broken || !metrics) throw new Error(failureOf(broken ?? results[0]!, dir));
  const steps: StepFigures[] = [];
  for (let i = 0; i < plan.steps.length; i++) {
    if (!stepRan(metrics, i)) break;
    const step = readStep({
      plan,
      step: i,
      ...labels[i]!,
      metrics,
      operations: OPERATIONS,
      slo: s.slo,
      nodeViolations: clock.inWindow(i),
    });
    steps.push(step);
    if (!step.held && plan.abortOnFail) break;
  }
  return { steps, wallMs: Date.now() - began, startupMs: clock.startedAfterMs(began) };
}

export type { GateResult };
