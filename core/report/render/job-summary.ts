/**
 * A run's GitHub job summary (summary.md, which the action appends to the job's summary): the verdict as
 * its title, the findings first, then what changed and the rest, in Markdown. A summary has a size
 * limit the full report has not: the findings stop, at a finding's end, after FINDINGS_BUDGET characters
 * (the first is always whole), and a long history is cut, each saying how much more report.md holds.
 */
import { type Block, heading, paragraph } from '../document.ts';
import { findingBlocks, historyBlocks, type RunSummary } from '../summary.ts';
import { renderMarkdown } from './markdown.ts';

/** Most of the findings a summary carries; the rest are in the report (the artifact). */
export const FINDINGS_BUDGET = 60_000;
/** Changes listed per kind of change. */
const HISTORY_ITEMS = 30;

export function renderJobSummary(s: RunSummary): string {
  const f = s.findings;
  const blocks: Block[] = [heading(2, `${s.what}: ${s.headline}`), ...s.context, heading(3, `${f.title} (${f.count})`)];
  if (f.intro) blocks.push(paragraph(f.intro));
  if (f.items.length === 0) blocks.push(paragraph(f.none));
  let size = 0;
  for (const [i, finding] of f.items.entries()) {
    const shown = findingBlocks(finding, 4);
    size += renderMarkdown(shown).length;
    if (i > 0 && size > FINDINGS_BUDGET) {
      blocks.push(paragraph({ em: `… ${f.items.length - i} more finding(s) in ${s.reportName}.` }));
      break;
    }
    blocks.push(...shown);
  }
  if (s.history) blocks.push(...historyBlocks(s.history, 3, HISTORY_ITEMS));
  for (const m of s.more ?? []) blocks.push(heading(3, m.title), ...m.blocks);
  return renderMarkdown(blocks);
}
