/**
 * The generator's own ceiling: a bare k6 request loop (one GET per iteration, no suite code: no checks,
 * no custom metrics, no tags), as the benchmark's (proof/bench/k6/bare-status.ts), against a server that
 * answers at once (load/capacity/node/ceiling.ts). Its rate is the most this machine's k6 sends: a capacity
 * near it may be the generator's limit rather than the target's.
 *
 *   k6 run load/capacity/k6/bare-loop.ts   (env: CEILING_URL, CEILING_VUS, CEILING_SECONDS, CEILING_OUT)
 */
import http from 'k6/http';
import { entrySettings } from '../../k6/lib/config.ts';
import { CAPACITY_K6_ENV, readCeilingSettings } from '../settings.ts';

const settings = readCeilingSettings(entrySettings(Object.values(CAPACITY_K6_ENV)));
const url = settings.url;

export const options = {
  scenarios: { loop: { executor: 'constant-vus', vus: settings.vus, duration: `${settings.seconds}s` } },
  summaryTrendStats: ['count'],
};

export default function (): void {
  http.get(url);
}

export function handleSummary(d: {
  metrics: Record<string, { values: Record<string, number> }>;
}): Record<string, string> {
  return { [settings.out]: JSON.stringify(d.metrics.http_reqs!.values) };
}
