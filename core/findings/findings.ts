/**
 * Findings: the deviations a person counts. A clause verdict says which sentence of the specification a
 * response broke; one habit of an implementation (403 instead of 401, 201 for every POST, a status
 * word of its own) breaks many clauses across many operations and probes. A finding puts back together
 * what one habit broke, so that a report counts what is wrong, not how many clauses say so.
 *
 * The grouping reads only the evidence of the failing checks, never a list of known cases. Each failing
 * check gets a signature from what its evidence holds:
 *
 * - `status` — the check judged the status line and says which status it wanted ("HTTP 401"): the
 *   status received and the status wanted;
 * - `listed` — the status is not one the operation lists (its expectation is the operation's whole
 *   list, which differs by operation): the status received, and the class of the listed statuses it
 *   belongs with when the operation lists some of that class (a 201 beside a listed 200, a 403 beside
 *   listed 401 and 404);
 * - `fault`  — no answer came at all: the kind of transport fault;
 * - `body` / `header` — a contract violation: the clause with the operation's prefix taken off
 *   (RUN-200-ENVELOPE and SEARCH-200-ENVELOPE are one clause of two operations), the last named
 *   segment of the JSON pointer (`/data/output/0/status` and `/data/nodeExecutions/1/status` are both
 *   `status`) and the expectation (`type boolean`, `one of [...]`); the value found is left out, so
 *   "running" and "pending" for the same enumeration are one habit;
 * - `refused` — an acceptance clause met a refusal: the operation and the refusal as it came ("HTTP 400
 *   (INVALID_REQUEST_BODY)"), so one refusal habit of one operation is one finding across its clauses;
 * - `clause` — any other judgement of a suite: its clause, as the operation-free clause above.
 *
 * Checks with one signature and one strength are one finding, whatever operations, probes and clauses
 * they span. An unlisted status whose wanted status the evidence cannot say joins the one finding that
 * shows that same status where a status of its class was wanted — the status line of the operations
 * that do not list it (403 on output, where only 401 and 404 are listed) and of those that do (403 on
 * run, where 401 was wanted) is one habit — when exactly one such finding exists; otherwise it stands
 * alone. The body of an answer of the wrong kind (a success where a refusal was wanted), judged as that
 * success's body, joins the finding of that answer (see joinBodiesOfWrongAnswers). A security clause
 * never absorbs another finding, nor is absorbed: an exposure is reported by
 * itself.
 *
 * Strengths stay apart: failures (must, or should under strict) and warnings (should) are never one
 * finding. A finding all of whose clauses are waived is waived.
 *
 * Pure: failing checks and clause verdicts in, findings out.
 */
import type { CheckRecord } from '../evidence/records.ts';

/**
 * The group a finding (or a failing clause) is reported in, most urgent first: exposure, then the server
 * breaking (a 5xx or a transport fault in its evidence), then the contract and status deviations.
 */
export type Severity = 'security' | 'server-error' | 'deviation';
export const SEVERITY_ORDER: readonly Severity[] = ['security', 'server-error', 'deviation'];

/** One failing (or passing) check as the report shows it, with what the exchange it names holds. */
export interface EvidenceItem {
  test?: string;
  source: CheckRecord['source'];
  message: string;
  expected?: string;
  actual?: string;
  request?: string;
  response?: string;
  curl?: string;
  /** The exchange the check judged, and what it says as separate fields. */
  exchangeId?: string;
  operation?: string;
  /** HTTP status of the response; absent when no response came. */
  status?: number;
  /** The transport fault instead of a response. */
  fault?: string;
  /** JSON pointer of the contract violation ('#status', '#header/<name>', '/data/status'). */
  pointer?: string;
  /** What the request probed: the exchange's label ("auth: an unknown key", "odd id (unicode)"). */
  probe?: string;
}

/** A failure counts against the run (must, or should under strict); a warning does not. */
export type Strength = 'failure' | 'warning';

export interface FailedCheck {
  requirementId: string;
  strength: Strength;
  evidence: EvidenceItem;
}

