/**
 * Slow answers and stalls. Every answer is timed against its operation's ordinary time on this target
 * (timings.ts); an answer many times slower, and over a second (core/judging/latency.ts), starts an
 * analysis of its class of input instead of a fast-check shrink, which would send one slow request after
 * another:
 *
 * - a long run of one character (spaces, tabs, `\r`, non-breaking spaces, dots, commas) in a string
 *   parameter is tried on every parameter that takes one, generate's query first, at lengths doubling from
 *   256 (`sweepRuns`): the first slow length is at most four times the threshold for a regex growing with
 *   the square of the run, eight for the cube, and nothing on a healthy target costs more than a request;
 * - a slow length is sent once more (a busy machine is no class of input), then its half (the growth: how
 *   the time changes when the run doubles, so a vendor sees a quadratic regex for what it is), then lengths
 *   between the fast and the slow one down to the smallest still slow, then the other run characters at
 *   that length (the class: every character slow alike is named);
 * - while a slow request is in flight, a cheap search goes on another connection (the other key when there
 *   is one): if it waits too, one request stalls the whole server;
 * - a request unanswered at the deadline is given up and counted once: later inputs of a class found slow
 *   are not sent again.
 *
 * An input found slow by the properties that holds no run is sent once more (with the search beside it)
 * and reported as it is.
 */
import type { OperationId } from '../../contracts/check.ts';
import {
  growthOf,
  judgeSlowAnswer,
  judgeStall,
  slowerThanOrdinary,
  stalled,
  type Growth,
  INPUT_NOT_SLOW,
  NO_STALL,
} from '../../core/judging/latency.ts';
import type { CheckRecord } from '../../core/evidence/records.ts';
import type { Exchange, RequestSpec } from '../../core/transport/exchange.ts';
import { pushFinding } from './findings.ts';
import { prepare, shapeOf, type Prepared } from '../generate/inputs.ts';
import type { ExploreInput } from '../generate/model.ts';
import type { PropertyKind, PropertySummary } from '../report/explore-report.ts';
import { ladderOf, runOf, runSiteAt, runSitesOf, type RunSite } from '../generate/run-sites.ts';
import { RUN_CHAR_NAMES, RUN_WORDS, runFeature, runWords, type RunChar } from '../generate/runs.ts';
import { probe, SWEEP_CANVASES, type Judged, type Session } from './session.ts';
import { MIN_SAMPLES, timeOf } from './timings.ts';

/** Where an analysis sends: the session, the operation, the summary its requests count in. */
interface Ctx {
  s: Session;
  op: OperationId;
  kind: PropertyKind;
  sum: PropertySummary;
}

/** One input sent and timed. */
interface Timed {
  input: ExploreInput;
  prepared: Prepared;
  exchange: Exchange;
  ms: number;
  abandoned: boolean;
}

/** A run length and its answer. */
interface Point {
  n: number;
  t: Timed;
}

/** Bisection stops once the slow length is within this factor of the fast one, or after so many steps. */
const BISECT_WITHIN = 1.1;
const BISECT_STEPS = 6;
/** How long after the slow request the cheap one goes: in flight by then. */
const COMPANION_AFTER_MS = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends one input and times it; undefined when the footprint leaves no room for it. */
async function timed(c: Ctx, input: ExploreInput): Promise<Timed | undefined> {
  const prepared = prepare(input, c.s.world);
  if (!c.s.room(prepared, c.kind, true)) return undefined;
  const { exchange } = await probe(c.s, input, prepared, c.sum);
  const t = timeOf(exchange, c.s.deadlineMs);
  return { input, prepared, exchange, ms: t?.ms ?? 0, abandoned: t?.abandoned ?? false };
}

const ordinaryOf = (c: Ctx) => c.s.timings.ordinaryMs(c.op);

function slow(c: Ctx, t: Timed | undefined): t is Timed {
  const ordinary = ordinaryOf(c);
  return !!t && ordinary !== undefined && (t.abandoned || slowerThanOrdinary(t.ms, ordinary));
}

/** Whether an answer of the properties is slow: the analysis follows (`analyseSlow`). */
export function isSlowAnswer(s: Session, op: OperationId, ex: Exchange): boolean {
  const ordinary = s.timings.ordinaryMs(op);
  const t = timeOf(ex, s.deadlineMs);
  return !!t && ordinary !== undefined && (t.abandoned || slowerThanOrdinary(t.ms, ordinary));
}

