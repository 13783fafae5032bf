/**
 * A conformance report made elsewhere (its report.json), recorded in this history under an
 * implementation's name (`wfcheck history import`): a vendor sends the verdict of their own run instead
 * of their keys, and it takes its column in the implementation matrix beside the runs made here.
 *
 * Only a wfcheck conformance report is taken: its shape is checked before anything is written, and a
 * file that is something else (another JSON, an explore report, a truncated file) is refused with what
 * is wrong with it. No key is ever stored: the report's own harness replaced the keys it knew by their
 * names, and every text is scrubbed again here of whatever stands where a credential goes (a key this
 * harness was never given), before the store redacts and checks it once more. The target is named by
 * a hash of the report's base URL, as the runs made here are.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { scrubCredentials } from '../core/settings/redact.ts';
import { label, SettingError } from '../core/settings/rules.ts';
import { sameRun } from '../core/history-store/implementations.ts';
import { recordConformanceRun, withHistory } from '../core/history-store/store.ts';
import type { ConformanceReport } from '../core/findings/build-report.ts';
import { historyRecord } from '../core/findings/history-record.ts';

/** A report.json is a few MB at most; a file far bigger is not one. */
const MAX_REPORT_BYTES = 64 * 1024 * 1024;
const VERDICTS = new Set(['pass', 'fail', 'warn', 'waived', 'blocked', 'observed', 'not-run']);
/** Requirement ids as the catalogue spells them; anything else would end up in file names and anchors. */
const REQUIREMENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export interface ImportOptions {
  /** The implementation's name; default the one the report carries (`--name` of its run). */
  name?: string;
  version?: string;
  historyFile: string;
}

export interface ImportOutcome {
  name: string;
  version?: string;
  /** The run's id in the history; for a report imported before, the id it got then. */
  runId?: number;
  /** The history already held this run (same implementation, start and seed): nothing was written. */
  duplicate: boolean;
  startedAt: string;
  seed: number;
  /** Texts in which a credential was found and replaced. */
  scrubbed: number;
  /** Why the history could not be written. */
  skipped?: string;
}

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringArray = (v: Json) => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The first thing that keeps `value` from being a conformance report's requirement entry; undefined when none. */
function requirementProblem(r: Json, i: number): string | undefined {
  if (!isObject(r)) return `requirements[${i}] is not an object`;
  if (typeof r.id !== 'string' || !REQUIREMENT_ID.test(r.id)) return `requirements[${i}].id is not a requirement id`;
  for (const key of ['verdict', 'rawVerdict'] as const)
    if (typeof r[key] !== 'string' || !VERDICTS.has(r[key] as string))
      return `requirements[${i}].${key} is not a verdict (${[...VERDICTS].join(', ')})`;
  if (typeof r.passes !== 'number' || typeof r.failureCount !== 'number')
    return `requirements[${i}] has no counts of passes and failures`;
  for (const key of ['failures', 'observations'] as const)
    if (!Array.isArray(r[key])) return `requirements[${i}].${key} is not a list`;
  for (const key of ['blockedBy', 'notRunReasons'] as const)
    if (!isStringArray(r[key])) return `requirements[${i}].${key} is not a list of texts`;
  return undefined;
}

function findingProblem(f: Json, i: number): string | undefined {
  if (!isObject(f)) return `findings[${i}] is not an object`;
  for (const key of ['id', 'signature', 'severity', 'behaviour'] as const)
    if (typeof f[key] !== 'string') return `findings[${i}].${key} is not a text`;
  if (f.strength !== 'failure' && f.strength !== 'warning') return `findings[${i}].strength is not failure or warning`;
  if (typeof f.waived !== 'boolean') return `findings[${i}].waived is not true or false`;
  if (!isStringArray(f.clauses)) return `findings[${i}].clauses is not a list of requirement ids`;
  return undefined;
}

/** What keeps an entry of `openPoints` (absent from reports made before they were recorded) from being one. */
function openPointProblem(p: Json, i: number): string | undefined {
  if (!isObject(p)) return `openPoints[${i}] is not an object`;
  if (typeof p.point !== 'string' || typeof p.requirementId !== 'string')
    return `openPoints[${i}] names no point and clause`;
  if (!Array.isArray(p.values)) return `openPoints[${i}].values is not a list`;
  const bad = p.values.findIndex(
    (v) => !isObject(v) || typeof v.value !== 'string' || typeof v.count !== 'number' || typeof v.sentence !== 'string',
  );
  return bad < 0 ? undefined : `openPoints[${i}].values[${bad}] is not a value with its count and sentence`;
}

