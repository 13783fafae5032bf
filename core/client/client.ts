/**
 * The contract-checked client: the only way the suites, discovery and explore talk to a target. It puts
 * three jobs together, each in a module of its own: the wire (transport/: a request prepared and sent
 * under one deadline, its faults remembered for the run), the judgement of every answer against the
 * contract (judging/contract.ts), and the evidence (evidence/exchange-record.ts: redacted request,
 * answer excerpt, curl reproducer).
 *
 * A broken operation costs its deadline once per run: once a call of an operation went unanswered
 * within the deadline, answered with a body slower than it, or broke off (reset, cut short, malformed),
 * later calls of that operation, in any worker, are answered at once with the same fault, marked
 * `operation-faulted`, and not sent (faults-seen.ts). Whose fault it is stays as it was: a deadline the
 * harness gave up on is its own limit, never the target's failure, so what needed the operation is
 * "not run" because of it; an answer that broke off failed the operation's status clause, and what
 * needed the operation is "blocked by" that clause. Either way the report names one fault.
 *
 * Its requests are the operations of the contract's table (contracts/generated/operations.ts, from
 * openapi.yaml): `request(operationId, pathParams, options)` takes the method and path from the table, and
 * labels the exchange by the operationId; the short names the suites call (run, status…) are that, one
 * per operation (contracts/operation-facts.ts, to which the compiler holds the client).
 */
import { checkResponse } from '../../contracts/check.ts';
import { targetConnection } from '../connection/connection.ts';
import { OPERATIONS, type OperationId, type PathParams } from '../../contracts/generated/operations.ts';
import type { ObserveClauseId } from '../../contracts/requirements.ts';
import type { ShortName } from '../../contracts/operation-facts.ts';
import type { FileSpec } from '../data/files.ts';
import type { RunConfig } from '../settings/run-config.ts';
import { redactSecrets } from '../settings/redact.ts';
import { exchangeRecord, saveBody, type ReadAnswer } from '../evidence/exchange-record.ts';
import { citedClauses, FAULT_REMEMBERED, type EvidenceSink, type TestRef } from '../evidence/records.ts';
import type { Verdict } from '../evidence/verdict.ts';
import { ContractJudge } from '../judging/contract.ts';
import { HTTP_LAYER_REFUSAL, httpLayerLimitOf, httpLayerRefusalOf } from '../judging/unroutable.ts';
import {
  bodyCutAfterRefusal,
  faultClauseOf,
  faultStop,
  OPERATION_FAULTED,
  operationPath,
  TARGET_FAULTS,
  TransportFault,
  type Caller,
  type Exchange,
  type RequestSpec,
} from '../transport/exchange.ts';
import { describeFault, faultsSeen, type FaultSeen } from '../transport/faults-seen.ts';
import { CLOSED_UNANSWERED, sendFramed } from '../transport/framing.ts';
import { Abandoned, sendOnce, type Answer } from '../transport/http.ts';
import { RATE_LIMIT_ATTEMPTS, retryAfterMs } from '../transport/rate-limit.ts';
import { prepareRequest, type PreparedRequest } from '../transport/request.ts';

export interface ClientOptions {
  config: RunConfig;
  caller: Caller;
  writer: EvidenceSink;
  /** Where the clause results of every answer go. */
  verdict: Verdict;
  /** The test the calls are made for, when there is one (discovery and explore have none). */
  test?: TestRef;
}

/** What a call of an operation carries besides its method and path: query, body, auth, label, deadline… */
export type CallOptions = Omit<Partial<RequestSpec>, 'method' | 'path' | 'absoluteUrl'>;

/**
 * The client has a method named by each operation's short name (contracts/operation-facts.ts): an
 * operation added to openapi.yaml and to that table does not compile until the client can send it
 * (client.test.ts checks each sends its operation).
 */
export type OperationMethods = Pick<ApiClient, ShortName>;

let sequence = 0;
const nextId = () => `${process.pid}-${++sequence}`;

function parsedBody(text: string): { json?: unknown; parsed?: boolean } {
  try {
    return { json: JSON.parse(text), parsed: true };
  } catch {
    return {};
  }
}

/**
 * The point the specification leaves open that a request probes, if any: the one its sender names, or,
 * for a request target no stack routes (an encoded slash in an id…) or a body whose framing is broken, the
 * HTTP layer's refusal of it (broken framing: any 4xx, listed or not, is the HTTP layer's). So is a 4xx
 * that is not JSON to an Authorization header sent twice: Authorization is no list (RFC 9110 §5.3), and a
 * reverse proxy such as nginx answers it with a 400 page of its own; a JSON answer is the operation's.
 */