/** What a finding needs to know of a clause: its words, security flag, waiver and verdict. */
export interface ClauseView {
  id: string;
  text: string;
  security?: boolean;
  waiver?: { reason: string };
  verdict: string;
  blockedBy: readonly string[];
}

/** Another exchange that shows the same deviation. */
export interface FindingExchange {
  clauses: string[];
  operation?: string;
  /** The status received, or the transport fault. */
  answer: string;
  /** Method and URL. */
  request?: string;
  probe?: string;
  test?: string;
}

export interface Finding {
  /** F1, F2… in report order: failures, then warnings, then waived; each by severity. */
  id: string;
  strength: Strength;
  waived: boolean;
  severity: Severity;
  security: boolean;
  /** The deviation in one sentence. */
  behaviour: string;
  /** What the grouping keyed it by: equal signatures in two runs are the same deviation. */
  signature: string;
  /** The clauses it breaks, in catalogue order. */
  clauses: string[];
  /** Clauses it kept from being judged (blocked by one of its clauses). */
  blocked: string[];
  operations: string[];
  /** The probes (request labels) it showed on. */
  probes: string[];
  /** Failing checks and distinct exchanges behind it. */
  checks: number;
  exchanges: number;
  /** For a waived finding: the waivers of its clauses. */
  waivers: { id: string; reason: string }[];
  /** One exchange that shows it, with its reproducer. */
  example: EvidenceItem & { requirementId: string };
  /** The other exchanges that show it (the first MAX_OTHER_EXCHANGES). */
  otherExchanges: FindingExchange[];
  moreExchanges: number;
}

export interface FindingsSummary {
  /** Unwaived findings that fail the run, and of them the security ones. */
  failures: number;
  security: number;
  /** Unwaived findings of should clauses (not under strict). */
  warnings: number;
  waived: number;
}

export interface FindingsInput {
  checks: readonly FailedCheck[];
  /** Every clause of the catalogue, in catalogue order. */
  clauses: readonly ClauseView[];
  /** Listed statuses per operation. */
  listedStatuses: Readonly<Record<string, readonly number[]>>;
  /** Requirement-ID prefix per operation (RUN for runWorkflow). */
  prefixes: Readonly<Record<string, string>>;
}

const MAX_OTHER_EXCHANGES = 25;
const MAX_SHOWN_VALUES = 3;

// ---- signatures ----------------------------------------------------------------------------------

type Aspect =
  | { kind: 'status'; code: number; wanted: number[]; answered: string }
  | { kind: 'listed'; code: number; listedOfClass: number[] }
  | { kind: 'fault'; fault: string }
  | { kind: 'body'; family: string; leaf: string; expected: string }
  | { kind: 'header'; name: string; family: string; expected: string }
  | { kind: 'refused'; operation: string; answer: string }
  | { kind: 'clause'; family: string };

/** The clause without its operation's prefix: RUN-200-ENVELOPE on runWorkflow is 200-ENVELOPE. */
export function familyOf(id: string, operation: string | undefined, prefixes: FindingsInput['prefixes']): string {
  const prefix = operation ? prefixes[operation] : undefined;
  return prefix && id.startsWith(`${prefix}-`) ? id.slice(prefix.length + 1) : id;
}

/** Statuses a check wanted, when its expectation names them the harness's way: "HTTP 404", "HTTP 200 or 202". */
function wantedStatuses(expected: string | undefined): number[] | undefined {
  const m = /^HTTP (\d{3}(?: or \d{3})*)$/.exec(expected?.trim() ?? '');
  return m ? m[1].split(' or ').map(Number) : undefined;
}

/** Statuses of an expectation that lists them: "one of 200, 401, 404". */
function listedIn(expected: string | undefined): number[] | undefined {
  const m = /^one of (\d{3}(?:, \d{3})*)$/.exec(expected?.trim() ?? '');
  return m ? m[1].split(', ').map(Number) : undefined;
}

function sameSet(a: readonly number[], b: readonly number[]): boolean {
  const set = new Set(a);
  return a.length === b.length && b.every((x) => set.has(x));
}

const classOf = (code: number) => Math.floor(code / 100);

