/**
 * Capacity on the trend pages: one bar per implementation and version (the latest search of each), and the
 * searches of the target the page is about in their order, so a release that lost capacity stands out
 * beside the one before it. chart.js is the page's own (inlined once by the page).
 */
import { htmlText } from '../../../core/report/escape.ts';
import { chartBlock } from '../../../core/history-store/chart-asset.ts';
import type { CapacityPoint } from '../../../core/history-store/capacity.ts';

const label = (p: CapacityPoint) =>
  p.name ? `${p.name}${p.version ? ` ${p.version}` : ''}` : `#${p.runId} ${p.startedAt.slice(0, 10)}`;

/** The section of a trend page: nothing when no capacity was ever searched. */
export function capacityTrendSection(byVersion: readonly CapacityPoint[], ofTarget: readonly CapacityPoint[]): string {
  const points = [...byVersion, ...ofTarget.filter((p) => !byVersion.some((b) => b.runId === p.runId))];
  if (points.length === 0) return '';
  const config = {
    type: 'bar',
    data: {
      labels: points.map(label),
      datasets: [
        {
          label: 'capacity (lifecycles/s with every gate held)',
          data: points.map((p) => p.lifecyclesPerS ?? 0),
          backgroundColor: points.map((p) => (p.generatorReached ? '#c9c9c9' : p.confirmed ? '#4a7fd6' : '#9db9e6')),
        },
      ],
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: { title: { display: true, text: 'capacity per implementation and version' } },
      scales: { y: { beginAtZero: true, title: { display: true, text: 'lifecycles/s' } } },
    },
  };
  const notes = points
    .filter((p) => p.kneeGate)
    .map(
      (p) =>
        `<li>${htmlText(label(p))}: ${htmlText(String(p.lifecyclesPerS ?? 'none'))}/s; first gate to break above it: ${htmlText(p.kneeGate!)} at ${htmlText(String(p.kneeRate))}/s</li>`,
    )
    .join('');
  return `<h2>Capacity</h2>
<p>Pale bars were not confirmed by a longer step; grey ones reached the generator's ceiling (the generator may be the limit).</p>
${chartBlock('capacity-trend', config, 260)}
<ul>${notes}</ul>`;
}
