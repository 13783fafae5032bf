/**
 * Generate (§4.8): plan shape, every listed locale, prompts in several
 * languages, the 400 body, unknown canvas, and overwrite — only when the user
 * opted in (it replaces a workflow irreversibly).
 */
import { test } from './fixtures.ts';
import { generatePrompt } from '../fixtures/data/prompts.ts';
import { checkPlanSemantics, LOCALES } from './support/analysis.ts';
import { accepted, bodyDeviation, dataOf, describe, expectStatus, served, statusDeviation, stopAll, type Acceptance, type GenerateData, type GenerateError, type WorkflowPlan } from './support/shapes.ts';

/**
 * A generation is accepted when it is answered 2xx with a body that parses and carries a plan —
 * whichever 2xx: the status code is the status clause's.
 */
const WITH_PLAN: Acceptance<GenerateData & { workflowPlan: WorkflowPlan }> = {
  carries: 'data.workflowPlan (a plan with tasks)',
  read: (data) => {
    const d = data as GenerateData | undefined;
    return d && typeof d === 'object' && Array.isArray(d.workflowPlan?.tasks) ? (d as GenerateData & { workflowPlan: WorkflowPlan }) : undefined;
  },
};

test('a prompt gives a coherent plan [GENERATE-200-DATA] [PLAN-DEPENDENCIES-EXIST] [PLAN-OPTIONS-ONLY-FOR-OPTION]', async ({ api, verdict, faker }) => {
  const ex = await api.generate({ query: generatePrompt(faker, 'en') });
  const generated = accepted(verdict, 'GENERATE-200-DATA', ex, WITH_PLAN, 'generate with an English prompt');
  if (!generated.ok) return stopAll(verdict, ['PLAN-DEPENDENCIES-EXIST', 'PLAN-OPTIONS-ONLY-FOR-OPTION'], generated.stop);
  checkPlanSemantics(verdict, generated.value.workflowPlan, 'the generated plan', ex.record.id);
  verdict.observe('GENERATE-200-DATA', 'canvasId returned without one in the request', generated.value.canvasId === undefined ? 'absent' : 'present');
});

test('each of the 20 listed locales is accepted, with prompts in several languages [GENERATE-LOCALES]', async ({ api, verdict, faker }) => {
  const prompts = LOCALES.map((locale) => ({ locale, query: generatePrompt(faker, locale) }));
  // Five at a time: quick, without a burst a rate limiter could take for abuse.
  for (let i = 0; i < prompts.length; i += 5) {
    await Promise.all(
      prompts.slice(i, i + 5).map(async ({ locale, query }) => {
        // A 400 for a listed locale is a warning (the clause is should: 400 also means "generation failed").
        accepted(verdict, 'GENERATE-LOCALES', await api.generate({ query, locale }), WITH_PLAN, `generate with locale ${locale}`);
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
  const generated = accepted(verdict, 'GENERATE-200-DATA', ex, WITH_PLAN, `generate overwriting ${canvasId}`);
  if (!generated.ok) return stopAll(verdict, ['GENERATE-OVERWRITE-REPLACES'], generated.stop);
  const plan = generated.value.workflowPlan;
  const detail = await api.detail(canvasId!);
  const stored = dataOf<WorkflowPlan>(detail);
  const readable = Array.isArray(stored?.tasks);
  // A detail whose status line or body already failed a contract clause shows nothing to compare.
  const deviation = statusDeviation(detail) ?? (readable ? undefined : served(detail) ? bodyDeviation(detail) : undefined);
  if (deviation) return stopAll(verdict, ['GENERATE-OVERWRITE-REPLACES'], { blockedBy: deviation, reason: `detail of ${canvasId}: ${describe(detail)}` });
  const shape = (p: WorkflowPlan) => `title "${p.title}", tasks ${p.tasks.map((t) => t.id).join(', ')}`;
  verdict.must('GENERATE-OVERWRITE-REPLACES', readable && shape(stored!) === shape(plan), { message: `detail of ${canvasId} after the overwrite`, expected: shape(plan), actual: readable ? shape(stored!) : describe(detail), exchangeId: detail.record.id });
});
