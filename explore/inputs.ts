/**
 * What the generative mode sends, as values fast-check generates and shrinks: one input per request,
 * written so that a minimal input reads as the request it stands for. Ids the exploration holds
 * (a canvas it discovered, an execution it started, a fileKey it uploaded) are references, resolved
 * when the request is sent, so an input replays against any target state.
 *
 * `prepare` turns an input into the request the contract-checked client sends, with the input's shape
 * (the features a fingerprint is made of) and the size class of its body (§8 limits).
 */
import type { FileSpec } from '../foundation/data/files.ts';
import { seg, type AuthMode, type RequestSpec } from '../engine/transport/exchange.ts';
import type { WorkflowPlan } from '../engine/judging/judging.ts';
import { limitOver, type LimitedRequest } from '../engine/judging/refusals.ts';
import { LIMITS } from '../contracts/error-codes.ts';
import { codePoints, isRepeat, numberFeatures, textFeatures, textOf, type Text } from './text.ts';

// ---- the input model -------------------------------------------------------------------------------

/** A variable value or a body field: every kind §4.1 names, plus null and references to uploaded files. */
export type Value = Text | number | boolean | null | Value[] | ObjectValue | FileKeyRef;

/** A JSON object as a list of entries: any name (even "__proto__") keeps its place and its order. */
export interface ObjectValue {
  $object: Entry[];
}

export interface Entry {
  name: string;
  value: Value;
}

/** The n-th fileKey the exploration holds (modulo how many it holds). */
export interface FileKeyRef {
  $fileKey: number;
}

/** No Authorization header at all, or one with this scheme and token (never a real key). */
export type AuthInput = { none: true } | { scheme: string; token: string };

interface Base {
  /** The family of the input: `allowed`, or the forbidden family it belongs to. */
  family: string;
  auth?: AuthInput;
}

/** A query number as sent: a number (written as JavaScript writes it), or any text. */
export type QueryNumber = number | { text: string };

export interface SearchInput extends Base {
  op: 'searchWorkflows';
  query: { keyword?: Text; order?: Text; page?: QueryNumber; pageSize?: QueryNumber };
}

export interface DetailInput extends Base {
  op: 'getWorkflowDetail';
  canvas: { $canvas: number } | { id: Text };
}

/** A canvas to run: the runnable one the exploration found, the one with a file variable, or any id. */
export type RunCanvas = { $canvas: 'plain' | 'files' } | { id: Text };

/**
 * How the declared variables of a discovered canvas are filled, whatever the canvas: an option by index,
 * a file variable by uploaded fileKeys (one, or an array), a string variable by a text.
 */
export interface Fill {
  text: Text;
  option: number;
  fileKeys: FileKeyRef[];
  asArray: boolean;
}

export type RunBody =
  /** No body at all. */
  | { form: 'none' }
  /** A JSON object: the `variables` wrapper (any value, for the forbidden families) and legacy top-level fields. */
  | { form: 'json'; variables?: Value; legacy: Entry[] }
  /** A body sent as is (forbidden: not a JSON object). */
  | { form: 'raw'; text: Text };

export interface RunInput extends Base {
  op: 'runWorkflow';
  canvas: RunCanvas;
  body: RunBody;
  fill: Fill;
}

export type ExecutionOp = 'getExecutionStatus' | 'getExecutionOutput' | 'abortExecution';

export interface ExecutionInput extends Base {
  op: ExecutionOp;
  execution: { $execution: number } | { id: Text };
}

export interface FileInput {
  name: Text;
  type: string;
  size: number;
  /** Seed of the content bytes. */
  fill: number;
}

export type UploadBody =
  | { form: 'files'; field?: string; files: FileInput[] }
  /** A multipart body with text fields only. */
  | { form: 'text-fields'; fields: { name: string; value: string }[] }
  /** A JSON body: not multipart. */
  | { form: 'json'; text: string };

export interface UploadInput extends Base {
  op: 'uploadFiles';
  body: UploadBody;
}

export type GenerateBody =
  /**
   * Where overwriting is allowed, generate names the canvas it may overwrite unless `create` asks for a new
   * one: shrinking drops `create`, so narrowing a failure down replaces one canvas instead of adding many.
   */
  { form: 'json'; query?: Value; locale?: Value; create?: true } | { form: 'raw'; text: Text };

