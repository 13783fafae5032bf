/**
 * The clauses about a request that must be refused, judged by one function each whatever sent the
 * request: the scripted suites, the generative mode (explore/), or anything else. A mode only decides
 * which clause a request is about; how its answer reads for that clause is decided here.
 *
 * - a request without a valid key: not processed (AUTH-NOT-SERVED-WITHOUT-KEY, exposure) and refused
 *   with 401 (the 401 clauses);
 * - a request over a limit of §8: refused, with any 4xx (the code's HTTP status is not listed in §7, so
 *   413 is as good as 400), where the limit applies (`limitApplies`);
 * - an invalid parameter with a clause of its own (a run body that is not a JSON object, a generation
 *   without a query, an upload without files): 400.
 */
import { LIMITS } from '../../contracts/error-codes.ts';
import { CLAUSE_IDS, type ClauseId } from '../../contracts/generated/clause-ids.ts';
import type { OperationId } from '../../contracts/generated/operations.ts';
import { clauseOf } from '../../contracts/requirements.ts';
import type { Exchange } from '../transport/exchange.ts';
import { judge } from './judge.ts';
import { clientError, expectStatus, type StatusExpectation } from './expect.ts';
import { describe, served } from './answers.ts';
import { stopAll } from './stops.ts';

/** Each operation's own 401 clause (RUN-401-MISSING-OR-INVALID-KEY, …). */
export type OperationKeyClause = Extract<ClauseId, `${string}-401-MISSING-OR-INVALID-KEY`>;
const OPERATION_KEY_CLAUSES = CLAUSE_IDS.filter((id): id is OperationKeyClause =>
  id.endsWith('-401-MISSING-OR-INVALID-KEY'),
);

/** The 401 clause of `operation` (RUN-401-MISSING-OR-INVALID-KEY, …). */
export function keyClauseOf(operation: OperationId): OperationKeyClause {
  return clauseOf(operation, '401-MISSING-OR-INVALID-KEY') as OperationKeyClause;
}

/** The clause each way of sending no valid key is about (§5.3), besides the operation's own. */
export type UnkeyedClause =
  | 'AUTH-401-MISSING-KEY'
  | 'AUTH-401-EMPTY-BEARER'
  | 'AUTH-401-WRONG-SCHEME'
  | 'AUTH-401-INVALID-KEY';

/** The judge of requests without a valid key: not processed (exposure), and refused with 401. */
export const withoutKey = judge('requests without a valid key', [
  'AUTH-NOT-SERVED-WITHOUT-KEY',
  'AUTH-401-MISSING-KEY',
  'AUTH-401-EMPTY-BEARER',
  'AUTH-401-WRONG-SCHEME',
  'AUTH-401-INVALID-KEY',
  ...OPERATION_KEY_CLAUSES,
]);

// ---- without a valid key (§5.3) ----------------------------------------------------------------------

/** Fields of an answer that differ from one request to the next whatever was processed. */
const VOLATILE = new Set(['traceId', 'requestId', 'timestamp', 'time', 'stack']);

function withoutVolatile(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutVolatile);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([k]) => !VOLATILE.has(k))
      .map(([k, v]) => [k, withoutVolatile(v)]),
  );
}

/** What an answer says, its per-request fields aside: the status and the body. */
function contentOf(ex: Exchange): string {
  return `${ex.status} ${ex.parsed ? JSON.stringify(withoutVolatile(ex.json)) : ex.text}`;
}

/**
 * Why the keyed answer cannot tell whether a refusal without a key was processed: there is none, it is no
 * answer about the request itself (a fault, a rate limit, a server error), or a "not found" of an id the
 * harness made up.
 */
function incomparable(keyed: Exchange | undefined, madeUpId: boolean): string | undefined {
  if (!keyed) return 'no keyed answer was read to compare it with';
  if (keyed.fault || keyed.status === undefined) return `the keyed request got no answer (${describe(keyed)})`;
  if (keyed.status === 429 || keyed.status >= 500) return `the keyed request was answered ${describe(keyed)}`;
  if (madeUpId && keyed.status === 404)
    return 'the keyed request is a 404 for an id the harness made up (no workflow was discovered)';
  return undefined;
}

export interface WithoutKey {
  /** The 401 clauses the request is about: the operation's and the variant's (missing key, wrong scheme…). */
  clauses: readonly (UnkeyedClause | OperationKeyClause)[];
  /** The same request made with the key, when one was: a refusal answered exactly as it was processed. */
  keyed?: Exchange;
  /** The request names an id the harness made up: a keyed 404 says nothing about processing. */
  madeUpId?: boolean;
  message: string;
}

/**
 * A request without a valid key: processed (exposure) when served, or when answered exactly as the keyed
 * request is; otherwise refused, and then with 401 as the clauses say. Exposure blocks the 401 clauses:
 * one deviation, one finding.
 */
