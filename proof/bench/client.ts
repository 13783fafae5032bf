/**
 * The benchmarks' requests from Node (finding what to drive, starting the executions a measurement reads)
 * go through the harness's own contract-checked client (core/client/client.ts), addressed by
 * operation id: method and path come from the generated operation table, payloads and request bodies are
 * typed by the generated contract types. A benchmark thus reaches a target exactly as the suites do, and
 * a setup answer that breaks the contract is recorded as theirs would be, not read as a figure.
 */
import type { operations } from '../../contracts/generated/api-types.ts';
import { OPERATIONS, type OperationId } from '../../contracts/generated/operations.ts';
import type { FileSpec } from '../../core/data/files.ts';
import { loadRunConfig } from '../../core/settings/run-config.ts';
import { ENV } from '../../core/settings/rules.ts';
import { ApiClient } from '../../core/client/client.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import { dataOf } from '../../core/judging/answers.ts';
import { EvidenceWriter } from '../../core/evidence/records.ts';
import { Verdict } from '../../core/evidence/verdict.ts';
import { pathBuilder } from './k6/paths.ts';

type Operation<Op extends OperationId> = operations[Op];

/** The path parameters an operation's template names; undefined for an operation without any. */
export type PathParams<Op extends OperationId> = Operation<Op>['parameters'] extends { path: infer P } ? P : undefined;

type Query<Op extends OperationId> = NonNullable<Operation<Op>['parameters']['query']>;

type JsonBody<Op extends OperationId> =
  NonNullable<Operation<Op>['requestBody']> extends { content: { 'application/json': infer B } } ? B : never;

type Ok<Op extends OperationId> = Operation<Op>['responses'] extends {
  200: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** `data` of an operation's 200 envelope. */
export type Payload<Op extends OperationId> = Ok<Op> extends { data?: infer D } ? D : never;

/** One request: the path parameters the operation's template needs, and what it may carry. */
export type Call<Op extends OperationId> = (PathParams<Op> extends undefined
  ? { params?: undefined }
  : { params: PathParams<Op> }) & {
  query?: Query<Op>;
  json?: JsonBody<Op>;
  /** A multipart upload, under the field the contract names. */
  files?: FileSpec[];
  /** What the request is for, in the evidence. */
  label?: string;
};

const BUILDERS = new Map<OperationId, ReturnType<typeof pathBuilder>>();

/** An operation's path after the base URL, its parameters encoded as single segments. */
export function operationPath<Op extends OperationId>(operation: Op, params: PathParams<Op>): string {
  let build = BUILDERS.get(operation);
  if (!build) {
    build = pathBuilder(operation);
    BUILDERS.set(operation, build);
  }
  return build(params as Record<string, string> | undefined);
}

export class BenchClient {
  /** The harness's client itself, for the harness's listing code (core/discovery/listing.ts). */
  readonly harness: ApiClient;

  /** `evidenceDir`: where the exchanges are recorded (a benchmark's scratch folder). */
  constructor(
    readonly baseUrl: string,
    apiKey: string,
    evidenceDir: string,
  ) {
    // The client draws nothing at random and keeps no discovery memory: the seed is a placeholder.
    const config = loadRunConfig({
      [ENV.baseUrl]: baseUrl,
      [ENV.apiKey]: apiKey,
      [ENV.seed]: '0',
      [ENV.evidenceDir]: evidenceDir,
      [ENV.cacheDir]: 'off',
    });
    const writer = new EvidenceWriter(evidenceDir, 'bench');
    this.harness = new ApiClient({
      config,
      caller: { name: 'A', apiKey },
      writer,
      verdict: Verdict.detached(writer),
    });
  }

  /** Sends one operation's request; the exchange as the harness records it. */
  send<Op extends OperationId>(operation: Op, call: Call<Op>): Promise<Exchange> {
    return this.harness.send({
      method: OPERATIONS[operation].method,
      path: operationPath(operation, call.params as PathParams<Op>),
      query: call.query as Record<string, string | number | undefined> | undefined,
      json: call.json,
      multipart: call.files ? { files: call.files } : undefined,
      label: call.label ?? operation,
    });
  }

  /** `data` of a 2xx envelope, else undefined (the answer is in the evidence). */
  async data<Op extends OperationId>(operation: Op, call: Call<Op>): Promise<Payload<Op> | undefined> {
    return dataOf<Payload<Op>>(await this.send(operation, call));
  }
}
