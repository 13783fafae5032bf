/**
 * The judges of generation (§4.8): a prompt gives a plan (the operation's data clause, the contract's) that
 * is coherent; every listed locale is accepted; a body without a query gets the 400 of §4.8; an overwrite
 * replaces the canvas's workflow.
 */
import type { Exchange } from '../transport/exchange.ts';
import { acceptedPayload, observePayload } from './contract.ts';
import { judge } from './judge.ts';
import { accepted, type Acceptance, type Judged } from './expect.ts';
import { bodyDeviation, dataOf, describe, served, statusDeviation } from './answers.ts';
import { stopAll } from './stops.ts';
import type { GenerateData, GenerateError, WorkflowPlan } from './payloads.ts';
import { harnessFault } from '../transport/exchange.ts';
import { checkPlanSemantics } from './plans.ts';
import { judgeInvalidParameter, observeNearInvalid } from './refusals.ts';
import type { AnyRecorder } from '../evidence/verdict.ts';

/** The judge of generation beyond its contract: the locales, the overwrite, the model's response. */
export const generation = judge('generation', [
  'GENERATE-LOCALES',
  'GENERATE-OVERWRITE-REPLACES',
  'GENERATE-MODEL-RESPONSE-LIMIT',
]);

export type GeneratedPlan = GenerateData & { workflowPlan: WorkflowPlan };

/**
 * A generation is accepted when it is answered 2xx with a body that parses and carries a plan —
 * whichever 2xx: the status code is the status clause's.
 */
const WITH_PLAN: Acceptance<GeneratedPlan> = {
  carries: 'data.workflowPlan (a plan with tasks)',
  read: (data) => {
    const d = data as GenerateData | undefined;
    return d && typeof d === 'object' && Array.isArray(d.workflowPlan?.tasks) ? (d as GeneratedPlan) : undefined;
  },
};

/** A generation that must give a plan: accepted with one (GENERATE-200-DATA), or why not. */
export function acceptedPlan(v: AnyRecorder, ex: Exchange, message: string): Judged<GeneratedPlan> {
  return acceptedPayload(v, ex, 'generateWorkflow', WITH_PLAN, message);
}

/**
 * A prompt gives a plan, and the plan is coherent; without a canvasId in the request, whether the answer
 * names the canvas it created is recorded (canvasId is optional).
 */
export function judgeGeneratedPlan(v: AnyRecorder, ex: Exchange, message: string, intoCanvas: boolean) {
  const generated = acceptedPlan(v, ex, message);
  if (!generated.ok) return stopAll(v, ['PLAN-DEPENDENCIES-EXIST', 'PLAN-OPTIONS-ONLY-FOR-OPTION'], generated.stop);
  checkPlanSemantics(v, generated.value.workflowPlan, 'the generated plan', ex.record.id);
  if (!intoCanvas)
    observePayload(
      v,
      'generateWorkflow',
      'canvasId returned without one in the request',
      generated.value.canvasId === undefined ? 'absent' : 'present',
    );
}

/** Which locales this run exercised: all, or a seed-rotated share when overwriting is not allowed. */
export const observeLocalesExercised = generation.judges((v, locales: readonly string[], all: number): void =>
  v.observe(
    'GENERATE-LOCALES',
    'locales exercised in this run',
    locales.length === all
      ? `all ${all}`
      : `${locales.join(', ')} (overwrite not allowed: a seed-rotated share, to keep the canvases a run creates few)`,
  ),
);

/** A listed locale is accepted with a plan (should: a 400 also means "generation failed"). */
export const judgeLocale = generation.judges((v, locale: string, ex: Exchange): void => {
  accepted(v, 'GENERATE-LOCALES', ex, WITH_PLAN, `generate with locale ${locale}`);
});

/** How a locale the list does not hold is answered. */
export const observeUnlistedLocale = generation.judges((v, locale: string, ex: Exchange): void =>
  v.observe('GENERATE-LOCALES', `unlisted locale ${locale}`, describe(ex), ex.record.id),
);

/** The bodies without a usable query the 400 of §4.8 is probed with: none at all, null, a number. */
export const WITHOUT_QUERY: readonly (readonly [string, Record<string, unknown>])[] = [
  ['no query', {}],
  ['query null', { query: null }],
  ['query a number', { query: 42 }],
];

