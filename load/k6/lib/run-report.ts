/**
 * The run report model and the forms it is shown in (its text, its JUnit test cases). Pure TypeScript:
 * k6's handleSummary and the Node-side merge of distributed runs both build a `RunReport`. k6 prints its
 * text and hands the model over as REPORT_HANDOVER_FILE; the Node side (load/node/report-files.ts) writes
 * every format of the report kit's table from it.
 */
import type { JunitDocument } from '../../../core/report/render/junit.ts';
import { compare, parseThresholdExpression } from './thresholds.ts';

/**
 * Where a k6 run hands its report over, in its run's folder: the JSON format's file of the report kit's
 * table (core/report/formats.ts), which k6 cannot load; load/node/report-files.test.ts holds the
 * two equal.
 */
export const REPORT_HANDOVER_FILE = 'report.json';

/** Opens the line that says what k6 spoke to the target: `wfcheck wire: HTTP/2.0 tls1.3` (run-k6.ts reads it). */
export const WIRE_MARKER = 'wfcheck wire: ';

export interface MetricSummary {
  type: 'counter' | 'gauge' | 'rate' | 'trend';
  values: Record<string, number>;
}

export interface ThresholdResult {
  metric: string;
  expression: string;
  ok: boolean;
  actual: number | null;
}

export interface RunMeta {
  profile: string;
  scenarios: string[];
  seed: number;
  baseUrl: string;
  contractSample: number;
  durationMs: number;
  /** Seconds the scenarios ran (setup excluded): the denominator of per-operation request rates. */
  scenarioSeconds?: number;
  /** The profile's mix as printed at the start (VUs, file and abort shares, generate rate). */
  mix?: string;
  /** `single` for one k6 process, `merged:N` for N execution segments evaluated together. */
  evaluation: string;
  startedAt?: string;
  /** The way to the target, set by the Node side (load/node/connection-view.ts): k6 cannot see it. */
  connection?: LoadConnection;
}

/** The way to the target of a load run: what the Node side's check saw, and what k6 spoke. */
export interface LoadConnection {
  /** For the report's header, in order: --insecure, the connection, the certificate's clause. */
  lines: string[];
  /** What k6 spoke to the target on its first answer: HTTP/2.0 or HTTP/1.1, and the TLS version. */
  k6?: { proto: string; tls: string };
  /** The check's facts as seen (connection-facts.ts ConnectionFacts). */
  facts?: unknown;
}

export interface RunReport {
  meta: RunMeta;
  passed: boolean;
  thresholds: ThresholdResult[];
  metrics: Record<string, MetricSummary>;
}

export const TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'];

/** A value of a sub-metric of one operation (`metric{operation:op}`), when the run gated it. */
const perOperation = (m: Record<string, MetricSummary>, metric: string, op: string, key: string) =>
  m[`${metric}{operation:${op}}`]?.values[key];