export interface GenerateInput extends Base {
  op: 'generateWorkflow';
  body: GenerateBody;
}

export type ExploreInput = SearchInput | DetailInput | RunInput | ExecutionInput | UploadInput | GenerateInput;

// ---- what the exploration holds ----------------------------------------------------------------------

export interface KnownCanvas {
  canvasId: string;
  plan?: WorkflowPlan;
}

/** The target as the exploration knows it: what references resolve to. Grows as requests succeed. */
export interface World {
  /** Canvases whose detail was read (detail references). */
  canvases: KnownCanvas[];
  /** A canvas that runs with nothing but its declared variables filled. */
  plain?: KnownCanvas;
  /** A canvas with a file variable: runs carry uploaded fileKeys. */
  files?: KnownCanvas;
  fileKeys: string[];
  executions: string[];
  /** The canvas generate may overwrite; undefined: generate never names a canvas. */
  overwrite?: string;
  /** The keys in use: never sent as a wrong key, never to be found in an answer. */
  keys: string[];
}

// ---- sizes (§8) ------------------------------------------------------------------------------------

/** §8: 100KB. Read as 100 000 bytes for "within", 102 400 for "over": between the two it is not clear. */
export const PAYLOAD_WITHIN_BYTES = LIMITS.payloadBytesSurelyWithin;
export const PAYLOAD_OVER_BYTES = LIMITS.payloadBytesSurelyOver;
/** §8: 100k characters. Code points or UTF-16 units: within both is within, over both is over. */
export const CONTENT_LIMIT_CHARS = LIMITS.maxContentChars;

export type SizeClass = 'within' | 'ambiguous' | 'content-over' | 'payload-over';

/**
 * The size class of a JSON body of run or generate: over a limit as the engine reads the limits
 * (limitOver: content is what the operation takes, the payload is the whole body), within both readings
 * of both limits, or in between (ambiguous). `content` are the texts the operation takes as content.
 */
function sizeClassOf(operation: LimitedRequest['operation'], bytes: number, content: readonly string[]): SizeClass {
  let units = 0;
  let points = 0;
  for (const s of content) {
    if (s.length <= units) continue;
    units = s.length;
    points = Math.max(points, codePoints(s));
  }
  const over = limitOver({ operation, payloadBytes: bytes, longestContent: points });
  if (over === 'LIMIT-CONTENT-100K') return 'content-over';
  if (over === 'LIMIT-PAYLOAD-100KB') return 'payload-over';
  return bytes <= PAYLOAD_WITHIN_BYTES && units <= CONTENT_LIMIT_CHARS ? 'within' : 'ambiguous';
}

// ---- preparing a request -----------------------------------------------------------------------------

export interface Prepared {
  spec: RequestSpec;
  /** The shape of the request: what a fingerprint is made of. */
  features: string[];
  size: SizeClass;
  /** What a 2xx answer leaves on the target: an execution, a new canvas, or a replaced plan. */
  writes?: 'execution' | 'canvas' | 'overwrite';
  /** A 2xx answer is to be expected (a real canvas is named): the request counts against the footprint cap. */
  mayWrite: boolean;
  /** The body's values when it is JSON the explorer built (for limits and display). */
  bodyText?: string;
}

class Builder {
  readonly features = new Set<string>();
  readonly strings: string[] = [];
  /** Texts the operation takes as content (§8's content limit): generate's query, declared text variables. */
  readonly content: string[] = [];
  /** Names of the variables the run's workflow declares as text: their values are content. */
  contentNames: ReadonlySet<string> = new Set();

  constructor(readonly world: World) {}

  /** Runs `build`, keeping the texts it wrote as content the operation takes. */
  asContent<T>(build: () => T): T {
    const from = this.strings.length;
    const out = build();
    this.content.push(...this.strings.slice(from));
    return out;
  }

  text(path: string, t: Text): string {
    const s = textOf(t);
    textFeatures(path, s, this.features);
    return s;
  }

  fileKey(path: string, ref: FileKeyRef): string {
    this.features.add(`${path}:fileKey`);
    const keys = this.world.fileKeys;
    return keys.length ? keys[ref.$fileKey % keys.length]! : 'fk_wfcheck_explore_none_uploaded';
  }

