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
 * there is one, so the keyed answer is a 400 that starts nothing. The suite sends
 * every operation of the contract's table; its judges decide (core/judging/security.ts, refusals.ts).
 */
import { test } from '../suite.ts';
import { buildFile } from '../../core/data/files.ts';
import { OPERATION_IDS, type OperationId } from '../../contracts/check.ts';
import { OPERATIONS, type PathParams } from '../../contracts/generated/operations.ts';
import type { ApiClient, CallOptions } from '../../core/client/client.ts';
import type { AuthMode, Exchange } from '../../core/transport/exchange.ts';
import { abortQuietly, executionIdIn, startRun } from '../../core/execution/runs.ts';
import { served } from '../../core/judging/answers.ts';
import { judgeUnkeyed, observeSpelling, SPELLINGS, UNKEYED } from '../../core/judging/security.ts';
import { runnable } from '../../core/discovery/workflows.ts';
import { OPERATION_PREFIX } from '../../contracts/requirements.ts';
import type { Faker } from '@faker-js/faker';

/** What each operation's request carries besides its path: a body that passes for valid where one is taken. */
function bodyOf(operation: OperationId, faker: Faker): CallOptions {
  switch (operation) {
    case 'runWorkflow':
      return { json: { variables: {} } };
    case 'uploadFiles':
      return { multipart: { files: [buildFile(faker, 'txt', 'tiny')] } };
    case 'generateWorkflow':
      return { json: { query: 'Summarise a document' } };
    case 'abortExecution':
    case 'getExecutionOutput':
    case 'getExecutionStatus':
    case 'searchWorkflows':
    case 'getWorkflowDetail':
      return {};
  }
}

/** The ids an operation's path names, from the contract's table: a real canvas or execution where there is one. */
function pathOf(operation: OperationId, ids: Record<string, string>): PathParams[OperationId] {
  return Object.fromEntries(OPERATIONS[operation].pathParams.map((name) => [name, ids[name]]));
}

for (const op of OPERATION_IDS) {
  test(`${op} serves no request without a valid key, and answers it 401 [AUTH-NOT-SERVED-WITHOUT-KEY] [${OPERATION_PREFIX[op]}-401-MISSING-OR-INVALID-KEY] [AUTH-401-MISSING-KEY] [AUTH-401-EMPTY-BEARER] [AUTH-401-WRONG-SCHEME] [AUTH-401-INVALID-KEY]`, async ({
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
    const onExecution = OPERATIONS[op].pathParams.includes('executionId');
    if (onExecution && canvas) {
      started = (await startRun(api, verdict, faker, canvas)).executionId;
      if (started) executionId = started;
    }
    const madeUpId = onExecution ? !started : OPERATIONS[op].pathParams.includes('canvasId') && !canvas;
    const request = (c: ApiClient, auth: AuthMode, label: string): Promise<Exchange> =>
      c.request(op, pathOf(op, { canvasId, executionId }), { ...bodyOf(op, faker), auth, label });
    const unknownKey = `wfcheck-unknown-${faker.string.alphanumeric(32)}`;
    const answers: [(typeof UNKEYED)[number], Exchange][] = [];
    for (const how of UNKEYED)
      answers.push([how, await request(api, how.auth(config.apiKey, unknownKey), `auth: ${how.label}`)]);
    // The same request with the key, sent last (an abort with it ends the execution), and only when a
    // refusal needs comparing: a 401 is a refusal by itself.
    const compare = answers.some(([, ex]) => !served(ex) && ex.status !== 401);
    const keyed = compare ? await request(api, { kind: 'tenant' }, 'auth: the same request with the key') : undefined;
    for (const [how, ex] of answers) judgeUnkeyed(verdict, op, how, ex, { keyed, madeUpId });
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
  for (const [label, spelt] of SPELLINGS) {
    const ex = await api.search(
      {},
      { auth: { kind: 'literal', value: spelt(config.apiKey) }, label: `auth: ${label}` },
    );
    observeSpelling(verdict, label, ex);
  }
});
