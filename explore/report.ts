/**
 * The report of a generative run: JSON for tools and Markdown for people.
 *
 * A finding is one deviation: its clause, its minimal input (after shrinking) with the request and the
 * answer, a curl reproducer with the key as `${API_KEY}`, the seed and fast-check path that replay it,
 * and a fingerprint (operation + clause + shape of the minimal input) that stays the same from one
 * night to the next for the same failure. With the run history, each finding says whether an earlier
 * run of the same target found it (new, or seen before: since when, in how many runs), and the report
 * lists the previous run's findings this run no longer has.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OperationId } from '../contracts/check.ts';
import { OPERATION_PREFIX, type Level } from '../contracts/requirements.ts';
import { familyOf } from '../engine/verdict/findings.ts';
import { containsSecret, redactSecrets, redactValue } from '../foundation/environment/redact.ts';
import type { ExploreHistory, FindingSeen, GoneFinding, PreviousExploreRun } from '../foundation/history/explore.ts';
import type { ExploreFindingRow, ExploreRunRow } from '../foundation/history/queries.ts';

export type PropertyKind = 'allowed' | 'forbidden';

export type StopReason =
  | 'done'
  | 'request budget spent'
  | 'time budget spent'
  | 'footprint cap reached'
  | 'target unreachable'
  | 'not run';

export interface PropertySummary {
  kind: PropertyKind;
  /** Requests sent for this property (shrinking and the confirming replay included). */
  requests: number;
  /** Inputs judged: passed, failed (new or already found) and inconclusive. */
  inputs: number;
  passed: number;
  failed: number;
  /** Inputs left unsent because the footprint cap was reached. */
  capped: number;
  /** Answers that could not be judged, by reason (a harness deadline, a refused connection, still rate limited). */
  inconclusive: Record<string, number>;
  /** Unlisted 4xx answers to inputs touching an open point: clause → statuses seen and how often. */
  observed: Record<string, { count: number; statuses: number[] }>;
  rounds: number;
  shrinks: number;
  stop: StopReason;
  /**
   * The families of input tried, by parameter: how many requests carried each (`keyword` → `len>4096`,
   * `four-byte`; `page` → `exponent`, `digits>1000`; `header` → `charset=latin1`), read off what was sent.
   */
  tried: Record<string, Record<string, number>>;
}

export interface OperationSummary {
  operation: OperationId;
  wallMs: number;
  allowed: PropertySummary;
  forbidden: PropertySummary;
  findings: number;
}

export interface ShownExchange {
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    bodyExcerpt?: string;
    bodyBytes: number;
  };
  response?: { status: number; contentType?: string; bodyExcerpt: string };
  fault?: { kind: string; message: string };
}

export interface ExploreFinding {
  fingerprint: string;
  operation: OperationId;
  clause: string;
  level: Level;
  /** The clause is in the requirement catalogue (a proposed one is not yet). */
  catalogued: boolean;
  property: PropertyKind;
  family: string;
  message: string;
  expected: string;
  actual: string;
  /** Other clauses the same answer breaks: listed, not counted. */
  alsoBreaks: string[];
  /** The features of the minimal input: what the fingerprint is made of. */
  shape: string[];
  minimalInput: unknown;
  exchange: ShownExchange;
  curl: string;
  /** The request body, when the reproducer needs it as a file (bodies/<fingerprint>.txt). */
  bodyFile?: string;
  /**
   * The fast-check run that found it: `propertySeed` and `path` replay its shrunk counterexample; `simplified`
   * counts the greedy steps taken after shrinking (each one character or one element less).
   */
  replay: {
    seed: number;
    propertySeed: number;
    path: string;
    round: number;
    numRuns: number;
    shrinks: number;
    simplified: number;
  };
  /** The minimal input, sent once more, failed the same way. */
  reproduced: boolean;
  /** Shrinking ended by itself (not cut by the request or time budget). */
  shrinkComplete: boolean;
  /** How many times exploration reached this finding (shrinking to the same fingerprint). */
  occurrences: number;
  /** What the run history says of it; absent when the history was not used. */
  seen?: FindingSeen;
}

