/**
 * The judges of security (§5, §1.3, §5.4): a request without a valid key — in each of the ways one is sent
 * without — is not processed and is refused with 401 (refusals.ts judges the answer); the valid key under
 * other spellings of the scheme is recorded; another tenant's canvases, executions and file keys are
 * neither revealed to nor acted on by this one, and its search lists none of them. The ISOLATION clauses
 * judge exposure; how a refusal is answered (404) is judged apart, and only when nothing was exposed —
 * one deviation, one failure.
 */
import type { OperationId } from '../../contracts/check.ts';
import type { ClauseId } from '../../contracts/requirements.ts';
import type { AnyRecorder } from '../evidence/verdict.ts';
import type { AuthMode, Exchange } from '../transport/exchange.ts';
import { judge, type ClausesOf } from './judge.ts';
import { dataOf, describe, served } from './answers.ts';
import { stopAll, type Stop } from './stops.ts';
import type { WorkflowPlan } from './payloads.ts';
import { executionIdIn } from './lifecycle.ts';
import { judgeNotFound, judgeUnknownFileKey, notFoundClauseOf } from './limits.ts';
import { OPERATION_FACTS, type OperationOnId } from '../../contracts/operation-facts.ts';
import { judgeWithoutKey, keyClauseOf, type UnkeyedClause } from './refusals.ts';
import type { SearchListing } from './search.ts';

// ---- without a valid key (§5.3) ----------------------------------------------------------------------

/** One way of sending a request without a valid key, and the clause it is about. */
export interface Unkeyed {
  clause: UnkeyedClause;
  label: string;
  auth: (key: string, unknownKey: string) => AuthMode;
}

export const UNKEYED: readonly Unkeyed[] = [
  { clause: 'AUTH-401-MISSING-KEY', label: 'no Authorization header', auth: () => ({ kind: 'none' }) },
  {
    clause: 'AUTH-401-EMPTY-BEARER',
    label: '"Bearer " with no key',
    auth: () => ({ kind: 'literal', value: 'Bearer ' }),
  },
  {
    clause: 'AUTH-401-WRONG-SCHEME',
    label: 'the key under the Basic scheme',
    auth: (key) => ({ kind: 'literal', value: `Basic ${key}` }),
  },
  {
    clause: 'AUTH-401-WRONG-SCHEME',
    label: 'the key with no scheme',
    auth: (key) => ({ kind: 'literal', value: key }),
  },
  {
    clause: 'AUTH-401-INVALID-KEY',
    label: 'an unknown key',
    auth: (_key, unknown) => ({ kind: 'literal', value: `Bearer ${unknown}` }),
  },
];

/**
 * A request of `operation` sent without a valid key (`how`): judged against the same request with the key
 * (`keyed`, when one was needed), under the variant's clause and the operation's own 401 clause.
 */
export function judgeUnkeyed(
  v: AnyRecorder,
  operation: OperationId,
  how: Unkeyed,
  ex: Exchange,
  against: { keyed?: Exchange; madeUpId: boolean },
): void {
  judgeWithoutKey(v, ex, {
    clauses: [how.clause, keyClauseOf(operation)],
    keyed: against.keyed,
    madeUpId: against.madeUpId,
    message: `${operation} with ${how.label}`,
  });
}

/** The judge of how the scheme may be spelt: the valid key under "bearer" spelt otherwise, recorded. */
export const schemeSpelling = judge('spellings of the Bearer scheme', ['AUTH-SCHEME-SPELLING']);

/** The valid key under other spellings of the scheme (RFC 9110 lets a server read them either way). */
export const SPELLINGS: readonly (readonly [string, (key: string) => string])[] = [
  ['lower-case scheme', (key) => `bearer ${key}`],
  ['upper-case scheme', (key) => `BEARER ${key}`],
  ['two spaces before the key', (key) => `Bearer  ${key}`],
];

/** How the valid key under another spelling of the scheme was answered: accepted or 401, both recorded. */
export const observeSpelling = schemeSpelling.judges((v, label: string, ex: Exchange): void =>
  v.observe('AUTH-SCHEME-SPELLING', label, served(ex) ? `accepted (${describe(ex)})` : describe(ex), ex.record.id),
);

// ---- isolation between keys (§1.3, §5.4) ---------------------------------------------------------------

/** The judge of isolation: another tenant's data neither revealed nor acted on, nor listed. */
export const isolation = judge('isolation between keys', [
  'ISOLATION-CANVAS',
  'ISOLATION-EXECUTION',
  'ISOLATION-FILE-KEY',
  'SEARCH-TENANT-SCOPED',
]);

const isPlan = (data: unknown): data is WorkflowPlan =>
  !!data && typeof data === 'object' && Array.isArray((data as WorkflowPlan).tasks);
