/**
 * A failure fast-check shrank, made a finding: simplified a few steps further, sent once more to confirm
 * it, a crash probed for the class of input it is about (classes.ts), and reported once with its exchange,
 * a curl reproducer (the key as `${API_KEY}`) and the fast-check path that replays it.
 */
import { hasRequirement } from '../../contracts/requirements.ts';
import { redactSecrets } from '../../core/settings/redact.ts';
import type { Exchange } from '../../core/transport/exchange.ts';
import { framedReproducer } from '../../core/transport/framing.ts';
import { prepareRequest } from '../../core/transport/request.ts';
import { curlFor, INLINE_BODY_LIMIT, type ReproBody } from '../../core/evidence/reproducer.ts';
import type { Probe } from '../generate/builder.ts';
import { classesOf, generalized } from '../generate/classes.ts';
import { prepare, shapeOf, showInput, type Prepared } from '../generate/inputs.ts';
import type { ExploreInput } from '../generate/model.ts';
import { isRepeat } from '../generate/text.ts';
import {
  fingerprintOf,
  type ExploreFinding,
  type PropertySummary,
  type ShownExchange,
} from '../report/explore-report.ts';
import { probe, type Judged, type PropertyRun, type Session } from './session.ts';

const EXCERPT = 2_000;

function shownExchange(ex: Exchange): ShownExchange {
  const r = ex.record;
  return {
    request: {
      method: r.method,
      url: r.url,
      headers: r.request.headers,
      bodyExcerpt: r.request.bodyExcerpt,
      bodyBytes: r.request.bodyBytes,
    },
    ...(r.response
      ? {
          response: {
            status: r.response.status,
            contentType: r.response.headers['content-type'],
            bodyExcerpt: r.response.bodyExcerpt.slice(0, EXCERPT),
          },
        }
      : {}),
    ...(r.fault ? { fault: r.fault } : {}),
  };
}

/** The curl reproducer of a request as prepared, the key written `${API_KEY}`; long bodies go to a file. */
function reproducer(s: Session, p: Prepared, ex: Exchange, fingerprint: string): { curl: string; bodyFile?: string } {
  // curl cannot break framing: the bytes themselves, printed into nc.
  if (p.spec.framing) {
    const ctx = { baseUrl: s.target.baseUrl, caller: { name: 'A' as const, apiKey: s.target.apiKey } };
    const sent = prepareRequest(p.spec, { ...ctx, requestTimeoutMs: s.deadlineMs, saveBody: () => '' });
    return { curl: framedReproducer(sent, p.spec.framing, s.target.apiKey) };
  }
  const headers: Record<string, string | string[]> = { accept: 'application/json', ...p.spec.headers };
  const auth = p.spec.auth ?? { kind: 'tenant' };
  if (auth.kind === 'tenant') headers.authorization = `Bearer ${s.target.apiKey}`;
  if (auth.kind === 'literal') headers.authorization = auth.value;
  if (auth.kind === 'repeated') headers.authorization = auth.values;
  let body: ReproBody | undefined;
  let bodyFile: string | undefined;
  if (p.spec.raw) {
    const text =
      typeof p.spec.raw.body === 'string' ? p.spec.raw.body : Buffer.from(p.spec.raw.body).toString('latin1');
    // No content type at all: an empty value makes curl send none (instead of its form default).
    headers['content-type'] = p.spec.raw.contentType ?? '';
    if (Buffer.byteLength(text) <= INLINE_BODY_LIMIT) body = { kind: 'text', text };
    else {
      bodyFile = `bodies/${fingerprint}.txt`;
      s.bodies.set(bodyFile, text);
      body = { kind: 'file', path: bodyFile };
    }
  } else if (p.spec.multipart) {
    headers['content-type'] = 'multipart/form-data';
    body = {
      kind: 'multipart',
      field: p.spec.multipart.field ?? 'files',
      files: p.spec.multipart.files.map((f) => ({ name: f.name, type: f.type, bytes: f.content.length })),
    };
  }
  const url = ex.record.url;
  return {
    curl: curlFor({ method: p.spec.method, url, headers, body }, s.target.baseUrl),
    ...(bodyFile ? { bodyFile } : {}),
  };
}