/**
 * One deviation: findings of several operations that show one thing wrong (an id scheme crashing every
 * operation that takes an id, a body field missing from every answer, a key echoed by every refusal).
 */
export interface ExploreDeviation {
  level: Level;
  /** The answer the findings share: a server error's or an unlisted status, the fault met, or "any status". */
  answer: string;
  /**
   * What else they share: the class of the crashing input (its probed shape, parameters of one kind named
   * alike, bare presences left out), or the clause without its operation's prefix.
   */
  shape: string[];
  operations: OperationId[];
  clauses: string[];
  fingerprints: string[];
}

/**
 * Parameters of one kind, named alike when crashes are grouped: an id's shape breaks every operation taking
 * one alike, whatever the parameter; so does a class of text in a search query, of number in a page
 * parameter, of value at the top of a JSON body (a run's variables, generate's other fields).
 */
const PARAMETER_KINDS: readonly [RegExp, string][] = [
  [/^(canvasId|executionId)(?=:|$)/, 'id'],
  [/^(keyword|order)(?=:|$)/, 'query text'],
  [/^(page|pageSize)(?=:|$)/, 'query number'],
  [/^(vars|extra)\.\*/, 'value'],
];

/** The class of input a crash is about: its shape with parameters named by kind, bare presences left out. */
function crashClass(shape: readonly string[]): string[] {
  const named = shape.map((f) => PARAMETER_KINDS.reduce((x, [re, kind]) => x.replace(re, kind), f));
  return [...new Set(named.filter((f) => f.includes(':')))].sort();
}

/**
 * Groups findings by evidence, as the conformance report does, never by a list of known cases. Findings
 * of one level are one deviation when they share the answer and:
 *
 * - for a server error or no answer (the input broke the server): the class of input it is about — the
 *   shape of the minimal input with its classes probed (classes.ts), parameters of one kind named alike,
 *   whether an allowed or a forbidden input reached it — unless the failure did not come back on its
 *   minimal input, in which case no input caused it and every such failure of that answer is one (an
 *   intermittent fault);
 * - for any other answer (a body, a header, a status judged against its clause): the clause without its
 *   operation's prefix, whichever status (but for an unlisted one) and kind of input drew it — what the
 *   answer says does not depend on which input drew it.
 */
export function deviationsOf(findings: readonly ExploreFinding[]): ExploreDeviation[] {
  const groups = new Map<string, ExploreDeviation>();
  for (const f of findings) {
    const status = f.exchange.response?.status;
    const serverBroke = status === undefined || status >= 500;
    // What an answer says of itself is one habit whichever status carries it (a stack trace in a 400 and
    // in a 404, a content type on successes and refusals) and whichever kind of input drew it; only an
    // unlisted status is keyed by the status itself (a 201 and a 422 are two habits).
    // The clause without its operation's prefix, as the conformance findings read it.
    const family = familyOf(f.clause, f.operation, OPERATION_PREFIX);
    const answer =
      status === undefined
        ? `${f.exchange.fault?.kind ?? 'no answer'}`
        : serverBroke || family === 'HTTP-STATUS-LISTED'
          ? `${status}`
          : 'any status';
    const shape = !serverBroke ? [`clause:${family}`] : f.reproduced ? crashClass(f.shape) : ['not reproduced'];
    const key = JSON.stringify([f.level, answer, shape]);
    const g = groups.get(key) ?? { level: f.level, answer, shape, operations: [], clauses: [], fingerprints: [] };
    groups.set(key, g);
    if (!g.operations.includes(f.operation)) g.operations.push(f.operation);
    for (const c of [f.clause, ...f.alsoBreaks]) if (!g.clauses.includes(c)) g.clauses.push(c);
    g.fingerprints.push(f.fingerprint);
  }
  return [...groups.values()];
}