function openPointOf(
  r: PreparedRequest,
  answer: Pick<Exchange, 'status' | 'parsed'>,
): { openPoint?: ObserveClauseId; openPointAbout?: string; anyRefusal?: boolean } {
  const { status } = answer;
  if (r.spec.framing)
    return { openPoint: HTTP_LAYER_REFUSAL, openPointAbout: `a body framed ${r.spec.framing}`, anyRefusal: true };
  if (r.spec.auth?.kind === 'repeated' && status !== undefined && status >= 400 && status < 500 && !answer.parsed)
    return { openPoint: HTTP_LAYER_REFUSAL, openPointAbout: 'the Authorization header sent twice', anyRefusal: true };
  if (r.spec.openPoint) return { openPoint: r.spec.openPoint };
  const refusal = httpLayerRefusalOf(r.url) ?? httpLayerLimitOf(r.url, status);
  return refusal ? { openPoint: HTTP_LAYER_REFUSAL, openPointAbout: refusal } : {};
}

/**
 * A request framed wrong on purpose that got no answer through an egress proxy's tunnel says nothing of the
 * target: the framing ends with the client's half-close, and a proxy that closes the whole tunnel on it (as
 * some do) loses the answer. Such a close is a limit of the harness behind that proxy, not the target's HTTP
 * layer closing (HTTP-LAYER-REFUSAL).
 */
export function unansweredThroughProxy(r: PreparedRequest, a: Answer): Answer {
  const proxy =
    a.status === undefined && a.fault?.kind === CLOSED_UNANSWERED ? targetConnection().proxyOf(r.url) : undefined;
  if (!proxy) return a;
  return {
    ...a,
    fault: {
      kind: 'unanswered-through-proxy',
      message: `${a.fault!.message}; through the proxy at ${proxy.host} the close may be the proxy's (a tunnel closed on the half-close that ends the body), so the target is not judged on it`,
    },
  };
}

export class ApiClient {
  readonly config: RunConfig;
  readonly caller: Caller;
  private readonly writer: EvidenceSink;
  /** Where the clause results of its answers go; what prepares a run through it (an upload) judges there too. */
  readonly verdict: Verdict;
  private readonly test: TestRef | undefined;
  private readonly contract: ContractJudge;

  constructor(options: ClientOptions) {
    this.config = options.config;
    this.caller = options.caller;
    this.writer = options.writer;
    this.verdict = options.verdict;
    this.test = options.test;
    const { apiKey, apiKeyB } = options.config;
    this.contract = new ContractJudge(options.verdict, [options.caller.apiKey, apiKey, apiKeyB]);
  }

  async send(spec: RequestSpec): Promise<Exchange> {
    const request = prepareRequest(spec, {
      baseUrl: this.config.baseUrl,
      caller: this.caller,
      requestTimeoutMs: this.config.requestTimeoutMs,
      saveBody: (text) => saveBody(this.config.evidenceDir, text),
    });
    const seen = request.remembers
      ? faultsSeen(this.config.evidenceDir).find(request.mapped!.operation, 'call')
      : undefined;
    if (seen) return this.notSentAgain(request, seen);
    try {
      return await this.dispatch(request);
    } catch (err) {
      if (!(err instanceof Abandoned)) throw err;
      // Sent, and given up on once the operation was found faulted: the evidence says so, as no exchange.
      const faulted = err.reason as FaultSeen;
      this.writer.write({
        kind: 'note',
        topic: OPERATION_FAULTED,
        message: `${spec.method} ${redactSecrets(request.url.toString())} given up after ${err.durationMs} ms: ${describeFault(faulted)}`,
        test: this.test,
        at: new Date().toISOString(),
      });
      return this.notSentAgain(request, faulted);
    }
  }

