/**
 * Workflows of a shape the account lacks, made through generate (§4.8 without a canvasId creates one):
 * an ordinary business account may hold no workflow without a required variable, none of two tasks or
 * none with an option, and the clauses that need one would then go unjudged night after night. Each role
 * a plan fills and no workflow read fills gets one generate, with a prompt that asks for that shape in
 * plain words; the plan it returns is read back from the detail endpoint and kept only where it fills a
 * role still missing. What it makes counts in the run's footprint (canvases created) and is remembered,
 * so a target that lives for months gets it made once. The roles of behaviour (disabled, failing, slow)
 * are a workflow's conduct, which no prompt promises: they are never made; nor is a shape the account has,
 * in a workflow whose conduct keeps it out of the role (one that never ends): made, it would run as the
 * account's own do.
 */
import type { ApiClient } from '../client/client.ts';
import { dataOf } from '../judging/answers.ts';
import { behaviourOfRole, ROLES, rolesOf, type Role } from './roles.ts';
import type { Workflow } from './workflows.ts';

/**
 * A prompt per role a plan fills: the shape asked for in words any planner reads, and in the forms the
 * reference target's planner reads as variables ({{name}} a required string, (a|b) an option, a document
 * mentioned a file).
 */
export const MAKE_PROMPTS: Readonly<
  Record<Exclude<Role, 'failing task' | 'slow (to abort)' | 'API disabled'>, string>
> = {
  'no required variable': 'Look up three facts about honeybees. Then write a short paragraph from them.',
  'multi-node': 'Look up three facts about honeybees. Then write a short paragraph from them.',
  'string variable': 'Write a welcome note for the new customer {{customerName}}.',
  'required variable': 'Write a welcome note for the new customer {{customerName}}.',
  'option variable': 'Write a product description in a (formal|casual) tone.',
  'file variable': 'Summarize the attached document in five bullet points.',
};

export interface Made {
  canvasId: string;
  /** The roles it was made for that it fills. */
  roles: Role[];
}

export interface Making {
  made: Made[];
  /** The roles a workflow was asked of generate for. */
  asked: Role[];
}

/**
 * Whether some workflow open to the API has the plan a role asks for, whatever else its runs showed (slow,
 * failing): a workflow made would run as those do. A disabled one says nothing of how a made one runs.
 */
export function shapeHeld(role: Role, workflows: Iterable<Workflow>): boolean {
  for (const w of workflows)
    if (w.plan && w.behaviour !== 'disabled' && ROLES[role]({ ...w, behaviour: 'finishes' })) return true;
  return false;
}

/**
 * Makes a workflow for each missing plan role (several may share one prompt, and one plan may fill
 * several), reading each back with `read`; returns what was made and the roles it filled. A generate
 * that is refused, or returns no canvasId, makes nothing: the role stays missing, with its reason.
 */
export async function makeMissing(
  api: ApiClient,
  missing: () => Role[],
  read: (canvasId: string) => Promise<Workflow | undefined>,
  held: () => Iterable<Workflow>,
): Promise<Making> {
  const made: Made[] = [];
  const asked: Role[] = [];
  const queries = new Set<string>();
  for (const role of missing()) {
    if (behaviourOfRole(role) || !missing().includes(role) || shapeHeld(role, held())) continue;
    const query = MAKE_PROMPTS[role as keyof typeof MAKE_PROMPTS];
    asked.push(role);
    if (queries.has(query)) continue;
    queries.add(query);
    const before = missing();
    const ex = await api.generate(
      { query, locale: 'en' },
      { label: `discovery: make a workflow (${role})`, allowFault: true },
    );
    const canvasId = dataOf<{ canvasId?: unknown }>(ex)?.canvasId;
    if (ex.status !== 200 || typeof canvasId !== 'string' || canvasId === '') continue;
    const wf = await read(canvasId);
    if (!wf) continue;
    wf.made = true;
    const filled = rolesOf(wf).filter((r) => before.includes(r));
    made.push({ canvasId, roles: filled });
  }
  return { made, asked };
}
