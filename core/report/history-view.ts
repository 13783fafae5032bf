/**
 * The history sections of a conformance report: what changed since the previous run on the same
 * target (as the summary model's HistoryView, so every format shows it alike), the trend chart of the
 * last runs and the per-requirement strip (a page's only). `npm run history` prints the same change
 * for any two runs.
 */
import { chartBlock, inlineChartJs } from '../history-store/chart-asset.ts';
import type { ConformanceHistory } from '../history-store/conformance.ts';
import type { RunChange, VerdictChange } from '../history-store/diff.ts';
import type { ConformanceTrend, RunRow } from '../history-store/queries.ts';
import type { FindingOutcome } from '../history-store/records.ts';
import { type Block, listOf, paragraph, rawHtml, section } from './document.ts';
import { htmlAttr, htmlText } from './escape.ts';
import { renderConsole } from './render/console.ts';
import { historyBlocks, type HistoryView } from './summary.ts';

const runName = (r: RunRow) => `run #${r.id} (${r.startedAt}, seed ${r.seed}, harness ${r.harnessVersion})`;

const describeChange = (c: VerdictChange) =>
  `${c.id} (${c.from ?? 'absent'} → ${c.to}${c.blockedBy ? `, blocked by ${c.blockedBy}` : ''})`;

const describeFinding = (f: FindingOutcome) =>
  `${f.strength === 'warning' ? '[WARN] ' : ''}${f.behaviour} (${f.clauses.join(', ')})`;

/** The change as titled lists of lines; shared by every rendering. */
export function changeSections(change: RunChange): { title: string; items: string[] }[] {
  return [
    // Runs recorded before findings existed have none to compare.
    ...(change.to.findings !== null && change.from && change.from.findings !== null
      ? [
          { title: 'New findings', items: change.newFindings.map(describeFinding) },
          { title: 'Findings no longer seen', items: change.goneFindings.map(describeFinding) },
        ]
      : []),
    { title: 'Newly failing', items: change.newlyFailing.map(describeChange) },
    { title: 'Newly passing', items: change.newlyPassing.map(describeChange) },
    { title: 'Newly blocked or not run', items: change.newlyBlockedOrNotRun.map(describeChange) },
    { title: 'Waivers that started passing (remove them)', items: change.waiversNowPassing },
    {
      title: `Flipping (verdict changed more than once in the last ${change.flipWindow} runs of this harness version)`,
      items: change.flipping.map((f) => `${f.id}: ${f.verdicts.join(' → ')}`),
    },
  ];
}

/** Plain text for the console and `npm run history`. */
export function changeText(change: RunChange): string {
  const blocks: Block[] = [
    paragraph(change.from ? `from ${runName(change.from)}` : 'no earlier run of this target'),
    paragraph(`to   ${runName(change.to)}`),
  ];
  for (const s of changeSections(change))
    blocks.push(paragraph(`${s.title}: ${s.items.length ? '' : 'none'}`), listOf(s.items.map((i) => `- ${i}`)));
  return renderConsole(blocks);
}

/** What changed since the previous run, as the summary model shows it (nothing without a history). */
export function historyView(h: ConformanceHistory | undefined): HistoryView | undefined {
  const title = 'What changed since the previous run';
  if (!h) return undefined;
  if (h.skipped) return { title, intro: [`History skipped: ${h.skipped}`], sections: [] };
  const c = h.change;
  if (!c) return undefined;
  if (!c.from) return { title, intro: ['First recorded run of this target: nothing to compare with.'], sections: [] };
  const findings = findingsChange(c);
  return {
    title,
    intro: [`Compared with ${runName(c.from)}.`, ...(findings ? [findings] : [])],
    sections: changeSections(c),
    id: 'history-change',
  };
}

/** The history's section of a report: what changed, and (in a page) the trend of the last runs. */
export function historySections(h: ConformanceHistory | undefined): Block[] {
  const view = historyView(h);
  const trend = historyTrendHtml(h);
  return [...(view ? [section('history', historyBlocks(view, 2))] : []), ...(trend ? [rawHtml(trend)] : [])];
}

