/**
 * Which clauses one checked response is evidence for: the union of what the automatic checks cover for its
 * (operation, status) and the kind of body it carried, so a clean response counts as a pass for them, not
 * only a dirty one as a failure. A body that did not parse is evidence for nothing that needs a body; an
 * envelope without its payload (`success: false`, no `data`) for nothing about the payload. Clauses that
 * cannot pass (`observe`) or that the catalogue lacks are left out.
 */
import { CHECKS, checkTarget, type BodyKind } from './response-checks.ts';
import type { OperationId } from './generated/operations.ts';
import { levelOf } from './requirements.ts';

const cache = new Map<string, string[]>();

export { bodyKindOf, type BodyKind } from './response-checks.ts';

/** Clauses a response of `operation` with `status` and a body of that kind is checked against by checkResponse. */
export function clausesCheckedFor(operation: OperationId, status: number, body: BodyKind = 'payload'): string[] {
  const key = `${operation} ${status} ${body}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const target = checkTarget(operation, status);
  const covered = new Set(CHECKS.flatMap((check) => check.covers(target, body)));
  const list = [...covered].filter((id) => {
    const level = levelOf(id);
    return level !== undefined && level !== 'observe';
  });
  cache.set(key, list);
  return list;
}
