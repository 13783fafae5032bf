/**
 * Capacity in the implementation matrix: the highest rate at which every load gate held, per version of
 * each implementation (its capacity searches in the run history, `wfcheck load capacity --name`). The grid
 * shows the latest beside the score; an implementation's page shows every version's, with the gate that
 * broke first above it. Every text from the history is escaped (and scrubbed by the site before).
 */
import { htmlAttr as html } from '../core/report/escape.ts';
import type { CapacityPoint } from '../core/history-store/capacity.ts';
import { when } from './assets.ts';

const rate = (n: number | null) => (n === null ? 'none' : n >= 100 ? n.toFixed(0) : n.toFixed(1));

/** The latest search of each version, in the order the versions were first searched. */
export function capacityPerVersion(points: readonly CapacityPoint[]): CapacityPoint[] {
  const latest = new Map<string, CapacityPoint>();
  for (const p of points) latest.set(p.version ?? '', p);
  return [...latest.values()];
}

/** The grid's cell: the latest capacity, and the one of the version before when it differs. */
export function capacityCell(points: readonly CapacityPoint[]): string {
  const versions = capacityPerVersion(points);
  const last = versions.at(-1);
  if (!last) return '<td title="no capacity search recorded (wfcheck load capacity --name)">–</td>';
  const before = versions.at(-2);
  const change =
    before?.lifecyclesPerS && last.lifecyclesPerS !== null
      ? ` <span class="note">(${last.lifecyclesPerS >= before.lifecyclesPerS ? '+' : ''}${Math.round((last.lifecyclesPerS / before.lifecyclesPerS - 1) * 100)}% on ${html(before.version ?? 'the last')})</span>`
      : '';
  const title = last.kneeGate
    ? `first gate to break above it: ${last.kneeGate} at ${last.kneeRate}/s`
    : 'no rate tried broke a gate';
  return `<td class="num" title="${html(title)}">${rate(last.lifecyclesPerS)}/s${last.confirmed ? '' : '?'}${change}</td>`;
}

/** The implementation page's section: every version's capacity. */
export function capacitySection(points: readonly CapacityPoint[]): string {
  const versions = capacityPerVersion(points);
  if (versions.length === 0) return '<p>No capacity search recorded (<code>wfcheck load capacity --name …</code>).</p>';
  const rows = versions
    .map(
      (p) =>
        `<tr><td>${html(p.version ?? '–')}</td><td>${html(when(p.startedAt))}</td><td class="num">${rate(p.lifecyclesPerS)}</td><td class="num">${p.requestsPerS === null ? '–' : rate(p.requestsPerS)}</td><td>${p.confirmed ? 'yes' : 'no'}${p.generatorReached ? ' (at the generator’s ceiling)' : ''}</td><td>${html(p.kneeGate ? `${p.kneeGate} at ${p.kneeRate}/s` : '—')}</td></tr>`,
    )
    .join('\n');
  return `<table class="impls"><thead><tr><th>version</th><th>searched</th><th>lifecycles/s</th><th>requests/s</th><th>confirmed</th><th>first gate to break above it</th></tr></thead><tbody>\n${rows}\n</tbody></table>`;
}