/** The last named segment of a pointer: array indices are not names. */
function leafOf(pointer: string): string {
  const names = pointer.split('/').filter((s) => s !== '' && !/^\d+$/.test(s));
  return names.at(-1) ?? '(body)';
}

/** A pointer with its array indices as `*`: one place of a document, whichever item. */
export function pointerPattern(pointer: string): string {
  return pointer.replace(/\/\d+(?=\/|$)/g, '/*');
}

/**
 * A status of the class wanted is a wrong code (403 for 401: the code itself is the habit); one of
 * another class is the wrong kind of answer (a success, a server error, where a refusal was wanted),
 * whichever code of that class came: 200 and 201 for an unknown id are one habit.
 */
function answeredAs(code: number, wanted: readonly number[]): string {
  return wanted.some((w) => classOf(w) === classOf(code)) ? String(code) : `${classOf(code)}xx`;
}

function aspectOf(c: FailedCheck, input: FindingsInput): Aspect {
  const e = c.evidence;
  const family = familyOf(c.requirementId, e.operation, input.prefixes);
  if (e.fault !== undefined && e.status === undefined) return { kind: 'fault', fault: e.fault };
  if (e.status !== undefined) {
    const wanted = wantedStatuses(e.expected);
    if (e.pointer === '#status' || (e.pointer === undefined && wanted)) {
      const listed = e.operation ? input.listedStatuses[e.operation] : undefined;
      const lists = listedIn(e.expected);
      if (lists && listed && sameSet(lists, listed))
        return {
          kind: 'listed',
          code: e.status,
          listedOfClass: listed.filter((s) => classOf(s) === classOf(e.status!)),
        };
      if (wanted) return { kind: 'status', code: e.status, wanted, answered: answeredAs(e.status, wanted) };
    }
  }
  if (e.pointer?.startsWith('#header/'))
    return { kind: 'header', name: e.pointer.slice('#header/'.length), family, expected: e.expected ?? '' };
  if (e.pointer !== undefined && !e.pointer.startsWith('#')) {
    // Fields that must be absent are one habit however many a body carries: keyed by where they stand.
    const where = e.expected === 'absent' ? e.pointer.replace(/\/[^/]*$/, '') : e.pointer;
    return { kind: 'body', family, leaf: leafOf(where), expected: e.expected ?? '' };
  }
  // Acceptance refused (judging/expect.ts, accepted()): the same refusal of one operation is one habit, whichever
  // acceptance clause met it (a `variables` wrapper refused, and so the file variable given in it).
  if (e.status !== undefined && classOf(e.status) !== 2 && e.expected?.startsWith('accepted (2xx)'))
    return { kind: 'refused', operation: e.operation ?? '', answer: e.actual ?? String(e.status) };
  return { kind: 'clause', family };
}

function keyOf(a: Aspect): string {
  switch (a.kind) {
    case 'status':
      return `status ${a.answered} for ${a.wanted.join('|')}`;
    case 'listed':
      return `status ${a.code} unlisted${a.listedOfClass.length ? ` (${classOf(a.code)}xx listed)` : ''}`;
    case 'fault':
      return `no answer: ${a.fault}`;
    case 'body':
      return `body ${a.family} ${a.leaf}: ${a.expected}`;
    case 'header':
      return `header ${a.name} ${a.family}: ${a.expected}`;
    case 'refused':
      return `refused on ${a.operation}: ${a.answer}`;
    case 'clause':
      return `clause ${a.family}`;
  }
}

// ---- grouping --------------------------------------------------------------------------------------

interface Group {
  key: string;
  strength: Strength;
  aspect: Aspect;
  checks: FailedCheck[];
  /** Groups joined into this one (their keys). */
  joined: string[];
}

/** The check's evidence names the status it got the harness's way ("HTTP 403", "HTTP 403 (E0004)"). */
function showsStatus(c: FailedCheck, code: number): boolean {
  return c.evidence.status === code && new RegExp(`(^|\\W)HTTP ${code}\\b`).test(c.evidence.actual ?? '');
}

