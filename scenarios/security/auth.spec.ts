/**
 * Authentication (§5): every operation × {no header, empty bearer, wrong
 * scheme, key without scheme, unknown key}. Exposure and the status of the
 * refusal are judged apart. A request without a valid key was processed when it
 * is served (a 2xx), or when it is answered exactly as the same request with the
 * key is — the same status and the same body, such as the 400 of a run that
 * lacks a required variable: either fails AUTH-NOT-SERVED-WITHOUT-KEY, whatever
 * the status, and the 401 clauses are then blocked by it. A refusal that differs
 * from the keyed answer is no exposure: its status is the 401 clauses' matter.
 * Real ids are used where an operation takes one, so a 404 can never stand in
 * for the missing 401; the run names a workflow with a required variable when
 * there is one, so the keyed answer is a 400 that starts nothing.
 */
import { test } from '../fixtures.ts';
import { buildFile } from '../../foundation/data/files.ts';
import { OPERATION_IDS } from '../../contracts/check.ts';
import { OPERATION_PREFIX } from '../../contracts/requirements.ts';
import type { ApiClient } from '../../engine/client/client.ts';
import type { AuthMode, Exchange, RequestSpec } from '../../engine/transport/exchange.ts';
import { abortQuietly, executionIdIn, startRun } from '../../engine/execution/runs.ts';
import { describe, expectStatus, served, stopAll } from '../../engine/judging/judging.ts';
import type { Verdict } from '../../engine/evidence/verdict.ts';
import { candidates } from '../../engine/discovery/workflows.ts';

interface Variant {
  requirement: string;
  label: string;
  auth: (key: string, unknownKey: string) => AuthMode;
}

const VARIANTS: Variant[] = [
  { requirement: 'AUTH-401-MISSING-KEY', label: 'no Authorization header', auth: () => ({ kind: 'none' }) },
  {
    requirement: 'AUTH-401-EMPTY-BEARER',
    label: '"Bearer " with no key',
    auth: () => ({ kind: 'literal', value: 'Bearer ' }),
  },
  {
    requirement: 'AUTH-401-WRONG-SCHEME',
    label: 'the key under the Basic scheme',
    auth: (key) => ({ kind: 'literal', value: `Basic ${key}` }),
  },
  {
    requirement: 'AUTH-401-WRONG-SCHEME',
    label: 'the key with no scheme',
    auth: (key) => ({ kind: 'literal', value: key }),
  },
  {
    requirement: 'AUTH-401-INVALID-KEY',
    label: 'an unknown key',
    auth: (_key, unknown) => ({ kind: 'literal', value: `Bearer ${unknown}` }),
  },
];

/** Fields of an answer that differ from one request to the next whatever was processed. */
const VOLATILE = new Set(['traceId', 'requestId', 'timestamp', 'time', 'stack']);

function withoutVolatile(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutVolatile);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([k]) => !VOLATILE.has(k))
      .map(([k, v]) => [k, withoutVolatile(v)]),
  );
}

/** What an answer says, its per-request fields aside: the status and the body. */
function contentOf(ex: Exchange): string {
  return `${ex.status} ${ex.parsed ? JSON.stringify(withoutVolatile(ex.json)) : ex.text}`;
}

/**
 * Why the keyed answer cannot tell whether a refusal without a key was processed: it is no answer about
 * the request itself (a fault, a rate limit, a server error), or a "not found" of an id the harness made up.
 */
function incomparable(keyed: Exchange | undefined, madeUpId: boolean): string | undefined {
  if (!keyed) return 'no keyed answer was read';
  if (keyed.fault || keyed.status === undefined) return `the keyed request got no answer (${describe(keyed)})`;
  if (keyed.status === 429 || keyed.status >= 500) return `the keyed request was answered ${describe(keyed)}`;
  if (madeUpId && keyed.status === 404)
    return 'the keyed request is a 404 for an id the harness made up (no workflow was discovered)';
  return undefined;
}

/**
 * A request without a valid key: processed (exposure) when served, or answered as the keyed request is;
 * otherwise refused, with 401 as the clauses `ids` say.
 */
function judgeRefusal(
  verdict: Verdict,
  ids: readonly string[],
  ex: Exchange,
  keyed: Exchange | undefined,
  madeUpId: boolean,
  message: string,
): void {
  const refusedWith401 = ex.status === 401;
  const unknown = served(ex) || refusedWith401 ? undefined : incomparable(keyed, madeUpId);
  const sameAsKeyed = !served(ex) && !refusedWith401 && !unknown && contentOf(ex) === contentOf(keyed!);
  const processed = served(ex) || sameAsKeyed;
  if (unknown) {
    verdict.notRun('AUTH-NOT-SERVED-WITHOUT-KEY', `${message}: answered ${describe(ex)}, and ${unknown}`);
  } else {
    verdict.must('AUTH-NOT-SERVED-WITHOUT-KEY', !processed, {
      message,
      expected: 'not processed: no 2xx, and not the answer the same request gets with the key',
      actual: served(ex)
        ? `served: ${describe(ex)}`
        : sameAsKeyed
          ? `processed: ${describe(ex)}, exactly as the request with the key is answered`
          : describe(ex),
      exchangeId: ex.record.id,
      exchangeIds: sameAsKeyed ? [ex.record.id, keyed!.record.id] : undefined,
    });
  }
  if (processed) {
    stopAll(verdict, ids, {
      blockedBy: 'AUTH-NOT-SERVED-WITHOUT-KEY',
      exchangeIds: [ex.record.id],
      reason: `${message}: processed without a valid key (${describe(ex)})`,
    });
    return;
  }
  for (const id of ids) expectStatus(verdict, id, ex, 401, message);
}