const carriesData = (ex: Exchange) => served(ex) && dataOf<unknown>(ex) !== undefined && dataOf<unknown>(ex) !== null;
/**
 * An operation without data in its answer (abort) or whose effect is elsewhere (generate) was carried
 * out when served — unless the envelope itself says it did not succeed (§2.1 `success`): a "not found"
 * answered 200 with success: false acted on nothing (its status is the 404 clause's finding).
 */
const carriedOut = (ex: Exchange) => served(ex) && (ex.json as { success?: unknown } | undefined)?.success !== false;

/** Whether the other tenant's resource was revealed or acted on by a request of `operation` (see above). */
const EXPOSES: Record<OperationOnId, (ex: Exchange) => boolean> = {
  getWorkflowDetail: (ex) => served(ex) && isPlan(dataOf(ex)),
  runWorkflow: (ex) => executionIdIn(ex) !== undefined,
  generateWorkflow: carriedOut,
  getExecutionStatus: carriesData,
  getExecutionOutput: carriesData,
  abortExecution: carriedOut,
};

/** The isolation clause a probe of each operation is about: the canvas's, or the execution's. */
function isolationClauseOf(operation: OperationOnId): ClausesOf<typeof isolation> {
  return OPERATION_FACTS[operation].about.subject === 'execution' ? 'ISOLATION-EXECUTION' : 'ISOLATION-CANVAS';
}

/**
 * Whether a probe of another tenant's resource exposed it (`replaced`: B's plan changed after A's generate).
 * A generate over B's canvas (`canvasId`) that answers another canvasId while B's plan stays as it was made
 * a canvas of A's own: B's was not acted on (that it was not refused is the 404 clause's finding).
 */
export function exposes(operation: OperationOnId, ex: Exchange, replaced = false, canvasId?: string): boolean {
  if (replaced) return true;
  const answered = dataOf<{ canvasId?: unknown } | null>(ex)?.canvasId;
  if (
    operation === 'generateWorkflow' &&
    canvasId !== undefined &&
    typeof answered === 'string' &&
    answered !== canvasId
  )
    return false;
  return EXPOSES[operation](ex);
}

/**
 * One probe of the other tenant's resource by this one: when it exposed it, the isolation clause fails
 * and the refusal's 404 clause is blocked by it; otherwise the refusal's status is judged (404). An
 * exposure where both keys list one workspace (`shared`: SEARCH-TENANT-SCOPED's one finding) blocks both.
 */
export const judgeProbe = isolation.judges(
  (
    v,
    operation: OperationOnId,
    ex: Exchange,
    message: string,
    seen: { replaced?: boolean; shared?: Stop; canvasId?: string } = {},
  ) => {
    const clause = isolationClauseOf(operation);
    const statusClause = notFoundClauseOf(operation);
    const exposed = exposes(operation, ex, seen.replaced, seen.canvasId);
    if (exposed && seen.shared)
      return stopAll(v, [clause, statusClause], { ...seen.shared, exchangeIds: [ex.record.id] });
    v.check(clause, !exposed, {
      message,
      expected: 'neither revealed nor acted on',
      actual: exposed ? `exposed: ${describe(ex)}` : describe(ex),
      exchangeId: ex.record.id,
    });
    if (exposed)
      return stopAll(v, [statusClause], {
        blockedBy: clause,
        exchangeIds: [ex.record.id],
        reason: `${message}: ${describe(ex)}`,
      });
    judgeNotFound(v, operation, ex, message);
  },
);

/**
 * Whether the two keys list one workspace: every workflow either key lists, the other lists too. Then
 * nothing tenant B holds is known to be B's alone — the keys may act as one tenant — and A reaching it is
 * the finding of SEARCH-TENANT-SCOPED (judged by the canvas test), not an exposure of its own. A target
 * whose search alone ignores the tenant lists one workspace too, but refuses A on B's resources: its
 * probes are judged as usual, since only a probe that exposed something asks.
 */
export function oneWorkspace(a: SearchListing, b: SearchListing): Stop | undefined {
  if (a.stop || b.stop || b.items.length === 0) return undefined;
  const aIds = new Set(a.items.map((i) => i.canvasId));
  const bIds = new Set(b.items.map((i) => i.canvasId));
  if (aIds.size !== bIds.size || [...bIds].some((id) => !aIds.has(id))) return undefined;
  return {
    blockedBy: 'SEARCH-TENANT-SCOPED',
    reason: `both keys list the same ${bIds.size} workflows: what tenant B holds is not known to be B's alone`,
  };
}

