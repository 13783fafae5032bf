/**
 * The roles the suites need workflows for, and the rules that fill them: what a workflow's plan says,
 * what its title suggests, and what running it showed. Discovery stops looking once every role is
 * filled, and remembers which workflow filled which, so that an account crowded by thousands of
 * workflows (or by the harness's own leftovers) gives the same coverage as a fresh one.
 *
 * One set of rules for every caller: discovery for the suites and explore, and the load run's setup()
 * inside k6. So this module stays pure: no Node built-in, no npm package, types from the generated
 * contract only.
 *
 * A title only suggests. Three roles are about behaviour — a workflow closed to the API, one that
 * fails, one that runs long enough to be aborted — and a title is a poor witness of it: "Internal
 * Billing Reconciliation" may be the disabled one, "Nightly CRM Lead Sync" may be the one that fails,
 * and "Archived report" may run like any other. Those roles are filled by what a run showed (a trial,
 * trial.ts; the configuration; or the memory of an earlier trial); title words only decide which
 * workflows are tried first, and keep a workflow nobody ran out of the roles that need a plain run.
 */
import { ENV } from '../settings/rules.ts';
import type { components } from '../../contracts/generated/api-types.ts';

type WorkflowPlan = components['schemas']['WorkflowPlan'];

/** What running a workflow showed: refused as disabled, ended failed, still running after a while, or finished. */
export type Behaviour = 'disabled' | 'failing' | 'long-running' | 'finishes';
/** The behaviours a role is about. */
export type SpecialBehaviour = Exclude<Behaviour, 'finishes'>;
export const SPECIAL_BEHAVIOURS: readonly SpecialBehaviour[] = ['disabled', 'failing', 'long-running'];

/**
 * Title words that suggest a behaviour: the word itself, or a close synonym (strong), and its
 * neighbours (weak). Strong words are tried before weak ones.
 */
export const TITLE_WORDS: Record<SpecialBehaviour, { strong: RegExp; weak: RegExp }> = {
  disabled: { strong: /\bdisabled\b/i, weak: /\b(internal|private|legacy|archived)\b/i },
  failing: { strong: /\b(fail|flaky)/i, weak: /\berror/i },
  'long-running': { strong: /\b(slow|long)\b/i, weak: /\b(batch|nightly|backfill|crawl)/i },
};

/** Words searched for by keyword when a behaviour's role is missing and no title read so far says its strong word. */
export const PROBE_WORDS: Record<SpecialBehaviour, readonly string[]> = {
  disabled: ['disabled', 'internal', 'private'],
  failing: ['fail', 'error', 'flaky'],
  'long-running': ['slow', 'long', 'batch', 'backfill'],
};

/** How strongly a title suggests a behaviour: 2 for its strong word, 1 for a neighbour only, 0 for nothing. */
export function titleSuggests(title: string, b: SpecialBehaviour): 0 | 1 | 2 {
  const words = TITLE_WORDS[b];
  return words.strong.test(title) ? 2 : words.weak.test(title) ? 1 : 0;
}

/** The behaviours a title suggests, strongest first. */
export function suggestedBehaviours(title: string): SpecialBehaviour[] {
  return SPECIAL_BEHAVIOURS.filter((b) => titleSuggests(title, b) > 0).sort(
    (a, b) => titleSuggests(title, b) - titleSuggests(title, a),
  );
}

export interface Described {
  title: string;
  plan?: WorkflowPlan;
  /** What running it showed (configured, a trial, or remembered from one); undefined when it was never run. */
  behaviour?: Behaviour;
}

/** Whether a workflow may behave as `b`: what a run showed decides; without a run, its title's suggestion does. */
export function mayBe(w: Described, b: SpecialBehaviour): boolean {
  return w.behaviour !== undefined ? w.behaviour === b : titleSuggests(w.title, b) > 0;
}

const vars = (w: Described) => w.plan?.variables ?? [];
const typed = (w: Described, type: string) => vars(w).some((v) => v.variableType === type);
/** Its runs are accepted. */
const runs = (w: Described) => !mayBe(w, 'disabled');
/** Its runs are accepted and end soon (roles whose runs are refused or judged before they end). */
const steady = (w: Described) => runs(w) && !mayBe(w, 'long-running');
/** Its runs end soon and finish (roles whose runs are followed to their end and expected to finish). */
const ordinary = (w: Described) => steady(w) && !mayBe(w, 'failing');

