/**
 * What `npm run bench:load` drives: executions for the status reads, and the workflows of the bare
 * lifecycle loop (proof/bench/k6/bare-lifecycle.ts). Found through the typed client and the harness's
 * own listing code, the way the load suite's discovery finds them (load/k6/lib/discovery.ts: the listing in
 * its order, required variables filled, a file variable with an upload's key, one trial run each, only
 * the workflows whose trial run finished), so that the bare loop and the suite walk the same mix.
 */
import { searchAll } from '../../core/discovery/listing.ts';
import type { components } from '../../contracts/generated/api-types.ts';
import type { SearchItem } from '../../core/judging/payloads.ts';
import type { BenchClient } from './client.ts';
import type { BenchPlan } from './k6/bare-lifecycle.ts';

/** The listing's head the load suite's discovery reads details of. */
const SUITE_DETAILS = 40;
/** How long a trial run may take: the slow workflows' runs must end, as in the suite's lifecycle runs. */
export const TRIAL_TIMEOUT_MS = 20_000;
const TRIAL_POLL_MS = 250;
const SLOW_TITLE = /slow|long|batch/i;

type RunRequest = components['schemas']['RunRequest'];

async function listed(client: BenchClient): Promise<SearchItem[]> {
  const listing = await searchAll(client.harness, {}, { limit: SUITE_DETAILS, label: 'bench discovery' });
  if (listing.stop) throw new Error(`cannot list the workflows: ${listing.stop.reason}`);
  return listing.items;
}

async function run(client: BenchClient, canvasId: string, variables: Record<string, string>) {
  const started = await client.data('runWorkflow', {
    params: { canvasId },
    // The generated RunRequest also admits the legacy top-level form through an index signature, which no
    // object carrying `variables` satisfies in TypeScript: the wrapper form is sent as it is specified.
    json: { variables } as unknown as RunRequest,
    label: 'bench trial run',
  });
  return started?.executionId;
}

/** Executions to read: one run of each listed workflow without variables (what a status poller reads). */
export async function executionsToRead(client: BenchClient): Promise<string[]> {
  const ids: string[] = [];
  for (const w of await listed(client)) {
    const id = await run(client, w.canvasId, {});
    if (id) ids.push(id);
  }
  // The reads begin once the executions have had time to move on from their first state.
  await new Promise((ok) => setTimeout(ok, 1500));
  return ids;
}

/** Waits until every execution has ended, or the deadline; the ones that finished. */
async function finished(client: BenchClient, ids: readonly string[]): Promise<Set<string>> {
  const ended = new Map<string, string>();
  const deadline = Date.now() + TRIAL_TIMEOUT_MS;
  while (ended.size < ids.length && Date.now() < deadline) {
    await new Promise((ok) => setTimeout(ok, TRIAL_POLL_MS));
    for (const id of ids.filter((i) => !ended.has(i))) {
      const status = (await client.data('getExecutionStatus', { params: { executionId: id }, label: 'bench trial' }))
        ?.status;
      if (status === 'finish' || status === 'failed') ended.set(id, status);
    }
  }
  return new Set([...ended].filter(([, s]) => s === 'finish').map(([id]) => id));
}

/** The workflows the bare lifecycle loop drives, in the order the suite's discovery lists them. */
export async function lifecyclePlan(client: BenchClient): Promise<BenchPlan> {
  const upload = await client.data('uploadFiles', {
    files: [{ name: 'brief.txt', type: 'text/plain', content: new TextEncoder().encode('load test brief') }],
    label: 'bench upload for file variables',
  });
  const fileKey = upload?.files?.[0]?.fileKey;
  if (!fileKey) throw new Error('the upload for file variables gave no fileKey');
  const tried: (BenchPlan['withFile'][number] & { title: string; id?: string })[] = [];
  for (const w of await listed(client)) {
    const vars =
      (await client.data('getWorkflowDetail', { params: { canvasId: w.canvasId }, label: 'bench detail' }))
        ?.variables ?? [];
    const variables: Record<string, string> = {};
    for (const v of vars.filter((x) => x.required)) {
      const value =
        v.variableType === 'option' ? v.options?.[0] : v.variableType === 'resource' ? fileKey : 'load test';
      if (value !== undefined) variables[v.name] = value;
    }
    tried.push({
      canvasId: w.canvasId,
      title: w.title ?? '',
      variables,
      fileVariables: vars.filter((x) => x.variableType === 'resource').map((x) => x.name),
      id: await run(client, w.canvasId, variables),
    });
  }
  const done = await finished(
    client,
    tried.flatMap((t) => (t.id ? [t.id] : [])),
  );
  const plain = tried.filter((t) => t.id && done.has(t.id)).map(({ id: _, ...w }) => w);
  const slow = plain.filter((w) => SLOW_TITLE.test(w.title));
  return {
    plain,
    withFile: plain.filter((w) => w.fileVariables.length > 0),
    abortable: slow.length ? slow : plain,
  };
}