/** "1 deviation (5 findings)", counting must-level ones. */
export function deviationsHeadline(r: Pick<ExploreReport, 'findings' | 'deviations'>): string {
  const must = r.deviations.filter((d) => d.level === 'must');
  const mustFindings = r.findings.filter((f) => f.level === 'must').length;
  const warnings = r.deviations.length - must.length;
  return (
    `${must.length} deviation(s)${mustFindings !== must.length ? ` (${mustFindings} findings across operations)` : ''}, ` +
    `${warnings} warning(s)`
  );
}

/** The run history's part of a report: absent when the run was not recorded (a library call). */
export interface ExploreReportHistory {
  /** This run's id among the generative runs of the history. */
  runId?: number;
  /** The previous generative run of the same target, which `gone` is relative to. */
  previous?: PreviousExploreRun;
  /** Must-level findings of this run: new to the history, seen before, or not known (history skipped). */
  findings: { new: number; seenBefore: number; unknown: number };
  /** Findings of the previous run that this run does not have. */
  gone: GoneFinding[];
  /** Why the history was not used (the report is complete without it). */
  skipped?: string;
}

export interface Footprint {
  executionsStarted: number;
  canvasesCreated: number;
  canvasOverwrites: number;
  filesUploaded: number;
  requests: { explore: number; setup: number; cleanup: number };
}

export interface ExploreReport {
  kind: 'wfcheck-explore';
  version: 1;
  seed: number;
  seedGiven: boolean;
  startedAt: string;
  wallMs: number;
  target: { kind: 'reference' | 'external'; how: string; baseUrl: string };
  budget: {
    seconds: number;
    requestsPerOperation: number;
    maxExecutions: number;
    maxCanvasesCreated: number;
    allowOverwrite: boolean;
  };
  setup: string[];
  operations: OperationSummary[];
  findings: ExploreFinding[];
  /** The findings grouped into the deviations they show (see deviationsOf): what a person counts. */
  deviations: ExploreDeviation[];
  footprint: Footprint;
  /** Why the exploration did not cover everything it planned; empty when complete. */
  incomplete: string[];
  /** 0 clean, 1 findings (must), 2 incomplete. */
  exitCode: 0 | 1 | 2;
  history?: ExploreReportHistory;
}

/** The report with what the history says: each finding's `seen`, and `history`. */
export function withRunHistory(r: ExploreReport, h: ExploreHistory): ExploreReport {
  const findings = r.findings.map((f) => (h.seen[f.fingerprint] ? { ...f, seen: h.seen[f.fingerprint] } : f));
  const must = findings.filter((f) => f.level === 'must');
  return {
    ...r,
    findings,
    history: {
      ...(h.runId !== undefined ? { runId: h.runId } : {}),
      ...(h.previous ? { previous: h.previous } : {}),
      findings: {
        new: must.filter((f) => f.seen?.status === 'new').length,
        seenBefore: must.filter((f) => f.seen?.status === 'seen-before').length,
        unknown: must.filter((f) => !f.seen).length,
      },
      gone: h.gone,
      ...(h.skipped ? { skipped: h.skipped } : {}),
    },
  };
}

const day = (iso: string) => iso.slice(0, 10);

/** "new" or "seen before (first seen <date>, <n> runs)", as the report and `wfcheck history` say it. */
export function seenText(seen: FindingSeen | undefined): string {
  if (!seen) return 'not known (the run history was not used)';
  if (seen.status === 'new') return 'new';
  return `seen before (first seen ${day(seen.firstSeen)}, ${seen.runs} runs${seen.inPreviousRun ? '' : '; not in the previous run'})`;
}

