/**
 * A document as HTML: the body of a self-contained page (the conformance report.html). Text goes
 * through the HTML text escaper, attribute values through the attribute escaper; the only markup not
 * built here is a `raw` block's, which its caller writes with the same escapers (a chart, a script).
 */
import { type Block, type Cell, toInlines, isCell, type Item, type Row, type Inlines } from '../document.ts';
import { anchorId, htmlAttr, htmlText } from '../escape.ts';

export function renderHtml(blocks: readonly Block[]): string {
  return blocks.map(renderBlock).join('\n');
}

/** A whole page: its title, its style sheet and its body. */
export interface HtmlPage {
  title: string;
  style: string;
  body: readonly Block[];
}

export function htmlPage(page: HtmlPage): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${htmlText(page.title)}</title>
<style>${page.style}</style></head><body>
${renderHtml(page.body)}
</body></html>`;
}

/** ` name="value"` for each attribute that has a value (data attributes prefixed). */
function attrs(a: { id?: string; className?: string; data?: Readonly<Record<string, string>> }): string {
  const out: string[] = [];
  if (a.id) out.push(` id="${htmlAttr(anchorId(a.id))}"`);
  if (a.className) out.push(` class="${htmlAttr(a.className)}"`);
  for (const [k, v] of Object.entries(a.data ?? {}))
    out.push(` data-${k.replace(/[^a-z0-9-]/g, '-')}="${htmlAttr(v)}"`);
  return out.join('');
}

function renderBlock(b: Block): string {
  switch (b.kind) {
    case 'heading':
      return `<h${b.level}${attrs(b)}>${inline(b.text)}</h${b.level}>`;
    case 'paragraph':
      return `<p${attrs(b)}>${inline(b.text)}</p>`;
    case 'list':
      return listHtml(b.items, b.ordered ?? false, b.id);
    case 'fields':
      return `<ul>${b.fields.map((f) => `<li>${htmlText(f.label)}: ${inline(f.value)}</li>`).join('\n')}</ul>`;
    case 'table':
      return tableHtml(b.head, b.rows, b);
    case 'code': {
      const caption = b.caption ? `<div class="caption">${inline(b.caption)}</div>` : '';
      return `${caption}<pre${attrs(b)}>${htmlText(b.text)}</pre>`;
    }
    case 'details':
      return `<details${b.open ? ' open' : ''}><summary>${inline(b.summary)}</summary>${renderHtml(b.blocks)}</details>`;
    case 'group': {
      const tag = b.tag ?? 'div';
      return `<${tag}${attrs(b)}>${renderHtml(b.blocks)}</${tag}>`;
    }
    case 'raw':
      return b.text;
  }
}

function listHtml(items: readonly Item[], ordered: boolean, id?: string): string {
  const tag = ordered ? 'ol' : 'ul';
  const lis = items.map((i) => `<li>${inline(i.text)}${i.blocks?.length ? renderHtml(i.blocks) : ''}</li>`);
  return `<${tag}${attrs({ id })}>${lis.join('\n')}</${tag}>`;
}

function tableHtml(head: readonly Inlines[], rows: readonly Row[], t: { id?: string; className?: string }): string {
  const cell = (c: Inlines | Cell) =>
    isCell(c) ? `<td${attrs({ className: c.className })}>${inline(c.cell)}</td>` : `<td>${inline(c)}</td>`;
  return [
    `<table${attrs(t)}><tr>${head.map((h) => `<th>${inline(h)}</th>`).join('')}</tr>`,
    ...rows.map((r) => `<tr${attrs(r)}>${r.cells.map(cell).join('')}</tr>`),
    '</table>',
  ].join('\n');
}

function inline(t: Inlines): string {
  return toInlines(t)
    .map((x) => {
      if (typeof x === 'string') return htmlText(x);
      if ('code' in x) return `<code>${htmlText(x.code)}</code>`;
      if ('strong' in x) return `<strong>${inline(x.strong)}</strong>`;
      if ('em' in x) return `<em>${inline(x.em)}</em>`;
      if ('link' in x) return `<a href="#${htmlAttr(anchorId(x.link))}">${inline(x.text)}</a>`;
      if ('mark' in x) return `<span class="mark${x.tone ? ` m-${htmlAttr(x.tone)}` : ''}">${htmlText(x.mark)}</span>`;
      if ('span' in x) return `<span class="${htmlAttr(x.className)}">${inline(x.span)}</span>`;
      return `<a id="${htmlAttr(anchorId(x.anchor))}"></a>`;
    })
    .join('');
}
