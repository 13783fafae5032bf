/**
 * The page of a capacity search (report.html in its folder): latency (p50, p95, p99 per operation) and the
 * failed share against the offered rate, the gates drawn as dashed lines, the capacity and the knee as
 * vertical lines; the table of steps; and, from the run history, the capacity of every implementation and
 * version measured before. chart.js is inlined as on the trend pages: the page opens offline.
 *
 * Built as a page of the report kit (core/report/render/html.ts): every text goes through its
 * escapers, the charts are raw blocks whose data is escaped for a script element.
 */
import { type Block, heading, paragraph, rawHtml, type Row } from '../../../core/report/document.ts';
import type { HtmlPage } from '../../../core/report/render/html.ts';
import { chartBlock, inlineChartJs } from '../../../core/history-store/chart-asset.ts';
import type { CapacityPoint } from '../../../core/history-store/capacity.ts';
import type { StepFigures } from '../figures.ts';
import { describeBreak } from '../gates.ts';
import { baselineLine, type CapacityReport, ceilingLine, headline } from '../report.ts';
import type { OperationId } from '../../k6/lib/operations.ts';
import { LATENCY_BUDGETS_MS } from '../../k6/lib/thresholds.ts';

const COLOURS = { p50: '#7aa6e0', p95: '#f08a24', p99: '#d33c3c', gate: '#888', held: '#2e9e4f', knee: '#d33c3c' };
const NO_ANIMATION = { animation: false, responsive: true, maintainAspectRatio: false };

type Point = { x: number; y: number | null };

const series = (label: string, data: Point[], colour: string, extra: object = {}) => ({
  label,
  data,
  borderColor: colour,
  backgroundColor: colour,
  showLine: true,
  pointRadius: 3,
  ...extra,
});

/** A horizontal dashed line across the rates tried: a gate, in the colour of the figure it bounds. */
const gateLine = (label: string, y: number, xs: readonly number[], colour: string = COLOURS.gate) =>
  series(
    label,
    [
      { x: Math.min(...xs), y },
      { x: Math.max(...xs), y },
    ],
    colour,
    { borderDash: [6, 4], pointRadius: 0, borderWidth: 1.5 },
  );

/** A vertical line at a rate: the capacity (green) or the knee (red). */
const rateLine = (label: string, x: number, top: number, colour: string) =>
  series(
    label,
    [
      { x, y: 0 },
      { x, y: top },
    ],
    colour,
    { borderDash: [2, 3], pointRadius: 0, borderWidth: 2 },
  );

function markers(r: CapacityReport, top: number) {
  return [
    ...(r.capacity
      ? [rateLine(`capacity ${r.capacity.lifecyclesPerS}/s`, r.capacity.lifecyclesPerS, top, COLOURS.held)]
      : []),
    ...(r.knee ? [rateLine(`knee ${r.knee.rate}/s`, r.knee.rate, top, COLOURS.knee)] : []),
  ];
}

const byRate = (steps: readonly StepFigures[]) => [...steps].sort((a, b) => a.rate - b.rate || a.index - b.index);

/**
 * Points in rate order, the line broken between two measurements at the same rate (a bisection step and
 * its confirmation): a vertical segment there would read as a change the rate caused, not a second sample.
 */
export function lineThroughRates(points: readonly Point[]): Point[] {
  return points.flatMap((p, i) => (i > 0 && points[i - 1]!.x === p.x ? [{ x: p.x, y: null }, p] : [p]));
}

/** One figure of every step against its offered rate: the one way a chart's line through the steps is built. */
const stepLine = (steps: readonly StepFigures[], y: (s: StepFigures) => number | null): Point[] =>
  lineThroughRates(byRate(steps).map((s) => ({ x: s.rate, y: y(s) })));

function chart(title: string, yTitle: string, datasets: object[]) {
  return {
    type: 'scatter',
    data: { datasets },
    options: {
      ...NO_ANIMATION,
      plugins: { title: { display: true, text: title } },
      scales: {
        x: { type: 'linear', title: { display: true, text: 'offered lifecycles/s' } },
        y: { beginAtZero: true, title: { display: true, text: yTitle } },
      },
    },
  };
}

