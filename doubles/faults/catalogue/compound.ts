/**
 * Compound entries: several independent deviations at once, as real implementations deviate in several
 * ways together. Each combines single entries of the other files (`compose`), expects the union of their
 * clauses, and each part must be seen.
 */
import type { ProxyRequest, Reply } from '../proxy.ts';
import { AUTH } from './auth.ts';
import { ENVELOPE_SCHEMA } from './envelope-schema.ts';
import { GENERATE } from './generate.ts';
import { ISOLATION } from './isolation.ts';
import { LATENCY_ERRORS } from './latency-errors.ts';
import { LIMITS } from './limits.ts';
import { findMutant, probesOf, type Mutant } from './mutant.ts';
import { PAGINATION } from './pagination.ts';
import { STATE_MACHINE } from './state-machine.ts';
import { STATUS_CODES } from './status-codes.ts';
import { UPLOAD } from './upload.ts';

/** Every single entry, category by category. */
export const SINGLES: readonly Mutant[] = [
  ...ENVELOPE_SCHEMA,
  ...STATUS_CODES,
  ...AUTH,
  ...ISOLATION,
  ...STATE_MACHINE,
  ...PAGINATION,
  ...UPLOAD,
  ...GENERATE,
  ...LIMITS,
  ...LATENCY_ERRORS,
];

/**
 * One mutant out of several single entries: request hooks run in order until one answers, response
 * hooks rewrite upstream's answer in order, the longest delay wins. Expects the union of the parts'
 * clauses; `parts` lets the report check that every part was seen. `findings` overrides the sum of the parts' deviations where parts share one: the same habit shown by
 * two parts is one deviation of the compound.
 */
export function compose(id: string, description: string, partIds: string[], findings?: number): Mutant {
  const parts = partIds.map((p) => findMutant(SINGLES, p));
  const union = (pick: (m: Mutant) => string[] | undefined) => [...new Set(parts.flatMap((m) => pick(m) ?? []))];
  const breaks = union((m) => m.breaks);
  const warns = union((m) => m.warns);
  return {
    id,
    category: 'compound',
    description,
    parts: partIds,
    ...(findings !== undefined ? { findings } : {}),
    ...(breaks.length ? { breaks } : {}),
    ...(warns.length ? { warns } : {}),
    probes: union(probesOf),
    request: async (req, ctx) => {
      let current: ProxyRequest | Reply = req;
      for (const m of parts) {
        if (!m.request) continue;
        current = await m.request(current as ProxyRequest, ctx);
        if ('destroy' in current || 'status' in current) return current;
      }
      return current;
    },
    response: async (res, req, ctx) => {
      let current: Reply = res;
      for (const m of parts) if (m.response && !('destroy' in current)) current = await m.response(current, req, ctx);
      return current;
    },
    delayMs: (req, ctx) => Math.max(0, ...parts.map((m) => m.delayMs?.(req, ctx) ?? 0)),
  };
}

export const COMPOUNDS: readonly Mutant[] = [
  // One habit shows on every operation, so under many clauses and probes: the report counts it once (as
  // trace-id-number, auth-403-for-bad-key and post-201 do among the singles).
  {
    ...compose(
      'compound-every-operation',
      'Three habits, each on every operation it can show on: 403 for every missing or invalid key, 201 for every successful POST, and success as the string "true".',
      ['auth-403-for-bad-key', 'post-201', 'envelope-success-string'],
    ),
    findings: 3,
  },
  compose(
    'compound-status-habits',
    'Every successful POST answered 201, not-found answered 200 {success:false, errCode:"E1000"}, the search keyword ignored, and the run response says status "queued".',
    ['post-201', 'not-found-as-200', 'keyword-ignored', 'run-status-bad-enum-201'],
    // Four, not five: the run's 201 is the habit post-201 shows on every POST.
    4,
  ),
  // ===== one deviation must not hide another =====
  // A status outside the enum stops the poll, but what the answers in hand show is judged all the same; a
  // disabled workflow run anyway is one deviation however its answer is read on.
  compose(
    'enum-beside-early-files',
    'Executions end with status "finished" (outside the enum), files are listed for nodes still executing, and a disabled workflow runs anyway with an id the status endpoint does not know.',
    ['status-unknown-value', 'files-before-finish', 'api-disabled-ignored'],
  ),
  compose(
    'compound-search-and-errors',
    'Search returns a wrapped list with 0-based pages, error bodies carry stack traces, and JSON is labelled text/plain.',
    ['search-wrapped-list', 'page-zero-based', 'stack-in-errors', 'json-labelled-text'],
  ),
  compose(
    'compound-leak-and-drift',
    'Another tenant\'s canvas is revealed, pages hold one item too many, output messages say "assistant", and plans name a missing dependency.',
    ['isolation-canvas-leak', 'page-size-off-by-one', 'message-type-assistant', 'dependent-task-unknown'],
  ),
];
