/**
 * Generate (§4.8): plan shape, every listed locale, prompts in several
 * languages, the 400 body, unknown canvas, and overwrite — only when the user
 * opted in (it replaces a workflow irreversibly).
 */
import type { Faker } from '@faker-js/faker';
import { test } from '../fixtures.ts';
import { judgeInvalidParameter } from '../../engine/live/judging/refusals.ts';
import type { RunConfig } from '../../foundation/environment/config.ts';
import type { ApiClient } from '../../engine/live/client/client.ts';
import { harnessFault } from '../../engine/live/transport/exchange.ts';
import { generatePrompt } from '../../foundation/data/prompts.ts';
import { checkPlanSemantics } from '../../engine/live/judging/plans.ts';
import { LOCALES, localesForRun } from '../../engine/live/discovery/locales.ts';
import {
  accepted,
  bodyDeviation,
  dataOf,
  describe,
  expectStatus,
  served,
  statusDeviation,
  stopAll,
  type Acceptance,
  type GenerateData,
  type GenerateError,
  type WorkflowPlan,
} from '../../engine/live/judging/judging.ts';

/**
 * A generation is accepted when it is answered 2xx with a body that parses and carries a plan —
 * whichever 2xx: the status code is the status clause's.
 */
const WITH_PLAN: Acceptance<GenerateData & { workflowPlan: WorkflowPlan }> = {
  carries: 'data.workflowPlan (a plan with tasks)',
  read: (data) => {
    const d = data as GenerateData | undefined;
    return d && typeof d === 'object' && Array.isArray(d.workflowPlan?.tasks)
      ? (d as GenerateData & { workflowPlan: WorkflowPlan })
      : undefined;
  },
};

/**
 * Every generation without a canvasId creates a canvas on the target, and a nightly run against a
 * staging target must not leave dozens behind each night. When overwriting is allowed, the generations
 * of a worker all go to one canvas (the one named by WFCHECK_OVERWRITE_CANVAS_ID, else one the first
 * of them creates); otherwise only a seed-chosen share of the locales is exercised per run (all of them
 * over successive seeds), and the report says which.
 */
let workerCanvas: Promise<string | undefined> | undefined;

async function generationTarget(api: ApiClient, config: RunConfig, faker: Faker): Promise<{ canvasId?: string }> {
  if (!config.allowOverwrite) return {};
  workerCanvas ??= config.overwriteCanvasId
    ? Promise.resolve(config.overwriteCanvasId)
    : api
        .generate({ query: generatePrompt(faker, 'en') }, { label: 'the canvas this run generates into' })
        .then((ex) => dataOf<GenerateData>(ex)?.canvasId);
  const canvasId = await workerCanvas;
  return canvasId ? { canvasId } : {};
}

test('a prompt gives a coherent plan [GENERATE-200-DATA] [PLAN-DEPENDENCIES-EXIST] [PLAN-OPTIONS-ONLY-FOR-OPTION]', async ({
  api,
  config,
  verdict,
  faker,
}) => {
  const into = await generationTarget(api, config, faker);
  const ex = await api.generate({ query: generatePrompt(faker, 'en'), ...into });
  const generated = accepted(verdict, 'GENERATE-200-DATA', ex, WITH_PLAN, 'generate with an English prompt');
  if (!generated.ok)
    return stopAll(verdict, ['PLAN-DEPENDENCIES-EXIST', 'PLAN-OPTIONS-ONLY-FOR-OPTION'], generated.stop);
  checkPlanSemantics(verdict, generated.value.workflowPlan, 'the generated plan', ex.record.id);
  if (!into.canvasId)
    verdict.observe(
      'GENERATE-200-DATA',
      'canvasId returned without one in the request',
      generated.value.canvasId === undefined ? 'absent' : 'present',
    );
});

test('each of the 20 listed locales is accepted, with prompts in several languages [GENERATE-LOCALES]', async ({
  api,
  config,
  verdict,
  faker,
}) => {
  const locales = localesForRun(config.seed, config.allowOverwrite);
  verdict.observe(
    'GENERATE-LOCALES',
    'locales exercised in this run',
    locales.length === LOCALES.length
      ? 'all 20'
      : `${locales.join(', ')} (overwrite not allowed: a seed-rotated share, to keep the canvases a run creates few)`,
  );
  const into = await generationTarget(api, config, faker);
  const prompts = locales.map((locale) => ({ locale, query: generatePrompt(faker, locale) }));
  // Five at a time: quick, without a burst a rate limiter could take for abuse.
  for (let i = 0; i < prompts.length; i += 5) {
    await Promise.all(
      prompts.slice(i, i + 5).map(async ({ locale, query }) => {
        // A 400 for a listed locale is a warning (the clause is should: 400 also means "generation failed").
        accepted(
          verdict,
          'GENERATE-LOCALES',
          await api.generate({ query, locale, ...into }),
          WITH_PLAN,
          `generate with locale ${locale}`,
        );
      }),
    );
  }
});