function latencyChart(r: CapacityReport, op: OperationId) {
  const { steps } = r;
  const xs = steps.map((s) => s.rate);
  const at = (k: 'p50' | 'p95' | 'p99') => stepLine(steps, (s) => s.operations[op]?.[k] ?? null);
  const budget = LATENCY_BUDGETS_MS[op];
  const scale = r.meta.slo.latencyScale;
  const p99 = Math.round(budget.p99 * scale);
  const highest = Math.max(p99, ...steps.map((s) => s.operations[op]?.p99 ?? 0));
  return chart(op, 'ms', [
    series('p50', at('p50'), COLOURS.p50),
    series('p95', at('p95'), COLOURS.p95),
    series('p99', at('p99'), COLOURS.p99),
    gateLine(`p95 gate ${Math.round(budget.p95 * scale)} ms`, Math.round(budget.p95 * scale), xs, COLOURS.p95),
    gateLine(`p99 gate ${p99} ms`, p99, xs, COLOURS.p99),
    ...markers(r, highest),
  ]);
}

function errorChart(r: CapacityReport) {
  const { steps } = r;
  const xs = steps.map((s) => s.rate);
  const gate = r.meta.slo.maxFailedRate * 100;
  const failed = stepLine(steps, (s) => (s.failedRate === null ? null : s.failedRate * 100));
  const incomplete = stepLine(steps, (s) => (s.completion === null ? null : (1 - s.completion) * 100));
  const top = Math.max(gate * 2, ...failed.map((p) => p.y ?? 0), ...incomplete.map((p) => p.y ?? 0));
  return chart('failed requests and unfinished workflows', '%', [
    series('failed requests (%)', failed, COLOURS.p99),
    series('workflows not finished (%)', incomplete, COLOURS.p95),
    gateLine(`failed-requests gate ${gate}%`, gate, xs, COLOURS.p99),
    gateLine(
      `completion gate ${((1 - r.meta.slo.minCompletionRate) * 100).toFixed(0)}% unfinished`,
      (1 - r.meta.slo.minCompletionRate) * 100,
      xs,
      COLOURS.p95,
    ),
    ...markers(r, top),
  ]);
}

function throughputChart(r: CapacityReport) {
  const { steps } = r;
  const req = stepLine(steps, (s) => s.requestsPerS);
  const top = Math.max(...req.map((p) => p.y ?? 0), r.generator.requestsPerS ?? 0);
  return chart('requests per second the target answered', 'requests/s', [
    series('requests/s', req, '#4a7fd6'),
    ...(r.generator.requestsPerS
      ? [
          gateLine(
            'generator ceiling (bare k6 loop)',
            r.generator.requestsPerS * r.meta.instances,
            steps.map((s) => s.rate),
          ),
        ]
      : []),
    ...markers(r, top),
  ]);
}

/**
 * The history's chart: one line per implementation name. Runs recorded without a name are all of this
 * target (the history is read by its fingerprint then), so they are labelled with its base URL, not the
 * fingerprint, which no reader recognises.
 */
export function historyChart(points: readonly CapacityPoint[], baseUrl: string) {
  const unnamed = `${baseUrl} (no --name given)`;
  const nameOf = (p: CapacityPoint) => p.name ?? unnamed;
  const names = [...new Set(points.map(nameOf))];
  const labels = points.map((p) => `#${p.runId} ${p.version ?? ''}`.trim());
  const palette = ['#4a7fd6', '#2e9e4f', '#d33c3c', '#f08a24', '#8e44ad', '#16a085'];
  return {
    type: 'line',
    data: {
      labels,
      datasets: names.map((n, i) => ({
        label: n,
        data: points.map((p) => (nameOf(p) === n ? p.lifecyclesPerS : null)),
        borderColor: palette[i % palette.length],
        backgroundColor: palette[i % palette.length],
        spanGaps: true,
        pointRadius: 4,
      })),
    },
    options: {
      ...NO_ANIMATION,
      plugins: { title: { display: true, text: 'capacity per implementation and version (run history)' } },
      scales: { y: { beginAtZero: true, title: { display: true, text: 'lifecycles/s' } } },
    },
  };
}

