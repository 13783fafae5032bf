/**
 * openapi.yaml can be walked by a generic OpenAPI tester: every operation is exemplified (its parameters,
 * its request body, each listed response), each example satisfies its schema, and the links between
 * operations carry real values. Without links a tester never learns that `executionId` comes from the run
 * response, and calls status, output and abort only with ids it made up; so every link's runtime
 * expressions are resolved here on the example responses they start from, and what they yield must be
 * accepted by the target operation's parameter and body schemas.
 */
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { newAjv, SCHEMA_BUNDLE_ID } from './codegen/codegen.ts';
import { checkResponse, failures, OPERATION_IDS, type OperationId } from './check.ts';
import { SCHEMA_BUNDLE } from './generated/schemas.ts';

const here = dirname(fileURLToPath(import.meta.url));
const doc = YAML.parse(readFileSync(join(here, 'openapi.yaml'), 'utf8')) as Record<string, unknown>;

// ---- runtime expressions (OpenAPI 3.1, "Runtime Expressions") ------------------------------------

/** One HTTP exchange as a link sees it: the request that was made and the response it starts from. */
interface Exchange {
  url: string;
  method: string;
  statusCode: number;
  request: {
    path: Record<string, unknown>;
    query: Record<string, unknown>;
    header: Record<string, string>;
    body?: unknown;
  };
  response: { header: Record<string, string>; body?: unknown };
}

/** A JSON pointer (RFC 6901) into a value; undefined where it leads nowhere. */
function atPointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) throw new Error(`JSON pointer ${JSON.stringify(pointer)} does not start with /`);
  let node = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      // An array index is digits without leading zeros; "-" (past the end) never holds a value.
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (node !== null && typeof node === 'object' && Object.hasOwn(node, token)) {
      node = (node as Record<string, unknown>)[token];
    } else return undefined;
  }
  return node;
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

const EXPRESSION =
  /^\$(?:(url|method|statusCode)|(request|response)\.(?:(header)\.([!#$%&'*+.^_`|~0-9A-Za-z-]+)|(query|path)\.(.+)|(body)(?:#(.*))?))$/;

/**
 * Evaluates one runtime expression; undefined where the exchange holds no such value. A string that starts
 * with `$` but is no runtime expression is an error in the contract, not a constant.
 */
export function evaluate(expression: string, x: Exchange): unknown {
  const m = EXPRESSION.exec(expression);
  if (!m) throw new Error(`${JSON.stringify(expression)} is not a runtime expression`);
  const [, whole, side, header, headerName, param, paramName, body, pointer] = m;
  if (whole === 'url') return x.url;
  if (whole === 'method') return x.method;
  if (whole === 'statusCode') return x.statusCode;
  const message = side === 'request' ? x.request : x.response;
  if (header) return headerValue(message.header, headerName!);
  if (param) {
    if (side === 'response') throw new Error(`${expression}: a response has no ${param} parameters`);
    const params = param === 'query' ? x.request.query : x.request.path;
    return Object.hasOwn(params, paramName!) ? params[paramName!] : undefined;
  }
  if (body) return atPointer(message.body, pointer ?? '');
  throw new Error(`unreachable: ${expression}`);
}

/**
 * The value a link sends: a runtime expression is evaluated, an expression embedded in a string as
 * `{$…}` is replaced by its value, and any other value is a constant. Expressions inside a requestBody
 * object are evaluated too, the form testers that support body links read (the upload → run link).
 */
export function resolveLinkValue(value: unknown, x: Exchange): unknown {
  if (typeof value === 'string') {
    if (value.startsWith('$')) return evaluate(value, x);
    if (!value.includes('{$')) return value;
    let missing = false;
    const text = value.replace(/\{(\$[^{}]+)\}/g, (_m, expression: string) => {
      const v = evaluate(expression, x);
      if (v === undefined) missing = true;
      return typeof v === 'string' ? v : JSON.stringify(v);
    });
    return missing ? undefined : text;
  }
  if (Array.isArray(value)) return value.map((v) => resolveLinkValue(v, x));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveLinkValue(v, x)]));
  }
  return value;
}

