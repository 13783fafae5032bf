/**
 * The trend page of a load run (reports/load/<run>/trend.html): p95 and p99 of each operation and the
 * throughput over the last runs of the target, with the release gates of load/k6/lib/thresholds.ts drawn
 * as lines, so a creeping latency is seen long before it breaches a gate. chart.js is inlined: the
 * page opens offline, from an artifact archive.
 */
import { htmlAttr, htmlText } from '../../core/report/escape.ts';
import { chartBlock, inlineChartJs } from '../../core/history-store/chart-asset.ts';
import type { LoadRunFigures } from '../../core/history-store/queries.ts';
import { LATENCY_BUDGETS_MS, type SloSettings } from '../k6/lib/thresholds.ts';

const line = (label: string, data: (number | null)[], colour: string, dashed = false) => ({
  type: 'line',
  label,
  data,
  borderColor: colour,
  backgroundColor: colour,
  spanGaps: true,
  pointRadius: dashed ? 0 : 3,
  ...(dashed ? { borderDash: [6, 4] } : {}),
});

const NO_ANIMATION = { animation: false, responsive: true, maintainAspectRatio: false };

function operationChart(op: string, runs: LoadRunFigures[], labels: string[], slo: SloSettings): unknown {
  const figure = (r: LoadRunFigures, k: 'p95Ms' | 'p99Ms') => r.operations.find((o) => o.operation === op)?.[k] ?? null;
  const budget = LATENCY_BUDGETS_MS[op as keyof typeof LATENCY_BUDGETS_MS];
  const gates = budget
    ? [
        line(
          'p95 gate',
          labels.map(() => Math.round(budget.p95 * slo.latencyScale)),
          '#f08a24',
          true,
        ),
        line(
          'p99 gate',
          labels.map(() => Math.round(budget.p99 * slo.latencyScale)),
          '#d33c3c',
          true,
        ),
      ]
    : [];
  return {
    type: 'line',
    data: {
      labels,
      datasets: [
        line(
          'p95 (ms)',
          runs.map((r) => figure(r, 'p95Ms')),
          '#f08a24',
        ),
        line(
          'p99 (ms)',
          runs.map((r) => figure(r, 'p99Ms')),
          '#d33c3c',
        ),
        ...gates,
      ],
    },
    options: {
      ...NO_ANIMATION,
      plugins: { title: { display: true, text: op } },
      scales: { y: { beginAtZero: true, title: { display: true, text: 'ms' } } },
    },
  };
}

/** `capacity`: the section of load/capacity/node/trend.ts (empty when no capacity was searched). */
export function renderLoadTrendPage(runs: LoadRunFigures[], slo: SloSettings, capacity = ''): string {
  const labels = runs.map((r) => `#${r.run.id} ${r.run.startedAt.slice(0, 10)} ${r.profile}`);
  const operations = [...new Set(runs.flatMap((r) => r.operations.map((o) => o.operation)))].sort();
  const throughput = {
    type: 'line',
    data: {
      labels,
      datasets: [
        line(
          'throughput (requests/s)',
          runs.map((r) => r.throughputRps),
          '#4a7fd6',
        ),
      ],
    },
    options: {
      ...NO_ANIMATION,
      plugins: { title: { display: true, text: 'throughput' } },
      scales: { y: { beginAtZero: true } },
    },
  };
  const verdicts = runs
    .map(
      (r) =>
        `<td class="${r.passed ? 'ok' : 'bad'}" title="${htmlAttr(r.run.startedAt)}">#${r.run.id}: ${r.passed ? 'gates met' : 'gate breached'}</td>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>wfcheck load trend</title>
<style>body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#222;max-width:1400px} .grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(420px,1fr));gap:1rem} td{padding:.2rem .4rem;border:1px solid #ddd} .ok{background:#e3f7e3} .bad{background:#fde2e2}</style>
${inlineChartJs()}
</head><body>
<h1>wfcheck load trend — last ${runs.length} run(s) of this target</h1>
<p>Dashed lines are the release gates (load/k6/lib/thresholds.ts, latency scale ${htmlText(String(slo.latencyScale))}).</p>
<table><tr>${verdicts}</tr></table>
${chartBlock('throughput-chart', throughput, 260)}
${capacity}
<div class="grid">${operations.map((op, i) => `<div>${chartBlock(`op-chart-${i}`, operationChart(op, runs, labels, slo), 260)}</div>`).join('')}</div>
</body></html>`;
}
