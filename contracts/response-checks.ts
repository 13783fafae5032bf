/**
 * The automatic checks of one response, as a named list. Every check has the same shape: whether it can
 * find anything in a response of an (operation, status), which clauses it judges there, and the findings
 * it makes on one response. `checkResponse` (check.ts) runs the checks that apply and concatenates their
 * findings in list order; `clausesCheckedFor` (coverage.ts) credits what the list covers, so a clean
 * response counts as evidence of a pass for exactly the clauses that were judged.
 *
 * This module must stay free of Node APIs: it is bundled for k6, where `run` is the hot path of checking
 * load traffic. No closures, spreads or Object.entries per call (see the comments where it matters).
 */
import { OPERATIONS, type OperationEntry, type OperationId, type ResponseEntry } from './generated/operations.ts';
import { SCHEMA_BUNDLE } from './generated/schemas.ts';
import * as validators from './generated/validators.js';
import type { Validator } from './generated/validators.js';
import { errorCode, LIMITS } from './error-codes.ts';
import { requirement, type ClauseId, type Level } from './requirements.ts';

export interface Violation {
  requirementId: ClauseId;
  level: Level;
  /** JSON pointer into the response body ('' is the whole body; '#status' and '#header/…' name the status line and headers). */
  pointer: string;
  expected: string;
  actual: string;
  message: string;
}

/** What a check is asked about before there is a response: enough to say which clauses it judges. */
export interface CheckTarget {
  operation: OperationId;
  /** The operation's entry of the generated table. */
  op: OperationEntry;
  status: number;
  /** The table's entry for this status; undefined when the status is not listed for the operation. */
  listed: ResponseEntry | undefined;
  /**
   * The schema the body is judged against, or null: the listed status's own, or, for an unlisted 2xx,
   * the operation's 200 schema. The status code is judged once, by the status clause; what a 201 or a
   * 202 says in its body is judged like any success, so a wrong value inside it is not lost.
   */
  schema: string | null;
  /** `schema` is the operation's 200 envelope (a success), not a body of its own such as generation's 400. */
  envelope: boolean;
}

/** The target of (operation, status), from the generated table. */
export function checkTarget(operation: OperationId, status: number): CheckTarget {
  const op = OPERATIONS[operation];
  const listed = op.responses[String(status)];
  const successSchema = op.responses['200']?.schema ?? null;
  const unlistedSuccess = !listed && status >= 200 && status < 300;
  const schema = listed ? listed.schema : unlistedSuccess ? successSchema : null;
  return { operation, op, status, listed, schema, envelope: schema !== null && schema === successSchema };
}

/**
 * What a response's body lets the checks judge:
 * - `payload`    JSON, judged in full;
 * - `no-payload` a JSON object saying `success: false` without `data` (a refusal answered as a success):
 *                its envelope is judged, the payload it does not carry is not (the status clause, or the
 *                clause of the refusal, says what is wrong with it — not every clause about data);
 * - `unparsed`   not JSON, or empty: only what needs no body.
 */
export type BodyKind = 'payload' | 'no-payload' | 'unparsed';

export function bodyKindOf(json: unknown, parseError: string | undefined): BodyKind {
  if (parseError !== undefined) return 'unparsed';
  if (!json || typeof json !== 'object') return 'payload';
  const env = json as { success?: unknown; data?: unknown };
  // A JSON null is read as absent, as the abort schema reads it.
  return env.success === false && (env.data === undefined || env.data === null) ? 'no-payload' : 'payload';
}

/** One response under check. The body is parsed once, before any check runs. */
export interface CheckContext extends CheckTarget {
  headers: Record<string, string>;
  body: string;
  /** The parsed body; meaningful only when `parseError` is undefined. */
  json: unknown;
  /** Why the body is not JSON, or undefined when it parsed. */
  parseError: string | undefined;
  /** Bytes of the request body, when the caller knows them. */
  requestBytes?: number;
}

export type Findings = readonly Violation[];

export interface ResponseCheck {
  name: string;
  /**
   * Whether `run` can find anything in a response of (operation, status). Decided once per pair, so a
   * response is not handed to checks that would find nothing: in k6's interpreter every call costs.
   */
  appliesTo(target: CheckTarget): boolean;
  /** Clause IDs this check judges for (operation, status) in a body of that kind: used to credit passes. */
  covers(target: CheckTarget, body: BodyKind): string[];
  /** The findings on one response; nothing where the check does not apply. */
  run(ctx: CheckContext): Findings;
}

/** The result of a check that finds nothing; shared, so the common case allocates nothing. */
const NONE: Findings = Object.freeze([]);

const VALIDATORS = validators as unknown as Record<string, Validator>;