export const judgeWithoutKey = withoutKey.judges((verdict, ex: Exchange, w: WithoutKey): void => {
  const refusedWith401 = ex.status === 401;
  const unknown = served(ex) || refusedWith401 ? undefined : incomparable(w.keyed, !!w.madeUpId);
  const sameAsKeyed = !served(ex) && !refusedWith401 && !unknown && contentOf(ex) === contentOf(w.keyed!);
  const processed = served(ex) || sameAsKeyed;
  if (unknown) {
    verdict.notRun('AUTH-NOT-SERVED-WITHOUT-KEY', `${w.message}: answered ${describe(ex)}, and ${unknown}`);
  } else {
    verdict.check('AUTH-NOT-SERVED-WITHOUT-KEY', !processed, {
      message: w.message,
      expected: 'not processed: no 2xx, and not the answer the same request gets with the key',
      actual: served(ex)
        ? `served: ${describe(ex)}`
        : sameAsKeyed
          ? `processed: ${describe(ex)}, exactly as the request with the key is answered`
          : describe(ex),
      exchangeId: ex.record.id,
      exchangeIds: sameAsKeyed ? [ex.record.id, w.keyed!.record.id] : undefined,
    });
  }
  if (processed) {
    stopAll(verdict, w.clauses, {
      blockedBy: 'AUTH-NOT-SERVED-WITHOUT-KEY',
      exchangeIds: [ex.record.id],
      reason: `${w.message}: processed without a valid key (${describe(ex)})`,
    });
    return;
  }
  for (const id of w.clauses) expectStatus(verdict, id, ex, 401, w.message);
});

// ---- over a limit (§8) ---------------------------------------------------------------------------------

export type LimitClause = 'LIMIT-CONTENT-100K' | 'LIMIT-PAYLOAD-100KB';

/** The judge of requests over a limit of §8: refused. */
export const overLimit = judge('requests over a limit', ['LIMIT-CONTENT-100K', 'LIMIT-PAYLOAD-100KB']);

/** Refused as the client's fault: the code (E2004/E2005) is only named, since its HTTP status is not listed. */
const OVER: Record<LimitClause, StatusExpectation> = {
  'LIMIT-PAYLOAD-100KB': clientError(`rejected (4xx, code ${LIMITS.payloadCode})`),
  'LIMIT-CONTENT-100K': clientError(`rejected (4xx, code ${LIMITS.contentCode} or ${LIMITS.payloadCode})`),
};

/**
 * What a request carries that the limits of §8 may bind. The limits say which operations they bind only
 * by their codes' own words: "content too large" is content the operation takes (generate's query, the
 * value of a variable the workflow declares), not a value under a name the workflow does not declare,
 * which a server may ignore unread; "request payload too large" is the JSON body of run or generate.
 */
export interface LimitedRequest {
  operation: 'runWorkflow' | 'generateWorkflow';
  /** Bytes of the JSON body as sent. */
  payloadBytes: number;
  /** Characters (code points) of the longest content the operation takes. */
  longestContent: number;
}

/** The limit clause a request is over in every reading of §8 (100KB as 102,400 bytes), or undefined. */
export function limitOver(r: LimitedRequest): LimitClause | undefined {
  if (r.longestContent > LIMITS.maxContentChars) return 'LIMIT-CONTENT-100K';
  if (r.payloadBytes > LIMITS.payloadBytesSurelyOver) return 'LIMIT-PAYLOAD-100KB';
  return undefined;
}

/** A request over a limit of §8 is refused (any 4xx): `clause` is the limit it is over (see limitOver). */
export const judgeOverLimit = overLimit.judges((verdict, clause: LimitClause, ex: Exchange, message: string) =>
  expectStatus(verdict, clause, ex, OVER[clause], message),
);

// ---- invalid parameters with a clause of their own (§4) -------------------------------------------------

export type InvalidParameterClause = 'RUN-400-INVALID-BODY' | 'GENERATE-400-MISSING-QUERY' | 'UPLOAD-400-NO-FILES';

/** Where the refusal of an upload whose body is not multipart is recorded (§4.7: its content type is not shown). */
export const UPLOAD_CONTENT_TYPE = 'UPLOAD-CONTENT-TYPE' as const satisfies ClauseId;

/** The judge of invalid parameters with a clause of their own: refused with 400. */
export const invalidParameter = judge('invalid parameters', [
  'RUN-400-INVALID-BODY',
  'GENERATE-400-MISSING-QUERY',
  'UPLOAD-400-NO-FILES',
  UPLOAD_CONTENT_TYPE,
]);

/** A request the clause says is invalid gets 400, the status §4 lists for invalid parameters. */
export const judgeInvalidParameter = invalidParameter.judges(
  (verdict, clause: InvalidParameterClause, ex: Exchange, message: string) =>
    expectStatus(verdict, clause, ex, 400, message),
);

/**
 * A request near an invalid one whose answer the words leave open (a `variables` that is no object, a
 * query null or a number, a file under another field name): recorded under the clause it neighbours.
 */
export const observeNearInvalid = invalidParameter.judges(
  (verdict, clause: InvalidParameterClause, ex: Exchange, what: string) =>
    verdict.observe(clause, what, describe(ex), ex.record.id),
);

/**
 * An upload whose body is JSON, not multipart: no file in it, yet the content type of the upload is not
 * shown, so it may be refused as a media type the operation does not take (415) as fairly as a request
 * without files (400). Any 4xx is recorded under UPLOAD-CONTENT-TYPE; anything else is judged as a request
 * without files (UPLOAD-400-NO-FILES: accepting it fails).
 */
export const judgeUploadNotMultipart = invalidParameter.judges((verdict, ex: Exchange, message: string): void => {
  if (ex.status !== undefined && ex.status >= 400 && ex.status < 500)
    verdict.observe(UPLOAD_CONTENT_TYPE, message, describe(ex), ex.record.id);
  else judgeInvalidParameter(verdict, 'UPLOAD-400-NO-FILES', ex, message);
});
