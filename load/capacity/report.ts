/**
 * The result of a capacity search and its views: the headline ("capacity: N lifecycles/s (M requests/s)
 * with every gate held; first gate to break above it: …"), the text with the table of steps, and the
 * JUnit document; the report kit's table of formats (core/report/formats.ts) renders them, with the
 * model as JSON and the page of load/capacity/node/page.ts.
 *
 * Pure, no k6 or Node imports.
 */
import type { JunitDocument } from '../../core/report/render/junit.ts';
import { table, type LoadConnection } from '../k6/lib/run-report.ts';
import type { SloSettings } from '../k6/lib/thresholds.ts';
import type { StepFigures } from './figures.ts';
import { ARRIVALS_METRIC, describeBreak, type GateResult } from './gates.ts';
import { bracket, confirmed, type SearchEnd } from './search.ts';

export interface CapacityFound {
  lifecyclesPerS: number;
  requestsPerS: number;
  /** A confirmation step at the rate held: always, since a search that confirmed none has no capacity. */
  confirmed: boolean;
  /** The step it was found in (the confirmation when there was one). */
  step: number;
}

export interface Knee {
  /** The lowest rate above the capacity that broke a gate. */
  rate: number;
  step: number;
  gate: GateResult;
}

/** The generator's own ceiling on this machine (a bare k6 loop), against which the capacity is read. */
export interface GeneratorCeiling {
  requestsPerS: number | null;
  /** How it was known: measured now, given, or why not. */
  source: string;
  /** The capacity's requests reach this share of it: the generator, not the target, may be the limit. */
  reached: boolean;
}

/** At this share of the generator's ceiling a capacity may be the generator's limit rather than the target's. */
export const CEILING_SHARE = 0.8;

export interface BaselineComparison {
  file: string;
  lifecyclesPerS: number | null;
  /** Relative change against the baseline (−0.2: 20 % lower). */
  change: number | null;
  tolerance: number;
  regressed: boolean;
}

export interface CapacityMeta {
  startedAt: string;
  wallMs: number;
  seed: number;
  baseUrl: string;
  /** The implementation's name and version the run is recorded under, when given. */
  name?: string;
  version?: string;
  /** The load profile whose lifecycle mix (file and abort shares) was driven. */
  mixProfile: string;
  mix: string;
  readsPerLifecycle: number;
  budgetS: number;
  precision: number;
  instances: number;
  slo: SloSettings;
  /** The way to the target (load/node/connection-view.ts), for the header. */
  connection?: LoadConnection;
}

export interface CapacityReport {
  meta: CapacityMeta;
  /** Only a search that converged has one (load/capacity/search.ts): a rate held by a confirmation step. */
  capacity: CapacityFound | null;
  knee: Knee | null;
  /** How the search ended: a capacity found, none (no rate held), or incomplete (it did not converge). */
  end: SearchEnd;
  /** Why the search ended. */
  ended: string;
  generator: GeneratorCeiling;
  steps: StepFigures[];
  baseline?: BaselineComparison;
  /** A capacity was found (and did not fall below the baseline's by more than the tolerance). */
  passed: boolean;
}

/**
 * The capacity and the knee the steps show. A capacity only when the search found one: the highest rate
 * that held in a search that did not converge is no capacity (a short step may hold above the knee).
 */
export function resultOf(
  steps: readonly StepFigures[],
  end: SearchEnd,
): { capacity: CapacityFound | null; knee: Knee | null } {
  const { held, broke } = bracket(steps);
  const atHeld = held ? steps.filter((s) => s.held && s.rate === held.rate) : [];
  const best = atHeld.find((s) => s.purpose === 'confirm') ?? held;
  return {
    capacity:
      best && end === 'found'
        ? {
            lifecyclesPerS: best.rate,
            requestsPerS: best.requestsPerS,
            confirmed: confirmed(steps, best.rate),
            step: best.index,
          }
        : null,
    knee: broke?.broke ? { rate: broke.rate, step: broke.index, gate: broke.broke } : null,
  };
}

