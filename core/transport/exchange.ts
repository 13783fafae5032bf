/**
 * What crosses the wire, as every mode of the harness sees it: the request a caller describes, and the
 * exchange it gets back (the answer as read, its contract violations, or the transport fault that took
 * its place). Faults are sorted here once: an answer of the target's that broke off is the target's
 * deviation; our deadline, our size cap or no connection at all is a limit of the harness.
 */
import type { OperationId, Violation } from '../../contracts/check.ts';
import { OPERATIONS, type PathParams } from '../../contracts/generated/operations.ts';
import { clauseOf, type ClauseId, type ObserveClauseId } from '../../contracts/requirements.ts';
import type { ExchangeRecord } from '../evidence/records.ts';
import type { FileSpec } from '../data/files.ts';
import { describeFault, type FaultSeen } from './faults-seen.ts';

/** Who a client calls as: 'A' uses API_KEY, 'B' uses API_KEY_B. */
export interface Caller {
  name: 'A' | 'B';
  apiKey: string;
}

/**
 * Authorization sent with a request: the caller's key (default), none at all, a literal header value
 * (auth variants), or several Authorization headers at once (a duplicated header).
 */
export type AuthMode =
  | { kind: 'tenant' }
  | { kind: 'none' }
  | { kind: 'literal'; value: string }
  | { kind: 'repeated'; values: string[] };

/**
 * HTTP framing broken on purpose (framing.ts): a chunk size that is not hexadecimal or of sixteen hex
 * digits, a chunked body cut short, a Content-Length larger than the body (then the connection closed).
 */
export type Framing = 'chunk-size-not-hex' | 'chunk-size-16-digits' | 'chunked-cut-short' | 'length-cut-short';

export interface RequestSpec {
  method: string;
  /** Path after the base URL, already encoded (use `seg()` for ids). */
  path: string;
  /** An absolute URL outside the interface (e.g. a file's url); no contract applies, and the key is sent only to the base URL's origin. */
  absoluteUrl?: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  /** Raw body (sent as is) with its content type. */
  raw?: { body: string | Uint8Array; contentType?: string };
  /** Multipart upload: files under `field` (default "files"). */
  multipart?: { field?: string; files: FileSpec[] };
  auth?: AuthMode;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** What the call is for, shown in evidence. */
  label?: string;
  /** Return transport faults as an exchange instead of throwing. */
  allowFault?: boolean;
  /**
   * Judge a transport fault of the target (reset, malformed answer, body cut short) as a failure of the
   * operation's status clause; default true. The reachability probe turns it off: a target that answers
   * nothing at all is unreachable, and the run says so instead of judging.
   */
  judgeFaults?: boolean;
  /**
   * The request probes a point the specification leaves open (e.g. page=0, an unknown `order`): an
   * unlisted status in its answer is recorded under this observe clause instead of failing the
   * operation's status clause.
   */
  openPoint?: ObserveClauseId;
  /**
   * Sent with its framing broken (a socket of its own writes it): the HTTP layer may refuse it with any 4xx,
   * listed or not, recorded under HTTP-LAYER-REFUSAL and its body not judged.
   */
  framing?: Framing;
  /**
   * A fault of this call is remembered for the run (later calls of the operation answered at once); default
   * true. The generative mode turns it off: it judges each input on its own, and a hang or a reset on one
   * class of input says nothing of the others.
   */
  rememberFault?: boolean;
}

export interface TransportFaultInfo {
  kind: string;
  message: string;
}

export interface Exchange {
  record: ExchangeRecord;
  /** Undefined when the exchange failed at transport level. */
  status?: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed body when it is JSON. */
  json?: unknown;
  /** The body parsed as JSON (`json` may legitimately be null). */
  parsed?: boolean;
  operation?: OperationId;
  violations: Violation[];
  fault?: TransportFaultInfo;
  /**
   * The operation's fault that stops what needed this call: the one this exchange met (when it is one
   * the run does not wait for twice), or, for a call answered without being sent, the one met before.
   */
  faulted?: FaultSeen;
}