/** The canvas probes: isolation, and the 404 of each operation probed (generate only when overwriting is allowed). */
function canvasProbes(overwrite: boolean): ClauseId[] {
  const ops: OperationOnId[] = [
    'getWorkflowDetail',
    'runWorkflow',
    ...(overwrite ? ['generateWorkflow' as const] : []),
  ];
  return ['ISOLATION-CANVAS', ...ops.map(notFoundClauseOf)];
}

/**
 * Tenant A's listing against the workflows tenant B lists: none of B's listed for A. Returns the
 * canvases of B's alone to probe (those A does not list: one both list cannot be told apart as B's), or
 * undefined when nothing can be probed (A's listing cut short, or every one of B's listed for A too).
 */
export const judgeListingsApart = isolation.judges(
  (v, listingA: SearchListing, theirs: readonly { canvasId: string }[], overwrite: boolean): string[] | undefined => {
    const probed = canvasProbes(overwrite);
    // A's listing cut short by an answer that deviated can tell neither what leaks nor which canvases are B's alone.
    if (listingA.stop) {
      stopAll(v, ['SEARCH-TENANT-SCOPED', ...probed], listingA.stop);
      return undefined;
    }
    const aIds = new Set(listingA.items.map((i) => i.canvasId));
    const shared = theirs.filter((w) => aIds.has(w.canvasId));
    v.check('SEARCH-TENANT-SCOPED', shared.length === 0, {
      message: `tenant A's search against the ${theirs.length} workflows tenant B lists`,
      expected: "none of B's canvasIds",
      actual: shared.map((w) => w.canvasId).join(', ') || 'none',
    });
    const alone = theirs.filter((w) => !aIds.has(w.canvasId)).map((w) => w.canvasId);
    if (alone.length === 0) {
      stopAll(v, probed, {
        blockedBy: 'SEARCH-TENANT-SCOPED',
        reason: "every canvas tenant B lists is also listed for tenant A: none is known to be B's alone",
      });
      return undefined;
    }
    if (!overwrite)
      v.notRun(
        notFoundClauseOf('generateWorkflow'),
        "generate over B's canvas needs WFCHECK_ALLOW_OVERWRITE=1 (a failing target would overwrite it)",
      );
    return alone;
  },
);

/** A keyword from B's workflow's title, searched by A: B's workflow is not listed (a listing cut short is no evidence). */
export const judgeKeywordLeak = isolation.judges((v, keyword: string, canvasId: string, found: SearchListing): void => {
  if (found.stop) return;
  const leaked = found.items.some((i) => i.canvasId === canvasId);
  v.check('SEARCH-TENANT-SCOPED', !leaked, {
    message: `tenant A searches "${keyword}" from B's workflow ${canvasId}`,
    expected: `${canvasId} absent`,
    actual: leaked ? 'listed' : 'absent',
  });
});

/** The execution probes: isolation, and the 404 of each read and of abort. */
const EXECUTION_PROBES: ClauseId[] = [
  'ISOLATION-EXECUTION',
  notFoundClauseOf('getExecutionStatus'),
  notFoundClauseOf('getExecutionOutput'),
  notFoundClauseOf('abortExecution'),
];

/** Tenant B's execution could not be started: what A's probes of it judge is stopped by why. */
export function executionProbesNotMade(v: AnyRecorder, stop: Stop): void {
  stopAll(v, EXECUTION_PROBES, stop);
}

const FILE_KEY_PROBE: ClauseId[] = ['ISOLATION-FILE-KEY', 'RUN-400-UNKNOWN-FILE-KEY'];

/** Tenant B's fileKey, or A's run around it, could not be made: the probe is stopped by why. */
export function fileKeyProbeNotMade(v: AnyRecorder, stop: Stop): void {
  stopAll(v, FILE_KEY_PROBE, stop);
}

/**
 * Tenant A runs a workflow with B's fileKey for its file variable: not accepted (no execution started);
 * then refused as an unknown fileKey (400, should). Accepted where both keys list one workspace
 * (`shared`) blocks both clauses instead.
 */
export const judgeFileKeyProbe = isolation.judges((v, run: Exchange, message: string, shared?: Stop) => {
  const executionId = executionIdIn(run);
  if (executionId && shared) return stopAll(v, FILE_KEY_PROBE, { ...shared, exchangeIds: [run.record.id] });
  v.check('ISOLATION-FILE-KEY', !executionId, {
    message,
    expected: 'not accepted',
    actual: executionId ? `accepted: execution ${executionId}` : describe(run),
    exchangeId: run.record.id,
  });
  if (executionId)
    stopAll(v, ['RUN-400-UNKNOWN-FILE-KEY'], {
      blockedBy: 'ISOLATION-FILE-KEY',
      exchangeIds: [run.record.id],
      reason: `${message}: accepted`,
    });
  else judgeUnknownFileKey(v, { ex: run, message });
});
