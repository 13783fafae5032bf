/**
 * The crashes and stalls that implementations written from the specification alone were seen to have beyond
 * the input-crash entries (input-crashes.ts), in the same shape, applied by the mutating proxy: integer
 * limits inside the range (an offset that overflows 32 bits), numbers past a double or with an exponent no
 * integer holds, percent-escapes that are no UTF-8, lone surrogates in JSON strings, a long part header and
 * many parts in an upload, a chunk size that is not hexadecimal, a quadratic prompt splitter alone and
 * stalling the whole server. Each is one deviation, however many operations and forms show it. Beside them,
 * a legal entry that refuses every one of those inputs with a status no operation lists: never a finding.
 */
import { jsonOf, jsonReply, textReply, type MutantContext, type ProxyRequest, type ProxyResponse } from './proxy.ts';
import type { Mutant } from './catalogue.ts';

const crash = (where: string): ProxyResponse =>
  jsonReply(500, { success: false, errCode: 'E0000', errMsg: `internal error in ${where}` });

const op = (ctx: MutantContext, ...ops: string[]) =>
  ctx.carried !== undefined && ctx.op !== undefined && ops.includes(ctx.op);

const INT32_MAX = 2n ** 31n - 1n;

function queryOf(req: ProxyRequest): URLSearchParams {
  const at = req.path.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : req.path.slice(at + 1));
}

/**
 * The number tokens of a JSON text, outside its strings, as written (read without parsing: a reader that
 * breaks on one breaks before any value is built).
 */
function numberTokens(text: string): string[] {
  const out: string[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 64_000));
      if (m) {
        out.push(m[0]);
        i += m[0].length - 1;
      }
    }
  }
  return out;
}

/** An exponent no 32-bit integer holds (`1e99999999999`): the float reader keeps it in an int. */
const exponentBeyondInt = (n: string) => {
  const e = /[eE]([+-]?\d+)$/.exec(n)?.[1];
  return e !== undefined && (BigInt(e) > INT32_MAX || BigInt(e) < -INT32_MAX - 1n);
};

/** A fraction or exponent that no double holds (`1e309`): read as infinity, refused by the encoder after it. */
const beyondDouble = (n: string) => /[.eE]/.test(n) && !Number.isFinite(Number(n));

/** Whether percent-escapes in a URL part do not decode as UTF-8. */
function notUtf8(part: string): boolean {
  try {
    decodeURIComponent(part.replace(/\+/g, ' '));
    return false;
  } catch {
    return true;
  }
}

/** Every query value and path segment of a request target, still escaped. */
function urlParts(path: string): string[] {
  const [pathname = '', query = ''] = path.split('?', 2);
  return [...pathname.split('/'), ...query.split('&').map((kv) => kv.slice(kv.indexOf('=') + 1))];
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Every string of a JSON value, names too, walked without recursion. */
function stringsIn(value: unknown): string[] {
  const out: string[] = [];
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        out.push(k);
        stack.push(x);
      }
  }
  return out;
}

/** The heads of a multipart body's parts. */
function partHeads(req: ProxyRequest): string[] {
  const boundary = /boundary=("?)([^";]+)\1/.exec(req.headers['content-type'] ?? '')?.[2];
  if (!boundary) return [];
  return req.body
    .toString('latin1')
    .split(`--${boundary}\r\n`)
    .slice(1)
    .map((p) => p.slice(0, Math.max(0, p.indexOf('\r\n\r\n'))));
}

const partTypes = (req: ProxyRequest) => partHeads(req).map((h) => /^content-type:[ \t]*(.*)$/im.exec(h)?.[1] ?? '');

/** The longest run of the characters a step-splitting regex backtracks on, in generate's query. */
function splitterRun(req: ProxyRequest): number {
  const query = (jsonOf(req) as { query?: unknown } | undefined)?.query;
  if (typeof query !== 'string') return 0;
  return Math.max(0, ...(query.match(/[ \t\r\u00a0.,]+/g) ?? []).map((r) => r.length));
}

