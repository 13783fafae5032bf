/**
 * Sets a run report against a saved baseline and lists regressions beyond a
 * tolerance. Latencies compare relatively (with an absolute floor, since a
 * 0.8 ms → 1.1 ms change on loopback is noise, not a regression); rates
 * compare in absolute points.
 */
import { apiRequestRate, operationRows, table, violationShare, type RunReport } from '../k6/lib/run-report.ts';

export interface CompareOptions {
  /** Allowed relative worsening of latencies and throughput, e.g. 0.1 for 10%. */
  tolerance: number;
  /** Latency changes smaller than this (ms) never count as regressions. */
  minLatencyDeltaMs: number;
  /** Allowed absolute worsening of rates (failed share, completion share), e.g. 0.005 = 0.5 points. */
  rateTolerance: number;
}

export const DEFAULT_COMPARE: CompareOptions = { tolerance: 0.1, minLatencyDeltaMs: 5, rateTolerance: 0.005 };

export interface ComparisonRow {
  measure: string;
  baseline: number | null;
  current: number | null;
  unit: 'ms' | '%' | '/s';
  /** Relative change for ms and /s, absolute points for %. */
  change: number | null;
  regression: boolean;
  note?: string;
}

type Direction = 'lower-is-better' | 'higher-is-better';

function row(
  measure: string,
  unit: ComparisonRow['unit'],
  dir: Direction,
  base: number | undefined,
  cur: number | undefined,
  o: CompareOptions,
): ComparisonRow {
  const b = base ?? null;
  const c = cur ?? null;
  if (b === null || c === null)
    return {
      measure,
      baseline: b,
      current: c,
      unit,
      change: null,
      regression: false,
      note: b === null ? 'not in baseline' : 'not in this run',
    };
  const worse = dir === 'lower-is-better' ? c - b : b - c;
  if (unit === '%') {
    return { measure, baseline: b, current: c, unit, change: c - b, regression: worse > o.rateTolerance };
  }
  const relative = b === 0 ? (c === 0 ? 0 : Infinity) : (c - b) / b;
  const relWorse = dir === 'lower-is-better' ? relative : -relative;
  const regression = relWorse > o.tolerance && (unit !== 'ms' || worse > o.minLatencyDeltaMs);
  return { measure, baseline: b, current: c, unit, change: relative, regression };
}

/** What differs between the runs' settings, which makes their figures harder to compare. */
function settingWarnings(baseline: RunReport, current: RunReport): string[] {
  const warnings: string[] = [];
  if (baseline.meta.profile !== current.meta.profile)
    warnings.push(`profiles differ: baseline ${baseline.meta.profile}, this run ${current.meta.profile}`);
  if (baseline.meta.scenarios.join() !== current.meta.scenarios.join())
    warnings.push(
      `scenarios differ: baseline ${baseline.meta.scenarios.join(',')}, this run ${current.meta.scenarios.join(',')}`,
    );
  return warnings;
}

const PERCENTILES: [stat: string, label: string][] = [
  ['med', 'p50'],
  ['p(95)', 'p(95)'],
  ['p(99)', 'p(99)'],
];

/** Per operation: its request rate and its latency percentiles. */
function operationComparison(baseline: RunReport, current: RunReport, o: CompareOptions): ComparisonRow[] {
  const baseOps = new Map(operationRows(baseline.metrics).map((r) => [r.operation, r.values]));
  const curOps = new Map(operationRows(current.metrics).map((r) => [r.operation, r.values]));
  const perSecond = (r: RunReport, values: Record<string, number> | undefined) => {
    const seconds = r.meta.scenarioSeconds ?? r.meta.durationMs / 1000;
    return values?.count !== undefined && seconds > 0 ? values.count / seconds : undefined;
  };
  return [...new Set([...baseOps.keys(), ...curOps.keys()])]
    .sort()
    .flatMap((op) => [
      row(
        `${op} req/s`,
        '/s',
        'higher-is-better',
        perSecond(baseline, baseOps.get(op)),
        perSecond(current, curOps.get(op)),
        o,
      ),
      ...PERCENTILES.map(([stat, label]) =>
        row(`${op} ${label}`, 'ms', 'lower-is-better', baseOps.get(op)?.[stat], curOps.get(op)?.[stat], o),
      ),
    ]);
}

