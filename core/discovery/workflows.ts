/**
 * The workflows discovery found (discovery.ts), the choice among them, and run preparation: seeded
 * variable values per variableType, with file variables filled by real uploads.
 */
import type { Faker } from '@faker-js/faker';
import { buildFile } from '../data/files.ts';
import { variableValues, type VariableValue } from '../data/variables.ts';
import type { ApiClient } from '../client/client.ts';
import type { Stop } from '../judging/stops.ts';
import type { WorkflowPlan } from '../judging/payloads.ts';
import { acceptedUpload } from '../judging/files.ts';
import { unlistedVariableTypes } from '../judging/lifecycle.ts';
import { mayBe, roleUnfilled, rolesOf, type Behaviour, type Role } from './roles.ts';
import type { TrialBudget, TrialFootprint, TrialReport } from './trial.ts';
import type { AnyRecorder } from '../evidence/verdict.ts';

export { acceptedUpload };

export interface Workflow {
  canvasId: string;
  title: string;
  /** Undefined when the detail could not be read. */
  plan?: WorkflowPlan;
  /** What running it showed (configured, a trial, or remembered from one); undefined when it was never run. */
  behaviour?: Behaviour;
  /** What its trial showed, in words (or that its behaviour was configured). */
  shown?: string;
  /** How long its trial saw it running, at least (ms): of the slow ones, the longest is aborted first. */
  ranMs?: number;
  /** Whether an execution its trial saw end wrote files; undefined when none was seen to end. */
  writesFiles?: boolean;
  /** Made by this harness through generate, for a shape the account lacked (it counts in the footprint). */
  made?: boolean;
}

/** A workflow discovery ran to see its behaviour, and what the run showed. */
export interface Tried {
  canvasId: string;
  title: string;
  shown: string;
  behaviour?: Behaviour;
}

/** How discovery went, for the report: what it cost and where its workflows came from. */
export interface DiscoverySummary {
  memory: 'off' | 'none' | 'used' | 'used and extended';
  remembered: number;
  gone: number;
  searches: number;
  details: number;
  keywordProbes: string[];
  roles: Partial<Record<Role, string>>;
  missingRoles: Role[];
  /** The workflows run to see their behaviour (this run's trials, or those remembered), and what each showed. */
  tried: Tried[];
  /**
   * What this run's trial cost the target (zero when it ran none), how long it took, its budget, the
   * candidates it left untried and why it stopped before them, and the plans it read for its runs.
   */
  trialFootprint: TrialFootprint & {
    ms: number;
    budget?: TrialBudget;
    untried?: number;
    stoppedBy?: TrialReport['stoppedBy'];
    detailsRead?: number;
  };
  /** The workflows made through generate for roles the account lacked (make.ts), with the roles each fills. */
  made?: { canvasId: string; roles: Role[] }[];
  /** Why each role left empty is empty: what was tried and what it showed, or that nothing could be. */
  unfilled: Partial<Record<Role, string>>;
}

/** What discovery (discovery.ts) found: the workflows whose plans it read, configured ones first. */
export interface Discovery {
  workflows: Workflow[];
  /** Search pages read, and whether discovery stopped at its cap. */
  pagesRead: number;
  capped: boolean;
  summary?: DiscoverySummary;
}

export { unlistedVariableTypes, vaguelyDescribedVariables } from '../judging/lifecycle.ts';

/**
 * Workflows with a readable plan, the ones whose variables are all typed as the enum says first: only
 * their values can be prepared.
 */
export function candidates(d: Discovery): Workflow[] {
  const rank = (w: Workflow) => (unlistedVariableTypes(w).length > 0 ? 1 : 0);
  return d.workflows.filter((w) => w.plan).sort((a, b) => rank(a) - rank(b));
}

/** Workflows seen running longest first (those never timed keep their order, after the timed ones). */
export function byRunTime<W extends Pick<Workflow, 'ranMs'>>(workflows: readonly W[]): W[] {
  return [...workflows].sort((a, b) => (b.ranMs ?? -1) - (a.ranMs ?? -1));
}

/** The workflows that fill `role` (roles.ts), configured ones first; of the slow ones, the longest-running first. */
export function withRole(d: Discovery, role: Role): Workflow[] {
  const filling = candidates(d).filter((w) => rolesOf(w).includes(role));
  return role === 'slow (to abort)' ? byRunTime(filling) : filling;
}

/**
 * Workflows whose runs are accepted as far as discovery knows (none shown, or suggested by a title
 * nobody ran, to be disabled); those that may also be long-running or failing left out when asked.
 */
export function runnable(d: Discovery, ...except: ('long-running' | 'failing')[]): Workflow[] {
  return candidates(d).filter((w) => !mayBe(w, 'disabled') && except.every((b) => !mayBe(w, b)));
}

/** Why no workflow fills `role`: what discovery tried, and the setting that supplies one. */
export function unfilledReason(d: Discovery, role: Role): string {
  return roleUnfilled(role, d.summary?.unfilled[role]);
}

export function hasVariableType(w: Workflow, type: string): boolean {
  return (w.plan?.variables ?? []).some((v) => v.variableType === type);
}

export interface PreparedRun {
  values: Record<string, VariableValue>;
  fileKeys: string[];
  /** Set when a file variable could not be given a key: the upload was not accepted. */
  stop?: Stop;
}

/**
 * Values for every variable of the plan; resource variables get keys of freshly uploaded seeded files.
 * When the plan has a file variable and the upload gives no keys, the run cannot be made as intended:
 * `stop` names the clause that kept it from being made.
 */
export async function prepareRun(
  api: ApiClient,
  verdict: AnyRecorder,
  faker: Faker,
  plan: WorkflowPlan,
  fileCount = 1,
): Promise<PreparedRun> {
  const fileKeys: string[] = [];
  if ((plan.variables ?? []).some((v) => v.variableType === 'resource')) {
    const files = Array.from({ length: fileCount }, (_, i) => buildFile(faker, i % 2 === 0 ? 'txt' : 'pdf', 'small'));
    const ex = await api.upload(files, { label: 'upload for file variable' });
    const upload = acceptedUpload(verdict, ex, files, 'upload for a file variable');
    // The values are still returned (without the file variable) for probes that send them anyway.
    if (!upload.ok) return { values: variableValues(faker, plan.variables ?? [], []), fileKeys, stop: upload.stop };
    fileKeys.push(...upload.value);
  }
  return { values: variableValues(faker, plan.variables ?? [], fileKeys), fileKeys };
}

/** Run body in the recommended form or the legacy top-level form (§4.1, §9.2). */
export function runBody(
  values: Readonly<Record<string, unknown>>,
  form: 'wrapper' | 'legacy' = 'wrapper',
): Record<string, unknown> {
  return form === 'wrapper' ? { variables: values } : { ...values };
}