/**
 * Joins each `listed` group (an unlisted status, the wanted one unknown) to the one group that shows the
 * same status where a status of its class was wanted; see the module comment.
 */
function joinUnlisted(groups: Map<string, Group>, isSecurity: (g: Group) => boolean): void {
  for (const g of [...groups.values()]) {
    if (g.aspect.kind !== 'listed' || isSecurity(g)) continue;
    const { code, listedOfClass } = g.aspect;
    const candidates = [...groups.values()].filter((h) => {
      if (h === g || h.strength !== g.strength || h.aspect.kind === 'listed' || isSecurity(h)) return false;
      // Where the operation lists statuses of the class received, the wanted status is of that class too.
      if (h.aspect.kind === 'status')
        return (
          h.checks.some((c) => c.evidence.status === code) &&
          (!listedOfClass.length || h.aspect.wanted.every((w) => classOf(w) === classOf(code)))
        );
      return (h.aspect.kind === 'clause' || h.aspect.kind === 'refused') && h.checks.every((c) => showsStatus(c, code));
    });
    if (candidates.length !== 1) continue;
    const into = candidates[0];
    into.checks.push(...g.checks);
    into.joined.push(g.key, ...g.joined);
    groups.delete(g.key + g.strength);
  }
}

/**
 * Joins the body (or header) findings of answers of the wrong kind to that answer: a success where a
 * refusal was wanted carries a body that is judged as a success's and fails there (an unknown id answered
 * 200 with `data: null` breaks the plan's schema), but what is wrong is the answer, once. A body group
 * joins the one `status` group whose answer is of another class than the one wanted when they share an
 * exchange and every check of the body group is on an operation of that group, answered with a status of
 * that class (a body deviation another operation shows too stays its own finding).
 */
function joinBodiesOfWrongAnswers(groups: Map<string, Group>, isSecurity: (g: Group) => boolean): void {
  const wrongKinds = [...groups.values()].filter(
    (g) => g.aspect.kind === 'status' && g.aspect.answered !== String(g.aspect.code) && !isSecurity(g),
  );
  for (const b of [...groups.values()]) {
    if ((b.aspect.kind !== 'body' && b.aspect.kind !== 'header') || isSecurity(b)) continue;
    const candidates = wrongKinds.filter((s) => {
      if (s.strength !== b.strength || s.aspect.kind !== 'status') return false;
      const code = s.aspect.code;
      const exchanges = new Set(s.checks.map((c) => c.evidence.exchangeId).filter(Boolean));
      const operations = new Set(s.checks.map((c) => c.evidence.operation));
      return (
        b.checks.some((c) => c.evidence.exchangeId !== undefined && exchanges.has(c.evidence.exchangeId)) &&
        b.checks.every(
          (c) =>
            operations.has(c.evidence.operation) &&
            c.evidence.status !== undefined &&
            classOf(c.evidence.status) === classOf(code),
        )
      );
    });
    if (candidates.length !== 1) continue;
    const into = candidates[0];
    into.checks.push(...b.checks);
    into.joined.push(b.key, ...b.joined);
    groups.delete(b.key + b.strength);
  }
}

// ---- describing --------------------------------------------------------------------------------------

const distinct = <T>(xs: Iterable<T>): T[] => [...new Set(xs)];

function valuesShown(values: (string | undefined)[]): string {
  const vs = distinct(values.filter((v): v is string => v !== undefined && v !== '').map((v) => clip(v, 80)));
  const shown = vs.slice(0, MAX_SHOWN_VALUES).join(', ');
  return vs.length > MAX_SHOWN_VALUES ? `${shown} and ${vs.length - MAX_SHOWN_VALUES} more` : shown;
}

function clip(text: string, n = 240): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

