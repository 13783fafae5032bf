/**
 * What the generative mode sends: `prepare` turns an input (model.ts) into the request the
 * contract-checked client sends, its references resolved against what the exploration holds now, with
 * the input's shape (the features a fingerprint is made of) and the size class of its body (§8 limits).
 */
import { seg, type RequestSpec } from '../../core/transport/exchange.ts';
import type { WorkflowPlan } from '../../core/judging/payloads.ts';
import { limitOver, UPLOAD_CONTENT_TYPE, type LimitedRequest } from '../../core/judging/refusals.ts';
import { LIMITS } from '../../contracts/error-codes.ts';
import type { ObserveClauseId } from '../../contracts/requirements.ts';
import { Builder, type Probe } from './builder.ts';
import { isPercent } from './encodings.ts';
import { HEADER_OPEN_POINT, headerFeature, withHeader } from './headers.ts';
import { uploadBody } from './parts.ts';
import type { Run } from './runs.ts';
import type {
  Coding,
  DetailInput,
  Entry,
  ExecutionInput,
  ExecutionOp,
  ExploreInput,
  Fill,
  GenerateInput,
  ObjectValue,
  QueryNumber,
  RunInput,
  SearchFacts,
  SearchInput,
  UploadInput,
  Value,
  World,
} from './model.ts';
import { codePoints, EMPTY, LIMIT_EXPONENTS, textOf, type Text } from './text.ts';

// ---- sizes (§8) ------------------------------------------------------------------------------------

/**
 * §8: 100KB read as 100 000 bytes for "within" (102 400 for "over" is limitOver's): between the two it is not
 * clear. 100k characters in code points or UTF-16 units: within both is within, over both is over.
 */
const PAYLOAD_WITHIN_BYTES = LIMITS.payloadBytesSurelyWithin;
const CONTENT_LIMIT_CHARS = LIMITS.maxContentChars;

export type SizeClass = 'within' | 'ambiguous' | 'content-over' | 'payload-over';

/**
 * The size class of a JSON body of run or generate: over a limit as the core reads the limits
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
  /** Long runs of one character the request carries (runs.ts). */
  runs?: Run[];
  /** A search keyword no title holds, as sent, with the titles read in setup: what it must list is nothing. */
  inNoTitle?: { keyword: string; facts: SearchFacts };
}

/** The fileKey refs as the variable takes them: one key, or an array of keys. */
function fileValue(fill: Fill): Value {
  const refs = fill.fileKeys.length ? fill.fileKeys : [{ $fileKey: 0 }];
  return fill.asArray ? refs : refs[0]!;
}

/**
 * The declared variables of a discovered canvas, filled: required ones, and every file variable (only the
 * required ones where the run is about a declared variable's value: nothing else in it but what it needs).
 */
function declaredEntries(plan: WorkflowPlan | undefined, fill: Fill, requiredOnly = false): Entry[] {
  const out: Entry[] = [];
  for (const v of plan?.variables ?? []) {
    if (typeof v?.name !== 'string') continue;
    if (v.variableType === 'resource' && (v.required || !requiredOnly))
      out.push({ name: v.name, value: fileValue(fill) });
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
  let segment: string;
  let plan: WorkflowPlan | undefined;
  let real = false;
  if ('$canvas' in c) {
    const known = c.$canvas === 'plain' ? b.world.plain : c.$canvas === 'files' ? b.world.files : b.world.inputs;
    b.features.add(`canvas:${c.$canvas}`);
    segment = seg(known?.canvasId ?? 'wfcheck-explore-no-canvas');
    plan = known?.plan;
    real = !!known;
  } else segment = b.segment('canvasId', c.id);
  const path = `/openapi/workflow/${segment}/run`;
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
  const declared = declaredEntries(plan, input.fill, '$canvas' in c && c.$canvas === 'inputs');
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
    spec: { ...base, raw: { body: text, contentType: 'application/json' }, ...edgeOpenPoint(b) },
    size: sizeClassOf('runWorkflow', Buffer.byteLength(text), b.content),
    writes: 'execution',
    mayWrite: real,
    bodyText: text,
  };
}

