/**
 * Generate (§4.8): plan shape, every listed locale, prompts in several
 * languages, the 400 body, unknown canvas, and overwrite — only when the user
 * opted in (it replaces a workflow irreversibly).
 */
import { test } from './fixtures.ts';
import { generatePrompt } from '../fixtures/data/prompts.ts';
import { checkPlanSemantics, LOCALES } from './support/analysis.ts';
import { dataOf, describe, expectStatus, type GenerateData, type GenerateError, type StatusExpectation, type WorkflowPlan } from './support/shapes.ts';

/** A plan can only be judged from a body that parses: a 200 that is not JSON is no success. */
const JSON_200: StatusExpectation = {
  ok: (ex) => ex.status === 200 && ex.parsed === true,
  expected: 'HTTP 200 with a JSON body',
  actual: (ex) => (ex.status === 200 && !ex.parsed ? 'HTTP 200, body not JSON' : describe(ex)),
};

test('a prompt gives a coherent plan [GENERATE-200-DATA] [PLAN-DEPENDENCIES-EXIST] [PLAN-OPTIONS-ONLY-FOR-OPTION]', async ({ api, verdict, faker }) => {
  const ex = await api.generate({ query: generatePrompt(faker, 'en') });
  expectStatus(verdict, 'GENERATE-200-DATA', ex, JSON_200, 'generate with an English prompt');
  const data = dataOf<GenerateData>(ex);
  if (data?.workflowPlan) checkPlanSemantics(verdict, data.workflowPlan, 'the generated plan', ex.record.id);
  verdict.observe('GENERATE-200-DATA', 'canvasId returned without one in the request', data?.canvasId === undefined ? 'absent' : 'present');
});

test('each of the 20 listed locales is accepted, with prompts in several languages [GENERATE-LOCALES]', async ({ api, verdict, faker }) => {
  const prompts = LOCALES.map((locale) => ({ locale, query: generatePrompt(faker, locale) }));
  // Five at a time: quick, without a burst a rate limiter could take for abuse.
  for (let i = 0; i < prompts.length; i += 5) {
    await Promise.all(
      prompts.slice(i, i + 5).map(async ({ locale, query }) => {
        const ex = await api.generate({ query, locale });
        // A 200 whose body cannot be read shows neither acceptance nor refusal of the locale.
        if (ex.status === 200 && !ex.parsed) return verdict.notRun('GENERATE-LOCALES', `generate with locale ${locale}: HTTP 200 with a body that is not JSON`);
        expectStatus(verdict, 'GENERATE-LOCALES', ex, 200, `generate with locale ${locale}`);
      }),
    );
  }
});

test('generation without a query gets the 400 body of §4.8 [GENERATE-400-MISSING-QUERY] [GENERATE-400-BODY] [GENERATE-MODEL-RESPONSE-LIMIT]', async ({ api, verdict }) => {
  for (const [label, body] of [['no query', {}], ['query null', { query: null }], ['query a number', { query: 42 }]] as const) {
    const ex = await api.generate(body, { label });
    if (label === 'no query') expectStatus(verdict, 'GENERATE-400-MISSING-QUERY', ex, 400, 'generate with body {}');
    else verdict.observe('GENERATE-400-MISSING-QUERY', `generate with ${label}`, describe(ex), ex.record.id);
    const mr = (ex.json as Partial<GenerateError> | undefined)?.modelResponse;
    if (ex.status === 400 && typeof mr === 'string') verdict.observe('GENERATE-MODEL-RESPONSE-LIMIT', 'modelResponse length', mr.length);
  }
  const locale = await api.generate({ query: 'Summarise a document', locale: 'xx-NOPE' });
  verdict.observe('GENERATE-LOCALES', 'unlisted locale xx-NOPE', describe(locale), locale.record.id);
});

test('generation that names an unknown canvas gets 404 [GENERATE-404-UNKNOWN-CANVAS]', async ({ api, verdict, faker }) => {
  const canvasId = `wfcheck-missing-${faker.string.alphanumeric(20)}`;
  const ex = await api.generate({ query: generatePrompt(faker), canvasId });
  expectStatus(verdict, 'GENERATE-404-UNKNOWN-CANVAS', ex, 404, `generate overwriting unknown canvas ${canvasId}`);
});

test('overwriting a canvas replaces its workflow — only when opted in [GENERATE-OVERWRITE-REPLACES]', async ({ api, config, verdict, faker }) => {
  test.skip(!config.allowOverwrite, 'overwriting is irreversible: set WFCHECK_ALLOW_OVERWRITE=1 (and WFCHECK_OVERWRITE_CANVAS_ID) to run it');
  let canvasId = config.overwriteCanvasId;
  if (!canvasId) {
    // No canvas named: create one with a first generation, so nothing the user owns is replaced.
    canvasId = dataOf<GenerateData>(await api.generate({ query: generatePrompt(faker) }))?.canvasId;
  }
  test.skip(!canvasId, 'no canvas to overwrite: the target returned no canvasId and WFCHECK_OVERWRITE_CANVAS_ID is not set');
  const ex = await api.generate({ query: generatePrompt(faker, 'fr'), canvasId, locale: 'fr' });
  expectStatus(verdict, 'GENERATE-200-DATA', ex, JSON_200, `generate overwriting ${canvasId}`);
  const plan = dataOf<GenerateData>(ex)?.workflowPlan;
  test.skip(!plan, 'the overwrite returned no plan to compare');
  const detail = await api.detail(canvasId!);
  const stored = dataOf<WorkflowPlan>(detail);
  const same = !!stored && stored.title === plan!.title && JSON.stringify(stored.tasks.map((t) => t.id)) === JSON.stringify(plan!.tasks.map((t) => t.id));
  verdict.should('GENERATE-OVERWRITE-REPLACES', same, { message: `detail of ${canvasId} after the overwrite`, expected: `title "${plan!.title}", tasks ${plan!.tasks.map((t) => t.id).join(', ')}`, actual: stored ? `title "${stored.title}", tasks ${stored.tasks.map((t) => t.id).join(', ')}` : describe(detail), exchangeId: detail.record.id });
});