/** The fault kind of a call answered at once because its operation already faulted in this run. */
export const OPERATION_FAULTED = 'operation-faulted';

/**
 * Faults that are the target's answer going wrong, judged as a deviation from its status line. The others
 * are limits of the harness (our deadline, our body-size cap) or no answer at all (refused, DNS): they
 * stop the test, and its clauses are "not run" with the reason.
 */
export const TARGET_FAULTS: ReadonlySet<string> = new Set(['connection-reset', 'protocol-error', 'incomplete-body']);

export class TransportFault extends Error {
  constructor(
    readonly kind: string,
    message: string,
    readonly exchange: Exchange,
  ) {
    super(message);
    this.name = 'TransportFault';
  }
}

/** Encodes one path segment (ids are opaque strings: slashes, dots and unicode stay inside the segment). */
export function seg(id: string): string {
  return encodeURIComponent(id);
}

/** The path of a call of `operation`: its template from the contract's table, each parameter one segment. */
export function operationPath<Op extends OperationId>(operation: Op, params: PathParams[Op]): string {
  const values = params as Readonly<Record<string, string>>;
  return OPERATIONS[operation].path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${operation}: no value for path parameter ${name}`);
    return seg(value);
  });
}

/** The clause that judges an operation's status line, e.g. RUN-HTTP-STATUS-LISTED. */
export function statusClauseOf(operation: OperationId): ClauseId {
  return clauseOf(operation, 'HTTP-STATUS-LISTED');
}

/**
 * The clause a fault of the target's making fails: an answer whose success status came and whose body
 * broke off fails the envelope that status promises (the status itself was listed); any other (a reset
 * before any status, a malformed answer) fails the status clause: no listed status came back.
 */
export function faultClauseOf(ex: Pick<Exchange, 'operation' | 'status' | 'fault'>): ClauseId | undefined {
  if (!ex.operation || !ex.fault || !TARGET_FAULTS.has(ex.fault.kind)) return undefined;
  if (ex.status === 200 && ex.fault.kind === 'incomplete-body') return clauseOf(ex.operation, '200-ENVELOPE');
  return statusClauseOf(ex.operation);
}

/**
 * An answer whose refusal status came, and whose body the server cut short by closing the connection (as
 * a server that answers before reading a body over its limit, and closes, often does): the status is
 * judged; the body is not, and this says why. Undefined for any other answer.
 */
export function bodyCutAfterRefusal(answer: { status?: number; fault?: TransportFaultInfo }): string | undefined {
  if (answer.status === undefined || answer.status < 300 || answer.fault?.kind !== 'incomplete-body') return undefined;
  return `body not judged: the server closed the connection after the ${answer.status} status line (${answer.fault.message})`;
}

/**
 * Why a faulted call stops what needed it: blocked by the clause its fault failed (an answer of the
 * target's making that broke off), or, with no clause, a limit of the harness (its deadline, its body
 * cap, no connection at all) that leaves it "not run". Undefined when the call did not fault.
 */
export function faultStop(ex: Exchange): { blockedBy?: ClauseId; reason: string } | undefined {
  if (ex.faulted)
    return { ...(ex.faulted.clause ? { blockedBy: ex.faulted.clause } : {}), reason: describeFault(ex.faulted) };
  if (!ex.fault) return undefined;
  const reason = `${ex.operation ?? ex.record.method} ${ex.fault.kind}: ${ex.fault.message}`;
  const clause = faultClauseOf(ex);
  return clause ? { blockedBy: clause, reason } : { reason };
}

/** Why a faulted call has no answer to judge when the fault is the harness's (its deadline, no connection); else undefined. */
export function harnessFault(ex: Exchange): string | undefined {
  const stop = ex.fault ? faultStop(ex) : undefined;
  return stop && !stop.blockedBy ? stop.reason : undefined;
}
