/**
 * The document every report is built as: blocks of inline text, with no markup of any format in them.
 * A report says what it shows (a heading, a list, a table, a verdict mark, a reproducer); the renderers
 * (markdown.ts, html.ts, console.ts) say how, each escaping every string on the way out with the one
 * escaper of its format (escape.ts). So a report cannot carry markup by mistake, and a target's text
 * cannot break one.
 */

/** A word in brackets that says what something is or did (FAIL, WARN, security); its tone colours it. */
export interface Mark {
  mark: string;
  tone?: string;
}

export type Inline =
  | string
  | { code: string }
  | { strong: Inlines }
  | { em: Inlines }
  /** A link to an anchor of the same document (`#id`). */
  | { link: string; text: Inlines }
  | Mark
  /** Styling only (the formats without styles show the text alone). */
  | { span: Inlines; className: string }
  /** A place links point to: no text. */
  | { anchor: string };

export type Inlines = Inline | readonly Inline[];

export interface Item {
  text: Inlines;
  /** What the item holds under its line (details, code). */
  blocks?: readonly Block[];
}

export interface Cell {
  cell: Inlines;
  /** Styling only. */
  className?: string;
}

export interface Row {
  cells: readonly (Inlines | Cell)[];
  /** The row's anchor, and data for the page's filters. */
  id?: string;
  data?: Readonly<Record<string, string>>;
}

export interface Field {
  label: string;
  value: Inlines;
}

export type HeadingLevel = 1 | 2 | 3 | 4;

export type Block =
  | { kind: 'heading'; level: HeadingLevel; text: Inlines; id?: string }
  | { kind: 'paragraph'; text: Inlines; className?: string }
  | { kind: 'list'; items: readonly Item[]; ordered?: boolean; id?: string }
  /** Labelled values, one per line (the facts of a run). */
  | { kind: 'fields'; fields: readonly Field[] }
  | { kind: 'table'; head: readonly Inlines[]; rows: readonly Row[]; id?: string; className?: string }
  /** Text shown as it is (a request, an answer, a reproducer), under an optional caption. */
  | { kind: 'code'; text: string; lang?: string; caption?: Inlines; className?: string }
  /** Content a page may fold away under its summary; other formats show both. */
  | { kind: 'details'; summary: Inlines; blocks: readonly Block[]; open?: boolean }
  /** Blocks that belong together (a section, a finding's box). */
  | {
      kind: 'group';
      blocks: readonly Block[];
      tag?: 'section' | 'article' | 'div';
      id?: string;
      className?: string;
      data?: Readonly<Record<string, string>>;
    }
  /** Markup of one format only (a page's chart or script), written by the caller; other formats leave it out. */
  | { kind: 'raw'; format: 'html'; text: string };

export const heading = (level: HeadingLevel, text: Inlines, id?: string): Block => ({
  kind: 'heading',
  level,
  text,
  ...(id ? { id } : {}),
});

export const paragraph = (text: Inlines, className?: string): Block => ({
  kind: 'paragraph',
  text,
  ...(className ? { className } : {}),
});

export const listOf = (
  items: readonly (Inlines | Item)[],
  options: { ordered?: boolean; id?: string } = {},
): Block => ({
  kind: 'list',
  items: items.map((i) => (isItem(i) ? i : { text: i })),
  ...options,
});

export const fields = (entries: readonly (readonly [string, Inlines] | undefined)[]): Block => ({
  kind: 'fields',
  fields: entries
    .filter((e): e is readonly [string, Inlines] => e !== undefined)
    .map(([label, value]) => ({ label, value })),
});

export const code = (text: string, options: { lang?: string; caption?: Inlines; className?: string } = {}): Block => ({
  kind: 'code',
  text,
  ...options,
});

export const section = (id: string, blocks: readonly Block[]): Block => ({ kind: 'group', tag: 'section', id, blocks });

export const rawHtml = (text: string): Block => ({ kind: 'raw', format: 'html', text });

export function isItem(x: Inlines | Item): x is Item {
  return typeof x === 'object' && x !== null && !Array.isArray(x) && 'text' in x && !('link' in x);
}

export function isCell(x: Inlines | Cell): x is Cell {
  return typeof x === 'object' && x !== null && !Array.isArray(x) && 'cell' in x;
}

/** Inline items joined by a separator (the separator is text). */
export function joined(parts: readonly Inlines[], separator: string): Inline[] {
  return parts.flatMap((p, i) => [...(i ? [separator] : []), ...toInlines(p)]);
}

export function toInlines(t: Inlines): readonly Inline[] {
  return Array.isArray(t) ? t : [t as Inline];
}

/** Text written with `code` in backticks (a catalogue's own descriptions): its code spans as code. */
export function withCode(text: string): Inline[] {
  return text
    .split(/(`[^`]+`)/)
    .filter(Boolean)
    .map((part) => (/^`[^`]+`$/.test(part) ? { code: part.slice(1, -1) } : part));
}

/** The text of an inline run, without any markup: for a title, a comparison, a length. */
export function plain(t: Inlines): string {
  return toInlines(t)
    .map((x) => {
      if (typeof x === 'string') return x;
      if ('code' in x) return x.code;
      if ('strong' in x) return plain(x.strong);
      if ('em' in x) return plain(x.em);
      if ('link' in x) return plain(x.text);
      if ('mark' in x) return `[${x.mark}]`;
      if ('span' in x) return plain(x.span);
      return '';
    })
    .join('');
}

/** A text cut to `max` characters, marked when cut. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