/** What keeps a parsed file from being a wfcheck conformance report; undefined when it is one. */
export function reportProblem(value: Json): string | undefined {
  if (!isObject(value)) return 'it is not a JSON object';
  if (value.kind === 'wfcheck-explore')
    return 'it is the report of an exploration (wfcheck explore); import the report.json of a conformance run';
  const meta = value.meta;
  if (!isObject(meta)) return 'it has no meta (seed, start, target)';
  if (typeof meta.seed !== 'number' || !Number.isSafeInteger(meta.seed) || meta.seed < 0)
    return 'meta.seed is not a seed';
  if (typeof meta.startedAt !== 'string' || Number.isNaN(Date.parse(meta.startedAt)))
    return 'meta.startedAt is not a date';
  if (typeof meta.baseUrl !== 'string') return 'meta.baseUrl is missing';
  if (meta.targetKind !== 'reference' && meta.targetKind !== 'external')
    return 'meta.targetKind is not reference or external';
  if (!isObject(value.summary) || !isObject(value.summary.byVerdict)) return 'it has no summary of verdicts';
  if (typeof value.exitCode !== 'number') return 'it has no exit code';
  if (!Array.isArray(value.requirements) || value.requirements.length === 0) return 'it lists no requirement verdicts';
  if (!Array.isArray(value.findings)) return 'it has no list of findings';
  if (value.openPoints !== undefined && !Array.isArray(value.openPoints)) return 'its openPoints is not a list';
  return (
    value.requirements.map(requirementProblem).find(Boolean) ??
    value.findings.map(findingProblem).find(Boolean) ??
    ((value.openPoints as Json[] | undefined) ?? []).map(openPointProblem).find(Boolean)
  );
}

/** Every text of a JSON value scrubbed of credentials; `changed` counts the texts that held one. */
function scrubbed<T>(value: T, changed: { n: number }): T {
  if (typeof value === 'string') {
    const out = scrubCredentials(value);
    if (out !== value) changed.n++;
    return out as T;
  }
  if (Array.isArray(value)) return value.map((v) => scrubbed(v, changed)) as T;
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubbed(v, changed)])) as T;
  return value;
}

/** Who the report's target was, as a hash of its address without credentials or query: never the address itself. */
function importedTarget(meta: ConformanceReport['meta']): string {
  if (meta.targetKind === 'reference') return 'imported:reference';
  const address = meta.baseUrl.replace(/^([a-z]+:\/\/)[^@/]*@/i, '$1').replace(/[?#].*$/, '');
  return `imported:${createHash('sha256').update(address).digest('hex').slice(0, 16)}`;
}

/** Reads and checks a report.json; refuses (SettingError) a file that is not a wfcheck conformance report. */
export function readReportFile(file: string): ConformanceReport {
  let text: string;
  try {
    if (statSync(file).size > MAX_REPORT_BYTES) throw new SettingError(`${file} is too big to be a report.json`);
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof SettingError) throw err;
    throw new SettingError(`cannot read ${file}: ${(err as Error).message}`);
  }
  let value: Json;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SettingError(`${file} is not a wfcheck conformance report (report.json): it is not JSON`);
  }
  const problem = reportProblem(value);
  if (problem) throw new SettingError(`${file} is not a wfcheck conformance report (report.json): ${problem}`);
  return value as ConformanceReport;
}

/** Records the report under its implementation; a report imported before is not recorded twice. */
export function importReport(file: string, options: ImportOptions): ImportOutcome {
  const changed = { n: 0 };
  const report = scrubbed(readReportFile(file), changed);
  const name = label(options.name ?? report.meta.implementation?.name, '--name');
  if (!name)
    throw new SettingError(`${file} names no implementation (its run had no --name): give it one with --name <label>`);
  const version = label(
    options.version ?? (options.name === undefined ? report.meta.implementation?.version : undefined),
    '--target-version',
  );
  const named: ConformanceReport = {
    ...report,
    meta: { ...report.meta, implementation: version ? { name, version } : { name } },
  };
  const base = { name, ...(version ? { version } : {}), startedAt: report.meta.startedAt, seed: report.meta.seed };
  // Looked up and recorded in one write transaction: the same report imported twice at once is still one run.
  const { value, skipped } = withHistory(options.historyFile, (db) =>
    db
      .transaction(() => {
        const before = sameRun(db, name, report.meta.startedAt, report.meta.seed);
        if (before !== undefined) return { runId: before, duplicate: true };
        return {
          runId: recordConformanceRun(db, historyRecord(named, importedTarget(report.meta), [], 'import')),
          duplicate: false,
        };
      })
      .immediate(),
  );
  return { ...base, runId: value?.runId, duplicate: value?.duplicate ?? false, scrubbed: changed.n, skipped };
}