const EXCERPT_CHARS = 200;

function excerpt(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}… (${text.length} chars)` : text;
}

/** A finding of the clause `id` (read from the schema's x-requirement, or built per operation): catalogued, or it throws. */
function finding(id: string, pointer: string, expected: string, actual: string, message: string): Violation {
  const { id: requirementId, level } = requirement(id);
  return { requirementId, level, pointer, expected, actual, message };
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

function errCodeOf(ctx: CheckContext): string | undefined {
  if (ctx.parseError !== undefined || !ctx.json || typeof ctx.json !== 'object') return undefined;
  const code = (ctx.json as { errCode?: unknown }).errCode;
  return typeof code === 'string' ? code : undefined;
}

// ---- schema errors → requirement IDs -------------------------------------------------------------

type SchemaNode = Record<string, unknown>;
const DEFS = (SCHEMA_BUNDLE as unknown as { $defs: Record<string, SchemaNode> }).$defs;

interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  parentSchema?: Record<string, unknown>;
}

/** The clause a schema error breaks: generation gives every subschema the x-requirement it falls under. */
function requirementOf(e: AjvError, prefix: string, fallback: string): string {
  const req = e.parentSchema?.['x-requirement'];
  return typeof req === 'string' ? req.replace('{op}', prefix) : fallback;
}

/** Every `x-requirement` reachable from a schema node, following `$ref`s into `$defs`. */
function requirementsInSchema(root: unknown, prefix: string, out: Set<string>, seen: Set<unknown>): void {
  if (!root || typeof root !== 'object' || seen.has(root)) return;
  seen.add(root);
  const node = root as SchemaNode;
  const req = node['x-requirement'];
  if (typeof req === 'string') out.add(req.replace('{op}', prefix));
  const ref = node.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/$defs/'))
    requirementsInSchema(DEFS[ref.slice('#/$defs/'.length)], prefix, out, seen);
  for (const value of Object.values(node)) requirementsInSchema(value, prefix, out, seen);
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

/**
 * The clause a body that is not what its schema says breaks as a whole: a 200 is an envelope first; any
 * other status with a schema (generation's 400) names its clause on the schema itself.
 */
function bodyClause(target: CheckTarget, schema: string): string {
  const rootClause = DEFS[schema]?.['x-requirement'];
  return target.status !== 200 && typeof rootClause === 'string' ? rootClause : `${target.op.prefix}-200-ENVELOPE`;
}

/** A fault about the payload an envelope without data does not carry: `data` required, or a null `data`. */
function aboutAbsentPayload(e: AjvError): boolean {
  return (
    e.instancePath === '/data' ||
    (e.instancePath === '' && e.keyword === 'required' && e.params.missingProperty === 'data')
  );
}

/**
 * A date and time of day without an offset from UTC (ISO 8601's local form, e.g. `2026-11-22T09:00:00.125`):
 * a date-time in one reading of "string, date-time", not in RFC 3339's. Its fault is the should clause's.
 */
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/;
const DATE_TIME_CLAUSE = 'DATETIME-FORMAT';
const DATE_TIME_OFFSET_CLAUSE = 'DATETIME-OFFSET';

function dateTimeClause(e: AjvError, value: unknown, id: string): string {
  if (id !== DATE_TIME_CLAUSE || e.keyword !== 'format' || typeof value !== 'string') return id;
  return LOCAL_DATE_TIME.test(value) && !Number.isNaN(Date.parse(`${value}Z`)) ? DATE_TIME_OFFSET_CLAUSE : id;
}

/**
 * The body's schema faults; the clause of the whole body is looked up only once there is a fault. An
 * envelope without a payload (`no-payload`) is judged as an envelope: faults about its absent data are
 * left out. Decided after validation fails, so a conforming body costs nothing more.
 */
function schemaViolations(schema: string, value: unknown, target: CheckTarget): Findings {
  const validate = VALIDATORS[schema];
  if (!validate) throw new Error(`no generated validator for schema ${schema}`);
  if (validate(value)) return NONE;
  let errors = (validate.errors ?? []) as AjvError[];
  if (target.envelope && bodyKindOf(value, undefined) === 'no-payload')
    errors = errors.filter((e) => !aboutAbsentPayload(e));
  const prefix = target.op.prefix;
  const fallback = bodyClause(target, schema);
  return errors.map((e) => {
    const { pointer, expected } = describeExpectation(e);
    const id = dateTimeClause(e, valueAt(value, pointer), requirementOf(e, prefix, fallback));
    const actual = e.keyword === 'required' ? '(absent)' : excerpt(valueAt(value, pointer));
    const says = e.keyword === 'not' ? 'must be absent' : (e.message ?? 'is invalid');
    return finding(id, pointer, expected, actual, `${pointer || '(body)'} ${says}`);
  });
}

// ---- the checks ----------------------------------------------------------------------------------

/** A listed status, or behaviour the specification leaves open (a 429, or a code whose status is open); else a failure. */
const statusListed: ResponseCheck = {
  name: 'status-listed',
  appliesTo: (t) => !t.listed,
  covers(t) {
    const listed = `${t.op.prefix}-HTTP-STATUS-LISTED`;
    if (t.listed) return [listed];
    if (t.status === 429) return [listed, 'LIMIT-RATE'];
    return t.status < 500 ? [listed, 'ERROR-STATUS-FOR-UNLISTED-CODES'] : [listed];
  },
  run(ctx) {
    if (ctx.listed) return NONE;
    if (ctx.status === 429) {
      return [
        finding(
          'LIMIT-RATE',
          '#status',
          'rate limits are not shown',
          '429',
          'rate limited (429): recorded, rate limits are not specified',
        ),
      ];
    }
    const statuses = ctx.op.statuses.join(', ');
    // §8's payload limit has a code whose status is not shown (E2005): HTTP's own 413 for a body over it is that
    // status, whatever the body says (error bodies are not shown either).
    if (ctx.status === 413 && (ctx.requestBytes ?? 0) > LIMITS.payloadBytesSurelyWithin) {
      return [
        finding(
          'ERROR-STATUS-FOR-UNLISTED-CODES',
          '#status',
          `a listed status (${statuses}) or the open status of the payload limit (E2005)`,
          `413 to a ${ctx.requestBytes}-byte request body`,
          'status 413 answers a body over the payload limit, whose HTTP status the specification leaves open',
        ),
      ];
    }
    const code = errCodeOf(ctx);
    const known = code ? errorCode(code) : undefined;
    if (ctx.status < 500 && known && (known.httpStatus === null || known.httpStatus === ctx.status)) {
      return [
        finding(
          'ERROR-STATUS-FOR-UNLISTED-CODES',
          '#status',
          `a listed status (${statuses}) or the open status of ${known.code}`,
          `${ctx.status} with errCode ${known.code}`,
          `status ${ctx.status} carries ${known.code}, whose HTTP status the specification leaves open or lists in §7`,
        ),
      ];
    }
    return [
      finding(
        `${ctx.op.prefix}-HTTP-STATUS-LISTED`,
        '#status',
        `one of ${statuses}`,
        String(ctx.status),
        `status ${ctx.status} is not listed for ${ctx.operation}`,
      ),
    ];
  },
};

/** Every clause a schema can name for this operation, its whole-body clause included. */
function schemaClauses(root: unknown, t: CheckTarget, schema: string): string[] {
  const out = new Set<string>();
  requirementsInSchema(root, t.op.prefix, out, new Set());
  out.add(bodyClause(t, schema));
  // A date-time judged is judged for its offset too (its fault is that clause's, see dateTimeClause).
  if (out.has(DATE_TIME_CLAUSE)) out.add(DATE_TIME_OFFSET_CLAUSE);
  return [...out];
}

/**
 * A body with a schema (see CheckTarget.schema) matches it, each fault tied to the subschema's
 * x-requirement. A listed status promises JSON, so a body that does not parse breaks the body's clause;
 * the body of an unlisted 2xx is judged only when it parses (its status clause already failed).
 */
const jsonBodySchema: ResponseCheck = {
  name: 'json-body-schema',
  appliesTo: (t) => !!t.schema,
  covers(t, body) {
    const schema = t.schema;
    if (!schema) return [];
    if (body === 'unparsed') return t.listed ? [bodyClause(t, schema)] : [];
    return schemaClauses(body === 'no-payload' && t.envelope ? DEFS.Envelope : DEFS[schema], t, schema);
  },
  run(ctx) {
    const schema = ctx.schema;
    if (!schema) return NONE;
    if (ctx.parseError !== undefined) {
      if (!ctx.listed) return NONE;
      return [
        finding(bodyClause(ctx, schema), '', 'a JSON body', excerpt(ctx.body), `body is not JSON: ${ctx.parseError}`),
      ];
    }
    return schemaViolations(schema, ctx.json, ctx);
  },
};

/** Hoisted: a regular-expression literal inside `run` would build a new RegExp on every call. */
const JSON_MEDIA_TYPE = /[/+]json\b/i;

/** A JSON body (one the schema check could read) comes with a JSON media type. */
const jsonContentType: ResponseCheck = {
  name: 'json-content-type',
  appliesTo: (t) => !!t.schema,
  covers: (t, body) => (t.schema && body !== 'unparsed' ? ['JSON-CONTENT-TYPE'] : []),
  run(ctx) {
    if (!ctx.schema || ctx.parseError !== undefined) return NONE;
    const type = header(ctx.headers, 'content-type');
    if (type && JSON_MEDIA_TYPE.test(type)) return NONE;
    return [
      finding(
        'JSON-CONTENT-TYPE',
        '#header/content-type',
        'application/json',
        type ?? '(absent)',
        'JSON body without a JSON content type',
      ),
    ];
  },
};

/**
 * A listed status without a schema: its body's shape is not shown, so it is only recorded, and whether its
 * errCode agrees with the status §7 gives that code.
 */
const errorBody: ResponseCheck = {
  name: 'error-body',
  appliesTo: (t) => !!t.listed && !t.listed.schema,
  covers(t, body) {
    if (!t.listed || t.listed.schema) return [];
    // Without a JSON body there is no errCode to hold against the status.
    return body === 'unparsed' ? ['ERROR-BODY-SHAPE'] : ['ERROR-BODY-SHAPE', 'ERROR-CODE-STATUS-CONSISTENT'];
  },
  run(ctx) {
    if (!ctx.listed || ctx.listed.schema) return NONE;
    const type = header(ctx.headers, 'content-type') ?? '(no content type)';
    const code = errCodeOf(ctx);
    // §4.8's 400 shape is what frameworks answer by default (NestJS): worth telling apart from the envelope.
    const json = ctx.json as Record<string, unknown> | null;
    const nestShape = !!json && typeof json === 'object' && ['statusCode', 'message', 'error'].every((k) => k in json);
    const shape =
      ctx.parseError !== undefined
        ? `non-JSON body (${type})`
        : code
          ? `JSON with errCode ${code}${nestShape ? ' and statusCode, message, error' : ''}`
          : nestShape
            ? 'JSON with statusCode, message, error'
            : `JSON ${Array.isArray(ctx.json) ? 'array' : typeof ctx.json}`;
    const shapeFinding = finding('ERROR-BODY-SHAPE', '', 'not shown', shape, `error body of a ${ctx.status}: ${shape}`);
    const known = code ? errorCode(code) : undefined;
    if (!known || known.httpStatus === null || known.httpStatus === ctx.status) return [shapeFinding];
    return [
      shapeFinding,
      finding(
        'ERROR-CODE-STATUS-CONSISTENT',
        '/errCode',
        `HTTP ${known.httpStatus} for ${known.code}`,
        `HTTP ${ctx.status}`,
        `${known.code} is listed with HTTP ${known.httpStatus} but came with ${ctx.status}`,
      ),
    ];
  },
};

/**
 * What the §2.1 envelope means beyond its schema (the clauses are `should`): a 200 says success: true, and
 * no response exposes a stack. Error bodies are looked at for a stack only; their shape is not shown, so
 * a clean one is no evidence for the clause and covers credits it on 200s alone.
 */
const envelopeSemantics: ResponseCheck = {
  name: 'envelope-semantics',
  // A listed status with a schema other than 200 (generation's 400) has a body of its own, not the envelope.
  appliesTo: (t) => !!t.listed && (!t.listed.schema || t.status === 200),
  covers: (t, body) =>
    t.listed?.schema && t.status === 200 && body !== 'unparsed'
      ? ['ENVELOPE-SUCCESS-TRUE-ON-200', 'ENVELOPE-STACK-DEV-ONLY']
      : [],
  run(ctx) {
    const listed = ctx.listed;
    if (!listed || ctx.parseError !== undefined) return NONE;
    const success = !!listed.schema;
    if (success && ctx.status !== 200) return NONE;
    const value = ctx.json;
    if (!value || typeof value !== 'object' || Array.isArray(value)) return NONE;
    const env = value as { success?: unknown; stack?: unknown };
    const saysFailure = success && env.success === false;
    if (!saysFailure && env.stack === undefined) return NONE;
    const out: Violation[] = [];
    if (saysFailure)
      out.push(
        finding('ENVELOPE-SUCCESS-TRUE-ON-200', '/success', 'true', 'false', 'a 200 response says success: false'),
      );
    if (env.stack !== undefined)
      out.push(
        finding(
          'ENVELOPE-STACK-DEV-ONLY',
          '/stack',
          'absent outside development',
          excerpt(env.stack),
          'a stack trace is exposed',
        ),
      );
    return out;
  },
};

/** Every automatic check, in the order their findings are reported. */
export const CHECKS: readonly ResponseCheck[] = [
  statusListed,
  jsonBodySchema,
  jsonContentType,
  errorBody,
  envelopeSemantics,
];