/** Parts of an input that name its kind rather than hold a value: never shortened. */
const FIXED_KEYS = new Set([
  // How a run fills a workflow's declared variables: fast-check shrinks it, or it is plain already.
  'fill',
  'op',
  'family',
  'form',
  'scheme',
  'type',
  '$canvas',
  '$number',
  '$percent',
  '$escape',
  'header',
  'disposition',
]);
/** Longer texts are left as shrinking made them: shortening them one character at a time costs too much. */
const SIMPLIFY_TEXT_UP_TO = 24;
/** Requests one finding may spend after shrinking. */
const SIMPLIFY_REQUESTS = 24;

/**
 * Inputs one step simpler than `value`: a text one character shorter, a list one element shorter (texts and
 * lists keep at least one), arrays nested one level (`[]`), a repeated text once. fast-check shrinks lists by
 * dropping leading elements, and depths and lengths it drew itself; these steps also drop inner and trailing
 * ones ("Àa" → "À"), and reach the plainest member of an input it did not draw (a family sent every run):
 * a crash on any array is not one at a depth of 999.
 */
function* simpler(value: unknown): Generator<unknown> {
  // A keyword built to be in no title: a shorter one may be in one, and what it finds is then no failure.
  if (value && typeof value === 'object' && (value as { keywordInNoTitle?: true }).keywordInNoTitle) return;
  if (value && typeof value === 'object' && ((value as { $nest?: number }).$nest ?? 0) > 1) yield { $nest: 1 };
  if (isRepeat(value) && value.times > 1) yield { ...value, times: 1 };
  if (typeof value === 'string') {
    const chars = [...value];
    if (chars.length < 2 || chars.length > SIMPLIFY_TEXT_UP_TO) return;
    for (let i = 0; i < chars.length; i++) yield [...chars.slice(0, i), ...chars.slice(i + 1)].join('');
  } else if (Array.isArray(value)) {
    if (value.length > 1) for (let i = 0; i < value.length; i++) yield [...value.slice(0, i), ...value.slice(i + 1)];
    for (let i = 0; i < value.length; i++)
      for (const c of simpler(value[i])) yield [...value.slice(0, i), c, ...value.slice(i + 1)];
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (FIXED_KEYS.has(k)) continue;
      for (const c of simpler(v)) yield { ...value, [k]: c };
    }
  }
}

/** Greedy steps after shrinking, each kept when the simpler input fails the same way (and is no other finding). */
async function simplify(
  s: Session,
  run: PropertyRun,
  sum: PropertySummary,
  start: Judged,
): Promise<{ judged: Judged; steps: number }> {
  let current = start;
  let steps = 0;
  let budget = SIMPLIFY_REQUESTS;
  search: while (budget > 0) {
    for (const candidate of simpler(current.input) as Generator<ExploreInput>) {
      if (budget <= 0 || Date.now() >= run.deadline || s.unreachable) break search;
      const prepared = prepare(candidate, s.world);
      if (!s.room(prepared, run.kind, true)) continue;
      budget--;
      const r = await probe(s, candidate, prepared, sum);
      if (r.outcome.kind !== 'fail' || r.outcome.clause !== current.outcome.clause) continue;
      if (s.knownAs(run.op, r.outcome.clause, prepared.features)) continue;
      current = { input: candidate, prepared, exchange: r.exchange, outcome: r.outcome };
      steps++;
      continue search;
    }
    break;
  }
  return { judged: current, steps };
}

const brokeServer = (ex: Exchange) => ex.status === undefined || ex.status >= 500;
const answerOf = (ex: Exchange) => ex.status ?? ex.fault?.kind;

/** Whether the minimal input, one class of its values replaced, crashes as it did; undefined when not sent (the budget). */
async function crashesAlike(
  s: Session,
  run: PropertyRun,
  sum: PropertySummary,
  minimal: Judged,
  substitution: Probe,
): Promise<boolean | undefined> {
  if (Date.now() >= run.deadline || s.unreachable) return undefined;
  const prepared = prepare(minimal.input, s.world, substitution);
  if (!s.room(prepared, run.kind, true)) return undefined;
  const { outcome, exchange } = await probe(s, minimal.input, prepared, sum);
  if (outcome.kind === 'inconclusive') return undefined;
  return (
    outcome.kind === 'fail' &&
    outcome.clause === minimal.outcome.clause &&
    answerOf(exchange) === answerOf(minimal.exchange)
  );
}

const ODD_IDS = 'ODD-IDS-NO-5XX';