/** The findings of the two runs, when both recorded them: "Findings: 6 (previous run 4)". */
function findingsChange(c: RunChange): string | undefined {
  const now = c.to.findings;
  if (now === null || now === undefined) return undefined;
  const before = c.from?.findings;
  return `Findings: ${now}${before === null || before === undefined ? '' : ` (previous run ${before})`}`;
}

/** Colours of the trend: verdicts as in the report's tables. */
export const VERDICT_COLOURS: Record<string, string> = {
  pass: '#3c9a3c',
  fail: '#d33c3c',
  warn: '#e0a800',
  blocked: '#8a5cc2',
  'not-run': '#9e9e9e',
  waived: '#c9b458',
  observed: '#4a7fd6',
};
const CHARTED = ['pass', 'fail', 'warn', 'blocked'];
const FINDINGS_COLOUR = '#a01818';

function trendChartConfig(trend: ConformanceTrend): unknown {
  const labels = trend.runs.map((r) => `#${r.id} ${r.startedAt.slice(0, 10)}`);
  const bars = CHARTED.map((v) => ({
    type: 'bar',
    label: v,
    data: trend.runs.map((r) => r.counts[v] ?? 0),
    backgroundColor: VERDICT_COLOURS[v],
    stack: 'verdicts',
    yAxisID: 'y',
    order: 1,
  }));
  const wall = {
    type: 'line',
    label: 'wall time (s)',
    data: trend.runs.map((r) => (r.wallMs === null ? null : r.wallMs / 1000)),
    borderColor: '#333',
    yAxisID: 'seconds',
    order: 0,
  }; // drawn over the bars
  // Findings (deviations) are few beside the clause counts: their own axis keeps the line readable.
  const findings = {
    type: 'line',
    label: 'findings (failures)',
    data: trend.runs.map((r) => r.findings),
    borderColor: FINDINGS_COLOUR,
    backgroundColor: FINDINGS_COLOUR,
    borderDash: [6, 3],
    yAxisID: 'findings',
    order: 0,
  };
  return {
    data: { labels, datasets: [...bars, wall, findings] },
    // No animation: the page is complete when it loads (screenshots, printing, the browser test).
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      scales: {
        y: { stacked: true, title: { display: true, text: 'requirements' } },
        seconds: { position: 'right', title: { display: true, text: 'seconds' }, grid: { drawOnChartArea: false } },
        findings: {
          position: 'right',
          beginAtZero: true,
          ticks: { precision: 0 },
          title: { display: true, text: 'findings' },
          grid: { drawOnChartArea: false },
        },
        x: { stacked: true },
      },
    },
  };
}

function stripHtml(trend: ConformanceTrend): string {
  const head = trend.runs.map((r) => `<th title="${htmlAttr(r.startedAt)}">#${r.id}</th>`).join('');
  const rows = trend.strip.map(
    (s) =>
      `<tr><td><code>${htmlText(s.id)}</code></td>${s.cells.map((v, i) => `<td class="cell" style="background:${v ? (VERDICT_COLOURS[v] ?? '#fff') : '#fff'}" title="run #${trend.runs[i].id}: ${htmlAttr(v ?? 'absent')}"></td>`).join('')}</tr>`,
  );
  return `<details><summary>Per requirement, one cell per run (oldest left)</summary><table class="strip"><tr><th>requirement</th>${head}</tr>${rows.join('')}</table></details>`;
}

/** The trend chart of the last runs and the per-requirement strip, as an HTML section (empty without runs). */
export function historyTrendHtml(h: ConformanceHistory | undefined): string {
  const trend = h?.trend && h.trend.runs.length > 0 ? h.trend : undefined;
  if (!trend) return '';
  return `<style>table.strip td.cell{width:14px;height:14px;padding:0;border:1px solid #fff} table.strip{width:auto}</style><h2>Trend over the last ${trend.runs.length} run(s) of this target</h2>${inlineChartJs()}${chartBlock('trend-chart', trendChartConfig(trend))}${stripHtml(trend)}`;
}
