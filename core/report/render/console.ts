/**
 * A document as terminal text: what a run prints when it ends, and the mutation table. Compact: blocks
 * follow each other without blank lines (an empty paragraph makes one), list items are indented under
 * their run, labelled fields aligned, tables in padded columns. Text goes through the console escaper:
 * a target's text can neither break a line nor reach the terminal as a control sequence.
 */
import { type Block, type Cell, toInlines, isCell, type Item, type Row, type Inlines } from '../document.ts';
import { consoleLines, consoleText } from '../escape.ts';

/** Where a list's items start, and how much deeper their own blocks go. */
const ITEM_INDENT = 2;
const UNDER_ITEM = 5;
/** Width of a field's label; a longer label is followed by one space. */
const LABEL_WIDTH = 8;
/** Widest column of a table; a longer cell is cut and marked. */
const MAX_COLUMN = 60;

export function renderConsole(blocks: readonly Block[]): string {
  return lines(blocks, '').join('\n');
}

function lines(blocks: readonly Block[], indent: string): string[] {
  return blocks.flatMap((b) => blockLines(b, indent));
}

function blockLines(b: Block, indent: string): string[] {
  switch (b.kind) {
    case 'heading':
    case 'paragraph':
      return [`${indent}${inline(b.text)}`.trimEnd()];
    case 'list':
      return b.items.flatMap((item, n) => itemLines(item, b.ordered ? `${n + 1}. ` : '', indent));
    case 'fields':
      return b.fields.map(
        (f) => `${indent}${' '.repeat(ITEM_INDENT)}${consoleText(f.label).padEnd(LABEL_WIDTH)} ${inline(f.value)}`,
      );
    case 'table':
      return tableLines(b.head, b.rows).map((l) => `${indent}${l}`);
    case 'code':
      return [
        ...(b.caption ? [`${indent}${inline(b.caption)}:`] : []),
        ...consoleLines(b.text)
          .split('\n')
          .map((l) => `${indent}${l}`),
      ];
    case 'details':
      return [`${indent}${inline(b.summary)}`, ...lines(b.blocks, indent + ' '.repeat(ITEM_INDENT))];
    case 'group':
      return lines(b.blocks, indent);
    case 'raw':
      return [];
  }
}

function itemLines(item: Item, marker: string, indent: string): string[] {
  const at = indent + ' '.repeat(ITEM_INDENT);
  return [`${at}${marker}${inline(item.text)}`, ...lines(item.blocks ?? [], at + ' '.repeat(UNDER_ITEM))];
}

function tableLines(head: readonly Inlines[], rows: readonly Row[]): string[] {
  const text = (c: Inlines | Cell) => inline(isCell(c) ? c.cell : c);
  const cells = rows.map((r) => r.cells.map(text));
  const header = head.map((h) => inline(h));
  const widths = header.map((h, i) => Math.min(MAX_COLUMN, Math.max(h.length, ...cells.map((row) => row[i].length))));
  const line = (row: string[]) =>
    row
      .map((c, i) => (c.length > widths[i] ? `${c.slice(0, widths[i] - 1)}…` : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)];
}

function inline(t: Inlines): string {
  return toInlines(t)
    .map((x) => {
      if (typeof x === 'string') return consoleText(x);
      if ('code' in x) return consoleText(x.code);
      if ('strong' in x) return inline(x.strong);
      if ('em' in x) return inline(x.em);
      if ('link' in x) return inline(x.text);
      if ('mark' in x) return `[${consoleText(x.mark)}]`;
      if ('span' in x) return inline(x.span);
      return '';
    })
    .join('');
}
