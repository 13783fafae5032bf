/**
 * A document as Markdown (CommonMark with GitHub's tables): the reports' report.md files and the job
 * summary. Every string goes through the Markdown escaper; anchors are `<a id>` tags, which GitHub keeps.
 */
import { type Block, type Cell, toInlines, isCell, type Item, type Inlines } from '../document.ts';
import { anchorId, mdBlockStart, mdCode, mdFence, mdHeadingEnd, mdInline } from '../escape.ts';

export interface MarkdownOptions {
  /** Added to every heading's level (a report's sections inside a job summary that has its own title). */
  headingOffset?: number;
}

export function renderMarkdown(blocks: readonly Block[], options: MarkdownOptions = {}): string {
  return `${renderBlocks(blocks, options)}\n`;
}

function renderBlocks(blocks: readonly Block[], o: MarkdownOptions): string {
  return blocks
    .map((b) => renderBlock(b, o))
    .filter((text) => text !== '')
    .join('\n\n');
}

function renderBlock(b: Block, o: MarkdownOptions): string {
  switch (b.kind) {
    case 'heading': {
      const level = Math.min(6, b.level + (o.headingOffset ?? 0));
      const line = `${'#'.repeat(level)} ${mdHeadingEnd(inline(b.text))}`;
      return b.id ? `${anchorTag(b.id)}\n\n${line}` : line;
    }
    case 'paragraph':
      return mdBlockStart(inline(b.text));
    case 'list':
      return listText(b.items, b.ordered ?? false, o);
    case 'fields':
      return b.fields.map((f) => `- ${mdInline(f.label)}: ${inline(f.value)}`).join('\n');
    case 'table':
      return tableText(b.head, b.rows);
    case 'code':
      return [...(b.caption ? [`${mdBlockStart(inline(b.caption))}:`] : []), mdFence(b.text, b.lang ?? '')].join(
        '\n\n',
      );
    case 'details':
      return [mdBlockStart(inline(b.summary)), renderBlocks(b.blocks, o)].filter(Boolean).join('\n\n');
    case 'group':
      return renderBlocks(b.blocks, o);
    case 'raw':
      return '';
  }
}

function listText(items: readonly Item[], ordered: boolean, o: MarkdownOptions): string {
  // An item holding blocks makes the list loose: its items are then apart, as Markdown reads them.
  const loose = items.some((i) => i.blocks?.length);
  return items
    .map((item, n) => {
      const marker = ordered ? `${n + 1}. ` : '- ';
      const head = `${marker}${mdBlockStart(inline(item.text))}`;
      if (!item.blocks?.length) return head;
      const pad = ' '.repeat(marker.length);
      const under = renderBlocks(item.blocks, o).replace(/^(?=.)/gm, pad);
      return `${head}\n\n${under}`;
    })
    .join(loose ? '\n\n' : '\n');
}

function tableText(
  head: readonly Inlines[],
  rows: readonly { cells: readonly (Inlines | Cell)[]; id?: string }[],
): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(head.map((h) => inline(h, true))),
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) =>
      line(
        r.cells.map((c, i) => {
          const text = inline(isCell(c) ? c.cell : c, true);
          return i === 0 && r.id ? `${anchorTag(r.id)}${text}` : text;
        }),
      ),
    ),
  ].join('\n');
}

const anchorTag = (id: string) => `<a id="${anchorId(id)}"></a>`;

function inline(t: Inlines, inTable = false): string {
  return toInlines(t)
    .map((x) => {
      if (typeof x === 'string') return mdInline(x);
      if ('code' in x) return mdCode(x.code, inTable);
      if ('strong' in x) return `**${inline(x.strong, inTable)}**`;
      if ('em' in x) return `*${inline(x.em, inTable)}*`;
      if ('link' in x) return `[${inline(x.text, inTable)}](#${anchorId(x.link)})`;
      if ('mark' in x) return `[${mdInline(x.mark)}]`;
      if ('span' in x) return inline(x.span, inTable);
      return anchorTag(x.anchor);
    })
    .join('');
}
