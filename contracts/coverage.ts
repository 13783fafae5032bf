/**
 * Which clauses one checked response is evidence for: the union of what the automatic checks cover for its
 * (operation, status), so a clean response counts as a pass for them, not only a dirty one as a failure.
 * Clauses that cannot pass (`observe`) or that the catalogue lacks are left out.
 */
import { CHECKS, checkTarget } from './checks.ts';
import type { OperationId } from './generated/operations.ts';
import { levelOf } from './requirements.ts';

const cache = new Map<string, string[]>();

/** Clauses a response of `operation` with `status` is checked against by checkResponse. */
export function clausesCheckedFor(operation: OperationId, status: number): string[] {
  const key = `${operation} ${status}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const target = checkTarget(operation, status);
  const covered = new Set(CHECKS.flatMap((check) => check.covers(target)));
  const list = [...covered].filter((id) => {
    const level = levelOf(id);
    return level !== undefined && level !== 'observe';
  });
  cache.set(key, list);
  return list;
}