function behaviourOf(g: Group, clauseText: (id: string) => string): string {
  const a = g.aspect;
  const first = g.checks[0].evidence;
  switch (a.kind) {
    case 'status': {
      const wanted = `HTTP ${a.wanted.join(' or ')}`;
      if (a.answered === String(a.code)) return `Answers HTTP ${a.code} where ${wanted} is expected`;
      const codes = distinct(
        g.checks.flatMap((c) => (c.evidence.status !== undefined ? [c.evidence.status] : [])),
      ).sort();
      return `Answers a ${a.answered} (HTTP ${codes.join(', ')}) where ${wanted} is expected`;
    }
    case 'listed':
      return `Answers HTTP ${a.code}, a status the operation does not list${a.listedOfClass.length ? ` (it lists ${a.listedOfClass.join(', ')})` : ''}`;
    case 'fault':
      return `Gives no HTTP answer: ${a.fault}${first.actual ? ` (${clip(first.actual, 120)})` : ''}`;
    case 'body': {
      const where = valuesShown(
        g.checks.map((c) => (c.evidence.pointer ? pointerPattern(c.evidence.pointer) : undefined)),
      );
      return clip(
        `${where || '(body)'}: expected ${a.expected}, got ${valuesShown(g.checks.map((c) => c.evidence.actual))}`,
      );
    }
    case 'header':
      return clip(
        `Header ${a.name}: expected ${a.expected}, got ${valuesShown(g.checks.map((c) => c.evidence.actual))}`,
      );
    case 'refused': {
      const clauses = distinct(g.checks.map((c) => c.requirementId));
      const what = clauses.map((id) => clip(clauseText(id), 100)).join('; ');
      return clip(`Refuses what ${a.operation} must accept — ${a.answer.replace(/^refused: /, '')}: ${what}`);
    }
    case 'clause': {
      // The clause says what was expected; the example carries the rest.
      const id = g.checks[0].requirementId;
      return clip(`Not met: ${clauseText(id)}${first.actual ? ` — got ${clip(first.actual, 100)}` : ''}`);
    }
  }
}

function answerOf(e: EvidenceItem): string {
  return e.status !== undefined ? `HTTP ${e.status}` : e.fault ? `no answer (${e.fault})` : '';
}

const requestLine = (e: EvidenceItem) => e.request?.split('\n', 1)[0];

// ---- findings --------------------------------------------------------------------------------------

/** Blocked clauses whose blocking leads to one of `clauses`, directly or through other blocked clauses. */
function blockedThrough(all: readonly ClauseView[], clauses: ReadonlySet<string>): string[] {
  const blocked = all.filter((c) => c.verdict === 'blocked');
  const reached = new Set<string>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const c of blocked) {
      if (reached.has(c.id) || !c.blockedBy.some((by) => clauses.has(by) || reached.has(by))) continue;
      reached.add(c.id);
      grew = true;
    }
  }
  return blocked.filter((c) => reached.has(c.id)).map((c) => c.id);
}

/** Where a check was shown: its exchange, or its test and message when it judged no exchange. */
const placeOf = (c: FailedCheck) => c.evidence.exchangeId ?? `${c.evidence.test ?? ''}\u0000${c.evidence.message}`;

/** The exchanges of a group other than its example's, as a finding lists them. */
function otherExchangesOf(g: Group, example: FailedCheck): FindingExchange[] {
  const byExchange = new Map<string, FailedCheck[]>();
  for (const c of g.checks) byExchange.set(placeOf(c), [...(byExchange.get(placeOf(c)) ?? []), c]);
  return [...byExchange.entries()]
    .filter(([at]) => at !== placeOf(example))
    .map(([, cs]): FindingExchange => {
      const e = cs[0].evidence;
      return {
        clauses: distinct(cs.map((c) => c.requirementId)),
        ...(e.operation ? { operation: e.operation } : {}),
        answer: answerOf(e),
        ...(requestLine(e) ? { request: requestLine(e) } : {}),
        ...(e.probe ? { probe: e.probe } : {}),
        ...(e.test ? { test: e.test } : {}),
      };
    });
}

/** What findingsOf reads of the catalogue for each group. */
interface Catalogue {
  input: FindingsInput;
  clause: Map<string, FindingsInput['clauses'][number]>;
  order(id: string): number;
  text(id: string): string;
  security(id: string): boolean;
}

