/**
 * How discovery went, in words for the run summary and the report: where its workflows came from, what
 * finding them cost (searches, details, the trial's executions and requests), and for each role left
 * empty why — the candidates tried and what each showed — with the setting that supplies one.
 */
import { BEHAVIOUR_ROLE, behaviourOfRole, howToSupply, SPECIAL_BEHAVIOURS, type Role } from './roles.ts';
import type { Discovery, Tried } from './workflows.ts';

/** Candidates named one by one in a reason; the rest are counted. */
const NAMED = 6;

export interface UnfilledContext {
  plansRead: number;
  tried: readonly Tried[];
  /** The caller asked for no trial (tenant B's discovery). */
  trialsOff: boolean;
  /** Set when this run searched nothing: the memory's date, from which the role has been missing. */
  rememberedSince?: string;
  /** A workflow was asked of generate for this role (make.ts). */
  madeTried?: boolean;
  /** A plan read has the shape, in a workflow whose runs keep it out of the role (slow, failing). */
  shapeHeld?: boolean;
}

function listTried(tried: readonly Tried[]): string {
  const named = tried.slice(0, NAMED).map((t) => `${t.canvasId} "${t.title}" ${t.shown}`);
  const more = tried.length > NAMED ? `, and ${tried.length - NAMED} more` : '';
  return `${named.join('; ')}${more}`;
}

/** Why no workflow fills `role`: what was tried and what it showed, or why nothing was. */
export function unfilledWhy(role: Role, c: UnfilledContext): string {
  if (c.rememberedSince)
    return `none was found when this target was last searched (${c.rememberedSince.slice(0, 10)}); it is searched again a week after that, or when a remembered workflow is gone`;
  if (!behaviourOfRole(role) && c.shapeHeld)
    return 'the plans read that have one are of workflows seen running long or failing, as a workflow made would';
  if (!behaviourOfRole(role))
    return `none of the ${c.plansRead} plan(s) read has one${c.madeTried ? ', nor the workflow generate was asked to make' : ''}`;
  if (c.trialsOff) return 'no workflow was run to see it';
  if (c.tried.length === 0) return `no workflow could be run to see it (${c.plansRead} plan(s) read)`;
  return `tried ${c.tried.length}: ${listTried(c.tried)}`;
}

/** One line for the report: where the workflows came from, what finding them cost, which roles stay empty and why. */
export function describeDiscovery(d: Discovery): string {
  const s = d.summary;
  if (!s) return `${d.workflows.length} workflow(s)`;
  const memory =
    s.memory === 'off'
      ? 'no memory kept'
      : s.memory === 'none'
        ? 'nothing remembered yet'
        : `memory ${s.memory} (${s.remembered} remembered, ${s.gone} gone)`;
  const probes = s.keywordProbes.length ? `, keyword probes ${s.keywordProbes.join(', ')}` : '';
  const f = s.trialFootprint;
  const budget = f.budget
    ? ` (budget ${f.budget.executions} executions, ${f.budget.requests} requests, ${Math.round(f.budget.ms / 1000)} s)`
    : '';
  const stopped = f.stoppedBy ? `; stopped: ${f.stoppedBy}, ${f.untried ?? 0} left untried` : '';
  const trial =
    f.executionsStarted > 0 || f.requests > 0
      ? `; trial of ${s.tried.length} workflow(s)${budget}: ${f.executionsStarted} execution(s) started, ${f.executionsAborted} aborted, ${f.requests} request(s), ${(f.ms / 1000).toFixed(1)} s${stopped}`
      : '';
  // The roles only a run can fill, with the workflow that filled each and how it was known.
  const shown = SPECIAL_BEHAVIOURS.map((b) => BEHAVIOUR_ROLE[b])
    .filter((r) => s.roles[r])
    .map((r) => {
      const id = s.roles[r]!;
      const how = d.workflows.find((w) => w.canvasId === id)?.shown;
      return `${r} ${id}${how ? ` (${how})` : ''}`;
    });
  const behaviour = shown.length ? `; shown by running: ${shown.join(', ')}` : '';
  const made = s.made?.length
    ? `; made through generate for shapes the account lacked: ${s.made.map((m) => `${m.canvasId} (${m.roles.join(', ') || 'filled none'})`).join(', ')}`
    : '';
  // Each role left empty with why (said once for the roles that share it), and the setting that would fill it.
  const byReason = new Map<string, Role[]>();
  for (const r of s.missingRoles) byReason.set(s.unfilled[r] ?? '', [...(byReason.get(s.unfilled[r] ?? '') ?? []), r]);
  const unfilled = [...byReason].map(
    ([why, rs]) => `${rs.join(', ')} (${why ? `${why}; ` : ''}${rs.map(howToSupply).join(', ')})`,
  );
  const roles = s.missingRoles.length
    ? `roles not filled: ${unfilled.join(', ')}`
    : `all ${Object.keys(s.roles).length} roles filled`;
  return `${d.workflows.length} workflow(s); ${memory}; ${s.searches} search(es), ${s.details} detail read(s)${probes}${trial}${behaviour}${made}; ${roles}`;
}
