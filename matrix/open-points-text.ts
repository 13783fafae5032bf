/**
 * The open-points table for a terminal (`wfcheck matrix --open-points`): the split points first, each
 * value with the implementations holding it and what a client must tolerate, then the points every
 * implementation answers alike, one line each. Text from the history is shown as text (consoleText).
 */
import { consoleText as text } from '../core/report/escape.ts';
import type { OpenPoints } from './open-points.ts';

const pad = (s: string, n: number) => (s.length >= n ? `${s} ` : s.padEnd(n));

export function openPointsTable(points: OpenPoints, implementations: number): string {
  const split = points.rows.filter((r) => r.split);
  const agreed = points.rows.filter((r) => !r.split);
  const width = Math.min(34, Math.max(8, ...points.rows.map((r) => r.point.length + 2)));
  const valueWidth = Math.min(40, Math.max(8, ...split.flatMap((r) => r.values.map((v) => text(v.value).length + 2))));
  const lines = [
    `open points: ${split.length} of ${points.rows.length} answered are split across ${implementations} implementation(s) (most split first)`,
  ];
  if (split.length) lines.push('', `${pad('point', width)}${pad('value', valueWidth)}implementations`);
  for (const r of split) {
    r.values.forEach((v, i) => {
      const who = v.holders.map((h) => `${text(h.label)}${h.also.length ? '*' : ''}`).join(', ');
      lines.push(`${pad(i === 0 ? r.point : '', width)}${pad(text(v.value), valueWidth)}${who}`);
    });
    lines.push(`${pad('', width)}a client must tolerate: ${r.tolerate.map(text).join(' or ')}`);
    for (const c of r.changes)
      lines.push(
        `${pad('', width)}changed: ${text(c.label)} ${text(c.from.join(' + '))} → ${text(c.to.join(' + '))}` +
          ` (${c.sameVersion ? `runs #${c.before.runId} → #${c.after.runId}, one version` : `version ${text(c.before.version ?? '–')} → ${text(c.after.version ?? '–')}`})`,
      );
  }
  if (agreed.length) {
    lines.push('', 'answered alike by every implementation that answered:');
    for (const r of agreed)
      lines.push(
        `  ${pad(r.point, width)}${text(r.values[0]?.value ?? '')} (${r.answered} of ${implementations})${
          r.changes.length ? ` — changed in ${r.changes.length} run(s)` : ''
        }`,
      );
  }
  if (points.unanswered.length) lines.push('', `answered by none: ${points.unanswered.map((u) => u.point).join(', ')}`);
  if (split.some((r) => r.values.some((v) => v.holders.some((h) => h.also.length))))
    lines.push('', '* answered the point in more than one way');
  return lines.join('\n');
}