const rate = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));

/** The headline: the capacity and what broke first above it, or plainly that none was found and why. */
export function headline(r: Pick<CapacityReport, 'capacity' | 'knee' | 'end' | 'ended'>): string {
  const c = r.capacity;
  if (r.end === 'incomplete')
    return `capacity: not found — the search did not converge: ${r.ended}; no rate is given as the capacity`;
  if (!c)
    return `capacity: none — ${r.knee ? `${describeBreak(r.knee.gate)} already at ${rate(r.knee.rate)}/s` : r.ended}`;
  const kneeText = r.knee
    ? `first gate to break above it: ${describeBreak(r.knee.gate)} at ${rate(r.knee.rate)}/s`
    : `no rate tried broke a gate (${r.ended})`;
  const lead = `capacity: ${r.knee ? '' : 'at least '}${rate(c.lifecyclesPerS)} lifecycles/s (${rate(c.requestsPerS)} requests/s) with every gate held`;
  return `${lead}; ${kneeText}`;
}

/**
 * What the generator's ceiling says about the capacity, in a line. A knee where k6 did not start the
 * lifecycles on time is said too: its VUs were free, so the generator's process (or the machine it
 * shares with the target) fell behind, whatever the bare loop's figure.
 */
export function ceilingLine(r: Pick<CapacityReport, 'capacity' | 'generator' | 'meta' | 'knee'>): string {
  // Only when the arrivals are what broke first: a target that slows down also leaves k6 without free VUs,
  // but then a latency gate is further past its limit and names the knee.
  const behind = r.knee?.gate.key.startsWith(ARRIVALS_METRIC)
    ? '; above the capacity k6 did not start the lifecycles on time, so the generator or the machine it shares may be the limit there'
    : '';
  return `${generatorLine(r)}${behind}`;
}

function generatorLine(r: Pick<CapacityReport, 'capacity' | 'generator' | 'meta'>): string {
  const g = r.generator;
  if (g.requestsPerS === null) return `generator ceiling: not known (${g.source})`;
  const of = `generator ceiling on this machine: ${rate(g.requestsPerS)} requests/s (${g.source})`;
  if (!r.capacity) return of;
  const share = r.capacity.requestsPerS / (g.requestsPerS * r.meta.instances);
  return g.reached
    ? `${of}; the capacity's ${rate(r.capacity.requestsPerS)} requests/s are ${Math.round(share * 100)}% of it: this may be the generator's limit, not the target's (more generators: --instances, or a larger machine)`
    : `${of}; the capacity uses ${Math.round(share * 100)}% of it`;
}

/** The gate of a step that came closest to its limit among the latency gates, in a few words. */
function tightestLatency(s: StepFigures): string {
  const latency = s.gates.filter((g) => g.unit === 'ms' && g.actual !== null);
  const t = latency.sort((a, b) => b.excess - a.excess)[0];
  if (!t) return '—';
  return `${t.gate} ${Math.round(t.actual ?? 0)}/${Math.round(t.limit)} ms`;
}

const pct = (n: number | null) => (n === null ? '—' : `${(n * 100).toFixed(n < 0.1 ? 2 : 1)}%`);

/** One row per step: why it ran, what it offered and got, and whether it held. */
export function stepsTable(steps: readonly StepFigures[]): string {
  return table(
    [
      ['step', 'why', 'offered/s', 'started/s', 'requests/s', 'failed', 'completed', 'closest latency gate', 'verdict'],
      ...steps.map((s) => [
        String(s.index),
        s.purpose,
        rate(s.rate),
        rate(s.lifecyclesPerS),
        rate(s.requestsPerS),
        pct(s.failedRate),
        pct(s.completion),
        tightestLatency(s),
        s.held ? 'held' : `broke: ${s.broke ? describeBreak(s.broke) : '?'}`,
      ]),
    ],
    2,
  );
}