/** One line per finding of the previous run this run no longer has (fingerprints as code in Markdown). */
export function goneLines(gone: readonly GoneFinding[], markdown = false): string[] {
  return gone.map(
    (g) =>
      `${markdown ? `\`${g.fingerprint}\`` : g.fingerprint} [${g.clause}] ${g.operation}: ${g.message}` +
      (g.explored ? '' : ' (its operation was not explored by this run: not looked for)'),
  );
}

/** The report's history lines: what it was compared with, and how many findings are new. */
function historyHeadline(r: ExploreReport): string[] {
  const h = r.history;
  if (!h) return [];
  if (h.skipped) return [`History skipped: ${h.skipped}; whether a finding is new is not known.`, ''];
  const since = h.previous
    ? `compared with run #${h.previous.runId} (${h.previous.startedAt}, seed ${h.previous.seed})`
    : 'the first recorded run of this target';
  return [
    `History (run #${h.runId ?? '?'}, ${since}): ${h.findings.new} new finding(s), ${h.findings.seenBefore} seen before` +
      (h.previous ? `; ${h.gone.length} of the previous run's gone.` : '.'),
    '',
  ];
}

/** Stable id of a failure: the same operation, clause and minimal shape on any night. */
export function fingerprintOf(operation: string, clause: string, shape: readonly string[]): string {
  return createHash('sha256')
    .update(`${operation}\n${clause}\n${[...shape].sort().join('\n')}`)
    .digest('hex')
    .slice(0, 16);
}

export function exitCodeOf(findings: readonly ExploreFinding[], incomplete: readonly string[]): 0 | 1 | 2 {
  if (findings.some((f) => f.level === 'must')) return 1;
  return incomplete.length ? 2 : 0;
}

// ---- Markdown --------------------------------------------------------------------------------------

const fence = (lang: string, text: string) => `\`\`\`${lang}\n${text.replace(/```/g, '`\u200b``')}\n\`\`\``;

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function stopText(p: PropertySummary): string {
  const inc = Object.entries(p.inconclusive)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  return `${p.inputs} inputs, ${p.requests} req, ${p.stop}${p.capped ? `, ${p.capped} capped` : ''}${inc ? `, ${inc}` : ''}`;
}

/** Which families of input were tried on which parameter of each operation, allowed and forbidden inputs together. */
function triedSection(r: ExploreReport): string[] {
  const rows = r.operations.flatMap((o) => {
    const merged: Record<string, Record<string, number>> = {};
    for (const p of [o.allowed, o.forbidden])
      for (const [param, families] of Object.entries(p.tried ?? {})) {
        const into = merged[param] ?? {};
        merged[param] = into;
        for (const [family, n] of Object.entries(families)) into[family] = (into[family] ?? 0) + n;
      }
    return Object.entries(merged)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([param, families]) =>
          `| ${o.operation} | \`${cell(param)}\` | ${cell(
            Object.entries(families)
              .map(([family, n]) => `${family} ×${n}`)
              .join(', '),
          )} |`,
      );
  });
  if (!rows.length) return [];
  return [
    '## Input families tried',
    '',
    '| Operation | Parameter | Families (requests) |',
    '|---|---|---|',
    ...rows,
    '',
  ];
}

