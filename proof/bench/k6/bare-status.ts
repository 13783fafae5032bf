/**
 * k6 side of `npm run bench:load`: the status reads as a bare request loop (one http.get per iteration, no
 * suite code: no checks, no custom metrics, no tags), the reference the suite's status-read scenario is
 * measured against; it separates what the engine costs from what the suite adds. It cycles through the
 * executions the bench started (BENCH_IDS, a JSON file written by proof/bench/load.ts).
 *
 *   k6 run proof/bench/k6/bare-status.ts   (env: BASE_URL, API_KEY, BENCH_IDS, VUS, DURATION, SUMMARY_FILE)
 */
import http from 'k6/http';
import { pathBuilder } from './paths.ts';
import { readBareStatusSettings } from './settings.ts';

const settings = readBareStatusSettings();
const ids = JSON.parse(open(settings.idsFile)) as string[];
const base = settings.baseUrl;
const statusPath = pathBuilder('getExecutionStatus');
const params = { headers: { Authorization: `Bearer ${settings.apiKey}` } };

export const options = {
  scenarios: { s: { executor: 'constant-vus', vus: settings.vus, duration: settings.duration } },
  summaryTrendStats: ['count'],
};

let n = 0;

export default function (): void {
  n = (n + 1) % ids.length;
  http.get(base + statusPath({ executionId: ids[n]! }), params);
}

export function handleSummary(d: {
  metrics: Record<string, { values: Record<string, number> }>;
}): Record<string, string> {
  return { [settings.summaryFile]: JSON.stringify(d.metrics.http_reqs!.values) };
}