/** The run as a whole: throughput, failures, contract violations and, where runs were followed, workflows. */
function runComparison(baseline: RunReport, current: RunReport, o: CompareOptions): ComparisonRow[] {
  const v = (r: RunReport, metric: string, key: string) => r.metrics[metric]?.values[key];
  const both = (metric: string, key: string) => [v(baseline, metric, key), v(current, metric, key)] as const;
  const rows = [
    row('throughput (API requests)', '/s', 'higher-is-better', apiRequestRate(baseline), apiRequestRate(current), o),
    row('failed requests', '%', 'lower-is-better', ...both('http_req_failed', 'rate'), o),
    row('contract violations', '%', 'lower-is-better', violationShare(baseline), violationShare(current), {
      ...o,
      rateTolerance: 0,
    }),
  ];
  if (!baseline.metrics.workflow_duration && !current.metrics.workflow_duration) return rows;
  return [
    ...rows,
    ...PERCENTILES.map(([stat, label]) =>
      row(`workflow duration ${label}`, 'ms', 'lower-is-better', ...both('workflow_duration', stat), o),
    ),
    row('workflow completion', '%', 'higher-is-better', ...both('workflow_completed', 'rate'), o),
  ];
}

export function compareReports(
  baseline: RunReport,
  current: RunReport,
  o: CompareOptions = DEFAULT_COMPARE,
): { rows: ComparisonRow[]; warnings: string[] } {
  return {
    rows: [...operationComparison(baseline, current, o), ...runComparison(baseline, current, o)],
    warnings: settingWarnings(baseline, current),
  };
}

function fmt(n: number | null, unit: ComparisonRow['unit']): string {
  if (n === null) return '—';
  if (unit === '%') return `${(n * 100).toFixed(2)}%`;
  if (unit === '/s') return `${n.toFixed(1)}/s`;
  return `${n.toFixed(2)}ms`;
}

function fmtChange(r: ComparisonRow): string {
  if (r.change === null) return r.note ?? '';
  if (r.unit === '%') return `${r.change >= 0 ? '+' : ''}${(r.change * 100).toFixed(2)} pts`;
  if (!Number.isFinite(r.change)) return 'new';
  return `${r.change >= 0 ? '+' : ''}${(r.change * 100).toFixed(1)}%`;
}

export function renderComparison(rows: ComparisonRow[], warnings: string[], o: CompareOptions): string {
  const lines = warnings.map((w) => `warning: ${w}`);
  lines.push(
    table(
      [
        ['', 'measure', 'baseline', 'current', 'change'],
        ...rows.map((r) => [
          r.regression ? 'REGRESSED' : r.change === null ? '' : 'ok',
          r.measure,
          fmt(r.baseline, r.unit),
          fmt(r.current, r.unit),
          fmtChange(r),
        ]),
      ],
      2,
    ),
  );
  const regressed = rows.filter((r) => r.regression);
  lines.push('');
  lines.push(
    `tolerance: latencies/throughput ±${(o.tolerance * 100).toFixed(0)}% (latency changes under ${o.minLatencyDeltaMs}ms ignored), rates ±${(o.rateTolerance * 100).toFixed(2)} pts, contract violations 0`,
  );
  lines.push(
    regressed.length === 0
      ? 'COMPARISON: no regression beyond tolerance'
      : `COMPARISON: ${regressed.length} regression(s): ${regressed.map((r) => r.measure).join('; ')}`,
  );
  return `${lines.join('\n')}\n`;
}