/** A splitter growing with the square of the run: 1 s at 5,000 characters, 4 s at 10,000. */
const splitterMs = (run: number) => (run / 5_000) ** 2 * 1_000;

/** The page offset of a search in 32-bit arithmetic: pages beyond 2^31 − 1 clamped away (served as they are). */
function offsetOverflows(q: URLSearchParams): boolean {
  const page = q.get('page');
  const size = q.get('pageSize');
  if (!page || !/^\d+$/.test(page.trim()) || BigInt(page.trim()) > INT32_MAX) return false;
  const n = Number(size);
  const pageSize = Number.isInteger(n) && n >= 1 ? Math.min(n, 100) : 20;
  return (BigInt(page.trim()) - 1n) * BigInt(pageSize) > INT32_MAX;
}

const ID_OPS = ['getWorkflowDetail', 'runWorkflow', 'getExecutionStatus', 'getExecutionOutput', 'abortExecution'];
const URL_OPS = ['searchWorkflows', ...ID_OPS];
const PREFIX: Record<string, string> = {
  searchWorkflows: 'SEARCH',
  getWorkflowDetail: 'DETAIL',
  runWorkflow: 'RUN',
  getExecutionStatus: 'STATUS',
  getExecutionOutput: 'OUTPUT',
  abortExecution: 'ABORT',
};
const BODY_OPS = ['/openapi/workflow/', '/openapi/copilot/workflow/generate', '/openapi/files/upload'];

export const EDGE_CRASHES: readonly Mutant[] = [
  {
    id: 'crash-page-offset-overflow',
    category: 'pagination',
    description:
      'The offset of a page, (page − 1) × pageSize, is computed in 32 bits: a page that fits 32 bits but whose offset does not crashes (pages beyond 2^31 are clamped): 500.',
    breaks: ['SEARCH-HTTP-STATUS-LISTED'],
    request: (req, ctx) => (op(ctx, 'searchWorkflows') && offsetOverflows(queryOf(req)) ? crash('paging') : req),
  },
  {
    id: 'crash-number-exponent-beyond-int',
    category: 'status-codes',
    description:
      'A JSON number whose exponent no 32-bit integer holds (1e99999999999), in any field of a run or generate body, crashes the number reader: 500.',
    breaks: ['RUN-HTTP-STATUS-LISTED', 'GENERATE-HTTP-STATUS-LISTED'],
    request: (req, ctx) =>
      op(ctx, 'runWorkflow', 'generateWorkflow') && numberTokens(req.body.toString('utf8')).some(exponentBeyondInt)
        ? crash('number reader')
        : req,
  },
  {
    id: 'crash-number-beyond-double',
    category: 'status-codes',
    description:
      'A JSON number past the largest double (1e309), in any field of a run or generate body, is read as infinity and crashes the encoder after it: 500.',
    breaks: ['RUN-HTTP-STATUS-LISTED', 'GENERATE-HTTP-STATUS-LISTED'],
    request: (req, ctx) =>
      op(ctx, 'runWorkflow', 'generateWorkflow') && numberTokens(req.body.toString('utf8')).some(beyondDouble)
        ? crash('encoder')
        : req,
  },
  {
    id: 'crash-percent-not-utf8',
    category: 'status-codes',
    description:
      'A percent-escape that does not decode as UTF-8 (%FF, %C0%AF) in a query value or a path id crashes the URL decoder on every operation that takes one: 500.',
    breaks: ['ODD-IDS-NO-5XX', ...URL_OPS.map((o) => `${PREFIX[o]}-HTTP-STATUS-LISTED`)],
    request: (req, ctx) =>
      ctx.op !== undefined && URL_OPS.includes(ctx.op) && urlParts(req.path).some(notUtf8) ? crash('URL decoder') : req,
  },
  {
    id: 'crash-json-lone-surrogate',
    category: 'status-codes',
    description:
      'A JSON string of a run or generate body holding a lone surrogate (written "\\udc00") crashes the UTF-8 encoder of the store: 500.',
    breaks: ['RUN-HTTP-STATUS-LISTED', 'GENERATE-HTTP-STATUS-LISTED'],
    request: (req, ctx) =>
      op(ctx, 'runWorkflow', 'generateWorkflow') && stringsIn(jsonOf(req)).some((s) => LONE_SURROGATE.test(s))
        ? crash('store encoder')
        : req,
  },
  {
    id: 'crash-part-content-type-long',
    category: 'upload',
    description: 'An uploaded part whose Content-Type is over 200 characters overflows the part-header buffer: 500.',
    breaks: ['UPLOAD-HTTP-STATUS-LISTED'],
    request: (req, ctx) =>
      op(ctx, 'uploadFiles') && partTypes(req).some((t) => t.length > 200) ? crash('part headers') : req,
  },
  {
    id: 'crash-upload-many-parts',
    category: 'upload',
    description: 'An upload of 128 parts or more overflows the part table, before the key is checked: 500.',
    breaks: ['UPLOAD-HTTP-STATUS-LISTED'],
    request: (req, ctx) => (ctx.op === 'uploadFiles' && partHeads(req).length >= 128 ? crash('part table') : req),
  },
  {
    id: 'crash-chunk-size-not-hex',
    category: 'status-codes',
    description:
      'A chunked body whose chunk size is not hexadecimal crashes the body reader of run, generate and upload: 500.',
    breaks: ['RUN-HTTP-STATUS-LISTED', 'GENERATE-HTTP-STATUS-LISTED', 'UPLOAD-HTTP-STATUS-LISTED'],
    clientError: (code, head) =>
      code === 'HPE_INVALID_CHUNK_SIZE' && head && BODY_OPS.some((p) => head.path.startsWith(p))
        ? crash('body reader')
        : undefined,
  },
];