export function renderMarkdown(r: ExploreReport): string {
  const lines: string[] = [];
  lines.push('# Generative exploration', '');
  lines.push(
    `Seed **${r.seed}**${r.seedGiven ? '' : ' (fresh)'} · target ${r.target.kind} (${r.target.how}) · ` +
      `${(r.wallMs / 1000).toFixed(1)} s · exit ${r.exitCode}`,
    '',
  );
  lines.push(
    `**${deviationsHeadline(r)}**.` + (r.incomplete.length ? ` Incomplete: ${r.incomplete.join('; ')}.` : ''),
    '',
    ...historyHeadline(r),
  );
  if (r.deviations.length) {
    lines.push('## Deviations', '');
    for (const d of r.deviations)
      lines.push(
        `- ${d.level === 'must' ? '' : '(warning) '}${d.answer}, ${d.shape.map((x) => `\`${x}\``).join(', ') || 'any input'}: ` +
          `${d.operations.join(', ')} — ${d.clauses.join(', ')} (finding(s) ${d.fingerprints.map((x) => `\`${x}\``).join(', ')})`,
      );
    lines.push('');
  }
  const fp = r.footprint;
  lines.push(
    `Footprint on the target: ${fp.executionsStarted} execution(s) started, ${fp.canvasesCreated} canvas(es) created, ` +
      `${fp.canvasOverwrites} overwrite(s) of one canvas, ${fp.filesUploaded} file(s) uploaded; ` +
      `${fp.requests.explore} exploring request(s), ${fp.requests.setup} for setup, ${fp.requests.cleanup} for cleanup.`,
    '',
  );
  lines.push('| Operation | Allowed inputs | Forbidden inputs | Findings | Time |', '|---|---|---|---|---|');
  for (const o of r.operations)
    lines.push(
      `| ${o.operation} | ${cell(stopText(o.allowed))} | ${cell(stopText(o.forbidden))} | ${o.findings} | ${(o.wallMs / 1000).toFixed(1)} s |`,
    );
  lines.push('');
  const observed = r.operations.flatMap((o) =>
    [...Object.entries(o.allowed.observed), ...Object.entries(o.forbidden.observed)].map(
      ([clause, v]) =>
        `- ${o.operation}: [${clause}] ${v.count} × unlisted ${v.statuses.join('/')} (open point, recorded)`,
    ),
  );
  if (observed.length) lines.push('## Open points observed', '', ...observed, '');
  lines.push(...triedSection(r));
  if (r.setup.length) lines.push('## Setup', '', ...r.setup.map((s) => `- ${s}`), '');
  for (const f of r.findings) {
    lines.push(`## [${f.clause}] ${f.operation}: ${f.message}`, '');
    if (r.history) lines.push(`- history: **${seenText(f.seen)}**`);
    lines.push(
      `- level **${f.level}**${f.catalogued ? '' : ' (clause proposed, not yet in the catalogue)'}; ${f.property} input, family \`${f.family}\``,
      `- expected ${f.expected}; got ${f.actual}`,
      `- fingerprint \`${f.fingerprint}\`; shape: ${f.shape.map((s) => `\`${s}\``).join(', ') || '(empty)'}`,
      `- replay: seed ${f.replay.seed}, property seed ${f.replay.propertySeed}, path \`${f.replay.path}\` ` +
        `(round ${f.replay.round}, ${f.replay.shrinks} shrinks, ${f.replay.simplified} simplification(s))` +
        `${f.shrinkComplete ? '' : ', shrinking cut short'}`,
      `- reproduced on a second send: ${f.reproduced ? 'yes' : 'no (the target did not fail the same way again)'}; reached ${f.occurrences} time(s)`,
    );
    if (f.alsoBreaks.length) lines.push(`- the same answer also breaks: ${f.alsoBreaks.join(', ')}`);
    lines.push('', 'Minimal input:', '', fence('json', JSON.stringify(f.minimalInput, null, 2)), '');
    const rq = f.exchange.request;
    lines.push(
      'Request and answer:',
      '',
      fence(
        'http',
        [
          `${rq.method} ${rq.url}`,
          ...Object.entries(rq.headers).map(([k, v]) => `${k}: ${v}`),
          ...(rq.bodyExcerpt !== undefined ? ['', rq.bodyExcerpt] : []),
          '',
          f.exchange.response
            ? `→ ${f.exchange.response.status} ${f.exchange.response.contentType ?? ''}\n${f.exchange.response.bodyExcerpt}`
            : `→ ${f.exchange.fault?.kind}: ${f.exchange.fault?.message}`,
        ].join('\n'),
      ),
      '',
      'Reproduce (export BASE_URL and API_KEY first):',
      '',
      fence('sh', f.curl),
      '',
    );
  }
  if (r.history?.previous) {
    const gone = goneLines(r.history.gone, true);
    lines.push(
      '## Gone since the previous run',
      '',
      `Findings of run #${r.history.previous.runId} (${r.history.previous.startedAt}) that this run does not have:`,
      '',
      ...(gone.length ? gone.map((g) => `- ${g}`) : ['None.']),
      '',
      ...(gone.length && r.incomplete.length
        ? ['This run was incomplete: a finding may be missing only because the run did not reach it.', '']
        : []),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Writes report.json, report.md and the bodies the reproducers need, every text redacted; returns the paths. */
export function writeExploreReport(
  r: ExploreReport,
  outDir: string,
  bodies: ReadonlyMap<string, string>,
): { json: string; markdown: string } {
  mkdirSync(outDir, { recursive: true });
  const write = (path: string, text: string) => {
    const out = redactSecrets(text);
    // Redaction knows the keys in use; a key it missed would be a defect of the harness, never written.
    if (containsSecret(out)) throw new Error(`a key would be written to ${path}`);
    writeFileSync(path, out);
  };
  for (const [name, text] of bodies) {
    mkdirSync(join(outDir, 'bodies'), { recursive: true });
    write(join(outDir, name), text);
  }
  const json = join(outDir, 'report.json');
  const markdown = join(outDir, 'report.md');
  const safe = redactValue(r);
  write(json, `${JSON.stringify(safe, null, 2)}\n`);
  write(markdown, renderMarkdown(safe));
  return { json, markdown };
}

// ---- `wfcheck history --explore` -------------------------------------------------------------------

const exploreRunName = (r: ExploreRunRow) =>
  `run #${r.id} (${r.startedAt}, seed ${r.seed}, harness ${r.harnessVersion})`;

/** One line per recorded generative run. */
export function exploreRunsText(runs: readonly ExploreRunRow[]): string {
  return (
    runs
      .map(
        (r) =>
          `#${r.id}  ${r.startedAt}  seed ${r.seed}  harness ${r.harnessVersion}  exit ${r.exitCode}  ${r.wallMs} ms  ` +
          `${r.requests} request(s)  ${r.mustFindings} finding(s), ${r.findings - r.mustFindings} warning(s)` +
          (r.incomplete.length ? `  incomplete: ${r.incomplete.join('; ')}` : ''),
      )
      .join('\n') || 'no explore run recorded for this target'
  );
}

/** A recorded generative run: its findings, each new or seen before, and those of the previous run now gone. */
export function exploreChangeText(
  run: ExploreRunRow,
  findings: readonly ExploreFindingRow[],
  h: ExploreHistory,
): string {
  const lines = [
    `explore ${exploreRunName(run)}: exit ${run.exitCode}, ${run.wallMs} ms, ${run.requests} request(s), budget ${run.budgetS} s`,
    h.previous
      ? `compared with run #${h.previous.runId} (${h.previous.startedAt}, seed ${h.previous.seed})`
      : 'no earlier explore run of this target',
    `Findings:${findings.length ? '' : ' none'}`,
    ...findings.map(
      (f) =>
        `  - ${f.level === 'must' ? '' : '[WARN] '}[${f.clause}] ${f.operation}: ${f.message} (fingerprint ${f.fingerprint}) — ${seenText(h.seen[f.fingerprint])}`,
    ),
  ];
  if (h.previous) {
    const gone = goneLines(h.gone);
    lines.push(`Gone since the previous run:${gone.length ? '' : ' none'}`, ...gone.map((g) => `  - ${g}`));
  }
  return lines.join('\n');
}

/** One fingerprint in each of the last generative runs of a target: found or not. */
export function fingerprintTimelineText(
  fingerprint: string,
  target: string,
  rows: readonly { run: ExploreRunRow; finding?: ExploreFindingRow }[],
): string {
  const operation = rows.find((r) => r.finding)?.finding?.operation;
  const missing = (run: ExploreRunRow) =>
    operation === undefined || run.operations.includes(operation)
      ? 'not found'
      : 'not looked for (its operation was not explored)';
  return [
    `${fingerprint} over the last ${rows.length} explore run(s) of target ${target}:`,
    ...rows.map(
      ({ run, finding }) =>
        `  #${run.id}  ${run.startedAt}  seed ${run.seed}  ${
          finding
            ? `found: [${finding.clause}] ${finding.operation}, minimal ${JSON.stringify(finding.minimalInput).slice(0, 160)}`
            : missing(run)
        }`,
    ),
  ].join('\n');
}