const runAt = (c: Ctx, site: RunSite, char: RunChar, n: number) => timed(c, site.input(runOf(char, n), c.s.world));

// ---- the cheap request beside a slow one ---------------------------------------------------------------

/** A search of one item, with the other key when there is one: what any caller may send meanwhile. */
function cheapSpec(s: Session): RequestSpec {
  const other = s.target.apiKeyB;
  return {
    method: 'GET',
    path: '/openapi/workflows?pageSize=1',
    ...(other ? { auth: { kind: 'literal', value: `Bearer ${other}` } } : {}),
    label: 'explore: a search while a slow request is in flight',
  };
}

const cheapWords = (s: Session) => `a search${s.target.apiKeyB ? ' with the other key' : ''}`;

/** Searches until search has an ordinary time; false when none comes (no baseline to call a wait slow). */
async function searchBaseline(s: Session): Promise<boolean> {
  for (let i = 0; i < MIN_SAMPLES && s.timings.ordinaryMs('searchWorkflows') === undefined; i++) {
    const ex = await s.send(cheapSpec(s), 'explore');
    s.judges.records.take(ex.record.id);
  }
  return s.timings.ordinaryMs('searchWorkflows') !== undefined;
}

/** Sends `main` and, once it is in flight, the cheap search on another connection; both timed. */
async function withCheap(c: Ctx, main: () => Promise<Timed | undefined>) {
  const baseline = await searchBaseline(c.s);
  const sent = main();
  await sleep(COMPANION_AFTER_MS);
  const started = Date.now();
  const cheap = baseline ? await c.s.send(cheapSpec(c.s), 'explore') : undefined;
  const cheapMs = Date.now() - started;
  const t = await sent;
  if (cheap) c.s.judges.records.take(cheap.record.id);
  return { t, cheap, cheapMs };
}

// ---- findings ------------------------------------------------------------------------------------------

/** The clause record the core's judge just wrote for an exchange. */
function recordOf(c: Ctx, ex: Exchange, clause: string): CheckRecord | undefined {
  return c.s.judges.records
    .take(ex.record.id)
    .find((r): r is CheckRecord => r.kind === 'check' && r.requirementId === clause && r.outcome === 'fail');
}

function judgedOf(t: Timed, r: CheckRecord): Judged {
  return {
    input: t.input,
    prepared: t.prepared,
    exchange: t.exchange,
    outcome: {
      kind: 'fail',
      clause: r.requirementId,
      level: r.level,
      message: r.message,
      expected: r.expected ?? '',
      actual: r.actual ?? '',
      others: [],
    },
  };
}

interface Slowness {
  /** The smallest input still slow, and what it is in words. */
  minimal: Timed;
  what: string;
  growth?: Growth;
  shape: string[];
  family: string;
  /** Requests the analysis took. */
  steps: number;
  /** The cheap request that waited, when one did, and the slow request it waited beside. */
  stall?: { cheap: Exchange; waitedMs: number; beside: Timed; besideWhat: string };
}

/** Reports a slowness (and the stall it caused) through the core's judges, as findings of the operation. */
function report(c: Ctx, w: Slowness): void {
  const ordinaryMs = ordinaryOf(c) ?? 0;
  const { minimal } = w;
  judgeSlowAnswer(c.s.judges.verdict, minimal.exchange, {
    what: w.what,
    ms: minimal.ms,
    ordinaryMs,
    abandoned: minimal.abandoned,
    ...(w.growth ? { growth: w.growth } : {}),
  });
  const how = {
    family: w.family,
    alsoBreaks: [],
    replay: {
      seed: c.s.options.seed,
      propertySeed: 0,
      path: '',
      round: 0,
      numRuns: w.steps,
      shrinks: 0,
      simplified: 0,
    },
    reproduced: true,
    shrinkComplete: true,
  };
  const slowRecord = recordOf(c, minimal.exchange, INPUT_NOT_SLOW);
  if (slowRecord && pushFinding(c.s, c, judgedOf(minimal, slowRecord), w.shape, how))
    c.s.log(`${c.op}: [${INPUT_NOT_SLOW}] ${slowRecord.message}`);
  if (!w.stall) return;
  const { cheap, waitedMs, beside, besideWhat } = w.stall;
  judgeStall(c.s.judges.verdict, cheap, {
    slow: `${c.op} on ${besideWhat}`,
    slowMs: beside.ms,
    cheap: cheapWords(c.s),
    waitedMs,
    ordinaryMs: c.s.timings.ordinaryMs('searchWorkflows') ?? 0,
  });
  const stallRecord = recordOf(c, cheap, NO_STALL);
  // The finding is the slow request's (its reproducer makes the server stall); the record, the search's.
  if (stallRecord && pushFinding(c.s, c, judgedOf(beside, stallRecord), w.shape, how))
    c.s.log(`${c.op}: [${NO_STALL}] ${stallRecord.message}`);
}