/**
 * A query number as it goes in the query string (form-encoded, or percent-escapes as they are), and its
 * shape: a number's when it reads as one, a text's otherwise.
 */
function queryNumber(b: Builder, path: string, n: QueryNumber): string {
  const encoded = (raw: string) => new URLSearchParams({ v: raw }).toString().slice(2);
  if (typeof n === 'number') return encoded(b.number(path, { $number: String(n) }));
  if (isPercent(n)) return b.url(path, n, 'query');
  if ('$number' in n) return encoded(b.number(path, n));
  const x = n.text.trim() === '' ? Number.NaN : Number(n.text);
  if (!Number.isFinite(x)) return encoded(b.text(`${path}:text`, n.text));
  b.features.add(`${path}:as-text`);
  return encoded(b.number(path, { $number: n.text }));
}

const PLAIN_PAGE = /^[1-9]\d{0,15}$/;

/** The classic limits the offset of a page, (page − 1) × pageSize, can cross (2^15 … 2^64). */
const OFFSET_LIMITS = LIMIT_EXPONENTS.map((e) => 2n ** BigInt(e));

/**
 * The offset of a page of whole numbers, (page − 1) × pageSize, as features for the table of families tried
 * (never part of a shape): the limits it passes, and whether it is within one page size of one (an edge).
 */
function offsetOf(b: Builder, page: string | undefined, size: string | undefined): boolean {
  if (!page || !PLAIN_PAGE.test(page)) return false;
  // No pageSize: the page is served at the default, which only the server knows (observed in setup, or a common one).
  if (size === undefined) return defaultSizesOf(b.world).some((d) => offsetOf(b, page, String(d)));
  if (!PLAIN_PAGE.test(size)) return false;
  const offset = (BigInt(page) - 1n) * BigInt(size);
  let edge = false;
  for (const [i, limit] of OFFSET_LIMITS.entries()) {
    if (offset >= limit) b.features.add(`offset:>=2^${LIMIT_EXPONENTS[i]}`);
    if (offset - limit < BigInt(size) && limit - offset <= BigInt(size)) edge = true;
  }
  return edge;
}

/** Page sizes servers commonly serve by default and at most (Spring 20 and 2000, Django REST 100…). */
export const COMMON_PAGE_SIZES = [10, 20, 25, 50, 100, 1000] as const;

/** The page sizes a page without pageSize may be served at: the one observed in setup, else the common ones. */
export function defaultSizesOf(world: World): number[] {
  const seen = world.search?.servedByDefault;
  return seen ? [seen] : [...COMMON_PAGE_SIZES];
}

/**
 * The first point the specification leaves open that a search query touches, if any: an `order` value
 * ("not shown"), a page that is no plain positive integer or is at an edge (a classic limit, an offset
 * crossing one), a page size beyond 50 (what the suites rely on), below 1 or not whole ("default and
 * maximum page size: not shown"). An unlisted 4xx to such a query is that point's observation.
 */
function searchOpenPoint(query: Record<string, string>, edge: boolean): ObserveClauseId | undefined {
  if (query.order !== undefined) return 'SEARCH-ORDER-VALUES';
  const page = query.page;
  if (page !== undefined && !(PLAIN_PAGE.test(page) && Number(page) <= 2 ** 53)) return 'SEARCH-PAGESIZE-DEFAULT';
  const size = query.pageSize;
  if (size !== undefined && !(PLAIN_PAGE.test(size) && Number(size) <= 50)) return 'SEARCH-PAGESIZE-MAX';
  if (query.keyword !== undefined && oddKeyword(query.keyword)) return ODD_KEYWORD_OPEN_POINT;
  return edge ? 'SEARCH-PAGESIZE-DEFAULT' : undefined;
}

