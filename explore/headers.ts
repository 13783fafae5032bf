/**
 * The request headers the generative mode varies, one variant per input: the content type of a JSON body
 * and its charset, its content coding, and an odd Authorization that still carries the key (sent twice,
 * after a wrong one, with a lower-case scheme, with two spaces).
 *
 * None of them is forbidden by the specification, and none is about a clause of its own: an answer to
 * one is judged as every answer is, so any listed status passes and a crash fails. A refusal with a
 * status no operation lists (415 for a content coding the server does not know, 400 on search for a
 * header sent twice) is what §7 leaves open: such a refusal carries a code whose HTTP status is "none
 * listed" (E3009 content type not allowed, E0004 authorization process failed), so it is recorded under
 * that open point and never failed.
 */
import type { OperationId } from '../contracts/check.ts';
import type { AuthMode, RequestSpec } from '../engine/transport/exchange.ts';

interface Variant {
  /** Only a request with a JSON body carries it (run and generate). */
  jsonBody: boolean;
  apply(spec: RequestSpec, key: string): RequestSpec;
}

const body = (contentType: string | undefined, contentEncoding?: string): Variant => ({
  jsonBody: true,
  apply: (spec) => ({
    ...spec,
    raw: { body: spec.raw?.body ?? '', contentType },
    ...(contentEncoding ? { headers: { ...spec.headers, 'content-encoding': contentEncoding } } : {}),
  }),
});

const auth = (mode: (key: string) => AuthMode): Variant => ({
  jsonBody: false,
  apply: (spec, key) => ({ ...spec, auth: mode(key) }),
});

/** Every variant by the name its feature carries (`header:<name>`), in the order a probe tries them. */
export const HEADER_VARIANTS: Readonly<Record<string, Variant>> = {
  'charset=utf-8': body('application/json; charset=utf-8'),
  'charset=UTF-8': body('application/json;charset=UTF-8'),
  'charset=us-ascii': body('application/json; charset=us-ascii'),
  'charset=latin1': body('application/json; charset=latin1'),
  'charset=iso-8859-1': body('application/json; charset=iso-8859-1'),
  'charset=utf-16': body('application/json; charset=utf-16'),
  'content-type=text/plain': body('text/plain'),
  'content-type=none': body(undefined),
  'content-encoding=identity': body('application/json', 'identity'),
  'content-encoding=unknown': body('application/json', 'x-wfcheck'),
  'authorization=twice': auth((k) => ({ kind: 'repeated', values: [`Bearer ${k}`, `Bearer ${k}`] })),
  'authorization=wrong-then-key': auth((k) => ({
    kind: 'repeated',
    values: ['Bearer wfcheck-explore-not-a-key', `Bearer ${k}`],
  })),
  'authorization=lower-case-scheme': auth((k) => ({ kind: 'literal', value: `bearer ${k}` })),
  'authorization=two-spaces': auth((k) => ({ kind: 'literal', value: `Bearer  ${k}` })),
};

const JSON_BODY_OPS: readonly OperationId[] = ['runWorkflow', 'generateWorkflow'];

/** The variants an operation's requests can carry. */
export function headerVariantsFor(op: OperationId): string[] {
  return Object.entries(HEADER_VARIANTS)
    .filter(([, v]) => !v.jsonBody || JSON_BODY_OPS.includes(op))
    .map(([name]) => name);
}

export const headerFeature = (name: string) => `header:${name}`;

/** Where an unlisted 4xx to a request carrying a variant is recorded (see above). */
export const HEADER_OPEN_POINT = 'ERROR-STATUS-FOR-UNLISTED-CODES';

/** The request with the variant applied; undefined when it does not apply (a body variant, no body sent). */
export function withHeader(spec: RequestSpec, name: string, key: string): RequestSpec | undefined {
  const v = HEADER_VARIANTS[name];
  if (!v || (v.jsonBody && !spec.raw)) return undefined;
  return { ...v.apply(spec, key), openPoint: spec.openPoint ?? HEADER_OPEN_POINT };
}
