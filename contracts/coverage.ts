/**
 * Which clauses one checked response is evidence for: the union of what the automatic checks cover for its
 * (operation, status) and the kind of body it carried, so a clean response counts as a pass for them, not
 * only a dirty one as a failure. A body that did not parse is evidence for nothing that needs a body; an
 * envelope without its payload (`success: false`, no `data`) for nothing about the payload. Clauses that
 * cannot pass (`observe`) or that the catalogue lacks are left out.
 */
import { CHECKS, checkTarget, type BodyKind } from './response-checks.ts';
import { OPERATIONS, type OperationId } from './generated/operations.ts';
import { hasRequirement, levelOf, type ClauseId } from './requirements.ts';

const cache = new Map<string, ClauseId[]>();

export { bodyKindOf, type BodyKind } from './response-checks.ts';

/** Clauses a response of `operation` with `status` and a body of that kind is checked against by checkResponse. */
export function clausesCheckedFor(operation: OperationId, status: number, body: BodyKind = 'payload'): ClauseId[] {
  const key = `${operation} ${status} ${body}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const target = checkTarget(operation, status);
  const covered = new Set(CHECKS.flatMap((check) => check.covers(target, body)));
  const list = [...covered].filter((id): id is ClauseId => hasRequirement(id) && levelOf(id) !== 'observe');
  cache.set(key, list);
  return list;
}

/**
 * Besides the listed ones, a status of each kind the checks tell apart: an unlisted success, an unlisted
 * refusal, a rate limit, a crash.
 */
const UNLISTED_KINDS = [201, 422, 429, 500];
const BODY_KINDS: readonly BodyKind[] = ['payload', 'no-payload', 'unparsed'];

/**
 * Every clause the automatic checks can judge on some response of some operation (`observe` ones too):
 * the clauses the contract checks decide, whoever else names them.
 */
export function clausesEverCovered(operations: readonly OperationId[]): ClauseId[] {
  const out = new Set<ClauseId>();
  for (const operation of operations)
    for (const status of [...OPERATIONS[operation].statuses, ...UNLISTED_KINDS]) {
      const target = checkTarget(operation, status);
      for (const body of BODY_KINDS)
        for (const check of CHECKS) for (const id of check.covers(target, body)) if (hasRequirement(id)) out.add(id);
    }
  return [...out];
}