test('generation without a query gets the 400 body of §4.8 [GENERATE-400-MISSING-QUERY] [GENERATE-400-BODY] [GENERATE-MODEL-RESPONSE-LIMIT]', async ({
  api,
  verdict,
}) => {
  let withModelResponse = 0;
  for (const [label, body] of [
    ['no query', {}],
    ['query null', { query: null }],
    ['query a number', { query: 42 }],
  ] as const) {
    const ex = await api.generate(body, { label });
    if (label === 'no query') judgeInvalidParameter(verdict, 'GENERATE-400-MISSING-QUERY', ex, 'generate with body {}');
    else verdict.observe('GENERATE-400-MISSING-QUERY', `generate with ${label}`, describe(ex), ex.record.id);
    const mr = (ex.json as Partial<GenerateError> | undefined)?.modelResponse;
    if (ex.status === 400 && typeof mr === 'string') {
      verdict.observe('GENERATE-MODEL-RESPONSE-LIMIT', 'modelResponse length', mr.length, ex.record.id);
      withModelResponse++;
    }
  }
  if (withModelResponse === 0)
    verdict.notRun(
      'GENERATE-MODEL-RESPONSE-LIMIT',
      'cannot judge: no 400 of generation carried modelResponse (optional, §4.8)',
    );
  const locale = await api.generate({ query: 'Summarise a document', locale: 'xx-NOPE' });
  verdict.observe('GENERATE-LOCALES', 'unlisted locale xx-NOPE', describe(locale), locale.record.id);
});

test('generation that names an unknown canvas gets 404 [GENERATE-404-UNKNOWN-CANVAS]', async ({
  api,
  verdict,
  faker,
}) => {
  const canvasId = `wfcheck-missing-${faker.string.alphanumeric(20)}`;
  const ex = await api.generate({ query: generatePrompt(faker), canvasId });
  expectStatus(verdict, 'GENERATE-404-UNKNOWN-CANVAS', ex, 404, `generate overwriting unknown canvas ${canvasId}`);
});

test('overwriting a canvas replaces its workflow — only when opted in [GENERATE-OVERWRITE-REPLACES]', async ({
  api,
  config,
  verdict,
  faker,
}) => {
  test.skip(
    !config.allowOverwrite,
    'overwriting is irreversible: set WFCHECK_ALLOW_OVERWRITE=1 (and WFCHECK_OVERWRITE_CANVAS_ID) to run it',
  );
  // No canvas named: the one this worker's generations go to (created by a first generation), so
  // nothing the user owns is replaced.
  const canvasId = (await generationTarget(api, config, faker)).canvasId;
  test.skip(
    !canvasId,
    'no canvas to overwrite: the target returned no canvasId and WFCHECK_OVERWRITE_CANVAS_ID is not set',
  );
  const ex = await api.generate({ query: generatePrompt(faker, 'fr'), canvasId, locale: 'fr' });
  const generated = accepted(verdict, 'GENERATE-200-DATA', ex, WITH_PLAN, `generate overwriting ${canvasId}`);
  if (!generated.ok) return stopAll(verdict, ['GENERATE-OVERWRITE-REPLACES'], generated.stop);
  const plan = generated.value.workflowPlan;
  const detail = await api.detail(canvasId!);
  const stored = dataOf<WorkflowPlan>(detail);
  const readable = Array.isArray(stored?.tasks);
  // A detail whose status line or body already failed a contract clause shows nothing to compare.
  const deviation =
    statusDeviation(detail) ?? (readable ? undefined : served(detail) ? bodyDeviation(detail) : undefined);
  if (deviation)
    return stopAll(verdict, ['GENERATE-OVERWRITE-REPLACES'], {
      blockedBy: deviation,
      exchangeIds: [detail.record.id],
      reason: `detail of ${canvasId}: ${describe(detail)}`,
    });
  const harness = harnessFault(detail);
  if (harness) return verdict.notRun('GENERATE-OVERWRITE-REPLACES', `detail of ${canvasId}: ${harness}`);
  verdict.must('GENERATE-OVERWRITE-REPLACES', readable && sameTasks(stored!, plan), {
    message: `detail of ${canvasId} after the overwrite`,
    expected: `the generated tasks: ${tasksText(plan)}`,
    actual: readable ? tasksText(stored!) : describe(detail),
    exchangeId: detail.record.id,
  });
  // A canvas may keep its own name while its workflow is replaced: the title is recorded, not judged.
  if (readable)
    verdict.observe(
      'GENERATE-OVERWRITE-REPLACES',
      'title of the canvas after the overwrite',
      stored!.title === plan.title ? 'the generated title' : `"${stored!.title}" (generated: "${plan.title}")`,
      detail.record.id,
    );
});

const tasksText = (p: WorkflowPlan) => p.tasks.map((t) => `${t.id} "${t.title}"`).join(', ');

/**
 * The stored tasks are the generated ones: as many, each the same task by its id, or by its title and
 * prompt where the stored plan gave the tasks ids of its own.
 */
function sameTasks(stored: WorkflowPlan, generated: WorkflowPlan): boolean {
  const same = (a: WorkflowPlan['tasks'][number], b: WorkflowPlan['tasks'][number]) =>
    a.id === b.id || (a.title === b.title && a.prompt === b.prompt);
  return (
    stored.tasks.length === generated.tasks.length && generated.tasks.every((g) => stored.tasks.some((t) => same(t, g)))
  );
}
