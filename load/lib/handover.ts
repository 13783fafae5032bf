/**
 * How a VU hands responses over to the Node checker in offload mode (load/node/check-sink.ts reads it).
 * Pure TypeScript, no k6 imports: both sides use it.
 *
 * A batch is the fields of its responses joined with TAB. Each response gives nine fields: operation,
 * status, method, then the lengths of its content type, URL and body, then the content type, URL and
 * body themselves. Lengths are in UTF-16 code units (JavaScript string length) and let the reader take
 * the last three fields whatever they contain, so nothing is escaped. Why this shape: in k6's runtime
 * `JSON.stringify` of a body costs ~20 µs, a `replace` ~4 µs and each string concatenation about half a
 * microsecond, while one `push` of the fields and one `join` per batch cost a few microseconds per response.
 */
import type { OperationId } from './operations.ts';

/** One handed-over response: [operation, status, content type, body, "METHOD url"]. */
export type HandedOver = [OperationId, number, string, string, string];

const FIELDS_BEFORE_TEXTS = 6;

/** Appends one response's fields to a batch under construction (joined with TAB when it is sent). */
export function pushFrame(
  batch: unknown[],
  operation: OperationId,
  status: number,
  method: string,
  contentType: string,
  url: string,
  body: string,
): void {
  batch.push(operation, status, method, contentType.length, url.length, body.length, contentType, url, body);
}

/** The text of a batch of responses. */
export function batchText(batch: readonly unknown[]): string {
  return batch.join('\t');
}

const isLength = (n: number) => Number.isInteger(n) && n >= 0;

function malformed(at: number): Error {
  return new Error(`malformed frame at ${at}`);
}

/** Reads one frame starting at `at`; returns it and where the next one starts. */
function readFrame(text: string, at: number): { frame: HandedOver; next: number } {
  const fields: string[] = [];
  let cursor = at;
  for (let i = 0; i < FIELDS_BEFORE_TEXTS; i++) {
    const tab = text.indexOf('\t', cursor);
    if (tab < 0) throw malformed(at);
    fields.push(text.slice(cursor, tab));
    cursor = tab + 1;
  }
  const [typeLength, urlLength, bodyLength] = [Number(fields[3]), Number(fields[4]), Number(fields[5])];
  if (!isLength(typeLength) || !isLength(urlLength) || !isLength(bodyLength)) throw malformed(at);
  const typeEnd = cursor + typeLength;
  const urlAt = typeEnd + 1;
  const bodyAt = urlAt + urlLength + 1;
  const end = bodyAt + bodyLength;
  if (
    end > text.length ||
    text[typeEnd] !== '\t' ||
    text[bodyAt - 1] !== '\t' ||
    (end < text.length && text[end] !== '\t')
  )
    throw malformed(at);
  const frame: HandedOver = [
    fields[0] as OperationId,
    Number(fields[1]),
    text.slice(cursor, typeEnd),
    text.slice(bodyAt, end),
    `${fields[2]} ${text.slice(urlAt, bodyAt - 1)}`,
  ];
  return { frame, next: end + 1 };
}

export function parseFrames(text: string): HandedOver[] {
  const out: HandedOver[] = [];
  let at = 0;
  while (at < text.length) {
    const { frame, next } = readFrame(text, at);
    out.push(frame);
    at = next;
  }
  return out;
}

/**
 * The checker's answer to one batch, per operation: responses checked, responses breaking a must clause,
 * and responses with should-level findings. Counts rather than one entry per response: the VU records
 * them with one metric sample per operation and batch, not one per response.
 */
export interface BatchVerdict {
  checked: Partial<Record<OperationId, number>>;
  must: Partial<Record<OperationId, number>>;
  should: Partial<Record<OperationId, number>>;
}