/** A prompt splitter quadratic in a run of spaces, tabs, `\r`, non-breaking spaces, dots or commas. */
const quadraticGenerate = (req: ProxyRequest, ctx: MutantContext) =>
  ctx.op === 'generateWorkflow' ? splitterMs(splitterRun(req)) : 0;

export const EDGE_SLOW: readonly Mutant[] = [
  {
    id: 'slow-generate-quadratic',
    category: 'generate',
    description:
      'Generate splits the prompt into steps with a regex that grows with the square of a run of spaces or punctuation: 1 s at 5,000, 4 s at 10,000; other requests are not held up.',
    warns: ['INPUT-NOT-SLOW'],
    delayMs: quadraticGenerate,
  },
  {
    id: 'stall-generate-quadratic',
    category: 'generate',
    description:
      'The quadratic prompt splitter runs on the only thread: while it runs every other request, of any key, waits for it.',
    warns: ['INPUT-NOT-SLOW', 'ONE-REQUEST-NO-STALL'],
    delayMs: (req, ctx) => {
      // One thread: a request waits for whatever holds it, then holds it as long as its own work takes.
      const now = Date.now();
      const free = Math.max(now, (ctx.state.get('busyUntil') as number | undefined) ?? 0);
      const until = free + quadraticGenerate(req, ctx);
      ctx.state.set('busyUntil', until);
      return until - now;
    },
  },
];

/** The classic limits the harness calls edges (2^15 … 2^64), and a whole number at or beside one. */
const LIMITS = [15, 16, 31, 32, 53, 63, 64].map((e) => 2n ** BigInt(e));
const atLimit = (n: string) => {
  if (!/^[+-]?\d+$/.test(n.trim())) return false;
  const v = BigInt(n.trim().replace(/^[+-]/, ''));
  return LIMITS.some((l) => v >= l - 1n && v <= l + 1n);
};
/** A number at an edge: at a limit, past or below a double, or with an exponent no integer holds. */
const edgeNumber = (n: string) =>
  atLimit(n) ||
  exponentBeyondInt(n) ||
  beyondDouble(n) ||
  (/[eE]/.test(n) && Number(n) === 0 && /[1-9]/.test(n.split(/[eE]/)[0]!));