export const ROLES = {
  'file variable': (w: Described) => typed(w, 'resource') && runs(w),
  'option variable': (w: Described) => typed(w, 'option') && steady(w),
  'required variable': (w: Described) => vars(w).some((v) => v.required) && steady(w),
  'no required variable': (w: Described) => !vars(w).some((v) => v.required) && ordinary(w),
  'string variable': (w: Described) =>
    vars(w).some((v) => v.variableType === undefined || v.variableType === 'string') && ordinary(w),
  'multi-node': (w: Described) => (w.plan?.tasks ?? []).length >= 2 && ordinary(w),
  'failing task': (w: Described) => w.behaviour === 'failing',
  'slow (to abort)': (w: Described) => w.behaviour === 'long-running',
  'API disabled': (w: Described) => w.behaviour === 'disabled',
} as const;

export type Role = keyof typeof ROLES;
export const ROLE_NAMES = Object.keys(ROLES) as Role[];

/** The role each behaviour fills. */
export const BEHAVIOUR_ROLE: Record<SpecialBehaviour, Role> = {
  disabled: 'API disabled',
  failing: 'failing task',
  'long-running': 'slow (to abort)',
};

/** The behaviour a role is about, for the three roles only a run can fill. */
export function behaviourOfRole(role: Role): SpecialBehaviour | undefined {
  return SPECIAL_BEHAVIOURS.find((b) => BEHAVIOUR_ROLE[b] === role);
}

/** What a role asks of a workflow, as a reason a person reads says it. */
const ROLE_TEXT: Record<Role, string> = {
  'file variable': 'a workflow with a variable of type resource',
  'option variable': 'a workflow with a variable of type option',
  'required variable': 'a workflow with a required variable',
  'no required variable': 'a workflow that runs without required variables',
  'string variable': 'a workflow with a variable of type string (or untyped)',
  'multi-node': 'a workflow of two or more tasks',
  'failing task': 'a workflow whose execution, or one of its nodes, ends failed',
  'slow (to abort)': "a workflow seen running long enough to be aborted after a status poll at the run's pace",
  'API disabled': 'a workflow whose workflow API is disabled (run answers 403)',
};

/**
 * The setting that supplies a workflow for each role when discovery finds none: the canvases of the
 * two special roles have a variable of their own; any other role is filled by a canvas listed in
 * WFCHECK_CANVAS_IDS (read whether or not search lists it, and tried like any other).
 */
export const ROLE_SETTING: Record<Role, string> = {
  'file variable': ENV.canvasIds,
  'option variable': ENV.canvasIds,
  'required variable': ENV.canvasIds,
  'no required variable': ENV.canvasIds,
  'string variable': ENV.canvasIds,
  'multi-node': ENV.canvasIds,
  'failing task': ENV.canvasIds,
  'slow (to abort)': ENV.abortCanvasId,
  'API disabled': ENV.disabledCanvasId,
};

/**
 * The reason a clause that needs a role is not run when no workflow fills it, naming the setting that
 * supplies one; `why` says what discovery tried (the candidates run and what they showed).
 */
export function roleUnfilled(role: Role, why?: string): string {
  return workflowMissing(`fills the role "${role}" (${ROLE_TEXT[role]})${why ? `; ${why}` : ''}`, ROLE_SETTING[role]);
}

/** The reason for a workflow no role describes ("has variables"): WFCHECK_CANVAS_IDS supplies it. */
export function workflowMissing(what: string, setting: string = ENV.canvasIds): string {
  return `no discovered workflow ${what}: ${supplying(setting)}`;
}

const supplying = (setting: string) => (setting === ENV.canvasIds ? `add one to ${setting}` : `set ${setting} to one`);

/** How a person supplies a workflow for a role discovery left empty: the setting, in a few words. */
export function howToSupply(role: Role): string {
  return supplying(ROLE_SETTING[role]);
}

/** The roles a workflow with a readable plan can fill. */
export function rolesOf(w: Described): Role[] {
  return w.plan ? ROLE_NAMES.filter((r) => ROLES[r](w)) : [];
}

/**
 * How worth trying a workflow never run is, for the behaviours still missing: 2 when its title says
 * one's strong word, 1 for a neighbour, 0 when its title says nothing (then only a run can tell).
 */
export function trialTier(title: string, missing: readonly SpecialBehaviour[]): 0 | 1 | 2 {
  return Math.max(0, ...missing.map((b) => titleSuggests(title, b))) as 0 | 1 | 2;
}