const f = (n: number | null | undefined, d = 1) => (n === null || n === undefined ? '—' : n.toFixed(d));

function stepRows(r: CapacityReport): Row[] {
  return r.steps.map((s) => ({
    cells: [
      String(s.index),
      s.purpose,
      f(s.rate, 2),
      f(s.lifecyclesPerS, 2),
      f(s.requestsPerS),
      s.failedRate === null ? '—' : `${(s.failedRate * 100).toFixed(2)}%`,
      ...(['getExecutionStatus', 'runWorkflow', 'getExecutionOutput'] as const).map((op) =>
        f(s.operations[op]?.p99, 0),
      ),
      { cell: s.held ? 'held' : `broke: ${s.broke ? describeBreak(s.broke) : '?'}`, className: s.held ? 'ok' : 'bad' },
    ],
  }));
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#222;max-width:1400px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(420px,1fr));gap:1rem}
table{border-collapse:collapse;margin:1rem 0} td,th{padding:.2rem .5rem;border:1px solid #ddd;text-align:right}
td:nth-child(2),td:last-child{text-align:left} .ok{background:#e3f7e3} .bad{background:#fde2e2}
.headline{font-size:1.15rem;font-weight:600} .note{color:#555}`;

export function capacityPage(r: CapacityReport, history: readonly CapacityPoint[] = []): HtmlPage {
  const ops = [...new Set(r.steps.flatMap((s) => Object.keys(s.operations) as OperationId[]))].sort();
  const who = r.meta.name ? `${r.meta.name}${r.meta.version ? ` ${r.meta.version}` : ''}` : r.meta.baseUrl;
  const charts = [
    chartBlock('capacity-errors', errorChart(r), 280),
    chartBlock('capacity-throughput', throughputChart(r), 280),
    ...ops.map((op, i) => chartBlock(`capacity-op-${i}`, latencyChart(r, op), 280)),
  ];
  const body: Block[] = [
    rawHtml(inlineChartJs()),
    heading(1, `wfcheck capacity — ${who}`),
    paragraph(headline(r), 'headline'),
    // The way to the target: --insecure first, in the headline's weight, then the connection.
    ...(r.meta.connection?.lines ?? []).map((line) =>
      paragraph(line, line.startsWith('INSECURE') ? 'headline' : 'note'),
    ),
    paragraph(ceilingLine(r), 'note'),
    ...(r.baseline ? [paragraph(baselineLine(r.baseline), 'note')] : []),
    paragraph(
      `Lifecycle as in profile ${r.meta.mixProfile} (${r.meta.mix}), read mix ${r.meta.readsPerLifecycle} per lifecycle; seed ${r.meta.seed}; ` +
        `budget ${r.meta.budgetS}s, precision ${Math.round(r.meta.precision * 100)}%; started ${r.meta.startedAt}. ` +
        'Dashed lines are the gates (load/k6/lib/thresholds.ts), in the colour of the figure they bound; dotted green the capacity, dotted red the knee: the lowest rate that broke a gate.',
      'note',
    ),
    rawHtml(`<div class="grid">${charts.map((c) => `<div>${c}</div>`).join('')}</div>`),
    heading(2, 'Steps'),
    {
      kind: 'table',
      head: [
        'step',
        'why',
        'offered/s',
        'started/s',
        'requests/s',
        'failed',
        'p99 status ms',
        'p99 run ms',
        'p99 output ms',
        'verdict',
      ],
      rows: stepRows(r),
    },
    ...(history.length > 1
      ? [heading(2, 'History'), rawHtml(chartBlock('capacity-history', historyChart(history, r.meta.baseUrl), 280))]
      : []),
  ];
  return { title: `wfcheck capacity — ${who}`, style: STYLE, body };
}