/** JSON pointers of every undefined left in a resolved value: expressions that did not resolve. */
function unresolvedIn(value: unknown, at = ''): string[] {
  if (value === undefined) return [at || '(whole value)'];
  if (Array.isArray(value)) return value.flatMap((v, i) => unresolvedIn(v, `${at}/${i}`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => unresolvedIn(v, `${at}/${k}`));
  return [];
}

// ---- the document, as a tester reads it ----------------------------------------------------------

type Json = Record<string, unknown>;
interface Example {
  summary?: string;
  value?: unknown;
}
interface MediaType {
  schema?: Json;
  example?: unknown;
  examples?: Record<string, Example>;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Json;
  example?: unknown;
  examples?: Record<string, Example>;
}
interface Link {
  operationId?: string;
  operationRef?: string;
  parameters?: Record<string, unknown>;
  requestBody?: unknown;
  description?: string;
}
interface Response {
  content?: Record<string, MediaType>;
  links?: Record<string, Link>;
}
interface Operation {
  id: OperationId;
  method: string;
  path: string;
  parameters: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, Response>;
}

/** Follows local `$ref`s (parameters, responses, examples) to the object they name. */
function deref<T>(node: unknown): T {
  let current = node as Json;
  for (let hops = 0; typeof current?.$ref === 'string'; hops++) {
    if (hops > 10) throw new Error(`$ref cycle at ${String(current.$ref)}`);
    const ref = current.$ref as string;
    if (!ref.startsWith('#/')) throw new Error(`only local $refs are read here: ${ref}`);
    current = atPointer(doc, ref.slice(1)) as Json;
    if (current === undefined) throw new Error(`unresolved $ref ${ref}`);
  }
  return current as T;
}

function exampleValues(holder: { example?: unknown; examples?: Record<string, Example> }): [string, unknown][] {
  const out: [string, unknown][] = [];
  if (holder.example !== undefined) out.push(['example', holder.example]);
  for (const [name, raw] of Object.entries(holder.examples ?? {})) {
    const example = deref<Example>(raw);
    if (example.value !== undefined) out.push([name, example.value]);
  }
  return out;
}

const OPERATIONS: Operation[] = [];
for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
  for (const method of ['get', 'put', 'post', 'delete', 'patch']) {
    const op = item[method] as Json | undefined;
    if (!op) continue;
    OPERATIONS.push({
      id: op.operationId as OperationId,
      method: method.toUpperCase(),
      path,
      parameters: [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map((p) =>
        deref<Parameter>(p),
      ),
      requestBody: op.requestBody ? deref(op.requestBody) : undefined,
      responses: Object.fromEntries(
        Object.entries(op.responses as Json).map(([status, r]) => [status, deref<Response>(r)]),
      ),
    });
  }
}
const byId = new Map(OPERATIONS.map((o) => [o.id, o]));

function operation(id: string): Operation {
  const op = byId.get(id as OperationId);
  if (!op) throw new Error(`no operation ${id}`);
  return op;
}

// ---- validation with the harness's own schemas ---------------------------------------------------

const ajv = newAjv({ standalone: false });
ajv.addSchema(SCHEMA_BUNDLE as unknown as Json);

/** Points the document's component refs at the schema bundle the harness validates with. */
function toBundleRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toBundleRefs);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string'
        ? v.replace('#/components/schemas/', `${SCHEMA_BUNDLE_ID}#/$defs/`)
        : toBundleRefs(v),
    ]),
  );
}

/** Schema errors of a value, as readable lines; empty when it conforms. */
function schemaErrors(schema: Json | undefined, value: unknown): string[] {
  if (!schema) throw new Error('no schema to validate against');
  const validate = ajv.compile(toBundleRefs(schema) as Json);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? e.keyword}`);
}

/** A parameter's example, as the query string or path would carry it typed: numbers stay numbers. */
function parameterValue(op: Operation, where: Parameter['in'], name: string): unknown {
  const p = op.parameters.find((q) => q.in === where && q.name === name);
  return p ? exampleValues(p)[0]?.[1] : undefined;
}

/** The request a tester would make from an operation's examples, with the response example it gets back. */
function exchangeFor(op: Operation, status: string, body: unknown): Exchange {
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  for (const p of op.parameters) {
    if (p.in === 'path') path[p.name] = parameterValue(op, 'path', p.name);
    if (p.in === 'query') query[p.name] = parameterValue(op, 'query', p.name);
  }
  const requestMedia = op.requestBody ? Object.values(op.requestBody.content)[0] : undefined;
  const url = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(String(path[name])));
  return {
    url: `http://127.0.0.1:4010/v1${url}`,
    method: op.method,
    statusCode: Number(status),
    request: {
      path,
      query,
      header: { authorization: 'Bearer example-key' },
      body: requestMedia ? exampleValues(requestMedia)[0]?.[1] : undefined,
    },
    response: { header: { 'content-type': 'application/json' }, body },
  };
}

