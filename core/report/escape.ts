/**
 * The one escaper of each output format. Every text a report shows — ours or the target's (a title, an
 * error message, an observed value) — reaches a file or a terminal through one of these, so that what a
 * target answers can neither break a report's markup nor drive a terminal, and reads as it was sent.
 *
 * Pure and without imports: k6 code loads it too (the load run's JUnit, load/k6/lib/run-report.ts).
 */

// ---- Markdown (CommonMark with GitHub's extensions) ----------------------------------------------

/** Characters that start inline markup: code, emphasis, links, HTML, entities, table cells, strikethrough, math. */
const MD_INLINE = /[\\`*_[\]<>&|~$]/g;
const NEWLINES = /\r\n?|\n/g;

/**
 * Text inside a paragraph, heading, list item or table cell: shown as written, line breaks as spaces
 * (none of those places can hold one).
 */
export function mdInline(text: string): string {
  // An underscore inside a word (snake_case) cannot open or close emphasis: it stays as it is, readable.
  return text
    .replace(NEWLINES, ' ')
    .replace(MD_INLINE, (c, at: number, s: string) =>
      c === '_' && WORD.test(s[at - 1] ?? '') && WORD.test(s[at + 1] ?? '') ? c : `\\${c}`,
    );
}

const WORD = /[A-Za-z0-9]/;

/**
 * The opening of a block whose text starts with block syntax: a heading, a quote, a list or a rule would
 * otherwise be read out of it. Leading spaces are dropped (no Markdown shows them; four would make code).
 */
export function mdBlockStart(inline: string): string {
  return inline
    .replace(/^[ \t]+/, '')
    .replace(/^[#=+-]/, '\\$&')
    .replace(/^(\d+)([.)])/, '$1\\$2');
}

/** The end of a heading: a closing run of `#` would be read as the heading's optional closing sequence. */
export function mdHeadingEnd(inline: string): string {
  return inline.replace(/#(?=#*\s*$)/, '\\#');
}

/**
 * A code span: delimited by one backtick more than the longest run inside it, padded when it starts or
 * ends with a backtick. In a table cell a `|` is escaped (GitHub reads the cell's pipes before the span).
 */
export function mdCode(text: string, inTable = false): string {
  const flat = text.replace(NEWLINES, ' ');
  const body = inTable ? flat.replace(/\|/g, '\\|') : flat;
  if (body === '') return '';
  const ticks = '`'.repeat(longestRun(body, '`') + 1);
  const pad = /^`|`$/.test(body) || /^ .*[^ ].* $/.test(body) ? ' ' : '';
  return `${ticks}${pad}${body}${pad}${ticks}`;
}

/** A fenced code block: a fence longer than any run of backticks in the text, which is kept as it is. */
export function mdFence(text: string, lang = ''): string {
  const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  return `${fence}${lang}\n${text}\n${fence}`;
}

function longestRun(text: string, ch: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/** An anchor's name, the same in every format so that links meet their anchors: letters, digits, `-`, `_`. */
export function anchorId(id: string): string {
  return id.replace(/^#/, '').replace(/[^A-Za-z0-9_-]/g, '-');
}

/**
 * An anchor's name that tells any two names apart (an implementation "bug/a" from "bug-a"): letters,
 * digits and `-_.` kept, anything else written by its code point; safe in `id="…"` and `href="#…"`.
 */
export function distinctAnchor(text: string): string {
  return text.replace(/[^A-Za-z0-9_.-]/g, (c) => `_${c.codePointAt(0)!.toString(16)}_`);
}

// ---- HTML ----------------------------------------------------------------------------------------

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text between tags. */
export function htmlText(text: string): string {
  return text.replace(/[&<>]/g, (c) => HTML_ENTITIES[c]);
}

/** An attribute's value, quoted with `"` or `'` (safe between tags too). Absent values are empty. */
export function htmlAttr(text: string | number | null | undefined): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]);
}

// ---- XML 1.0 (JUnit) -----------------------------------------------------------------------------

/** Characters XML 1.0 cannot carry at all, even escaped: shown as U+FFFD. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters XML 1.0 forbids
const XML_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const XML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\n': '&#10;',
  '\r': '&#13;',
  '\t': '&#9;',
};

/** Character data of an element. */
export function xmlText(text: string): string {
  return text.replace(XML_FORBIDDEN, '\ufffd').replace(/[&<>]/g, (c) => XML_ENTITIES[c]);
}

/** An attribute's value: line breaks and tabs as references, which attribute normalisation keeps. */
export function xmlAttr(text: string): string {
  return text.replace(XML_FORBIDDEN, '\ufffd').replace(/[&<>"'\n\r\t]/g, (c) => XML_ENTITIES[c]);
}

// ---- Console -------------------------------------------------------------------------------------

/**
 * Control characters (an escape sequence would recolour or rewrite the terminal) and the marks that
 * reorder text, shown as their code instead.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters a terminal would act on
const CONSOLE_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** One line of a terminal: line breaks and tabs as spaces, control characters by their code. */
export function consoleText(text: string): string {
  return consoleLines(text.replace(/\r\n?|\n|\t/g, ' '));
}

/** Lines of a terminal kept as lines (a reproducer, a code block): control characters by their code. */
export function consoleLines(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, '  ')
    .replace(CONSOLE_CONTROL, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}
