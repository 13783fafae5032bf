/**
 * Bounded polling of one execution: status (and optionally output) snapshots
 * until the execution is terminal, with a clear failure when it never gets there.
 */
import type { ApiClient, Exchange } from './client.ts';
import { needData, TERMINAL, type OutputData, type StatusData } from './shapes.ts';

export interface Snapshot {
  at: number;
  status: StatusData;
  statusExchange: Exchange;
  output?: OutputData;
  outputExchange?: Exchange;
}

export class PollTimeout extends Error {
  constructor(
    message: string,
    readonly snapshots: Snapshot[],
  ) {
    super(message);
    this.name = 'PollTimeout';
  }
}

export interface PollOptions {
  intervalMs: number;
  timeoutMs: number;
  /** Also read the output at every poll (state-machine checks need both views). */
  withOutput?: boolean;
  /** Stop when this returns true (default: execution status terminal). */
  until?: (s: Snapshot) => boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function pollExecution(api: ApiClient, executionId: string, opts: PollOptions): Promise<Snapshot[]> {
  const snapshots: Snapshot[] = [];
  const deadline = Date.now() + opts.timeoutMs;
  const done = opts.until ?? ((s: Snapshot) => TERMINAL.includes(s.status.status ?? ''));
  for (;;) {
    const statusExchange = await api.status(executionId, { label: 'poll status' });
    const status = needData<StatusData>(statusExchange, `status of ${executionId}`);
    const snap: Snapshot = { at: Date.now(), status, statusExchange };
    if (opts.withOutput) {
      snap.outputExchange = await api.output(executionId, { label: 'poll output' });
      snap.output = needData<OutputData>(snap.outputExchange, `output of ${executionId}`);
    }
    snapshots.push(snap);
    if (done(snap)) return snapshots;
    if (Date.now() >= deadline) {
      const nodes = (status.nodeExecutions ?? []).map((n) => `${n.nodeId}=${n.status}`).join(', ');
      throw new PollTimeout(
        `execution ${executionId} still "${status.status}" after ${opts.timeoutMs} ms (${snapshots.length} polls every ${opts.intervalMs} ms; nodes: ${nodes || 'none'}). ` +
          'Raise WFCHECK_POLL_TIMEOUT_MS if the target is slow.',
        snapshots,
      );
    }
    await sleep(opts.intervalMs);
  }
}