  /** JSON text of a value, written by hand so every name keeps its place (and "__proto__" is a name). */
  json(path: string, v: Value): string {
    if (v === null) {
      this.features.add(`${path}:null`);
      return 'null';
    }
    if (typeof v === 'boolean') {
      this.features.add(`${path}:boolean`);
      return String(v);
    }
    if (typeof v === 'number') {
      numberFeatures(path, v, this.features);
      return JSON.stringify(v);
    }
    if (typeof v === 'string' || isRepeat(v)) {
      const s = this.text(path, v);
      this.strings.push(s);
      return JSON.stringify(s);
    }
    if ('$fileKey' in v) return JSON.stringify(this.fileKey(path, v));
    // Objects and arrays are one kind: "structured" (a bug that breaks on one usually breaks on both).
    this.features.add(`${path}:structured`);
    if (Array.isArray(v)) {
      if (v.length) this.features.add(`${path}:structured>0`);
      return `[${v.map((x) => this.json(`${path}.*`, x)).join(',')}]`;
    }
    if (v.$object.length) this.features.add(`${path}:structured>0`);
    return this.object(`${path}.*`, v.$object);
  }

  object(path: string, entries: readonly Entry[]): string {
    const parts = entries.map((e) => {
      this.strings.push(e.name);
      textFeatures(`${path}#name`, e.name, this.features);
      const value = () => this.json(path, e.value);
      return `${JSON.stringify(e.name)}:${path === 'vars.*' && this.contentNames.has(e.name) ? this.asContent(value) : value()}`;
    });
    return `{${parts.join(',')}}`;
  }

  auth(input: Base): AuthMode {
    const a = input.auth;
    if (!a) return { kind: 'tenant' };
    if ('none' in a) {
      this.features.add('auth:none');
      return { kind: 'none' };
    }
    this.features.add(`auth:scheme:${a.scheme.toLowerCase() || '(none)'}`);
    if (a.token) this.features.add('auth:token');
    // Never a real key, whatever was generated.
    const token = this.world.keys.includes(a.token) ? `${a.token}x` : a.token;
    return { kind: 'literal', value: a.scheme ? `${a.scheme} ${token}` : token };
  }

  id(path: string, t: Text): string {
    return this.text(path, t);
  }
}

/** The fileKey refs as the variable takes them: one key, or an array of keys. */
function fileValue(fill: Fill): Value {
  const refs = fill.fileKeys.length ? fill.fileKeys : [{ $fileKey: 0 }];
  return fill.asArray ? refs : refs[0]!;
}

/** The declared variables of a discovered canvas, filled: required ones, and every file variable. */
function declaredEntries(plan: WorkflowPlan | undefined, fill: Fill): Entry[] {
  const out: Entry[] = [];
  for (const v of plan?.variables ?? []) {
    if (typeof v?.name !== 'string') continue;
    if (v.variableType === 'resource') out.push({ name: v.name, value: fileValue(fill) });
    else if (!v.required) continue;
    else if (v.variableType === 'option' && v.options?.length)
      out.push({ name: v.name, value: v.options[fill.option % v.options.length]! });
    else out.push({ name: v.name, value: isEmptyText(fill.text) ? 'x' : fill.text });
  }
  return out;
}

function isObjectValue(v: Value | undefined): v is ObjectValue {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && '$object' in v;
}

function isEmptyText(t: Text): boolean {
  return textOf(t) === '';
}

/** `entries` with the declared ones added where the input did not name them itself. */
function withDeclared(entries: readonly Entry[], declared: readonly Entry[]): Entry[] {
  const named = new Set(entries.map((e) => e.name));
  return [...entries, ...declared.filter((d) => !named.has(d.name))];
}