/**
 * A keyword a careful server may refuse as a parameter it will not take: a control character (NUL, DEL, C1)
 * no title holds, or more characters than a title column holds. Its refusal carries a §7 code of no listed
 * status (E0003, a system parameter error), so an unlisted 4xx is recorded; a list served is still judged.
 */
const ODD_KEYWORD_OPEN_POINT = 'ERROR-STATUS-FOR-UNLISTED-CODES' as const satisfies ObserveClauseId;
const KEYWORD_COLUMN = 255;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is looked for
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const oddKeyword = (k: string) => CONTROL.test(k) || [...k].length > KEYWORD_COLUMN;

function prepareSearch(input: SearchInput, b: Builder): Omit<Prepared, 'features'> {
  const q = input.query;
  const sent: [string, string][] = [];
  if (q.keyword !== undefined) sent.push(['keyword', b.url('keyword', q.keyword, 'query')]);
  if (q.order !== undefined) sent.push(['order', b.url('order', q.order, 'query')]);
  if (q.page !== undefined) sent.push(['page', queryNumber(b, 'page', q.page)]);
  if (q.pageSize !== undefined) sent.push(['pageSize', queryNumber(b, 'pageSize', q.pageSize)]);
  // What the server reads (escapes that are no UTF-8 read as no number at all).
  const read = Object.fromEntries(sent.map(([k, v]) => [k, safeDecode(v)]));
  const edge = offsetOf(b, read.page, read.pageSize) || b.edge;
  // Only an allowed query probes an open point: a forbidden one is about the clause that refuses it.
  const openPoint = input.family === 'allowed' && !input.auth ? searchOpenPoint(read, edge) : undefined;
  const search = sent.map(([k, v]) => `${k}=${v}`).join('&');
  const facts = b.world.search;
  const keyword = read.keyword;
  return {
    spec: {
      method: 'GET',
      path: `/openapi/workflows${search ? `?${search}` : ''}`,
      auth: b.auth(input),
      label: `explore ${input.family}`,
      ...(openPoint ? { openPoint } : {}),
    },
    size: 'within',
    mayWrite: false,
    ...(input.keywordInNoTitle && facts && keyword !== undefined ? { inNoTitle: { keyword, facts } } : {}),
  };
}

/** A form-encoded query value as a server reads it; escapes that are no UTF-8 read as such. */
function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v.replace(/\+/g, ' '));
  } catch {
    return `%not-utf8:${v}`;
  }
}