/** The value of one aggregation (as named in a threshold expression) from summarised values. */
export function aggregationValue(values: Record<string, number>, aggregation: string): number | null {
  if (aggregation === 'value' && 'value' in values) return values.value;
  const v = values[aggregation];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function thresholdResult(
  metric: string,
  expression: string,
  summary: MetricSummary | undefined,
): ThresholdResult {
  const parsed = parseThresholdExpression(expression);
  // A metric without samples counts zero, as k6 reports it (a counter of violations nobody added to).
  const actual = summary
    ? aggregationValue(summary.values, parsed.aggregation)
    : parsed.aggregation === 'count'
      ? 0
      : null;
  // No samples otherwise: nothing breached it (k6 treats an empty metric the same way).
  const ok = actual === null ? true : compare(actual, parsed.operator, parsed.value);
  return { metric, expression, ok, actual };
}

const fmtNumber = (n: number | null | undefined, unit = ''): string => {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  if (unit === 'ms') return n >= 1000 ? `${(n / 1000).toFixed(2)}s` : `${n.toFixed(n < 10 ? 2 : 0)}ms`;
  if (unit === '%') return `${(n * 100).toFixed(2)}%`;
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
};

/** Plain-text table; the first `leftColumns` columns are left-aligned, numbers right-aligned. */
export function table(rows: string[][], leftColumns = 1): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => (i < leftColumns ? c.padEnd(widths[i]) : c.padStart(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Per-operation rows from `http_req_duration{operation:X}` sub-metrics. */
export function operationRows(
  metrics: Record<string, MetricSummary>,
): { operation: string; values: Record<string, number> }[] {
  return Object.entries(metrics)
    .map(([name, m]) => ({ m, op: name.match(/^http_req_duration\{operation:([^}]+)\}$/)?.[1] }))
    .filter((x): x is { m: MetricSummary; op: string } => Boolean(x.op))
    .map(({ m, op }) => ({ operation: op, values: m.values }))
    .sort((a, b) => a.operation.localeCompare(b.operation));
}

const unitOf = (metric: string, expression: string) =>
  expression.startsWith('rate') ? '%' : /duration/.test(metric) ? 'ms' : '';

/** Responses that went through the contract checks (no contract_checked: none was checked). */
export function checkedResponses(r: RunReport): number {
  return r.metrics.contract_checked?.values.count ?? 0;
}

/** Checked responses that break a must clause, in all or of one operation. */
export function violatingResponses(r: RunReport, operation?: string): number {
  return (
    r.metrics[operation ? `contract_violations{operation:${operation}}` : 'contract_violations']?.values.count ?? 0
  );
}

/** Share of checked responses that break a must clause. */
export function violationShare(r: RunReport): number {
  const checked = checkedResponses(r);
  return checked > 0 ? violatingResponses(r) / checked : 0;
}

/** Responses of the API under test: every HTTP request except the batches sent to the Node checker (offloaded checks). */
export function apiResponses(r: RunReport): number {
  return (r.metrics.http_reqs?.values.count ?? 0) - (r.metrics.contract_handovers?.values.count ?? 0);
}

/** Requests per second to the API under test, over the whole test as k6 counts http_reqs' rate (batches to the checker left out). */
export function apiRequestRate(r: RunReport): number | undefined {
  const reqs = r.metrics.http_reqs?.values;
  if (reqs?.rate === undefined || !reqs.count) return reqs?.rate;
  return (reqs.rate * apiResponses(r)) / reqs.count;
}

/** The report as text: the figures k6 prints at the end of a run, and report.txt. */
export function loadReportText(r: RunReport): string {
  const m = r.metrics;
  const lines: string[] = [];
  lines.push(
    `wfcheck load run — profile ${r.meta.profile} (${r.meta.scenarios.join(', ')}), seed ${r.meta.seed}, ${r.meta.evaluation}`,
  );
  lines.push(
    `target ${r.meta.baseUrl}; contract checks on ${fmtNumber(r.meta.contractSample, '%')} of responses; ran ${fmtNumber(r.meta.durationMs, 'ms')}`,
  );
  lines.push(...(r.meta.connection?.lines ?? []));
  lines.push('');
  if (r.meta.mix) lines.push(`mix: ${r.meta.mix}`);
  lines.push('');
  lines.push(...operationsTable(r));
  lines.push('');
  const v = (name: string, key: string) => m[name]?.values[key];
  const batchesSent = m.contract_handovers
    ? ` (besides ${fmtNumber(v('contract_handovers', 'count'))} hand-overs to the Node checker, in no figure of the target)`
    : '';
  const setup = m.setup_requests
    ? `, of which ${fmtNumber(v('setup_requests', 'count'))} made by setup (discovery, trial runs) and in no per-operation figure`
    : '';
  lines.push(
    `API requests ${fmtNumber(apiResponses(r))} (${fmtNumber(apiRequestRate(r))}/s${setup})${batchesSent}; failed ${fmtNumber(v('http_req_failed', 'rate'), '%')}; 429 answers ${fmtNumber(v('rate_limited_responses', 'count') ?? 0)}`,
  );
  lines.push(
    `contract: ${fmtNumber(checkedResponses(r))} of ${fmtNumber(apiResponses(r))} API responses checked, ${fmtNumber(violatingResponses(r))} violating (${fmtNumber(violationShare(r), '%')}), responses with warnings ${fmtNumber(v('contract_warnings', 'count') ?? 0)}`,
  );
  if (m.workflow_completed || m.workflow_duration) {
    lines.push(
      `workflows (upload → run → poll → output): completed ${fmtNumber(v('workflow_completed', 'rate'), '%')} of ${fmtNumber((v('workflow_completed', 'passes') ?? 0) + (v('workflow_completed', 'fails') ?? 0))}; end-to-end p50 ${fmtNumber(v('workflow_duration', 'med'), 'ms')}, p95 ${fmtNumber(v('workflow_duration', 'p(95)'), 'ms')}, p99 ${fmtNumber(v('workflow_duration', 'p(99)'), 'ms')}`,
    );
  }
  if (m.executions_aborted) lines.push(`executions aborted mid-run: ${fmtNumber(v('executions_aborted', 'count'))}`);
  if (m.canvases_created || m['http_req_duration{operation:generateWorkflow}'])
    lines.push(`generate footprint: ${fmtNumber(v('canvases_created', 'count') ?? 0)} canvases created on the target`);
  lines.push('');
  lines.push('Gates');
  lines.push(
    table(
      [
        ['', 'metric', 'threshold', 'actual'],
        ...r.thresholds.map((t) => [
          t.ok ? 'PASS' : 'FAIL',
          t.metric,
          t.expression,
          fmtNumber(t.actual, unitOf(t.metric, t.expression)),
        ]),
      ],
      3,
    ),
  );
  lines.push('');
  const failed = r.thresholds.filter((t) => !t.ok);
  if (r.thresholds.length === 0) lines.push('VERDICT: none — no gates were evaluated in this process');
  else
    lines.push(
      r.passed
        ? `VERDICT: PASS — all ${r.thresholds.length} gates met`
        : `VERDICT: FAIL — ${failed.length} of ${r.thresholds.length} gates breached: ${failed.map((t) => `${t.metric} ${t.expression}`).join('; ')}`,
    );
  return `${lines.join('\n')}\n`;
}

/** Per operation: request rate over the scenarios' time, p50/p95/p99, failed share and violating responses. */
function operationsTable(r: RunReport): string[] {
  const m = r.metrics;
  const seconds = r.meta.scenarioSeconds ?? r.meta.durationMs / 1000;
  const rows = operationRows(m).map((o) => [
    o.operation,
    fmtNumber(o.values.count),
    seconds > 0 ? fmtNumber((o.values.count ?? 0) / seconds) : '—',
    fmtNumber(o.values.med, 'ms'),
    fmtNumber(o.values['p(95)'], 'ms'),
    fmtNumber(o.values['p(99)'], 'ms'),
    fmtNumber(o.values.max, 'ms'),
    fmtNumber(perOperation(m, 'http_req_failed', o.operation, 'rate'), '%'),
    fmtNumber(violatingResponses(r, o.operation)),
  ]);
  return [
    'Operations',
    table([['operation', 'requests', 'req/s', 'p50', 'p95', 'p99', 'max', 'failed', 'violations'], ...rows]),
  ];
}

/** The gates as JUnit test cases: one per threshold, failed when breached. */
export function loadJunitDocument(r: RunReport): JunitDocument {
  const seconds = r.meta.durationMs / 1000;
  return {
    name: 'wfcheck-load',
    time: seconds,
    suites: [
      {
        name: `load SLO gates (${r.meta.profile})`,
        time: seconds,
        cases: r.thresholds.map((t) => ({
          classname: `load.${r.meta.profile}`,
          name: `${t.metric} ${t.expression}`,
          time: 0,
          ...(t.ok
            ? {}
            : { failure: { message: `actual ${t.actual ?? 'n/a'} breaches ${t.expression}`, type: 'threshold' } }),
        })),
      },
    ],
  };
}
