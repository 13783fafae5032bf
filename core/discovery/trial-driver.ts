/**
 * Drives the trial protocol (trial.ts) with the contract-checked client: every answer goes through the
 * contract checks like any other and is kept in the evidence. A run gets seeded values for all its
 * variables (a file variable the key of a fresh upload), so a refusal is the workflow's, not a missing
 * value's. Runs are sent one after another, so seeded values are drawn in the same order on every
 * replay; the polls of a round go together.
 */
import type { Faker } from '@faker-js/faker';
import type { ApiClient } from '../client/client.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { Stop } from '../judging/stops.ts';
import {
  driveAsync,
  trialRuns,
  type TrialOptions,
  type TrialReply,
  type TrialReport,
  type TrialRequest,
} from './trial.ts';
import { hasVariableType, prepareRun, runBody, type Workflow } from './workflows.ts';

export interface TrialsDone {
  report: TrialReport;
  /** Uploads made for file variables (requests the protocol does not count). */
  uploads: number;
  ms: number;
}

const replyOf = (ex: Exchange): TrialReply =>
  ex.fault ? { error: ex.fault.message.split('\n')[0] } : { status: ex.status, body: ex.json };

/**
 * Runs the trial of `canvasIds` (trial.ts) through `api`, in their order: `plan` gives each one's
 * workflow as its turn comes (a detail read when it was not read yet, counted by `detailsRead`). A run
 * whose file variable got no key is not sent.
 */
export async function tryWorkflows(
  api: ApiClient,
  faker: Faker,
  canvasIds: readonly string[],
  options: TrialOptions,
  plan: (canvasId: string) => Promise<Workflow | undefined>,
  detailsRead: () => number,
): Promise<TrialsDone> {
  let uploads = 0;
  const sendOne = async (r: TrialRequest): Promise<TrialReply> => {
    switch (r.op) {
      case 'run': {
        const before = detailsRead();
        const wf = await plan(r.canvasId);
        const upload = wf && hasVariableType(wf, 'resource') ? 1 : 0;
        uploads += upload;
        const prepared: { values: Record<string, unknown>; stop?: Stop } = wf?.plan
          ? await prepareRun(api, api.verdict, faker, wf.plan)
          : { values: {} };
        const extraRequests = detailsRead() - before + upload;
        if (prepared.stop) return { error: `not sent: ${prepared.stop.reason}`, extraRequests };
        const reply = replyOf(
          await api.run(r.canvasId, runBody(prepared.values), { label: 'discovery trial run', allowFault: true }),
        );
        return { ...reply, extraRequests };
      }
      case 'status':
        return replyOf(await api.status(r.executionId, { label: 'discovery trial status', allowFault: true }));
      case 'abort':
        return replyOf(await api.abort(r.executionId, { label: 'discovery trial abort', allowFault: true }));
      case 'output':
        return replyOf(await api.output(r.executionId, { label: 'discovery trial output', allowFault: true }));
    }
  };
  const started = Date.now();
  const report = await driveAsync(trialRuns(canvasIds, options), {
    send: async (requests) => {
      if (!requests.some((r) => r.op === 'run')) return Promise.all(requests.map(sendOne));
      const replies: TrialReply[] = [];
      for (const r of requests) replies.push(await sendOne(r));
      return replies;
    },
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now: () => Date.now(),
  });
  return { report, uploads, ms: Date.now() - started };
}
