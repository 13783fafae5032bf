/**
 * Waivers: a target's known deviations, each with a reason. A waived failure
 * does not fail the run; a waiver whose requirement now passes is reported so
 * it can be removed; an expired waiver no longer applies.
 *
 * File format (YAML):
 *   waivers:
 *     - id: SEARCH-PAGESIZE-HONOURED
 *       reason: pageSize is capped at 50 (tracked as #123)
 *       expires: 2026-12-31        # optional (YYYY-MM-DD); ignored after that day
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export interface Waiver {
  id: string;
  reason: string;
  expires?: string;
}

export interface WaiverSet {
  source?: string;
  active: Waiver[];
  expired: Waiver[];
  /** Entries that could not be used (unknown ID, missing reason, bad date). */
  problems: string[];
}

export function emptyWaivers(): WaiverSet {
  return { active: [], expired: [], problems: [] };
}

export function parseWaivers(
  text: string,
  knownIds: ReadonlySet<string>,
  today = new Date(),
  source?: string,
): WaiverSet {
  const set: WaiverSet = { source, active: [], expired: [], problems: [] };
  const doc = parse(text) as { waivers?: unknown } | null;
  const list = doc && typeof doc === 'object' ? doc.waivers : undefined;
  if (list === undefined || list === null) return set;
  if (!Array.isArray(list)) {
    set.problems.push('`waivers` must be a list');
    return set;
  }
  const day = today.toISOString().slice(0, 10);
  for (const [i, entry] of list.entries()) {
    const e = (entry ?? {}) as Record<string, unknown>;
    const where = `waiver #${i + 1}`;
    const id = typeof e.id === 'string' ? e.id.trim() : '';
    const reason = typeof e.reason === 'string' ? e.reason.trim() : '';
    const expires =
      e.expires instanceof Date
        ? e.expires.toISOString().slice(0, 10)
        : typeof e.expires === 'string'
          ? e.expires.trim()
          : undefined;
    if (!id) {
      set.problems.push(`${where}: missing id`);
      continue;
    }
    if (!knownIds.has(id)) {
      set.problems.push(`${where}: ${id} is not a requirement ID of the catalogue`);
      continue;
    }
    if (!reason) {
      set.problems.push(`${where} (${id}): a reason is required`);
      continue;
    }
    if (expires !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(expires)) {
      set.problems.push(`${where} (${id}): expires must be YYYY-MM-DD`);
      continue;
    }
    const waiver: Waiver = { id, reason, ...(expires ? { expires } : {}) };
    if (expires && expires < day) set.expired.push(waiver);
    else set.active.push(waiver);
  }
  return set;
}

export function loadWaivers(path: string, knownIds: ReadonlySet<string>, today = new Date()): WaiverSet {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return { source: path, active: [], expired: [], problems: [`cannot read ${path}: ${(err as Error).message}`] };
  }
  try {
    return parseWaivers(text, knownIds, today, path);
  } catch (err) {
    return {
      source: path,
      active: [],
      expired: [],
      problems: [`${path} is not valid YAML: ${(err as Error).message}`],
    };
  }
}
