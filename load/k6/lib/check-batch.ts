/**
 * A batch of responses sent to the Node checker when the contract checks are offloaded (load/k6/lib/contract.ts
 * builds it in the VU, load/node/node-checker.ts reads it), and the checker's verdict on it. Pure TypeScript,
 * no k6 imports: both sides use it.
 *
 * A batch is the fields of its responses joined with TAB. Each response gives nine fields: operation,
 * status, method, then the lengths of its content type, URL and body, then the content type, URL and
 * body themselves. Lengths are in UTF-16 code units (JavaScript string length) and let the reader take
 * the last three fields whatever they contain, so nothing is escaped. Why this shape: in k6's interpreter
 * escaping a body (`JSON.stringify`, a `replace`) and concatenating strings cost far more per response than
 * pushing the fields onto an array and joining the whole batch once.
 */
import type { OperationId } from './operations.ts';

/** One response of a batch as the checker reads it: [operation, status, content type, body, "METHOD url"]. */
export type BatchedResponse = [OperationId, number, string, string, string];

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
function readFrame(text: string, at: number): { frame: BatchedResponse; next: number } {
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
  const frame: BatchedResponse = [
    fields[0] as OperationId,
    Number(fields[1]),
    text.slice(cursor, typeEnd),
    text.slice(bodyAt, end),
    `${fields[2]} ${text.slice(urlAt, bodyAt - 1)}`,
  ];
  return { frame, next: end + 1 };
}

export function parseFrames(text: string): BatchedResponse[] {
  const out: BatchedResponse[] = [];
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
