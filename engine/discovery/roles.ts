/**
 * The roles the suites need workflows for, read from a workflow's title and plan. Discovery stops
 * looking once every role is filled, and remembers which workflow filled which, so that an account
 * crowded by thousands of workflows (or by the harness's own leftovers) gives the same coverage as
 * a fresh one.
 */
import { ENV } from '../../foundation/environment/rules.ts';
import type { components } from '../../contracts/generated/api-types.ts';

type WorkflowPlan = components['schemas']['WorkflowPlan'];

/** What a title says about a workflow: the suites pick by these too (the plan cannot say it). */
export const TITLE_HINTS = {
  disabled: /disabled/i,
  slow: /slow|long-running|\blong\b|batch/i,
  failing: /fail|error|flaky/i,
} as const;

/** Words searched for by keyword when the roles the title hints name are not filled by the sample. */
export const HINT_KEYWORDS = ['disabled', 'slow', 'long', 'batch', 'fail', 'error', 'flaky'];

interface Described {
  title: string;
  plan?: WorkflowPlan;
}

const vars = (w: Described) => w.plan?.variables ?? [];
const typed = (w: Described, type: string) => vars(w).some((v) => v.variableType === type);
const special = (w: Described) => TITLE_HINTS.disabled.test(w.title) || TITLE_HINTS.slow.test(w.title);
const ordinary = (w: Described) => !special(w) && !TITLE_HINTS.failing.test(w.title);

export const ROLES = {
  'file variable': (w: Described) => typed(w, 'resource') && !TITLE_HINTS.disabled.test(w.title),
  'option variable': (w: Described) => typed(w, 'option') && !special(w),
  'required variable': (w: Described) => vars(w).some((v) => v.required) && !special(w),
  'no required variable': (w: Described) => !vars(w).some((v) => v.required) && ordinary(w),
  'string variable': (w: Described) =>
    vars(w).some((v) => v.variableType === undefined || v.variableType === 'string') && ordinary(w),
  'multi-node': (w: Described) => (w.plan?.tasks ?? []).length >= 2 && ordinary(w),
  'failing task': (w: Described) => TITLE_HINTS.failing.test(w.title) && !special(w),
  'slow (to abort)': (w: Described) => TITLE_HINTS.slow.test(w.title) && !TITLE_HINTS.disabled.test(w.title),
  'API disabled': (w: Described) => TITLE_HINTS.disabled.test(w.title),
} as const;

export type Role = keyof typeof ROLES;
export const ROLE_NAMES = Object.keys(ROLES) as Role[];

/** What a role asks of a workflow, as a reason a person reads says it. */
const ROLE_TEXT: Record<Role, string> = {
  'file variable': 'a workflow with a variable of type resource',
  'option variable': 'a workflow with a variable of type option',
  'required variable': 'a workflow with a required variable',
  'no required variable': 'a workflow that runs without required variables',
  'string variable': 'a workflow with a variable of type string (or untyped)',
  'multi-node': 'a workflow of two or more tasks',
  'failing task': 'a workflow with a task that fails (its title says fail, error or flaky)',
  'slow (to abort)': 'a workflow that runs long enough to be aborted mid-run',
  'API disabled': 'a workflow whose workflow API is disabled (run answers 403)',
};

/**
 * The setting that supplies a workflow for each role when discovery finds none: the canvases of the
 * two special roles have a variable of their own; any other role is filled by a canvas listed in
 * WFCHECK_CANVAS_IDS (read whether or not search lists it).
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

/** The reason a clause that needs a role is not run when no workflow fills it, naming the setting that supplies one. */
export function roleUnfilled(role: Role): string {
  return workflowMissing(`fills the role "${role}" (${ROLE_TEXT[role]})`, ROLE_SETTING[role]);
}

/** The reason for a workflow no role describes ("has variables"): WFCHECK_CANVAS_IDS supplies it. */
export function workflowMissing(what: string, setting: string = ENV.canvasIds): string {
  const how = setting === ENV.canvasIds ? `add one to ${setting}` : `set ${setting} to one`;
  return `no discovered workflow ${what}: ${how}`;
}

/** The roles a workflow with a readable plan can fill. */
export function rolesOf(w: Described): Role[] {
  return w.plan ? ROLE_NAMES.filter((r) => ROLES[r](w)) : [];
}

/** Roles a title alone suggests (before the plan is read): which unread items are worth a detail first. */
export function hintedRoles(title: string): Role[] {
  const out: Role[] = [];
  if (TITLE_HINTS.disabled.test(title)) out.push('API disabled');
  else if (TITLE_HINTS.slow.test(title)) out.push('slow (to abort)');
  else if (TITLE_HINTS.failing.test(title)) out.push('failing task');
  return out;
}