  /** Sends a prepared request (again after a 429), records and judges the answer; throws a fault unless allowed. */
  private async dispatch(request: PreparedRequest): Promise<Exchange> {
    const { spec, timeoutMs } = request;
    // Rate limiting is legal (§8: rate limits not shown): a 429 is recorded, its Retry-After honoured
    // (bounded), and only the answer after it is judged, so no test fails for having been throttled.
    const first = performance.now();
    let exchange = await this.exchange(request);
    for (let tries = 1; exchange.status === 429 && tries < RATE_LIMIT_ATTEMPTS; tries++) {
      const waitMs = retryAfterMs(exchange.headers['retry-after']);
      if (waitMs === undefined || performance.now() - first + waitMs >= timeoutMs) break;
      this.writer.write(exchange.record);
      this.contract.judge(exchange, { credit: false, ...openPointOf(request, exchange), judgeFaults: false });
      this.contract.rateLimited(exchange, waitMs);
      await new Promise((r) => setTimeout(r, waitMs));
      exchange = await this.exchange(request);
    }
    this.writer.write(exchange.record);
    this.contract.judge(exchange, {
      credit: true,
      ...openPointOf(request, exchange),
      judgeFaults: spec.judgeFaults,
    });
    if (request.remembers && exchange.fault) exchange.faulted = this.remember(exchange, timeoutMs);
    if (exchange.fault && !spec.allowFault) {
      this.stopCited(exchange);
      // A fault the run remembers reads the same in every test it stops: its name comes first.
      const named = exchange.faulted ? `${describeFault(exchange.faulted)}\n` : '';
      throw new TransportFault(
        exchange.fault.kind,
        `${named}${spec.method} ${spec.path}: ${exchange.fault.message}\nreproduce: ${exchange.record.curl}`,
        exchange,
      );
    }
    return exchange;
  }

  /** One request and its answer: sent, contract-checked, and recorded (not yet written). */
  private async exchange(r: PreparedRequest): Promise<Exchange> {
    const operation = r.mapped?.operation;
    const evidenceDir = this.config.evidenceDir;
    // Another call of the operation may fault while this one waits (calls go side by side, and workers run
    // at once): then this one waits no longer, and ends as a call of a faulted operation.
    const wire = {
      maxBodyBytes: this.config.maxBodyBytes,
      ...(r.remembers && operation ? { giveUpWhen: () => faultsSeen(evidenceDir).find(operation, 'call') } : {}),
    };
    // Broken framing is written on a socket of its own (Node's client frames every body itself).
    const sent: Answer = r.spec.framing
      ? unansweredThroughProxy(r, await sendFramed(r, r.spec.framing, wire))
      : await sendOnce(r, wire);
    // A refusal whose body the server's close cut short is judged by its status alone; nothing else of it.
    const bodyNotJudged = bodyCutAfterRefusal(sent);
    const { fault: _, ...whole } = sent;
    const answer: Answer = bodyNotJudged ? whole : sent;
    const complete = answer.status !== undefined && !answer.fault && !bodyNotJudged;
    const body = complete ? parsedBody(answer.text) : {};
    const checked =
      answer.status !== undefined && !answer.fault && operation
        ? checkResponse({
            operation,
            status: answer.status,
            headers: answer.headers,
            body: answer.text,
            requestBytes: r.body?.length,
          })
        : [];
    // Of a cut body, only what needs none is judged: the status line and the headers.
    const violations = bodyNotJudged ? checked.filter((v) => v.pointer.startsWith('#')) : checked;
    const read: ReadAnswer = { ...answer, violations, ...(bodyNotJudged ? { bodyNotJudged } : {}) };
    return {
      status: answer.status,
      headers: answer.headers,
      text: answer.text,
      ...body,
      operation,
      violations,
      ...(answer.fault ? { fault: answer.fault } : {}),
      record: exchangeRecord(
        { id: nextId(), test: this.test, tenant: this.caller.name, operation, baseUrl: this.config.baseUrl },
        { ...r, method: r.spec.method, label: r.spec.label },
        read,
      ),
    };
  }

  /**
   * Remembers for the rest of the run an operation whose call cost the deadline (no answer, or a body
   * slower than it) or broke off: later calls would only wait again, or repeat the finding. A deadline
   * shorter than the run's own says nothing of how the operation answers others, and a body over the
   * harness's size cap or a refused connection costs no wait. Returns the fault in force (the first seen).
   */
  private remember(ex: Exchange, timeoutMs: number): FaultSeen | undefined {
    const { kind, message } = ex.fault!;
    const target = TARGET_FAULTS.has(kind);
    if (!target && !(kind === 'timeout' && timeoutMs >= this.config.requestTimeoutMs)) return undefined;
    const operation = ex.operation!;
    const clause = target ? faultClauseOf(ex) : undefined;
    const inForce = faultsSeen(this.config.evidenceDir).record({
      operation,
      scope: 'call',
      kind,
      message,
      ...(clause ? { clause } : {}),
      exchangeId: ex.record.id,
      at: new Date().toISOString(),
    });
    // The clauses judged on every answer of the operation get no answer of it any more: the fault that
    // took them away is their reason, said once, by the call that met it (a verdict outranks it).
    if (inForce.exchangeId === ex.record.id) {
      const { operation: op, kind: k, message: m, exchangeId } = inForce;
      this.writer.write({
        kind: 'note',
        topic: FAULT_REMEMBERED,
        message: describeFault(inForce),
        fault: { operation: op, kind: k, message: m, ...(clause ? { clause } : {}), exchangeId },
        at: new Date().toISOString(),
      });
      this.contract.lostTo(operation, clause, describeFault(inForce));
    }
    return inForce;
  }