function findingOf(g: Group, cat: Catalogue): Omit<Finding, 'id'> {
  const clauses = distinct(g.checks.map((c) => c.requirementId)).sort(
    (a, b) => cat.order(a) - cat.order(b) || a.localeCompare(b),
  );
  const waived = clauses.every((id) => cat.clause.get(id)?.waiver);
  const isSecurity = clauses.some(cat.security);
  const serverError = g.checks.some((c) => c.evidence.fault !== undefined || (c.evidence.status ?? 0) >= 500);
  // The example: an exchange with a reproducer, of the clause first in the catalogue.
  const example = [...g.checks].sort(
    (a, b) =>
      Number(!b.evidence.curl) - Number(!a.evidence.curl) || cat.order(a.requirementId) - cat.order(b.requirementId),
  )[0];
  const others = otherExchangesOf(g, example);
  return {
    strength: g.strength,
    waived,
    severity: isSecurity ? 'security' : serverError ? 'server-error' : 'deviation',
    security: isSecurity,
    behaviour: behaviourOf(g, cat.text),
    signature: [g.key, ...g.joined].join(' + '),
    clauses,
    blocked: blockedThrough(cat.input.clauses, new Set(clauses)),
    operations: distinct(g.checks.flatMap((c) => (c.evidence.operation ? [c.evidence.operation] : []))).sort(),
    probes: distinct(g.checks.flatMap((c) => (c.evidence.probe ? [c.evidence.probe] : []))).sort(),
    checks: g.checks.length,
    exchanges: distinct(g.checks.flatMap((c) => (c.evidence.exchangeId ? [c.evidence.exchangeId] : []))).length,
    waivers: waived ? clauses.map((id) => ({ id, reason: cat.clause.get(id)!.waiver!.reason })) : [],
    example: { requirementId: example.requirementId, ...example.evidence },
    otherExchanges: others.slice(0, MAX_OTHER_EXCHANGES),
    moreExchanges: Math.max(0, others.length - MAX_OTHER_EXCHANGES),
  };
}

export function findingsOf(input: FindingsInput): Finding[] {
  const clauseIndex = new Map(input.clauses.map((c, i) => [c.id, i]));
  const clause = new Map(input.clauses.map((c) => [c.id, c]));
  const cat: Catalogue = {
    input,
    clause,
    order: (id) => clauseIndex.get(id) ?? Number.MAX_SAFE_INTEGER,
    text: (id) => clause.get(id)?.text ?? `${id} (not in the catalogue)`,
    security: (id) => clause.get(id)?.security === true,
  };
  const groups = new Map<string, Group>();
  for (const c of input.checks) {
    const aspect = aspectOf(c, input);
    const key = keyOf(aspect);
    const at = key + c.strength;
    const g = groups.get(at);
    if (g) g.checks.push(c);
    else groups.set(at, { key, strength: c.strength, aspect, checks: [c], joined: [] });
  }
  const isSecurity = (g: Group) => g.checks.some((c) => cat.security(c.requirementId));
  joinUnlisted(groups, isSecurity);
  joinBodiesOfWrongAnswers(groups, isSecurity);

  const made = [...groups.values()].map((g) => {
    const finding = findingOf(g, cat);
    return { finding, firstClause: cat.order(finding.clauses[0]) };
  });
  const band = (f: Omit<Finding, 'id'>) => (f.waived ? 2 : f.strength === 'failure' ? 0 : 1);
  return made
    .sort(
      (a, b) =>
        band(a.finding) - band(b.finding) ||
        SEVERITY_ORDER.indexOf(a.finding.severity) - SEVERITY_ORDER.indexOf(b.finding.severity) ||
        a.firstClause - b.firstClause ||
        a.finding.signature.localeCompare(b.finding.signature),
    )
    .map(({ finding }, i) => ({ id: `F${i + 1}`, ...finding }));
}

export function summariseFindings(findings: readonly Finding[]): FindingsSummary {
  const live = findings.filter((f) => !f.waived);
  return {
    failures: live.filter((f) => f.strength === 'failure').length,
    security: live.filter((f) => f.strength === 'failure' && f.security).length,
    warnings: live.filter((f) => f.strength === 'warning').length,
    waived: findings.length - live.length,
  };
}