function prepareDetail(input: DetailInput, b: Builder): Omit<Prepared, 'features'> {
  let segment: string;
  if ('$canvas' in input.canvas) {
    b.features.add('canvas:known');
    const list = b.world.canvases;
    segment = seg(list.length ? list[input.canvas.$canvas % list.length]!.canvasId : 'wfcheck-explore-no-canvas');
  } else segment = b.segment('canvasId', input.canvas.id);
  return {
    spec: {
      method: 'GET',
      path: `/openapi/workflows/${segment}`,
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
  let segment: string;
  if ('$execution' in input.execution) {
    b.features.add('execution:started');
    const list = b.world.executions;
    segment = seg(list.length ? list[input.execution.$execution % list.length]! : 'wfcheck-explore-no-execution');
  } else segment = b.segment('executionId', input.execution.id);
  const [method, suffix] = EXECUTION_PATHS[input.op];
  return {
    spec: {
      method,
      path: `/openapi/workflow/${segment}/${suffix}`,
      auth: b.auth(input),
      label: `explore ${input.family}`,
    },
    size: 'within',
    mayWrite: false,
  };
}

function prepareUpload(input: UploadInput, b: Builder): Omit<Prepared, 'features'> {
  const base = { method: 'POST', path: '/openapi/files/upload', auth: b.auth(input), label: `explore ${input.family}` };
  const body = uploadBody(input.body, b);
  // Not multipart: its refusal as a media type (415) is UPLOAD-CONTENT-TYPE's to record (judge.ts).
  const open = input.body.form === 'json' ? { openPoint: UPLOAD_CONTENT_TYPE } : edgeOpenPoint(b);
  return { spec: { ...base, ...body, ...open }, size: 'within', mayWrite: false };
}

/**
 * A body labelled with a content coding it is not encoded in: the bytes are plain. A decoder meets bytes that
 * are no gzip, deflate or brotli stream; how a server refuses them (400, 415) is its own choice, and so is
 * reading the body as it is (most frameworks never decode a request body). One class whatever the coding.
 */
function withCoding(spec: RequestSpec, coding: Coding, b: Builder): RequestSpec {
  b.features.add('body:coding-not-applied');
  return {
    ...spec,
    headers: { ...spec.headers, 'content-encoding': coding },
    openPoint: spec.openPoint ?? HEADER_OPEN_POINT,
  };
}

/**
 * Where an unlisted 4xx to a request carrying a value at an edge is recorded: how to refuse a number past
 * a double, an ill-formed escape or an odd part is the server's to choose, with a code whose HTTP status §7
 * does not list (E0003, E3009, E2005).
 */
function edgeOpenPoint(b: Builder): { openPoint?: ObserveClauseId } {
  return b.edge ? { openPoint: HEADER_OPEN_POINT } : {};
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
  if (body.extra?.length) parts.push(b.object('extra.*', body.extra).slice(1, -1));
  // The canvas named last: a name among the extra fields never stands for it, whichever duplicate a parser keeps.
  const overwrite = !body.create && body.canvas === undefined ? b.world.overwrite : undefined;
  if (body.canvas !== undefined) parts.push(`"canvasId":${b.json('canvasId', body.canvas)}`);
  else if (overwrite) parts.push(`"canvasId":${JSON.stringify(overwrite)}`);
  else b.features.add('canvas:new');
  const text = `{${parts.join(',')}}`;
  return {
    spec: { ...base, raw: { body: text, contentType: 'application/json' }, ...edgeOpenPoint(b) },
    size: sizeClassOf('generateWorkflow', Buffer.byteLength(text), b.content),
    writes: overwrite ? 'overwrite' : 'canvas',
    mayWrite: !overwrite,
    bodyText: text,
  };
}

/**
 * The request an input stands for, resolved against what the exploration holds now; with a probe, one
 * class of its values replaced by a representative (classes.ts).
 */
export function prepare(input: ExploreInput, world: World, probe?: Probe): Prepared {
  const b = new Builder(world, probe);
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
  const header = probe?.family === 'header' ? probe.variant : input.header;
  const varied = header === undefined ? undefined : withHeader(p.spec, header, world.keys[0] ?? '');
  if (varied) {
    p = { ...p, spec: varied };
    b.features.add(headerFeature(header!));
  }
  if (input.coding && (p.spec.raw || p.spec.multipart)) p = { ...p, spec: withCoding(p.spec, input.coding, b) };
  if (p.size !== 'within') b.features.add(`size:${p.size}`);
  return { ...p, features: [...b.features].sort(), ...(b.runs.length ? { runs: b.runs } : {}) };
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
  'canvas:inputs',
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
  'extra.*#name',
]);

/** Features said only for the table of families tried: the offset a page's numbers make. */
const NEUTRAL_PATHS = new Set(['offset']);

/**
 * The shape of a request: its features without the neutral ones, nor emptiness (what shrinking leaves), nor
 * a text's being merely not empty: that is its presence, which its path says (and the required variables a
 * run fills to reach a workflow's variable handling are not empty whatever broke it).
 */
export function shapeOf(features: readonly string[]): string[] {
  return features.filter(
    (f) =>
      !NEUTRAL.has(f) &&
      !f.endsWith(`:${EMPTY}`) &&
      !f.endsWith(`:${NOT_EMPTY}`) &&
      !NEUTRAL_PATHS.has(f.split(':')[0]!),
  );
}

const NOT_EMPTY = 'len>0';

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