/** Whether a JSON text holds, in a string, an escape that is none or that writes a lone surrogate. */
function illFormedEscape(text: string): boolean {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (!inString) {
      inString = c === '"';
      continue;
    }
    if (c === '"') inString = false;
    if (c !== '\\') continue;
    const next = text[++i] ?? '';
    if (next !== 'u') {
      if (!'"\\/bfnrt'.includes(next)) return true;
      continue;
    }
    const hex = text.slice(i + 1, i + 5);
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) return true;
    const unit = Number.parseInt(hex, 16);
    const low = /^\\u[dD][c-fC-F]/.test(text.slice(i + 5, i + 11));
    if (unit >= 0xd800 && unit <= 0xdbff && !low) return true;
    if (unit >= 0xdc00 && unit <= 0xdfff && !/\\u[dD][89abAB][0-9a-fA-F]{2}$/.test(text.slice(i - 7, i - 1)))
      return true;
    i += 4;
  }
  return false;
}

/**
 * Whether a search asks for what the harness treats as an edge: a page past 2^53 or at a classic limit, a
 * page size past 50 or at one, or pages whose offset lands within one page size of a classic limit.
 */
function edgeInSearch(q: URLSearchParams): boolean {
  const page = q.get('page')?.trim() ?? '';
  const size = q.get('pageSize')?.trim() ?? '';
  const whole = (v: string) => /^\d+$/.test(v);
  if (
    (whole(page) && (BigInt(page) > 2n ** 53n || atLimit(page))) ||
    (whole(size) && (BigInt(size) > 50n || atLimit(size)))
  )
    return true;
  if (!whole(page) || !whole(size) || BigInt(page) < 1n || BigInt(size) < 1n) return false;
  const offset = (BigInt(page) - 1n) * BigInt(size);
  return LIMITS.some((l) => offset - l < BigInt(size) && l - offset <= BigInt(size));
}

/** Parts a form library never writes: a name given as filename*, no name, a Content-Type of over 100 characters. */
const oddParts = (req: ProxyRequest) =>
  partHeads(req).some((h) => /filename\*=/i.test(h) || (/filename=/i.test(h) && !/[; ]name=/i.test(h))) ||
  partTypes(req).some((t) => t.length > 100);

const refuse = (status: number, errCode: string, errMsg: string) =>
  jsonReply(status, { success: false, errCode, errMsg });

export const EDGE_LEGAL: readonly Mutant[] = [
  {
    id: 'legal-edges-refused-4xx',
    category: 'status-codes',
    description:
      'Every input at the edges is refused with a status no operation lists: 400 for escapes that are no UTF-8 and pages at a limit, 422 for numbers and escapes at the edges of a JSON body, 413 and 415 for many or odd parts, and a plain-text 400 from the HTTP layer for broken framing.',
    legal: true,
    request: (req, ctx) => {
      if (ctx.op === undefined) return req;
      if (urlParts(req.path).some(notUtf8)) return refuse(400, 'E0003', 'malformed URL');
      if (ctx.op === 'searchWorkflows' && edgeInSearch(queryOf(req))) return refuse(400, 'E0003', 'page out of range');
      const text = req.body.toString('utf8');
      if (
        ['runWorkflow', 'generateWorkflow'].includes(ctx.op) &&
        (numberTokens(text).some(edgeNumber) || illFormedEscape(text))
      )
        return refuse(422, 'E0003', 'number or escape out of range');
      if (ctx.op === 'uploadFiles' && partHeads(req).length >= 100) return refuse(413, 'E2005', 'too many parts');
      return ctx.op === 'uploadFiles' && oddParts(req) ? refuse(415, 'E3009', 'part not allowed') : req;
    },
    clientError: () => textReply(400, 'Bad Request'),
  },
];

export const EDGE_ENTRIES: readonly Mutant[] = [...EDGE_CRASHES, ...EDGE_SLOW, ...EDGE_LEGAL];