interface LinkCase {
  from: Operation;
  status: string;
  name: string;
  link: Link;
  target: Operation;
}

const LINKS: LinkCase[] = OPERATIONS.flatMap((from) =>
  Object.entries(from.responses).flatMap(([status, response]) =>
    Object.entries(response.links ?? {}).map(([name, raw]) => {
      const link = deref<Link>(raw);
      return { from, status, name, link, target: operation(link.operationId ?? '(operationRef)') };
    }),
  ),
);

/** The target's parameter a link's key names: `in.name` or, when unambiguous, just `name`. */
function targetParameter(target: Operation, key: string): Parameter | undefined {
  const qualified = /^(path|query|header|cookie)\.(.+)$/.exec(key);
  if (qualified) return target.parameters.find((p) => p.in === qualified[1] && p.name === qualified[2]);
  const named = target.parameters.filter((p) => p.name === key);
  return named.length === 1 ? named[0] : undefined;
}

// ---- tests ---------------------------------------------------------------------------------------

test('the resolver reads runtime expressions as OpenAPI 3.1 defines them', () => {
  const x: Exchange = {
    url: 'http://127.0.0.1:4010/v1/openapi/workflow/c%2F1/run',
    method: 'POST',
    statusCode: 200,
    request: {
      path: { canvasId: 'c/1' },
      query: { page: 2 },
      header: { 'X-Trace': 't-1' },
      body: { variables: { a: 1 } },
    },
    response: {
      header: { 'Content-Type': 'application/json' },
      body: { data: { executionId: 'ex-1', files: [{ fileKey: 'fk-1' }], 'a/b': { '~': 'tilde' } } },
    },
  };
  expect(evaluate('$url', x)).toBe(x.url);
  expect(evaluate('$method', x)).toBe('POST');
  expect(evaluate('$statusCode', x)).toBe(200);
  expect(evaluate('$request.path.canvasId', x)).toBe('c/1');
  expect(evaluate('$request.query.page', x)).toBe(2);
  expect(evaluate('$request.header.x-trace', x)).toBe('t-1');
  expect(evaluate('$request.body#/variables/a', x)).toBe(1);
  expect(evaluate('$request.body', x)).toEqual({ variables: { a: 1 } });
  expect(evaluate('$response.header.content-type', x)).toBe('application/json');
  expect(evaluate('$response.body#/data/executionId', x)).toBe('ex-1');
  expect(evaluate('$response.body#/data/files/0/fileKey', x)).toBe('fk-1');
  expect(evaluate('$response.body#/data/a~1b/~0', x)).toBe('tilde');
  // Values the exchange does not hold resolve to nothing, which the link tests below reject.
  expect(evaluate('$response.body#/data/files/1/fileKey', x)).toBeUndefined();
  expect(evaluate('$response.body#/data/files/00/fileKey', x)).toBeUndefined();
  expect(evaluate('$response.body#/data/files/-', x)).toBeUndefined();
  expect(evaluate('$response.body#/data/execution_id', x)).toBeUndefined();
  expect(evaluate('$response.body#/data/executionId/length', x)).toBeUndefined();
  expect(evaluate('$request.path.executionId', x)).toBeUndefined();
  for (const bad of ['$foo', '$response.body/data', '$response.path.x', '$request.cookie.a', '$request.body#data']) {
    expect(() => evaluate(bad, x), bad).toThrow();
  }
  expect(resolveLinkValue('literal', x)).toBe('literal');
  expect(resolveLinkValue(7, x)).toBe(7);
  expect(resolveLinkValue(null, x)).toBeNull();
  expect(resolveLinkValue('run-{$response.body#/data/executionId}', x)).toBe('run-ex-1');
  expect(resolveLinkValue('run-{$response.body#/nothing}', x)).toBeUndefined();
  expect(
    resolveLinkValue({ variables: { doc: '$response.body#/data/files/0/fileKey', lang: 'fr', n: [1, '$method'] } }, x),
  ).toEqual({ variables: { doc: 'fk-1', lang: 'fr', n: [1, 'POST'] } });
  expect(unresolvedIn({ variables: { doc: undefined, ok: 'x' } })).toEqual(['/variables/doc']);
});