  /**
   * A call of an operation that already faulted in this run: answered at once, nothing sent, nothing
   * recorded as an exchange (the evidence is the exchange that showed the fault, whose id it carries).
   * Thrown like the fault itself unless the caller takes faults as answers.
   */
  private notSentAgain(r: PreparedRequest, seen: FaultSeen): Exchange {
    const fault = { kind: OPERATION_FAULTED, message: describeFault(seen) };
    const record = exchangeRecord(
      {
        id: seen.exchangeId ?? nextId(),
        test: this.test,
        tenant: this.caller.name,
        operation: seen.operation,
        baseUrl: this.config.baseUrl,
      },
      { ...r, method: r.spec.method, label: r.spec.label, bodyText: undefined },
      { headers: {}, text: '', bodyBytes: 0, truncated: false, fault, violations: [], durationMs: 0 },
    );
    const exchange: Exchange = {
      record,
      headers: {},
      text: '',
      operation: seen.operation,
      violations: [],
      fault,
      faulted: seen,
    };
    if (r.spec.allowFault) return exchange;
    this.stopCited(exchange);
    throw new TransportFault(OPERATION_FAULTED, fault.message, exchange);
  }

  /**
   * A fault that is thrown ends the test that met it: the clauses the test cites are stopped by it, in
   * the same words wherever it stops something: blocked by the clause the fault failed (which another
   * worker may have recorded, out of this test's sight), or "not run" at the harness's limit. A clause
   * the test judged already keeps that result: a result outranks a stop.
   */
  private stopCited(ex: Exchange): void {
    if (!ex.faulted || !this.test) return;
    const { clause } = ex.faulted;
    const { reason } = faultStop(ex)!;
    for (const id of citedClauses(this.test.title)) {
      if (id === clause) continue;
      if (clause) this.verdict.blocked(id, clause, reason);
      else this.verdict.notRun(id, reason);
    }
  }

  // ---- the operations of the contract's table (ids are encoded as one path segment) ----

  /** A call of `operation`: its method and path from the table, its exchange labelled by the operationId. */
  request<Op extends OperationId>(operation: Op, params: PathParams[Op], options: CallOptions = {}): Promise<Exchange> {
    const { method } = OPERATIONS[operation];
    return this.send({ method, path: operationPath(operation, params), label: operation, ...options });
  }

  run(canvasId: string, body: unknown, extra: CallOptions = {}): Promise<Exchange> {
    return this.request('runWorkflow', { canvasId }, { json: body, ...extra });
  }
  abort(executionId: string, extra: CallOptions = {}): Promise<Exchange> {
    return this.request('abortExecution', { executionId }, extra);
  }
  status(executionId: string, extra: CallOptions = {}): Promise<Exchange> {
    return this.request('getExecutionStatus', { executionId }, extra);
  }
  output(executionId: string, extra: CallOptions = {}): Promise<Exchange> {
    return this.request('getExecutionOutput', { executionId }, extra);
  }
  search(query: Record<string, string | number | undefined> = {}, extra: CallOptions = {}): Promise<Exchange> {
    return this.request('searchWorkflows', {}, { query, ...extra });
  }
  detail(canvasId: string, extra: CallOptions = {}): Promise<Exchange> {
    return this.request('getWorkflowDetail', { canvasId }, extra);
  }
  upload(files: FileSpec[], extra: CallOptions = {}): Promise<Exchange> {
    return this.request('uploadFiles', {}, { multipart: { files }, ...extra });
  }
  generate(body: unknown, extra: CallOptions = {}): Promise<Exchange> {
    return this.request('generateWorkflow', {}, { json: body, ...extra });
  }
}