export function baselineLine(b: BaselineComparison): string {
  if (b.lifecyclesPerS === null || b.change === null) return `baseline ${b.file}: it holds no capacity to compare with`;
  const change = `${b.change >= 0 ? '+' : ''}${(b.change * 100).toFixed(1)}%`;
  return `${b.regressed ? 'REGRESSED' : 'ok'}: capacity ${change} against the baseline's ${rate(b.lifecyclesPerS)} lifecycles/s (${b.file}; tolerance −${Math.round(b.tolerance * 100)}%)`;
}

/** PASS, FAIL (no rate held, or the capacity fell), or INCOMPLETE (the search did not converge). */
export const verdict = (r: Pick<CapacityReport, 'end' | 'passed'>) =>
  r.end === 'incomplete' ? 'INCOMPLETE' : r.passed ? 'PASS' : 'FAIL';

/** The command's exit code for a report (docs/capacity.md): 0 found, 1 none or fallen, 2 incomplete. */
export const exitCodeOf = (r: Pick<CapacityReport, 'end' | 'passed'>) =>
  r.end === 'incomplete' ? 2 : r.passed ? 0 : 1;

export function capacityText(r: CapacityReport): string {
  const m = r.meta;
  const lines = [
    `wfcheck capacity search — ${m.name ? `${m.name}${m.version ? ` ${m.version}` : ''} at ` : ''}${m.baseUrl}, seed ${m.seed}${m.instances > 1 ? `, ${m.instances} k6 processes (gates on merged samples)` : ''}`,
    `mix: lifecycle as in profile ${m.mixProfile} (${m.mix}); read mix ${m.readsPerLifecycle} per lifecycle; budget ${m.budgetS}s, precision ${Math.round(m.precision * 100)}%; searched ${(m.wallMs / 1000).toFixed(0)}s`,
    ...(m.connection?.lines ?? []),
    '',
    stepsTable(r.steps),
    '',
    headline(r),
    ceilingLine(r),
  ];
  if (r.baseline) lines.push(baselineLine(r.baseline));
  lines.push(`VERDICT: ${verdict(r)}`);
  return `${lines.join('\n')}\n`;
}

/** JUnit: the capacity (failed when none held), its confirmation, the baseline; each step as a passing case. */
export function capacityJunit(r: CapacityReport): JunitDocument {
  const cls = 'load.capacity';
  const cases = [
    {
      classname: cls,
      name: 'capacity with every gate held',
      ...(r.capacity
        ? { systemOut: headline(r) }
        : r.end === 'incomplete'
          ? { skipped: { message: headline(r) } }
          : { failure: { message: headline(r), type: 'capacity' } }),
    },
    {
      classname: cls,
      name: 'capacity confirmed by a longer step',
      ...(r.capacity?.confirmed ? {} : { skipped: { message: `not confirmed: ${r.ended}` } }),
    },
    ...(r.baseline
      ? [
          {
            classname: cls,
            name: 'capacity against the baseline',
            ...(r.baseline.regressed
              ? { failure: { message: `${baselineLine(r.baseline)}; ${headline(r)}`, type: 'regression' } }
              : { systemOut: baselineLine(r.baseline) }),
          },
        ]
      : []),
    ...r.steps.map((s) => ({
      classname: `${cls}.steps`,
      name: `step ${s.index} (${s.purpose}) at ${rate(s.rate)}/s`,
      time: s.warmupS + s.steadyS,
      systemOut: s.held ? 'every gate held' : `broke: ${s.broke ? describeBreak(s.broke) : '?'}`,
    })),
  ];
  const seconds = r.meta.wallMs / 1000;
  return { name: 'wfcheck-capacity', time: seconds, suites: [{ name: 'capacity', time: seconds, cases }] };
}
