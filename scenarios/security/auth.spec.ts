/**
 * Authentication (§5): every operation × {no header, empty bearer, wrong
 * scheme, key without scheme, unknown key}. Exposure and the status of the
 * refusal are judged apart: a request served without a valid key (a 2xx) fails
 * AUTH-NOT-SERVED-WITHOUT-KEY, and the 401 clauses are then blocked by it; a
 * refusal fails the 401 clauses only when its status is another listed one.
 * Real ids are used where an operation takes one, so a 404 can never stand in
 * for the missing 401.
 */
import { test } from '../fixtures.ts';
import { buildFile } from '../../foundation/data/files.ts';
import { OPERATION_IDS } from '../../contracts/check.ts';
import { OPERATION_PREFIX } from '../../contracts/requirements.ts';
import type { ApiClient, AuthMode, Exchange, RequestSpec } from '../support/client.ts';
import { abortQuietly, startRun } from '../support/runs.ts';
import { describe, expectStatus, served, stopAll } from '../support/judging.ts';
import type { Verdict } from '../verdict/verdict.ts';
import { candidates } from '../support/workflows.ts';

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

/** A request without a valid key: served (exposure), or refused — with 401, the clauses `ids` say. */
function judgeRefusal(verdict: Verdict, ids: readonly string[], ex: Exchange, message: string): void {
  const wasServed = served(ex);
  verdict.must('AUTH-NOT-SERVED-WITHOUT-KEY', !wasServed, {
    message,
    expected: 'not served (no 2xx answer)',
    actual: describe(ex),
    exchangeId: ex.record.id,
  });
  if (wasServed) {
    stopAll(verdict, ids, {
      blockedBy: 'AUTH-NOT-SERVED-WITHOUT-KEY',
      reason: `${message}: served (${describe(ex)})`,
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
    const canvas = candidates(discovery).filter((w) => !/disabled|slow|long-running/i.test(w.title))[0];
    const canvasId = canvas?.canvasId ?? `wfcheck-missing-${faker.string.alphanumeric(12)}`;
    let executionId = `wfcheck-missing-${faker.string.alphanumeric(12)}`;
    let started: string | undefined;
    if (['abortExecution', 'getExecutionOutput', 'getExecutionStatus'].includes(op) && canvas) {
      started = (await startRun(api, verdict, faker, canvas)).executionId;
      if (started) executionId = started;
    }
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
    for (const v of VARIANTS) {
      const ex = await request(api, v.auth(config.apiKey, unknownKey), `auth: ${v.label}`);
      judgeRefusal(verdict, [v.requirement, `${prefix}-401-MISSING-OR-INVALID-KEY`], ex, `${op} with ${v.label}`);
    }
    await abortQuietly(api, started);
  });
}