test('the document lists every operation of the generated table, once', () => {
  expect(OPERATIONS.map((o) => o.id).sort()).toEqual([...OPERATION_IDS].sort());
});

test('every operation is exemplified: each parameter, its request body and each listed response', () => {
  const counts = { parameters: 0, requestBodies: 0, responses: 0 };
  for (const op of OPERATIONS) {
    for (const p of op.parameters) {
      const n = exampleValues(p).length;
      expect(n, `${op.id}: parameter ${p.in}.${p.name} has no example`).toBeGreaterThan(0);
      counts.parameters += n;
    }
    for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
      const n = exampleValues(media).length;
      expect(n, `${op.id}: request body ${type} has no example`).toBeGreaterThan(0);
      counts.requestBodies += n;
    }
    // §4: the 200 and every listed error status (400, 401, 403, 404 where the operation lists them).
    expect(Object.keys(op.responses), op.id).toContain('200');
    for (const [status, response] of Object.entries(op.responses)) {
      const media = Object.entries(response.content ?? {});
      expect(media.length, `${op.id} ${status}: no content to exemplify`).toBeGreaterThan(0);
      for (const [type, m] of media) {
        const n = exampleValues(m).length;
        expect(n, `${op.id} ${status} ${type} has no example`).toBeGreaterThan(0);
        counts.responses += n;
      }
    }
  }
  test.info().annotations.push({ type: 'examples', description: JSON.stringify(counts) });
});

test('every parameter example satisfies its parameter schema', () => {
  for (const op of OPERATIONS) {
    for (const p of op.parameters) {
      for (const [name, value] of exampleValues(p)) {
        expect(schemaErrors(p.schema, value), `${op.id}: parameter ${p.name}, example ${name}`).toEqual([]);
        if (p.in === 'path') expect(value, `${op.id}: path example ${name} is empty`).toMatch(/^[^/]+$/);
      }
    }
  }
});

test('every request body example satisfies the request schema', () => {
  for (const op of OPERATIONS) {
    for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
      for (const [name, value] of exampleValues(media)) {
        expect(schemaErrors(media.schema, value), `${op.id} request ${type}, example ${name}`).toEqual([]);
      }
    }
  }
});

test('every response example satisfies its response schema and passes the checking API without findings', () => {
  for (const op of OPERATIONS) {
    for (const [status, response] of Object.entries(op.responses)) {
      for (const [type, media] of Object.entries(response.content ?? {})) {
        for (const [name, value] of exampleValues(media)) {
          const where = `${op.id} ${status} ${type}, example ${name}`;
          expect(schemaErrors(media.schema, value), where).toEqual([]);
          // The harness's own judge, with the generated validators: an error example's errCode must also
          // agree with the status §7 gives it, and no should-clause may be broken.
          const findings = checkResponse({
            operation: op.id,
            status: Number(status),
            headers: { 'content-type': type },
            body: JSON.stringify(value),
          });
          expect(failures(findings, true), where).toEqual([]);
        }
      }
    }
  }
});

test('the links are the walk from search, upload and generate to a run, and from a run to its execution', () => {
  const edges = LINKS.map((l) => `${l.from.id} ${l.status} → ${l.target.id}`).sort();
  expect(edges).toEqual(
    [
      'runWorkflow 200 → getExecutionStatus',
      'runWorkflow 200 → getExecutionOutput',
      'runWorkflow 200 → abortExecution',
      'getExecutionStatus 200 → getExecutionOutput',
      'getExecutionStatus 200 → abortExecution',
      'searchWorkflows 200 → getWorkflowDetail',
      'searchWorkflows 200 → runWorkflow',
      'getWorkflowDetail 200 → runWorkflow',
      'uploadFiles 200 → runWorkflow',
      'generateWorkflow 200 → getWorkflowDetail',
      'generateWorkflow 200 → runWorkflow',
    ].sort(),
  );
  // Every path parameter of the interface can be filled from a response instead of being made up.
  for (const op of OPERATIONS) {
    for (const p of op.parameters.filter((q) => q.in === 'path')) {
      const suppliers = LINKS.filter((l) => l.target === op && Object.keys(l.link.parameters ?? {}).length > 0).filter(
        (l) => Object.keys(l.link.parameters ?? {}).some((k) => targetParameter(op, k) === p),
      );
      expect(suppliers.length, `${op.id}: no link supplies ${p.name}`).toBeGreaterThan(0);
    }
  }
});