function prepareRun(input: RunInput, b: Builder): Omit<Prepared, 'features'> {
  const c = input.canvas;
  let canvasId: string;
  let plan: WorkflowPlan | undefined;
  let real = false;
  if ('$canvas' in c) {
    const known = c.$canvas === 'plain' ? b.world.plain : b.world.files;
    b.features.add(`canvas:${c.$canvas}`);
    canvasId = known?.canvasId ?? 'wfcheck-explore-no-canvas';
    plan = known?.plan;
    real = !!known;
  } else canvasId = b.id('canvasId', c.id);
  const path = `/openapi/workflow/${seg(canvasId)}/run`;
  const base = { method: 'POST', path, auth: b.auth(input), label: `explore ${input.family}` };
  const body = input.body;
  if (body.form === 'none') {
    b.features.add('body:none');
    return { spec: base, size: 'within', writes: 'execution', mayWrite: real };
  }
  if (body.form === 'raw') {
    const text = b.text('body:raw', body.text);
    return {
      spec: { ...base, raw: { body: text, contentType: 'application/json' } },
      size: sizeClassOf('runWorkflow', Buffer.byteLength(text), []),
      writes: 'execution',
      mayWrite: real,
      bodyText: text,
    };
  }
  const declared = declaredEntries(plan, input.fill);
  b.contentNames = new Set(
    (plan?.variables ?? [])
      .filter((v) => typeof v?.name === 'string' && (v.variableType ?? 'string') === 'string')
      .map((v) => v.name),
  );
  const parts: string[] = [];
  const wrapper = body.variables;
  const object = isObjectValue(wrapper) ? wrapper : undefined;
  if (wrapper !== undefined) {
    b.features.add('body:wrapper');
    // The wrapper's entries are variables, as legacy fields are: one path for both forms.
    const text = object ? b.object('vars.*', withDeclared(object.$object, declared)) : b.json('variables', wrapper);
    parts.push(`"variables":${text}`);
  }
  const legacy = object ? body.legacy : withDeclared(body.legacy, declared);
  if (legacy.length) b.features.add('body:legacy');
  const legacyText = b.object('vars.*', legacy);
  if (legacy.length) parts.push(legacyText.slice(1, -1));
  const text = `{${parts.join(',')}}`;
  b.strings.push('variables');
  return {
    spec: { ...base, raw: { body: text, contentType: 'application/json' } },
    size: sizeClassOf('runWorkflow', Buffer.byteLength(text), b.content),
    writes: 'execution',
    mayWrite: real,
    bodyText: text,
  };
}

/** Number of a query as sent, and its shape: a number's when it reads as one, a text's otherwise. */
function queryNumber(b: Builder, path: string, n: QueryNumber): string {
  const raw = typeof n === 'number' ? String(n) : n.text;
  const x = raw.trim() === '' ? Number.NaN : Number(raw);
  if (Number.isFinite(x)) {
    numberFeatures(path, x, b.features);
    if (typeof n !== 'number') b.features.add(`${path}:as-text`);
  } else textFeatures(`${path}:text`, raw, b.features);
  return raw;
}

const PLAIN_PAGE = /^[1-9]\d{0,15}$/;

/**
 * The first point the specification leaves open that a search query touches, if any: an `order` value
 * ("not shown"), a page that is no plain positive integer, a page size beyond 50 (what the suites rely
 * on), below 1 or not whole ("default and maximum page size: not shown"). An unlisted 4xx to such a
 * query is that point's observation.
 */
function searchOpenPoint(query: Record<string, string>): string | undefined {
  if (query.order !== undefined) return 'SEARCH-ORDER-VALUES';
  const page = query.page;
  if (page !== undefined && !(PLAIN_PAGE.test(page) && Number(page) <= 2 ** 53)) return 'SEARCH-PAGESIZE-DEFAULT';
  const size = query.pageSize;
  if (size !== undefined && !(PLAIN_PAGE.test(size) && Number(size) <= 50)) return 'SEARCH-PAGESIZE-MAX';
  return undefined;
}

function prepareSearch(input: SearchInput, b: Builder): Omit<Prepared, 'features'> {
  const q = input.query;
  const query: Record<string, string> = {};
  if (q.keyword !== undefined) query.keyword = b.text('keyword', q.keyword);
  if (q.order !== undefined) query.order = b.text('order', q.order);
  if (q.page !== undefined) query.page = queryNumber(b, 'page', q.page);
  if (q.pageSize !== undefined) query.pageSize = queryNumber(b, 'pageSize', q.pageSize);
  // Only an allowed query probes an open point: a forbidden one is about the clause that refuses it.
  const openPoint = input.family === 'allowed' && !input.auth ? searchOpenPoint(query) : undefined;
  return {
    spec: {
      method: 'GET',
      path: '/openapi/workflows',
      query,
      auth: b.auth(input),
      label: `explore ${input.family}`,
      ...(openPoint ? { openPoint } : {}),
    },
    size: 'within',
    mayWrite: false,
  };
}