/** Whether the cheap request waited for the slow one. */
function stallOf(c: Ctx, beside: Timed | undefined, cheap: Exchange | undefined, cheapMs: number, what: string) {
  const ordinaryMs = c.s.timings.ordinaryMs('searchWorkflows');
  if (!beside || !cheap || ordinaryMs === undefined) return undefined;
  return stalled({ slowMs: beside.ms, waitedMs: cheapMs, ordinaryMs })
    ? { cheap, waitedMs: cheapMs, beside, besideWhat: what }
    : undefined;
}

// ---- a run found slow ----------------------------------------------------------------------------------

/** From a slow length down to one whose half is fast: the slow point and the fast one below it. */
async function descend(c: Ctx, site: RunSite, char: RunChar, slowPoint: Point, below?: Point) {
  let hi = slowPoint;
  let lo = below?.n === Math.floor(hi.n / 2) ? below : undefined;
  let steps = 0;
  for (;;) {
    if (!lo) {
      const half = Math.floor(hi.n / 2);
      const t = half >= 1 ? await runAt(c, site, char, half) : undefined;
      steps++;
      if (!t) return { hi, lo: undefined, steps };
      lo = { n: half, t };
    }
    if (!slow(c, lo.t) || lo.n < 2) return { hi, lo: slow(c, lo.t) ? undefined : lo, steps };
    hi = lo;
    lo = undefined;
  }
}

/** The smallest length still slow between a fast and a slow one. */
async function bisect(c: Ctx, site: RunSite, char: RunChar, lo: Point, hi: Point) {
  let steps = 0;
  while (hi.n / lo.n > BISECT_WITHIN && hi.n - lo.n > 1 && steps < BISECT_STEPS) {
    const n = Math.round(Math.sqrt(lo.n * hi.n));
    const t = await runAt(c, site, char, n);
    steps++;
    if (!t) break;
    if (slow(c, t)) hi = { n, t };
    else lo = { n, t };
  }
  return { hi, steps };
}

/** The run characters slow at the length found (the one found first among them). */
async function slowChars(c: Ctx, site: RunSite, found: RunChar, n: number) {
  const chars: RunChar[] = [];
  for (const char of RUN_CHAR_NAMES) {
    if (char === found) chars.push(char);
    else if (slow(c, await runAt(c, site, char, Math.min(n, site.max(char))))) chars.push(char);
  }
  return chars;
}

/** The length whose slow answer the cheap search goes beside: twice the minimal when growth says it stays well within the deadline. */
function stallLength(c: Ctx, site: RunSite, char: RunChar, minimal: Point, growth: Growth | undefined): number {
  const twice = minimal.n * 2;
  const predicted = growth ? minimal.t.ms * growth.ratio : Number.POSITIVE_INFINITY;
  return twice <= site.max(char) && predicted <= c.s.deadlineMs / 2 ? twice : minimal.n;
}

/**
 * A run of `char` at `site` answered slowly at `first`: confirmed, its growth measured, narrowed down to the
 * smallest length still slow, its class named by the run characters slow alike, and a stall looked for.
 * False when the slowness did not come back (noise) or could not be narrowed (no room).
 */
function analyseRun(c: Ctx, site: RunSite, char: RunChar, first: Point, below?: Point): Promise<boolean> {
  return c.s.slowly(() => narrowRun(c, site, char, first, below));
}

