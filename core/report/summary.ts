/**
 * The summary model the reports share — their findings, what changed since the previous run, and the run
 * in a few lines — and the blocks each part is shown as. The conformance report (this folder) and the
 * generative report (explore/report/report-view.ts) build their findings as FindingViews and their history as a
 * HistoryView; a finding then reads the same in report.md, report.html, the console and the job summary.
 */
import {
  type Block,
  type HeadingLevel,
  heading,
  type Item,
  joined,
  listOf,
  paragraph,
  type Inlines,
} from './document.ts';

/** One finding as every report shows it. */
export interface FindingView {
  /** Where links to it point (the clause table links its findings). */
  anchor?: string;
  /** Its title: id, mark, what deviates. */
  heading: Inlines;
  /** One line under the title: its group, where it showed. */
  tags?: Inlines;
  /** What it breaks, blocks, probes; whether it is new. */
  facts: readonly Item[];
  /** One exchange that shows it: what was judged, then the request, the answer, the reproducer. */
  example?: { caption?: Inlines; code: readonly Block[] };
  /** The other exchanges that show it. */
  more?: { summary: Inlines; items: readonly Item[] };
  /** A page's box around it. */
  box?: { className: string; data?: Readonly<Record<string, string>> };
  /** The compact form of a terminal: one line, and what goes under it (its clauses, its reproducer). */
  line: Inlines;
  under: readonly Block[];
}

export function findingBlocks(f: FindingView, level: HeadingLevel): Block[] {
  const blocks: Block[] = [heading(level, f.heading, f.anchor)];
  if (f.tags) blocks.push(paragraph(f.tags, 'dim'));
  if (f.facts.length) blocks.push(listOf(f.facts));
  if (f.example?.caption) blocks.push(paragraph(f.example.caption));
  if (f.example) blocks.push(...f.example.code);
  if (f.more) blocks.push({ kind: 'details', summary: f.more.summary, blocks: [listOf(f.more.items)] });
  return [{ kind: 'group', tag: 'article', blocks, ...(f.box ?? {}) }];
}

/** Findings in their compact form, one item each (the console). */
export function findingItems(findings: readonly FindingView[]): Block {
  return listOf(findings.map((f) => ({ text: f.line, blocks: f.under })));
}

/** What changed since the previous run of the same target. */
export interface HistoryView {
  title: string;
  /** What it was compared with, and how the counts moved. */
  intro: readonly Inlines[];
  /**
   * The changes: titled lists (one line each, "Newly failing: A; B"), or one untitled list (a line per
   * change); `none` when an untitled list is empty.
   */
  sections: readonly { title?: string; items: readonly Inlines[] }[];
  none?: Inlines;
  /** What to keep in mind reading it. */
  after?: readonly Inlines[];
  /** The list's id in a page. */
  id?: string;
}

export function historyBlocks(h: HistoryView, level: HeadingLevel, maxItems = Number.POSITIVE_INFINITY): Block[] {
  const shown = (items: readonly Inlines[]): Inlines[] =>
    items.length > maxItems ? [...items.slice(0, maxItems), `… and ${items.length - maxItems} more`] : [...items];
  const titled = h.sections.filter((s) => s.title !== undefined);
  const untitled = h.sections.filter((s) => s.title === undefined).flatMap((s) => shown(s.items));
  const out: Block[] = [heading(level, h.title), ...h.intro.map((t) => paragraph(t))];
  if (titled.length)
    out.push(
      listOf(
        titled.map((s) => [{ strong: s.title! }, ': ', ...(s.items.length ? joined(shown(s.items), '; ') : ['none'])]),
        { id: h.id },
      ),
    );
  if (untitled.length) out.push(listOf(untitled, { id: h.id }));
  else if (!titled.length && h.none) out.push(paragraph(h.none));
  out.push(...(h.after ?? []).map((t) => paragraph(t)));
  return out;
}

/** A run as its job summary shows it: the verdict, then the findings, what changed, and the rest. */
export interface RunSummary {
  /** "wfcheck conformance (shard 1/3)". */
  what: string;
  /** The verdict in one line; it opens with PASS, FAIL or INCOMPLETE. */
  headline: string;
  /** Under the title: the target, the seed and how to replay the run. */
  context: readonly Block[];
  findings: {
    title: string;
    /** Counted in the title (when not every finding listed is counted, as warnings beside failures). */
    count: number;
    intro?: Inlines;
    none: Inlines;
    items: readonly FindingView[];
  };
  history?: HistoryView;
  /** Further sections, after the findings and the history. */
  more?: readonly { title: string; blocks: readonly Block[] }[];
  /** The full report a cut summary points to. */
  reportName: string;
}