function prepareDetail(input: DetailInput, b: Builder): Omit<Prepared, 'features'> {
  let id: string;
  if ('$canvas' in input.canvas) {
    b.features.add('canvas:known');
    const list = b.world.canvases;
    id = list.length ? list[input.canvas.$canvas % list.length]!.canvasId : 'wfcheck-explore-no-canvas';
  } else id = b.id('canvasId', input.canvas.id);
  return {
    spec: {
      method: 'GET',
      path: `/openapi/workflows/${seg(id)}`,
      auth: b.auth(input),
      label: `explore ${input.family}`,
    },
    size: 'within',
    mayWrite: false,
  };
}

const EXECUTION_PATHS: Record<ExecutionOp, [method: string, suffix: string]> = {
  getExecutionStatus: ['GET', 'status'],
  getExecutionOutput: ['GET', 'output'],
  abortExecution: ['POST', 'abort'],
};

function prepareExecution(input: ExecutionInput, b: Builder): Omit<Prepared, 'features'> {
  let id: string;
  if ('$execution' in input.execution) {
    b.features.add('execution:started');
    const list = b.world.executions;
    id = list.length ? list[input.execution.$execution % list.length]! : 'wfcheck-explore-no-execution';
  } else id = b.id('executionId', input.execution.id);
  const [method, suffix] = EXECUTION_PATHS[input.op];
  return {
    spec: {
      method,
      path: `/openapi/workflow/${seg(id)}/${suffix}`,
      auth: b.auth(input),
      label: `explore ${input.family}`,
    },
    size: 'within',
    mayWrite: false,
  };
}