async function narrowRun(c: Ctx, site: RunSite, char: RunChar, first: Point, below?: Point): Promise<boolean> {
  const again = await runAt(c, site, char, first.n);
  if (!slow(c, again)) return false;
  const down = await descend(c, site, char, { n: first.n, t: again }, below);
  const ordinary = ordinaryOf(c) ?? 0;
  const growth = down.lo && !down.hi.t.abandoned ? growthOf(down.hi.t.ms, down.lo.t.ms, ordinary) : undefined;
  const narrowed = down.lo ? await bisect(c, site, char, down.lo, down.hi) : { hi: down.hi, steps: 0 };
  const chars = await slowChars(c, site, char, narrowed.hi.n);
  const n = stallLength(c, site, char, narrowed.hi, growth);
  const { t: beside, cheap, cheapMs } = await withCheap(c, () => runAt(c, site, char, n));
  const besideWhat = runWords({ path: site.path, char, times: n });
  const others = chars.filter((x) => x !== char);
  report(c, {
    minimal: narrowed.hi.t,
    what: `${runWords({ path: site.path, char, times: narrowed.hi.n })}${others.length ? ` (${others.map((x) => RUN_WORDS[x]).join(', ')} alike)` : ''}`,
    ...(growth ? { growth } : {}),
    shape: [`${site.path}:any(${chars.map(runFeature).join(',')})`],
    family: 'runs of one character',
    steps: 2 + down.steps + narrowed.steps + RUN_CHAR_NAMES.length,
    ...(slow(c, beside) ? { stall: stallOf(c, beside, cheap, cheapMs, besideWhat) } : {}),
  });
  return true;
}

// ---- the sweep and the properties' slow answers -------------------------------------------------------------

/**
 * The plainest request of an operation, sent until the operation has an ordinary time; given up at the
 * first that gets no answer (an operation that never answers has no time to be slow against).
 */
async function baseline(c: Ctx, until: number): Promise<boolean> {
  const site = runSitesOf(c.op)[0];
  for (let i = 0; site && i < MIN_SAMPLES && ordinaryOf(c) === undefined && Date.now() < until; i++) {
    const t = await timed(c, site.input({ $repeat: 'a', times: 7 }, c.s.world));
    if (!t || t.exchange.status === undefined || t.exchange.fault) return false;
  }
  return ordinaryOf(c) !== undefined;
}

/**
 * One run character at one site, its lengths doubling (up to `upTo`) until one is slow (then analysed) or
 * the longest is sent; true when a slowness was reported.
 */
async function ladder(c: Ctx, site: RunSite, char: RunChar, until: number, upTo = Number.POSITIVE_INFINITY) {
  let below: Point | undefined;
  for (const n of ladderOf(site, char).filter((x, i) => i === 0 || x <= upTo)) {
    if (Date.now() >= until || c.s.unreachable) return false;
    const t = await runAt(c, site, char, n);
    if (!t) return false;
    if (slow(c, t) && (await analyseRun(c, site, char, { n, t }, below))) return true;
    below = { n, t };
  }
  return false;
}

/**
 * A run at a site whose request leaves something on the target (generate creating a canvas where
 * overwriting is not allowed) is tried on a short ladder of its own, on a footprint of its own
 * (SWEEP_CANVASES of session.ts, reported with the rest): spaces, then commas, from WRITING_RUN_FROM up, the first slow length
 * confirmed once and checked for a stall, its growth read off the step below it — no narrowing down,
 * each request of which would leave one more canvas behind.
 */
const WRITING_RUN_FROM = 4_096;
/** Spaces, then commas (a list splitter): what implementations were seen slow on. */
const WRITING_RUN_CHARS: readonly RunChar[] = ['space', 'comma'];

async function writingLadder(c: Ctx, site: RunSite, until: number): Promise<void> {
  for (const char of WRITING_RUN_CHARS) {
    let below: Point | undefined;
    for (const n of ladderOf(site, char).filter((x) => x >= WRITING_RUN_FROM)) {
      if (Date.now() >= until || c.s.unreachable) return;
      const t = await runAt(c, site, char, n);
      if (!t) return;
      if (slow(c, t)) return void (await analyseWritingRun(c, site, char, { n, t }, below));
      below = { n, t };
    }
  }
}

/** A slow run at a writing site: confirmed once, its growth from the step below, a stall looked for beside it. */
function analyseWritingRun(c: Ctx, site: RunSite, char: RunChar, first: Point, below?: Point): Promise<void> {
  return c.s.slowly(() => confirmWritingRun(c, site, char, first, below));
}