for (const op of OPERATION_IDS) {
  const prefix = OPERATION_PREFIX[op];
  test(`${op} serves no request without a valid key, and answers it 401 [AUTH-NOT-SERVED-WITHOUT-KEY] [${prefix}-401-MISSING-OR-INVALID-KEY] [AUTH-401-MISSING-KEY] [AUTH-401-EMPTY-BEARER] [AUTH-401-WRONG-SCHEME] [AUTH-401-INVALID-KEY]`, async ({
    api,
    config,
    verdict,
    faker,
    discovery,
  }) => {
    const runnable = candidates(discovery).filter((w) => !/disabled|slow|long-running/i.test(w.title));
    // A run refused for its missing required variable is the keyed answer that starts nothing.
    const canvas =
      op === 'runWorkflow'
        ? (runnable.find((w) => (w.plan?.variables ?? []).some((v) => v.required)) ?? runnable[0])
        : runnable[0];
    const canvasId = canvas?.canvasId ?? `wfcheck-missing-${faker.string.alphanumeric(12)}`;
    let executionId = `wfcheck-missing-${faker.string.alphanumeric(12)}`;
    let started: string | undefined;
    const onExecution = ['abortExecution', 'getExecutionOutput', 'getExecutionStatus'].includes(op);
    if (onExecution && canvas) {
      started = (await startRun(api, verdict, faker, canvas)).executionId;
      if (started) executionId = started;
    }
    const madeUpId = onExecution ? !started : ['runWorkflow', 'getWorkflowDetail'].includes(op) && !canvas;
    const request = (c: ApiClient, auth: AuthMode, label: string): Promise<Exchange> => {
      const extra: Partial<RequestSpec> = { auth, label };
      switch (op) {
        case 'runWorkflow':
          return c.run(canvasId, { variables: {} }, extra);
        case 'abortExecution':
          return c.abort(executionId, extra);
        case 'getExecutionOutput':
          return c.output(executionId, extra);
        case 'getExecutionStatus':
          return c.status(executionId, extra);
        case 'searchWorkflows':
          return c.search({}, extra);
        case 'getWorkflowDetail':
          return c.detail(canvasId, extra);
        case 'uploadFiles':
          return c.upload([buildFile(faker, 'txt', 'tiny')], extra);
        case 'generateWorkflow':
          return c.generate({ query: 'Summarise a document' }, extra);
      }
    };
    const unknownKey = `wfcheck-unknown-${faker.string.alphanumeric(32)}`;
    const answers: [Variant, Exchange][] = [];
    for (const v of VARIANTS)
      answers.push([v, await request(api, v.auth(config.apiKey, unknownKey), `auth: ${v.label}`)]);
    // The same request with the key, sent last (an abort with it ends the execution), and only when a
    // refusal needs comparing: a 401 is a refusal by itself.
    const compare = answers.some(([, ex]) => !served(ex) && ex.status !== 401);
    const keyed = compare ? await request(api, { kind: 'tenant' }, 'auth: the same request with the key') : undefined;
    for (const [v, ex] of answers)
      judgeRefusal(
        verdict,
        [v.requirement, `${prefix}-401-MISSING-OR-INVALID-KEY`],
        ex,
        keyed,
        madeUpId,
        `${op} with ${v.label}`,
      );
    // Executions a processed run started are the harness's to end.
    for (const ex of [...answers.map(([, ex]) => ex), ...(keyed ? [keyed] : [])])
      if (op === 'runWorkflow') await abortQuietly(api, executionIdIn(ex));
    await abortQuietly(api, started);
  });
}

/**
 * The valid key under other spellings of the scheme: RFC 9110 makes auth schemes case-insensitive and a
 * server may take more than one space, while §5.1 describes what a client sends. Accepted or 401, both
 * are recorded (a read-only search, so that nothing is started either way).
 */
test('the valid key under other spellings of "Bearer" is recorded [AUTH-SCHEME-SPELLING]', async ({
  api,
  config,
  verdict,
}) => {
  for (const [label, value] of [
    ['lower-case scheme', `bearer ${config.apiKey}`],
    ['upper-case scheme', `BEARER ${config.apiKey}`],
    ['two spaces before the key', `Bearer  ${config.apiKey}`],
  ] as const) {
    const ex = await api.search({}, { auth: { kind: 'literal', value }, label: `auth: ${label}` });
    verdict.observe(
      'AUTH-SCHEME-SPELLING',
      label,
      served(ex) ? `accepted (${describe(ex)})` : describe(ex),
      ex.record.id,
    );
  }
});