/** Deterministic bytes of a generated file (xorshift from its seed). */
export function fileBytes(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

const BOUNDARY = 'wfcheck-explore-boundary';

/** A multipart/form-data body of text fields, names escaped as form libraries escape them. */
function textFieldsBody(fields: readonly { name: string; value: string }[]): string {
  const esc = (s: string) => s.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
  const parts = fields.map(
    (f) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${esc(f.name)}"\r\n\r\n${f.value}\r\n`,
  );
  return `${parts.join('')}--${BOUNDARY}--\r\n`;
}

function prepareUpload(input: UploadInput, b: Builder): Omit<Prepared, 'features'> {
  const base = { method: 'POST', path: '/openapi/files/upload', auth: b.auth(input), label: `explore ${input.family}` };
  const body = input.body;
  if (body.form === 'json') {
    b.features.add('body:json');
    textFeatures('body:json', body.text, b.features);
    return {
      spec: { ...base, raw: { body: body.text, contentType: 'application/json' } },
      size: 'within',
      mayWrite: false,
    };
  }
  if (body.form === 'text-fields') {
    b.features.add('body:text-fields');
    for (const f of body.fields) {
      textFeatures('field#name', f.name, b.features);
      textFeatures('field', f.value, b.features);
    }
    return {
      spec: {
        ...base,
        raw: { body: textFieldsBody(body.fields), contentType: `multipart/form-data; boundary=${BOUNDARY}` },
      },
      size: 'within',
      mayWrite: false,
    };
  }
  if (body.field !== undefined) textFeatures('body:field', body.field, b.features);
  if (body.files.length > 1) b.features.add('files:many');
  if (body.files.length === 0) b.features.add('files:none');
  const files: FileSpec[] = body.files.map((f) => {
    const name = b.text('file.name', f.name);
    b.features.add(f.type === '' ? 'file.type:empty' : 'file.type');
    if (f.size > 0) b.features.add('file.size>0');
    if (f.size > 16 * 1024) b.features.add('file.size>16KiB');
    return { name, type: f.type, content: fileBytes(f.size, f.fill) };
  });
  return {
    spec: { ...base, multipart: { files, ...(body.field !== undefined ? { field: body.field } : {}) } },
    size: 'within',
    mayWrite: false,
  };
}

function prepareGenerate(input: GenerateInput, b: Builder): Omit<Prepared, 'features'> {
  const base = {
    method: 'POST',
    path: '/openapi/copilot/workflow/generate',
    auth: b.auth(input),
    label: `explore ${input.family}`,
  };
  const body = input.body;
  if (body.form === 'raw') {
    const text = b.text('body:raw', body.text);
    return {
      spec: { ...base, raw: { body: text, contentType: 'application/json' } },
      size: sizeClassOf('generateWorkflow', Buffer.byteLength(text), []),
      writes: 'canvas',
      mayWrite: true,
      bodyText: text,
    };
  }
  const parts: string[] = [];
  const query = body.query;
  if (query !== undefined) parts.push(`"query":${b.asContent(() => b.json('query', query))}`);
  if (body.locale !== undefined) parts.push(`"locale":${b.json('locale', body.locale)}`);
  const overwrite = !body.create ? b.world.overwrite : undefined;
  if (overwrite) parts.push(`"canvasId":${JSON.stringify(overwrite)}`);
  else b.features.add('canvas:new');
  const text = `{${parts.join(',')}}`;
  return {
    spec: { ...base, raw: { body: text, contentType: 'application/json' } },
    size: sizeClassOf('generateWorkflow', Buffer.byteLength(text), b.content),
    writes: overwrite ? 'overwrite' : 'canvas',
    mayWrite: !overwrite,
    bodyText: text,
  };
}

/** The request an input stands for, resolved against what the exploration holds now. */
export function prepare(input: ExploreInput, world: World): Prepared {
  const b = new Builder(world);
  let p: Omit<Prepared, 'features'>;
  switch (input.op) {
    case 'searchWorkflows':
      p = prepareSearch(input, b);
      break;
    case 'getWorkflowDetail':
      p = prepareDetail(input, b);
      break;
    case 'runWorkflow':
      p = prepareRun(input, b);
      break;
    case 'getExecutionStatus':
    case 'getExecutionOutput':
    case 'abortExecution':
      p = prepareExecution(input, b);
      break;
    case 'uploadFiles':
      p = prepareUpload(input, b);
      break;
    case 'generateWorkflow':
      p = prepareGenerate(input, b);
      break;
  }
  if (p.size !== 'within') b.features.add(`size:${p.size}`);
  return { ...p, features: [...b.features].sort() };
}

// ---- shape ----------------------------------------------------------------------------------------------

/**
 * Features every request of its operation has, or that say only which form carried a value (the wrapper or
 * legacy fields, a discovered canvas or any id, a media type or none): left out of a finding's shape, so one
 * deviation reached through another form or canvas is recognised as the same finding.
 */
const NEUTRAL = new Set([
  'body:wrapper',
  'body:legacy',
  'canvas:plain',
  'canvas:files',
  'canvas:known',
  'canvas:new',
  'execution:started',
  'canvasId',
  'canvasId:len>0',
  'executionId',
  'executionId:len>0',
  'file.name',
  'file.name:len>0',
  'file.type',
  'vars.*#name',
]);

/** The shape of a request: its features without the neutral ones. */
export function shapeOf(features: readonly string[]): string[] {
  return features.filter((f) => !NEUTRAL.has(f));
}

// ---- showing an input ----------------------------------------------------------------------------

const SHOWN_TEXT = 160;

/** An input as a person reads it: long texts cut (their length kept), everything else as generated. */
export function showInput(input: ExploreInput | unknown): unknown {
  const cut = (v: unknown): unknown => {
    if (typeof v === 'string')
      return v.length > SHOWN_TEXT ? `${v.slice(0, SHOWN_TEXT)}… (${codePoints(v)} characters)` : v;
    if (Array.isArray(v)) return v.map(cut);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cut(x)]));
    return v;
  };
  // How declared variables are filled matters only when a discovered canvas declares them.
  const shown = input as Partial<RunInput>;
  if (shown.op === 'runWorkflow' && shown.canvas && 'id' in shown.canvas) {
    const { fill: _fill, ...rest } = shown;
    return cut(rest);
  }
  return cut(input);
}