/** A server error caused by the shape of an id alone also breaks the clause about odd ids. */
function oddIdCrash(clause: string, ex: Exchange, shape: readonly string[]): boolean {
  return (
    clause.endsWith('-HTTP-STATUS-LISTED') &&
    (ex.status ?? 0) >= 500 &&
    shape.length > 0 &&
    shape.every((f) => f.startsWith('canvasId:') || f.startsWith('executionId:'))
  );
}

export async function addFinding(
  s: Session,
  run: PropertyRun,
  sum: PropertySummary,
  minimal: ExploreInput,
  found: Judged | undefined,
  replay: {
    propertySeed: number;
    path: string;
    round: number;
    numRuns: number;
    shrinks: number;
    shrinkComplete: boolean;
  },
  /** Where the input came from, when not from its family's property (a family sent every run). */
  source?: string,
): Promise<void> {
  // Sent once more: to confirm the failure, and for the exchange of the minimal input when the last one sent was another.
  const again = await probe(s, minimal, prepare(minimal, s.world), sum);
  const first: Judged | undefined =
    found ??
    (again.outcome.kind === 'fail'
      ? { input: minimal, prepared: again.prepared, exchange: again.exchange, outcome: again.outcome }
      : undefined);
  if (!first) {
    s.log(
      `${run.op}: a failure did not reproduce on its minimal input; not reported (${JSON.stringify(showInput(minimal)).slice(0, 200)})`,
    );
    return;
  }
  let reproduced = again.outcome.kind === 'fail' && again.outcome.clause === first.outcome.clause;
  const { judged, steps } = await simplify(s, run, sum, first);
  if (steps > 0) {
    const last = await probe(s, judged.input, prepare(judged.input, s.world), sum);
    reproduced &&= last.outcome.kind === 'fail' && last.outcome.clause === judged.outcome.clause;
  }
  const { outcome, prepared, exchange, input } = judged;
  // A crash is named by the class of input it is about, probed (classes.ts), not by the member shrinking reached.
  const shape =
    reproduced && brokeServer(exchange)
      ? generalized(
          shapeOf(prepared.features),
          await classesOf(run.op, prepared.features, (p) => crashesAlike(s, run, sum, judged, p)),
        )
      : shapeOf(prepared.features);
  const pushed = pushFinding(s, run, { input, prepared, exchange, outcome }, shape, {
    family: source ?? minimal.family,
    alsoBreaks: oddIdCrash(outcome.clause, exchange, shape) ? [ODD_IDS] : [],
    replay: { seed: s.options.seed, ...replay, simplified: steps },
    reproduced,
    shrinkComplete: replay.shrinkComplete,
  });
  if (pushed)
    s.log(
      `${run.op}: [${outcome.clause}] ${outcome.message} — minimal ${JSON.stringify(showInput(input)).slice(0, 300)}`,
    );
}

/**
 * A finding made of a failure narrowed down (by shrinking here, by the runs of slowness.ts): reported once
 * per fingerprint (a second one counts as an occurrence), with its exchange and reproducer. True when new.
 */
export function pushFinding(
  s: Session,
  run: Pick<PropertyRun, 'op' | 'kind'>,
  judged: Judged,
  shape: string[],
  how: Pick<ExploreFinding, 'family' | 'alsoBreaks' | 'replay' | 'reproduced' | 'shrinkComplete'>,
): boolean {
  const { outcome, prepared, exchange, input } = judged;
  const fingerprint = fingerprintOf(run.op, outcome.clause, shape);
  const same = s.findings.find((f) => f.fingerprint === fingerprint);
  if (same) {
    same.occurrences++;
    return false;
  }
  const { curl, bodyFile } = reproducer(s, prepared, exchange, fingerprint);
  s.findings.push({
    fingerprint,
    operation: run.op,
    clause: outcome.clause,
    level: outcome.level,
    catalogued: hasRequirement(outcome.clause),
    property: run.kind,
    family: how.family,
    message: redactSecrets(outcome.message),
    expected: outcome.expected,
    actual: redactSecrets(outcome.actual),
    alsoBreaks: [...new Set([...outcome.others, ...how.alsoBreaks])],
    shape,
    minimalInput: showInput(input),
    exchange: shownExchange(exchange),
    curl,
    ...(bodyFile ? { bodyFile } : {}),
    replay: how.replay,
    reproduced: how.reproduced,
    shrinkComplete: how.shrinkComplete,
    occurrences: 1,
  });
  return true;
}
