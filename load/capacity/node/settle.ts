/**
 * Between two processes of a capacity search: waits until the target has worked off what the previous
 * step left queued. A step past the knee leaves a backlog (requests a server accepted and still serves
 * after k6 gave up on them), and the next step would otherwise start on a target still busy with it.
 *
 * The probe is a search of one workflow (workflows are never forgotten, as executions may be), every
 * answer contract-checked as any other the harness receives; the target counts as settled when an answer
 * comes within a few times its idle latency, measured after discovery.
 */
import { checkResponse } from '../../../contracts/check.ts';
import { OPERATIONS } from '../../../contracts/generated/operations.ts';
import { getText } from '../../../core/connection/connection.ts';

/** Settled: an answer within this multiple of the idle latency (or within SETTLED_FLOOR_MS). */
const SETTLED_FACTOR = 3;
/** On loopback an idle answer takes a millisecond or two; noise below this says nothing. */
const SETTLED_FLOOR_MS = 25;
const PROBE_PAUSE_MS = 250;
/** A probe stuck behind a backlog longer than this is not settled: it is given up and sent again. */
const PROBE_TIMEOUT_MS = 10_000;

/** ms one probe took; its answer is contract-checked and its findings given to `onFinding`. */
export type Probe = () => Promise<number>;

export function searchProbe(baseUrl: string, apiKey: string, onFinding: (text: string) => void): Probe {
  const url = `${baseUrl}${OPERATIONS.searchWorkflows.path}?page=1&pageSize=1`;
  return async () => {
    const started = performance.now();
    // Through the command's connection: the target's CA, client certificate and proxy, as k6 reaches it.
    const res = await getText(url, { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' }, PROBE_TIMEOUT_MS);
    const ms = performance.now() - started;
    const contentType = res.headers['content-type'];
    const findings = checkResponse({
      operation: 'searchWorkflows',
      status: res.status,
      headers: contentType ? { 'content-type': contentType } : {},
      body: res.text,
    }).filter((f) => f.level === 'must');
    if (findings.length > 0)
      onFinding(`the settle probe's answer (${res.status}) breaks ${findings.map((f) => f.requirementId).join(', ')}`);
    return ms;
  };
}

/** The idle latency: the median of a few probes. */
export async function idleLatency(probe: Probe): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < 5; i++) ms.push(await probe());
  return ms.sort((a, b) => a - b)[2]!;
}

/** Waits until a probe answers within the settled bound or `maxS` passed; the seconds waited. */
export async function settle(probe: Probe, idleMs: number, maxS: number): Promise<number> {
  const bound = Math.max(SETTLED_FLOOR_MS, idleMs * SETTLED_FACTOR);
  const started = Date.now();
  while ((Date.now() - started) / 1000 < maxS) {
    const ms = await probe().catch(() => Number.POSITIVE_INFINITY);
    if (ms <= bound) break;
    await new Promise((ok) => setTimeout(ok, PROBE_PAUSE_MS));
  }
  return (Date.now() - started) / 1000;
}
