/**
 * The inputs of the generative mode, as values fast-check generates and shrinks: one input per request,
 * written so that a minimal input reads as the request it stands for. Ids the exploration holds (a canvas
 * it discovered, an execution it started, a fileKey it uploaded) are references, resolved when the request
 * is sent (inputs.ts), so an input replays against any target state.
 */
import type { WorkflowPlan } from '../../core/judging/payloads.ts';
import type { Text } from './text.ts';

/**
 * A variable value or a body field: every kind §4.1 names, plus null, references to uploaded files, numbers
 * JSON numbers cannot hold (written as they are sent) and arrays nested to a depth (written as brackets).
 */
export type Value = Text | number | boolean | null | Value[] | ObjectValue | FileKeyRef | RawNumber | Nest | JsonEscape;

/**
 * A JSON string written with its escapes as they are (`\udc00`, a lone surrogate; `\uZZZZ`, no escape at
 * all): what a JSON encoder never writes, and a JSON decoder meets.
 */
export interface JsonEscape {
  $escape: string;
}

/** Percent-escapes sent as they are in a URL (`%FF`, `%C0%AF`): bytes that do not decode as UTF-8. */
export interface Percent {
  $percent: string;
}

/** A number written as is: 5,000 digits, `-0`, `6.8e+89`, whatever a double would change. */
export interface RawNumber {
  $number: string;
}

/** Arrays nested `$nest` levels deep (`[[…]]`): 50,000 levels are 100 KB of brackets. */
export interface Nest {
  $nest: number;
}

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
  /** A header variant the request carries (headers.ts): a charset, a content coding, an odd Authorization. */
  header?: string;
  /**
   * A content coding the body is labelled with but not encoded in (plain bytes under `gzip`): what a decoder
   * meets when a client or a proxy labels a body wrongly (battery.ts).
   */
  coding?: Coding;
}

export type Coding = 'gzip' | 'deflate' | 'br';

/**
 * A query number as sent: a number (written as JavaScript writes it), a number written as is, any text, or
 * percent-escapes as they are.
 */
export type QueryNumber = number | RawNumber | { text: string } | Percent;

/** A text in a URL (a query value, a path id): a text, encoded as URLs encode it, or percent-escapes as they are. */
export type UrlText = Text | Percent;

export interface SearchInput extends Base {
  op: 'searchWorkflows';
  query: { keyword?: UrlText; order?: UrlText; page?: QueryNumber; pageSize?: QueryNumber };
  /**
   * The keyword is one no title holds (twenty random letters, with a control character, a NUL or a length
   * no title has): the answer must list nothing (SEARCH-KEYWORD-APPLIED, judged on the titles read).
   */
  keywordInNoTitle?: true;
}

export interface DetailInput extends Base {
  op: 'getWorkflowDetail';
  canvas: { $canvas: number } | { id: UrlText };
}

/**
 * A canvas to run: the runnable one the exploration found, the one with a file variable, the one that
 * declares variables (its required ones filled, `inputs`), or any id.
 */
export type RunCanvas = { $canvas: 'plain' | 'files' | 'inputs' } | { id: UrlText };

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
  execution: { $execution: number } | { id: UrlText };
}

export interface FileInput {
  name: Text;
  type: string;
  size: number;
  /** Seed of the content bytes. */
  fill: number;
}

/**
 * How a part names its file: `filename="…"`, RFC 5987's `filename*=UTF-8''…` (or in ISO-8859-1, the other
 * charset it names), both, no `name` at all, or an ext-value a decoder cannot read: an unknown charset
 * (`BOGUS''a.txt`), none at all (`filename*=a.txt`), a percent-escape that is none (`UTF-8''%ZZ`).
 */
export type Disposition =
  | 'filename'
  | 'filename*'
  | 'both-names'
  | 'no-name'
  | 'filename*-latin1'
  | 'filename*-unknown-charset'
  | 'filename*-no-charset'
  | 'filename*-bad-escape';

/**
 * A file part written by hand (parts.ts): its Content-Disposition in one of the forms RFC 7578 and
 * RFC 6266 allow or a parser meets (`filename*=`, both names, no `name`), its Content-Type odd or long.
 */
export interface PartInput {
  name: Text;
  /** An odd media type as written, or `application/` followed by `long` letters. */
  type: string | { long: number };
  disposition: Disposition;
  size: number;
  fill: number;
}

export type UploadBody =
  | { form: 'files'; field?: string; files: FileInput[] }
  /** File parts with their headers written by hand. */
  | { form: 'parts'; parts: PartInput[] }
  /** `count` tiny files in one upload (hundreds to thousands of parts). */
  | { form: 'many'; count: number }
  /** A multipart body with text fields only. */
  | { form: 'text-fields'; fields: { name: string; value: string }[] }
  /** A JSON body: not multipart. */
  | { form: 'json'; text: string }
  /** A multipart Content-Type over a body broken for its boundary (parts.ts). */
  | { form: 'broken'; how: BrokenMultipart }
  /** One `files` part that is itself `multipart/mixed`, holding a file part (RFC 2388's form for several files). */
  | { form: 'nested' };

/**
 * How a multipart body is broken for its boundary: no closing delimiter, no body at all, plain text, or a
 * Content-Type that names no boundary.
 */
export type BrokenMultipart = 'no-close' | 'empty' | 'not-multipart' | 'no-boundary';

export interface UploadInput extends Base {
  op: 'uploadFiles';
  body: UploadBody;
}

export type GenerateBody =
  /**
   * Where overwriting is allowed, generate names the canvas it may overwrite unless `create` asks for a new
   * one: shrinking drops `create`, so narrowing a failure down replaces one canvas instead of adding many.
   * `extra` are fields §4.8 does not name (never query, locale or canvasId), holding values of any kind.
   */
  | {
      form: 'json';
      query?: Value;
      locale?: Value;
      create?: true;
      extra?: Entry[];
      /** A canvasId of another kind than a string (null, a number, an object): the forbidden family `canvas-not-string`. */
      canvas?: Value;
    }
  | { form: 'raw'; text: Text };

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
  /**
   * A canvas that declares a variable of text (preferably one with required ones, all fillable without a
   * file), run once in setup: where odd values reach a workflow's variable handling.
   */
  inputs?: KnownCanvas & { variable: string };
  /** What a search showed in setup: the titles listed, and the page sizes the server serves. */
  search?: SearchFacts;
  fileKeys: string[];
  executions: string[];
  /** The canvas generate may overwrite; undefined: generate never names a canvas. */
  overwrite?: string;
  /** The keys in use: never sent as a wrong key, never to be found in an answer. */
  keys: string[];
}

export interface SearchFacts {
  /** The workflows listed (one page, as large as the server serves it). */
  items: { canvasId: string; title: string }[];
  /** Whether more were listed than that page held (or it could not be told). */
  capped: boolean;
  /** Items served without pageSize, and with a pageSize of 1000: the default and the maximum when the listing is longer. */
  servedByDefault?: number;
  servedAtMost?: number;
  /** Twenty random letters, from the run's seed: a keyword no title holds. */
  nonsense: string;
}