async function confirmWritingRun(c: Ctx, site: RunSite, char: RunChar, first: Point, below?: Point) {
  const again = await runAt(c, site, char, first.n);
  if (again && !slow(c, again)) return;
  const ordinary = ordinaryOf(c) ?? 0;
  const growth = below && !first.t.abandoned ? growthOf(first.t.ms, below.t.ms, ordinary) : undefined;
  const { t: beside, cheap, cheapMs } = await withCheap(c, () => runAt(c, site, char, first.n));
  const what = runWords({ path: site.path, char, times: first.n });
  report(c, {
    minimal: first.t,
    what,
    ...(growth ? { growth } : {}),
    shape: [`${site.path}:any(${runFeature(char)})`],
    family: 'runs of one character',
    steps: 3,
    ...(slow(c, beside) ? { stall: stallOf(c, beside, cheap, cheapMs, what) } : {}),
  });
}

/**
 * Long runs of every run character in every string parameter of `op` (run-sites.ts), until `until`; a
 * site whose request would leave something on the target on the short ladder of `writingLadder`.
 */
export async function sweepRuns(s: Session, op: OperationId, sum: PropertySummary, until: number): Promise<void> {
  const c: Ctx = { s, op, kind: 'allowed', sum };
  const writes = (site: RunSite) => prepare(site.input(runOf('space', 1), s.world), s.world).mayWrite;
  const sites = runSitesOf(op);
  if (!sites.length || !(await baseline(c, until))) return;
  for (const site of sites) {
    if (writes(site)) {
      s.setupNotes.push(
        `${op}: runs of ${WRITING_RUN_CHARS.map((x) => RUN_WORDS[x]).join(' and ')} only, from ${WRITING_RUN_FROM} characters, on a footprint of at most ${SWEEP_CANVASES} canvases (each request creates one)`,
      );
      await s.sweeping(() => writingLadder(c, site, until));
      continue;
    }
    for (const char of site.chars ?? RUN_CHAR_NAMES) {
      if (Date.now() >= until || s.unreachable) return;
      if (await ladder(c, site, char, until)) break;
    }
  }
}

/** The threshold of a tiered feature (`files:count>100`, `|x|>2^31-1`, `len>64`), as a number. */
function tierOf(f: string): [tier: string, at: number] | undefined {
  const m = /^(.*>)(\d+|2\^(\d+)(-1)?)$/.exec(f);
  if (!m) return undefined;
  return [m[1]!, m[3] === undefined ? Number(m[2]) : 2 ** Number(m[3])];
}

/**
 * A shape with only the lowest tier of each tiered feature: an input slow with no answer is not narrowed
 * down (each try would cost the deadline again), so the class it stands for is read as wide as its tiers
 * go, and a smaller member is known as it without being sent.
 */
function lowestTiers(shape: readonly string[]): string[] {
  const lowest = new Map<string, number>();
  for (const f of shape) {
    const t = tierOf(f);
    if (t) lowest.set(t[0], Math.min(lowest.get(t[0]) ?? Number.POSITIVE_INFINITY, t[1]));
  }
  return shape.filter((f) => {
    const t = tierOf(f);
    return !t || lowest.get(t[0]) === t[1];
  });
}

/**
 * A slow answer of the properties: a run it holds at a site is tried up to its length as the sweep tries
 * one; any other input (or a run no plain request of the site is slow on) is sent once more beside the cheap
 * search, and reported as it is when still slow.
 */
export function analyseSlow(s: Session, op: OperationId, kind: PropertyKind, sum: PropertySummary, first: Timed) {
  return s.slowly(() => analyseSlowInput(s, op, kind, sum, first));
}

async function analyseSlowInput(s: Session, op: OperationId, kind: PropertyKind, sum: PropertySummary, first: Timed) {
  const c: Ctx = { s, op, kind, sum };
  const longest = [...(first.prepared.runs ?? [])].sort((a, b) => b.times - a.times)[0];
  const site = longest && runSiteAt(op, longest.path);
  // Up from short runs, as the sweep goes: no request far slower than the first slow one is sent again.
  if (site && longest && (await ladder(c, site, longest.char, Number.POSITIVE_INFINITY, longest.times))) return;
  const { t, cheap, cheapMs } = await withCheap(c, () => timed(c, first.input));
  if (!slow(c, t)) return;
  const shape = lowestTiers(shapeOf(t.prepared.features));
  const what = `an input of shape ${shape.join(', ') || '(none: any input)'}`;
  report(c, {
    minimal: t,
    what,
    shape,
    family: first.input.family,
    steps: 1,
    stall: stallOf(c, t, cheap, cheapMs, what),
  });
}

export type { Timed };
