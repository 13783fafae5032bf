/**
 * k6 side of `npm run bench:load`: the lifecycle mix as a bare request loop (no suite code: no checks,
 * no custom metrics, no tags), the reference the suite's lifecycle scenario is measured against. It walks
 * the same paths as load/k6/flows/lifecycle.ts under the throughput profile — every 10th iteration aborts
 * mid-run, every 3rd uploads a file for a file variable — over the workflows the bench found runnable
 * (BENCH_PLAN, a JSON file written by proof/bench/load.ts, in the order the suite's discovery lists
 * them), and picks each iteration's workflow with the suite's seeded source (lib/seeded.ts, same SEED,
 * same draws per path). A slow workflow is polled hundreds of times, so a different pick sequence alone
 * would move the request rate by more than the suite's overhead.
 *
 *   k6 run proof/bench/k6/bare-lifecycle.ts   (env: BASE_URL, API_KEY, BENCH_PLAN, SEED, VUS, DURATION, POLL_S, SUMMARY_FILE)
 */
import http from 'k6/http';
import exec from 'k6/execution';
import { sleep } from 'k6';
import { pick, vuRandom } from '../../../load/k6/lib/seeded.ts';
import { pathBuilder } from './paths.ts';
import { readBareLifecycleSettings } from './settings.ts';

export interface BenchPlan {
  plain: { canvasId: string; variables: Record<string, unknown> }[];
  withFile: { canvasId: string; variables: Record<string, unknown>; fileVariables: string[] }[];
  abortable: { canvasId: string; variables: Record<string, unknown> }[];
}

const settings = readBareLifecycleSettings();
const plan = JSON.parse(open(settings.planFile)) as BenchPlan;
const base = settings.baseUrl;
const pollS = settings.pollS;
const seed = settings.seed;
const auth = { Authorization: `Bearer ${settings.apiKey}` };
const jsonParams = { headers: { ...auth, 'Content-Type': 'application/json' } };
const getParams = { headers: auth };
const boundary = 'benchboundary';
const uploadBody = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="brief.txt"\r\nContent-Type: text/plain\r\n\r\nload test brief\r\n--${boundary}--\r\n`;
const uploadParams = { headers: { ...auth, 'Content-Type': `multipart/form-data; boundary=${boundary}` } };
const runPath = pathBuilder('runWorkflow');
const statusPath = pathBuilder('getExecutionStatus');
const abortPath = pathBuilder('abortExecution');
const outputPath = pathBuilder('getExecutionOutput');
const uploadUrl = base + pathBuilder('uploadFiles')();

export const options = {
  scenarios: { s: { executor: 'constant-vus', vus: settings.vus, duration: settings.duration } },
  summaryTrendStats: ['count'],
};

function run(canvasId: string, variables: Record<string, unknown>): string | undefined {
  const res = http.post(base + runPath({ canvasId }), JSON.stringify({ variables }), jsonParams);
  return res.status === 200 ? (res.json() as { data: { executionId: string } }).data.executionId : undefined;
}

function poll(id: string, maxPolls: number): void {
  for (let i = 0; i < maxPolls; i++) {
    sleep(pollS);
    const res = http.get(base + statusPath({ executionId: id }), getParams);
    const status = res.status === 200 ? (res.json() as { data: { status: string } }).data.status : undefined;
    if (status === 'finish' || status === 'failed') return;
  }
}

export default function (): void {
  const i = exec.vu.iterationInScenario;
  const rnd = vuRandom(seed);
  if (i % 10 === 0 && plan.abortable.length > 0) {
    const wf = pick(plan.abortable, rnd);
    const id = run(wf.canvasId, wf.variables);
    if (!id) return;
    http.get(base + statusPath({ executionId: id }), getParams);
    http.post(base + abortPath({ executionId: id }), null, getParams);
    poll(id, 4);
    http.get(base + outputPath({ executionId: id }), getParams);
    return;
  }
  let canvasId: string;
  let variables: Record<string, unknown>;
  if (i % 3 === 1 && plan.withFile.length > 0) {
    const wf = pick(plan.withFile, rnd);
    rnd(); // the suite draws the sample to upload here
    const up = http.post(uploadUrl, uploadBody, uploadParams);
    const key = (up.json() as { data: { files: { fileKey: string }[] } }).data.files[0]!.fileKey;
    variables = { ...wf.variables };
    for (const v of wf.fileVariables) variables[v] = key;
    canvasId = wf.canvasId;
  } else {
    const wf = pick(plan.plain, rnd);
    canvasId = wf.canvasId;
    variables = wf.variables;
  }
  const id = run(canvasId, variables);
  if (!id) return;
  poll(id, 100_000);
  http.get(base + outputPath({ executionId: id }), getParams);
}

export function handleSummary(d: {
  metrics: Record<string, { values: Record<string, number> }>;
}): Record<string, string> {
  return { [settings.summaryFile]: JSON.stringify(d.metrics.http_reqs!.values) };
}
