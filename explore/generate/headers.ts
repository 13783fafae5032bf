/**
 * The request headers the generative mode varies, one variant per input: the content type of a JSON body
 * and its charset, its content coding, an odd Authorization that still carries the key (sent twice,
 * after a wrong one, with a lower-case scheme, with two spaces), and the framing of any body (a chunk size
 * that is not hexadecimal or of sixteen hex digits, a chunked body or a Content-Length cut short: sent by
 * the core's raw sender, core/transport/framing.ts).
 *
 * None of them is forbidden by the specification, and none is about a clause of its own: an answer to
 * one is judged as every answer is, so any listed status passes and a crash fails. A refusal with a
 * status no operation lists (415 for a content coding the server does not know) is what §7 leaves open:
 * such a refusal carries a code whose HTTP status is "none listed" (E3009 content type not allowed), so it
 * is recorded under that open point and never failed. An Authorization header sent twice may be refused by
 * the HTTP layer with a 4xx that is not JSON (a proxy's page): the client records it under HTTP-LAYER-REFUSAL.
 */
import type { OperationId } from '../../contracts/check.ts';
import type { ObserveClauseId } from '../../contracts/requirements.ts';
import type { AuthMode, Framing, RequestSpec } from '../../core/transport/exchange.ts';
import { FRAMINGS } from '../../core/transport/framing.ts';

interface Variant {
  /** Which requests carry it: those with a JSON body (run and generate), with any body (and upload), any. */
  needs: 'json-body' | 'body' | 'none';
  apply(spec: RequestSpec, key: string): RequestSpec;
}

const body = (contentType: string | undefined, contentEncoding?: string): Variant => ({
  needs: 'json-body',
  apply: (spec) => ({
    ...spec,
    raw: { body: spec.raw?.body ?? '', contentType },
    ...(contentEncoding ? { headers: { ...spec.headers, 'content-encoding': contentEncoding } } : {}),
  }),
});

const auth = (mode: (key: string) => AuthMode): Variant => ({
  needs: 'none',
  apply: (spec, key) => ({ ...spec, auth: mode(key) }),
});

/** A body framed as `framing` breaks it; any refusal of it is the HTTP layer's (HTTP-LAYER-REFUSAL). */
const framed = (framing: Framing): Variant => ({ needs: 'body', apply: (spec) => ({ ...spec, framing }) });

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
  // Media ranges where a media type belongs (Spring's body reader was seen to crash on them).
  'content-type=*/*': body('*/*'),
  'content-type=application/*': body('application/*'),
  'content-encoding=identity': body('application/json', 'identity'),
  'content-encoding=unknown': body('application/json', 'x-wfcheck'),
  'authorization=twice': auth((k) => ({ kind: 'repeated', values: [`Bearer ${k}`, `Bearer ${k}`] })),
  'authorization=wrong-then-key': auth((k) => ({
    kind: 'repeated',
    values: ['Bearer wfcheck-explore-not-a-key', `Bearer ${k}`],
  })),
  'authorization=lower-case-scheme': auth((k) => ({ kind: 'literal', value: `bearer ${k}` })),
  'authorization=two-spaces': auth((k) => ({ kind: 'literal', value: `Bearer  ${k}` })),
  ...Object.fromEntries(FRAMINGS.map((f) => [`framing=${f}`, framed(f)])),
};

const JSON_BODY_OPS: readonly OperationId[] = ['runWorkflow', 'generateWorkflow'];
const BODY_OPS: readonly OperationId[] = [...JSON_BODY_OPS, 'uploadFiles'];

/** The variants an operation's requests can carry. */
export function headerVariantsFor(op: OperationId): string[] {
  const carries = (v: Variant) =>
    v.needs === 'none' || (v.needs === 'json-body' ? JSON_BODY_OPS : BODY_OPS).includes(op);
  return Object.entries(HEADER_VARIANTS)
    .filter(([, v]) => carries(v))
    .map(([name]) => name);
}

export const headerFeature = (name: string) => `header:${name}`;

/** Where an unlisted 4xx to a request carrying a variant is recorded (see above). */
export const HEADER_OPEN_POINT = 'ERROR-STATUS-FOR-UNLISTED-CODES' as const satisfies ObserveClauseId;

/** The request with the variant applied; undefined when it does not apply (a body variant, no body sent). */
export function withHeader(spec: RequestSpec, name: string, key: string): RequestSpec | undefined {
  const v = HEADER_VARIANTS[name];
  if (!v || (v.needs === 'json-body' && !spec.raw) || (v.needs === 'body' && !spec.raw && !spec.multipart))
    return undefined;
  return { ...v.apply(spec, key), openPoint: spec.openPoint ?? HEADER_OPEN_POINT };
}
