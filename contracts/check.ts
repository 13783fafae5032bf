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
import { OPERATIONS } from './generated/operations.ts';
import { SCHEMA_BUNDLE } from './generated/schemas.ts';
import * as validators from './generated/validators.js';
import type { Validator } from './generated/validators.js';
import { errorCode } from './error-codes.ts';
import { OPERATION_PREFIX, requirement, type Level, type OperationId } from './requirements.ts';

export type { OperationId, Level } from './requirements.ts';

export interface Violation {
  requirementId: string;
  level: Level;
  /** JSON pointer into the response body ('' is the whole body; '#status' and '#header/…' name the status line and headers). */
  pointer: string;
  expected: string;
  actual: string;
  message: string;
}

export interface ResponseUnderCheck {
  operation: OperationId;
  status: number;
  headers: Record<string, string>;
  body: string;
}

type Operation = { method: string; path: string; prefix: string; responses: Record<string, { schema: string | null }> };
const OPS = OPERATIONS as unknown as Record<OperationId, Operation>;
const VALIDATORS = validators as unknown as Record<string, Validator>;

const EXCERPT_CHARS = 200;

function excerpt(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}… (${text.length} chars)` : text;
}

function finding(requirementId: string, pointer: string, expected: string, actual: string, message: string): Violation {
  return { requirementId, level: requirement(requirementId).level, pointer, expected, actual, message };
}

/**
 * A header by lower-case name, whatever the case of the keys. Written without entry destructuring: under
 * k6's JavaScript runtime iterating `Object.entries` costs more than the rest of this function together.
 */
function header(headers: Record<string, string>, lowerCaseName: string): string | undefined {
  const direct = headers[lowerCaseName];
  if (direct !== undefined) return direct;
  for (const k in headers) if (k.toLowerCase() === lowerCaseName) return headers[k];
  return undefined;
}

type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

function parseJson(body: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

function errCodeOf(parsed: Parsed): string | undefined {
  if (!parsed.ok || !parsed.value || typeof parsed.value !== 'object') return undefined;
  const code = (parsed.value as { errCode?: unknown }).errCode;
  return typeof code === 'string' ? code : undefined;
}

// ---- schema errors → requirement IDs -------------------------------------------------------------

type SchemaNode = Record<string, unknown>;
const DEFS = (SCHEMA_BUNDLE as unknown as { $defs: Record<string, SchemaNode> }).$defs;

/** The clause a schema error breaks: generation gives every subschema the x-requirement it falls under. */
function requirementOf(e: AjvError, prefix: string, fallback: string): string {
  const req = e.parentSchema?.['x-requirement'];
  return typeof req === 'string' ? req.replace('{op}', prefix) : fallback;
}

function valueAt(root: unknown, pointer: string): unknown {
  if (!pointer) return root;
  let node: unknown = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  parentSchema?: Record<string, unknown>;
}

function describeExpectation(e: AjvError): { pointer: string; expected: string } {
  switch (e.keyword) {
    case 'required':
      return { pointer: `${e.instancePath}/${String(e.params.missingProperty)}`, expected: 'present (required)' };
    case 'type':
      return { pointer: e.instancePath, expected: `type ${String(e.params.type)}` };
    case 'enum':
      return { pointer: e.instancePath, expected: `one of ${JSON.stringify(e.params.allowedValues)}` };
    case 'format':
      return { pointer: e.instancePath, expected: `format ${String(e.params.format)}` };
    case 'not':
      return { pointer: e.instancePath, expected: 'absent' };
    default:
      return { pointer: e.instancePath, expected: `${e.keyword}: ${e.message ?? ''}`.trim() };
  }
}

function schemaViolations(schema: string, value: unknown, prefix: string, fallback: string): Violation[] {
  const validate = VALIDATORS[schema];
  if (!validate) throw new Error(`no generated validator for schema ${schema}`);
  if (validate(value)) return [];
  const errors = (validate.errors ?? []) as AjvError[];
  return errors.map((e) => {
    const { pointer, expected } = describeExpectation(e);
    const id = requirementOf(e, prefix, fallback);
    const actual = e.keyword === 'required' ? '(absent)' : excerpt(valueAt(value, pointer));
    const says = e.keyword === 'not' ? 'must be absent' : e.message ?? 'is invalid';
    return finding(id, pointer, expected, actual, `${pointer || '(body)'} ${says}`);
  });
}

// ---- the checks ----------------------------------------------------------------------------------

/** Unlisted status: a failure, unless it is behaviour the specification leaves open. */
function unlistedStatus(op: OperationId, status: number, parsed: Parsed): Violation {
  const listed = Object.keys(OPS[op].responses).join(', ');
  const code = errCodeOf(parsed);
  const known = code ? errorCode(code) : undefined;
  if (status === 429) {
    return finding('LIMIT-RATE', '#status', 'rate limits are not shown', '429', 'rate limited (429): recorded, rate limits are not specified');
  }
  if (status < 500 && known && (known.httpStatus === null || known.httpStatus === status)) {
    return finding(
      'ERROR-STATUS-FOR-UNLISTED-CODES', '#status', `a listed status (${listed}) or the open status of ${known.code}`,
      `${status} with errCode ${known.code}`,
      `status ${status} carries ${known.code}, whose HTTP status the specification leaves open or lists in §7`,
    );
  }
  return finding(
    `${OPS[op].prefix}-HTTP-STATUS-LISTED`, '#status', `one of ${listed}`, String(status),
    `status ${status} is not listed for ${op}`,
  );
}

function contentTypeFinding(headers: Record<string, string>): Violation[] {
  const type = header(headers, 'content-type');
  if (type && /[/+]json\b/i.test(type)) return [];
  return [finding('JSON-CONTENT-TYPE', '#header/content-type', 'application/json', type ?? '(absent)', 'JSON body without a JSON content type')];
}

/** Semantic checks of the 200 envelope that the schema cannot state (their clauses are `should`). */
function envelopeFindings(value: unknown): Violation[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  const env = value as { success?: unknown; stack?: unknown };
  const out: Violation[] = [];
  if (env.success === false) out.push(finding('ENVELOPE-SUCCESS-TRUE-ON-200', '/success', 'true', 'false', 'a 200 response says success: false'));
  if (env.stack !== undefined) out.push(finding('ENVELOPE-STACK-DEV-ONLY', '/stack', 'absent outside development', excerpt(env.stack), 'a stack trace is exposed'));
  return out;
}

/** What an error body looks like (its shape is not shown, so it is only recorded) and whether its code agrees with the status. */
function errorBodyFindings(status: number, parsed: Parsed, headers: Record<string, string>): Violation[] {
  const type = header(headers, 'content-type') ?? '(no content type)';
  const code = errCodeOf(parsed);
  const shape = !parsed.ok ? `non-JSON body (${type})`
    : code ? `JSON with errCode ${code}` : `JSON ${Array.isArray(parsed.value) ? 'array' : typeof parsed.value}`;
  const out = [finding('ERROR-BODY-SHAPE', '', 'not shown', shape, `error body of a ${status}: ${shape}`)];
  const known = code ? errorCode(code) : undefined;
  if (known && known.httpStatus !== null && known.httpStatus !== status) {
    out.push(finding('ERROR-CODE-STATUS-CONSISTENT', '/errCode', `HTTP ${known.httpStatus} for ${known.code}`, `HTTP ${status}`,
      `${known.code} is listed with HTTP ${known.httpStatus} but came with ${status}`));
  }
  if (parsed.ok) out.push(...envelopeFindings(parsed.value).filter((v) => v.requirementId === 'ENVELOPE-STACK-DEV-ONLY'));
  return out;
}

/**
 * Checks one response against its operation's contract. An empty array means it conforms; `observe`
 * findings never mean non-conformance.
 */
export function checkResponse(r: ResponseUnderCheck): Violation[] {
  const op = OPS[r.operation];
  if (!op) throw new Error(`unknown operation ${r.operation}`);
  const entry = op.responses[String(r.status)];
  if (!entry) return [unlistedStatus(r.operation, r.status, parseJson(r.body))];

  const parsed = parseJson(r.body);
  if (!entry.schema) return errorBodyFindings(r.status, parsed, r.headers);

  const rootClause = DEFS[entry.schema]?.['x-requirement'];
  const bodyClause = r.status !== 200 && typeof rootClause === 'string' ? rootClause : `${op.prefix}-200-ENVELOPE`;
  if (!parsed.ok) {
    return [finding(bodyClause, '', 'a JSON body', excerpt(r.body), `body is not JSON: ${parsed.error}`)];
  }
  // concat rather than push(...spread): spreading costs microseconds per call under k6's runtime.
  const out = schemaViolations(entry.schema, parsed.value, op.prefix, bodyClause).concat(contentTypeFinding(r.headers));
  return r.status === 200 ? out.concat(envelopeFindings(parsed.value)) : out;
}

/** Only the findings that make a response non-conforming (`must`), or also warnings when `strict`. */
export function failures(findings: readonly Violation[], strict = false): Violation[] {
  return findings.filter((f) => f.level === 'must' || (strict && f.level === 'should'));
}

// ---- request → operation -------------------------------------------------------------------------

interface Route { operation: OperationId; method: string; pattern: RegExp; names: string[] }

const ROUTES: Route[] = (Object.entries(OPS) as [OperationId, Operation][]).map(([operation, op]) => {
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
export function operationFor(method: string, pathAfterBaseUrl: string): { operation: OperationId; params: Record<string, string> } | undefined {
  const path = pathAfterBaseUrl.split(/[?#]/, 1)[0] ?? '';
  const upper = method.toUpperCase();
  for (const route of ROUTES) {
    if (route.method !== upper) continue;
    const m = route.pattern.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    route.names.forEach((name, i) => (params[name] = safeDecode(m[i + 1] ?? '')));
    return { operation: route.operation, params };
  }
  return undefined;
}

/** Method, path template and listed statuses of an operation (from the generated table). */
export function operationInfo(op: OperationId): { method: string; path: string; prefix: string; listedStatuses: number[] } {
  const o = OPS[op];
  return { method: o.method, path: o.path, prefix: o.prefix ?? OPERATION_PREFIX[op], listedStatuses: Object.keys(o.responses).map(Number) };
}

export const OPERATION_IDS = Object.keys(OPS) as OperationId[];
