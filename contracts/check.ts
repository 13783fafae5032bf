/**
 * The checking API: given an operation, the HTTP status, headers and body text of a response, it returns
 * what the response breaks, each finding tied to a requirement-catalogue ID with a JSON pointer, the
 * expectation and what was found. Scenarios, load scripts (through the k6 bundle) and reports all use it.
 *
 * Findings carry the level of their clause: `must` findings are failures, `should` findings warnings,
 * `observe` findings record behaviour the specification leaves open (never failures).
 *
 * This module must stay free of Node APIs: it is bundled for k6.
 */
import {
  OPERATIONS,
  OPERATION_IDS,
  type OperationEntry,
  type OperationId,
  type ResponseEntry,
} from './generated/operations.ts';
import { CHECKS, checkTarget, type CheckContext, type ResponseCheck, type Violation } from './response-checks.ts';

export type { Level } from './requirements.ts';
export type { OperationId } from './generated/operations.ts';
export type { Violation } from './response-checks.ts';

export interface ResponseUnderCheck {
  operation: OperationId;
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Bytes of the request body the answer is to, when known: a 413 to one over the payload limit is its open status. */
  requestBytes?: number;
}

/** For one (operation, status): its entries of the table, and the checks that apply, in list order. */
interface Plan {
  op: OperationEntry;
  listed: ResponseEntry | undefined;
  schema: string | null;
  envelope: boolean;
  checks: readonly ResponseCheck[];
}

/** Plans by operation, then by status; made on first use (a target answers with few distinct statuses). */
const PLANS = Object.create(null) as Record<OperationId, Map<number, Plan>>;
for (const operation of OPERATION_IDS) PLANS[operation] = new Map();

function planFor(operation: OperationId, status: number): Plan {
  const target = checkTarget(operation, status);
  return {
    op: target.op,
    listed: target.listed,
    schema: target.schema,
    envelope: target.envelope,
    checks: CHECKS.filter((check) => check.appliesTo(target)),
  };
}

/**
 * Checks one response against its operation's contract: runs the checks of the list (response-checks.ts) that
 * apply and concatenates their findings. An empty array means it conforms; `observe` findings never mean
 * non-conformance.
 */
export function checkResponse(r: ResponseUnderCheck): Violation[] {
  const plans = PLANS[r.operation];
  if (!plans) throw new Error(`unknown operation ${r.operation}`);
  let plan = plans.get(r.status);
  if (!plan) {
    plan = planFor(r.operation, r.status);
    plans.set(r.status, plan);
  }
  let json: unknown;
  let parseError: string | undefined;
  try {
    json = JSON.parse(r.body);
  } catch (err) {
    parseError = err instanceof Error ? err.message : String(err);
  }
  const ctx: CheckContext = {
    operation: r.operation,
    op: plan.op,
    status: r.status,
    listed: plan.listed,
    schema: plan.schema,
    envelope: plan.envelope,
    headers: r.headers,
    body: r.body,
    json,
    parseError,
    requestBytes: r.requestBytes,
  };
  // Indexed loops and push rather than for…of, concat or push(...spread): each of those is costly per call in k6's interpreter.
  const checks = plan.checks;
  const out: Violation[] = [];
  for (let i = 0; i < checks.length; i++) {
    const found = checks[i]!.run(ctx);
    for (let j = 0; j < found.length; j++) out.push(found[j]!);
  }
  return out;
}

/** Only the findings that make a response non-conforming (`must`), or also warnings when `strict`. */
export function failures(findings: readonly Violation[], strict = false): Violation[] {
  return findings.filter((f) => f.level === 'must' || (strict && f.level === 'should'));
}

// ---- request → operation -------------------------------------------------------------------------

interface Route {
  operation: OperationId;
  method: string;
  pattern: RegExp;
  names: string[];
}

const ROUTES: Route[] = OPERATION_IDS.map((operation) => {
  const op = OPERATIONS[operation];
  const names: string[] = [];
  const source = op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { operation, method: op.method, pattern: new RegExp(`^${source}/?$`), names };
});

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The operation a request addresses, from its method and its path after the base URL (query ignored),
 * with the decoded path parameters; undefined for a request outside the interface.
 */
export function operationFor(
  method: string,
  pathAfterBaseUrl: string,
): { operation: OperationId; params: Record<string, string> } | undefined {
  const path = pathAfterBaseUrl.split(/[?#]/, 1)[0] ?? '';
  const upper = method.toUpperCase();
  for (const route of ROUTES) {
    if (route.method !== upper) continue;
    const m = route.pattern.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    route.names.forEach((name, i) => {
      params[name] = safeDecode(m[i + 1] ?? '');
    });
    return { operation: route.operation, params };
  }
  return undefined;
}

/** Method, path template and listed statuses of an operation (from the generated table). */
export function operationInfo(op: OperationId): {
  method: string;
  path: string;
  prefix: string;
  listedStatuses: number[];
} {
  const o = OPERATIONS[op];
  return { method: o.method, path: o.path, prefix: o.prefix, listedStatuses: o.statuses.slice() };
}

export { OPERATION_IDS };
