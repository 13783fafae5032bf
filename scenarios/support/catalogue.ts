/**
 * What the requirement catalogue and the generated contract tables say, in the
 * form the suites need: a clause's level, and which clauses one checked
 * response exercises (so a clean response counts as evidence of a pass, not
 * only a dirty one as evidence of a failure).
 */
import { REQUIREMENTS, OPERATION_PREFIX, type Level, type OperationId } from '../../contracts/requirements.ts';
import { OPERATIONS } from '../../contracts/generated/operations.ts';
import { SCHEMA_BUNDLE } from '../../contracts/generated/schemas.ts';

const LEVELS = new Map(REQUIREMENTS.map((r) => [r.id, r.level]));

export function levelOf(id: string): Level | undefined {
  return LEVELS.get(id);
}

type Node = Record<string, unknown>;
const DEFS = (SCHEMA_BUNDLE as unknown as { $defs: Record<string, Node> }).$defs;
const OPS = OPERATIONS as unknown as Record<OperationId, { prefix: string; responses: Record<string, { schema: string | null }> }>;

/** Every `x-requirement` reachable from a schema node, following `$ref`s into `$defs`. */
function requirementsInSchema(root: unknown, prefix: string, out: Set<string>, seen: Set<unknown>): void {
  if (!root || typeof root !== 'object' || seen.has(root)) return;
  seen.add(root);
  const node = root as Node;
  const req = node['x-requirement'];
  if (typeof req === 'string') out.add(req.replace('{op}', prefix));
  const ref = node.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/$defs/')) requirementsInSchema(DEFS[ref.slice('#/$defs/'.length)], prefix, out, seen);
  for (const value of Object.values(node)) requirementsInSchema(value, prefix, out, seen);
}

const coverageCache = new Map<string, string[]>();

/** Clauses a response of `operation` with `status` is checked against by checkResponse. */
export function clausesCheckedFor(operation: OperationId, status: number): string[] {
  const key = `${operation} ${status}`;
  const hit = coverageCache.get(key);
  if (hit) return hit;
  const prefix = OPERATION_PREFIX[operation];
  const out = new Set<string>([`${prefix}-HTTP-STATUS-LISTED`]);
  const entry = OPS[operation]?.responses[String(status)];
  if (entry?.schema) {
    requirementsInSchema(DEFS[entry.schema], prefix, out, new Set());
    out.add('JSON-CONTENT-TYPE');
    if (status === 200) ['ENVELOPE-SUCCESS-TRUE-ON-200', 'ENVELOPE-STACK-DEV-ONLY', `${prefix}-200-ENVELOPE`].forEach((id) => out.add(id));
  } else if (entry) {
    out.add('ERROR-CODE-STATUS-CONSISTENT');
  }
  const list = [...out].filter((id) => LEVELS.has(id) && LEVELS.get(id) !== 'observe');
  coverageCache.set(key, list);
  return list;
}

export function listedStatuses(operation: OperationId): number[] {
  return Object.keys(OPS[operation].responses).map(Number);
}