test('every link names its target by operationId, only parameters the target has, and a body only where it takes one', () => {
  for (const { from, status, name, link, target } of LINKS) {
    const where = `${from.id} ${status} link ${name}`;
    expect(link.operationRef, where).toBeUndefined();
    expect(byId.has(link.operationId as OperationId), where).toBe(true);
    expect(link.description?.trim().length, `${where}: a link says what it is for`).toBeGreaterThan(10);
    expect(Number(status), `${where}: links start from a success`).toBeGreaterThanOrEqual(200);
    expect(Number(status), where).toBeLessThan(300);
    for (const key of Object.keys(link.parameters ?? {})) {
      expect(targetParameter(target, key), `${where}: ${target.id} has no parameter ${key}`).toBeDefined();
    }
    if (link.requestBody !== undefined) {
      expect(
        target.requestBody?.content['application/json'],
        `${where}: ${target.id} takes no JSON body`,
      ).toBeDefined();
    }
    expect(link.parameters !== undefined || link.requestBody !== undefined, `${where} carries nothing`).toBe(true);
  }
});

test("every link resolves on each example response it starts from, to values its target's schemas accept", () => {
  let resolved = 0;
  for (const { from, status, name, link, target } of LINKS) {
    const media = from.responses[status]?.content?.['application/json'];
    const examples = media ? exampleValues(media) : [];
    expect(examples.length, `${from.id} ${status}: no example for link ${name} to start from`).toBeGreaterThan(0);
    for (const [exampleName, body] of examples) {
      const x = exchangeFor(from, status, body);
      const where = `${from.id} ${status} (example ${exampleName}) → link ${name} → ${target.id}`;
      for (const [key, expression] of Object.entries(link.parameters ?? {})) {
        const parameter = targetParameter(target, key)!;
        const value = resolveLinkValue(expression, x);
        expect(value, `${where}: ${key} = ${JSON.stringify(expression)} resolves to nothing`).toBeDefined();
        expect(schemaErrors(parameter.schema, value), `${where}: ${key} = ${JSON.stringify(value)}`).toEqual([]);
        // A path segment must be a non-empty string for the target's URL to address anything.
        if (parameter.in === 'path') expect(value, `${where}: ${key}`).toMatch(/.+/);
        resolved++;
      }
      if (link.requestBody !== undefined) {
        const value = resolveLinkValue(link.requestBody, x);
        expect(unresolvedIn(value), `${where}: requestBody expressions resolve to nothing`).toEqual([]);
        const schema = target.requestBody!.content['application/json']!.schema;
        expect(schemaErrors(schema, value), `${where}: requestBody ${JSON.stringify(value)}`).toEqual([]);
        resolved++;
      }
    }
  }
  expect(resolved).toBeGreaterThanOrEqual(LINKS.length);
});

test("the upload link fills a file variable of the examples' workflow with the uploaded fileKey", () => {
  const upload = LINKS.find((l) => l.from.id === 'uploadFiles' && l.target.id === 'runWorkflow');
  const variables = (upload?.link.requestBody as { variables?: Record<string, unknown> } | undefined)?.variables;
  expect(variables, 'the upload → run link sends variables in the recommended wrapper').toBeDefined();
  const [[variable, expression]] = Object.entries(variables!) as [[string, unknown]];
  expect(expression).toBe('$response.body#/data/files/0/fileKey');
  expect(upload!.link.description).toContain(`\`${variable}\``);
  // The name is the file variable (variableType resource) of the plan the detail example shows.
  const detail = operation('getWorkflowDetail').responses['200']!.content!['application/json']!;
  for (const [, body] of exampleValues(detail)) {
    const vars = (body as { data: { variables?: { name: string; variableType?: string }[] } }).data.variables ?? [];
    expect(vars.find((v) => v.name === variable)?.variableType).toBe('resource');
  }
  // And the run examples use that variable the same way.
  const run = operation('runWorkflow').requestBody!.content['application/json']!;
  const uploaded = exampleValues(operation('uploadFiles').responses['200']!.content!['application/json']!)[0]![1] as {
    data: { files: { fileKey: string }[] };
  };
  const runVars = (exampleValues(run)[0]![1] as { variables: Record<string, unknown> }).variables;
  expect(runVars[variable]).toBe(uploaded.data.files[0]!.fileKey);
});