/**
 * Generation without a query gets 400 (a null or non-string query is recorded); the length of the
 * model's response a 400 carries is recorded, not run when none carries one (it is optional).
 */
export const judgeWithoutQuery = generation.judges((v, answers: readonly (readonly [string, Exchange])[]): void => {
  let withModelResponse = 0;
  for (const [label, ex] of answers) {
    if (label === 'no query') judgeInvalidParameter(v, 'GENERATE-400-MISSING-QUERY', ex, 'generate with body {}');
    else observeNearInvalid(v, 'GENERATE-400-MISSING-QUERY', ex, `generate with ${label}`);
    const mr = (ex.json as Partial<GenerateError> | undefined)?.modelResponse;
    if (ex.status === 400 && typeof mr === 'string') {
      v.observe('GENERATE-MODEL-RESPONSE-LIMIT', 'modelResponse length', mr.length, ex.record.id);
      withModelResponse++;
    }
  }
  if (withModelResponse === 0)
    v.notRun(
      'GENERATE-MODEL-RESPONSE-LIMIT',
      'cannot judge: no 400 of generation carried modelResponse (optional, §4.8)',
    );
});

const tasksText = (p: WorkflowPlan) => p.tasks.map((t) => `${t.id} "${t.title}"`).join(', ');

/**
 * The stored tasks are the generated ones: as many, each the same task by two of its id, title and prompt.
 * An id alone says nothing: generators number their tasks (task-1, task-2…), so any plan of as many tasks
 * has the same ids; a stored task may have an id of its own, or a title of its own, not both.
 */
function sameTasks(stored: WorkflowPlan, generated: WorkflowPlan): boolean {
  const same = (a: WorkflowPlan['tasks'][number], b: WorkflowPlan['tasks'][number]) =>
    [a.id === b.id, a.title === b.title, a.prompt === b.prompt].filter(Boolean).length >= 2;
  return (
    stored.tasks.length === generated.tasks.length && generated.tasks.every((g) => stored.tasks.some((t) => same(t, g)))
  );
}

/** A generation over `canvasId` that gave no plan leaves nothing to compare the canvas with. */
export const overwriteNotGenerated = generation.judges((v, generated: Judged<GeneratedPlan>): void => {
  if (!generated.ok) stopAll(v, ['GENERATE-OVERWRITE-REPLACES'], generated.stop);
});

/**
 * After generating `plan` over `canvasId`, its detail shows the generated tasks (a detail whose status
 * line or body already failed a contract clause shows nothing to compare); the title is recorded: a canvas
 * may keep its own name while its workflow is replaced.
 */
export const judgeOverwrite = generation.judges((v, canvasId: string, plan: WorkflowPlan, detail: Exchange) => {
  const stored = dataOf<WorkflowPlan>(detail);
  const readable = Array.isArray(stored?.tasks);
  const deviation =
    statusDeviation(detail) ?? (readable ? undefined : served(detail) ? bodyDeviation(detail) : undefined);
  if (deviation)
    return stopAll(v, ['GENERATE-OVERWRITE-REPLACES'], {
      blockedBy: deviation,
      exchangeIds: [detail.record.id],
      reason: `detail of ${canvasId}: ${describe(detail)}`,
    });
  const harness = harnessFault(detail);
  if (harness) return v.notRun('GENERATE-OVERWRITE-REPLACES', `detail of ${canvasId}: ${harness}`);
  v.check('GENERATE-OVERWRITE-REPLACES', readable && sameTasks(stored!, plan), {
    message: `detail of ${canvasId} after the overwrite`,
    expected: `the generated tasks: ${tasksText(plan)}`,
    actual: readable ? tasksText(stored!) : describe(detail),
    exchangeId: detail.record.id,
  });
  if (readable)
    v.observe(
      'GENERATE-OVERWRITE-REPLACES',
      'title of the canvas after the overwrite',
      stored!.title === plan.title ? 'the generated title' : `"${stored!.title}" (generated: "${plan.title}")`,
      detail.record.id,
    );
});
