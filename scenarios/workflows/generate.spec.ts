/**
 * Generate (§4.8): plan shape, every listed locale, prompts in several
 * languages, the 400 body, unknown canvas, and overwrite — only when the user
 * opted in (it replaces a workflow irreversibly). The suite sends; its judges decide
 * (core/judging/generate.ts).
 */
import type { Faker } from '@faker-js/faker';
import { test } from '../suite.ts';
import type { RunConfig } from '../../core/settings/run-config.ts';
import type { ApiClient } from '../../core/client/client.ts';
import { generatePrompt } from '../../core/data/prompts.ts';
import { LOCALES, localesForRun } from '../../core/discovery/locales.ts';
import { dataOf } from '../../core/judging/answers.ts';
import type { GenerateData } from '../../core/judging/payloads.ts';
import { judgeNotFound } from '../../core/judging/limits.ts';
import {
  acceptedPlan,
  judgeGeneratedPlan,
  judgeLocale,
  judgeOverwrite,
  judgeWithoutQuery,
  observeLocalesExercised,
  observeUnlistedLocale,
  overwriteNotGenerated,
  WITHOUT_QUERY,
} from '../../core/judging/generate.ts';
import type { Exchange } from '../../core/transport/exchange.ts';

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
  judgeGeneratedPlan(verdict, ex, 'generate with an English prompt', into.canvasId !== undefined);
});

test('each of the 20 listed locales is accepted, with prompts in several languages [GENERATE-LOCALES]', async ({
  api,
  config,
  verdict,
  faker,
}) => {
  const locales = localesForRun(config.seed, config.allowOverwrite);
  observeLocalesExercised(verdict, locales, LOCALES.length);
  const into = await generationTarget(api, config, faker);
  const prompts = locales.map((locale) => ({ locale, query: generatePrompt(faker, locale) }));
  // Five at a time: quick, without a burst a rate limiter could take for abuse.
  for (let i = 0; i < prompts.length; i += 5) {
    await Promise.all(
      prompts
        .slice(i, i + 5)
        .map(async ({ locale, query }) => judgeLocale(verdict, locale, await api.generate({ query, locale, ...into }))),
    );
  }
});

test('generation without a query gets the 400 body of §4.8 [GENERATE-400-MISSING-QUERY] [GENERATE-400-BODY] [GENERATE-MODEL-RESPONSE-LIMIT]', async ({
  api,
  verdict,
}) => {
  const answers: [string, Exchange][] = [];
  for (const [label, body] of WITHOUT_QUERY) answers.push([label, await api.generate(body, { label })]);
  judgeWithoutQuery(verdict, answers);
  observeUnlistedLocale(verdict, 'xx-NOPE', await api.generate({ query: 'Summarise a document', locale: 'xx-NOPE' }));
});

test('generation that names an unknown canvas gets 404 [GENERATE-404-UNKNOWN-CANVAS]', async ({
  api,
  verdict,
  faker,
}) => {
  const canvasId = `wfcheck-missing-${faker.string.alphanumeric(20)}`;
  const ex = await api.generate({ query: generatePrompt(faker), canvasId });
  judgeNotFound(verdict, 'generateWorkflow', ex, `generate overwriting unknown canvas ${canvasId}`);
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
  const generated = acceptedPlan(verdict, ex, `generate overwriting ${canvasId}`);
  if (!generated.ok) return overwriteNotGenerated(verdict, generated);
  judgeOverwrite(verdict, canvasId!, generated.value.workflowPlan, await api.detail(canvasId!));
});
