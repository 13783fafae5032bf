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
import type { ApiClient } from '../../engine/live/client/client.ts';
import type { AuthMode, Exchange, RequestSpec } from '../../engine/live/transport/exchange.ts';
import { abortQuietly, executionIdIn, startRun } from '../../engine/live/execution/runs.ts';
import { describe, served } from '../../engine/live/judging/judging.ts';
import { judgeWithoutKey } from '../../engine/live/judging/refusals.ts';
import { runnable } from '../../engine/live/discovery/workflows.ts';

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

for (const op of OPERATION_IDS) {
  const prefix = OPERATION_PREFIX[op];
  test(`${op} serves no request without a valid key, and answers it 401 [AUTH-NOT-SERVED-WITHOUT-KEY] [${prefix}-401-MISSING-OR-INVALID-KEY] [AUTH-401-MISSING-KEY] [AUTH-401-EMPTY-BEARER] [AUTH-401-WRONG-SCHEME] [AUTH-401-INVALID-KEY]`, async ({
    api,
    config,
    verdict,
    faker,
    discovery,
  }) => {
    const quick = runnable(discovery, 'long-running');
    // A run refused for its missing required variable is the keyed answer that starts nothing.
    const canvas =
      op === 'runWorkflow'
        ? (quick.find((w) => (w.plan?.variables ?? []).some((v) => v.required)) ?? quick[0])
        : quick[0];
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
      judgeWithoutKey(verdict, ex, {
        clauses: [v.requirement, `${prefix}-401-MISSING-OR-INVALID-KEY`],
        keyed,
        madeUpId,
        message: `${op} with ${v.label}`,
      });
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
