/**
 * How a VU hands responses over to the Node checker in offload mode (load/node/check-sink.ts reads it).
 * Pure TypeScript, no k6 imports: both sides use it.
 *
 * One response is `operation TAB status TAB content type TAB METHOD url TAB body length LF body`, the
 * length in UTF-16 code units (JavaScript string length); a batch is the frames joined. Framing by
 * length instead of JSON.stringify matters: escaping a JSON body into a JSON string costs ~20 µs per
 * response in k6's runtime, more than the check it replaces is worth; joining frames costs ~3 µs.
 */
import type { OperationId } from './operations.ts';

/** One handed-over response: [operation, status, content type, body, "METHOD url"]. */
export type HandedOver = [OperationId, number, string, string, string];

export function frame(operation: OperationId, status: number, contentType: string, request: string, body: string): string {
  return `${operation}\t${status}\t${contentType.replace(/[\t\n]/g, ' ')}\t${request.replace(/[\t\n]/g, ' ')}\t${body.length}\n${body}`;
}

export function parseFrames(text: string): HandedOver[] {
  const out: HandedOver[] = [];
  let at = 0;
  while (at < text.length) {
    const newline = text.indexOf('\n', at);
    if (newline < 0) throw new Error(`unterminated frame header at ${at}`);
    const fields = text.slice(at, newline).split('\t');
    const length = Number(fields[4]);
    if (fields.length !== 5 || !Number.isInteger(length) || length < 0 || newline + 1 + length > text.length) throw new Error(`malformed frame header at ${at}`);
    out.push([fields[0] as OperationId, Number(fields[1]), fields[2]!, text.slice(newline + 1, newline + 1 + length), fields[3]!]);
    at = newline + 1 + length;
  }
  return out;
}

/** The checker's answer to one batch: indexes (ascending) of the responses with must-level findings, and of those with should-level ones. */
export interface BatchVerdict { must: number[]; should: number[] }
