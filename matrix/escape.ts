/**
 * Escaping for the matrix's pages. Titles, notes, requests and responses come from targets and from
 * histories other harnesses wrote (imports), so every one of them is text, never markup: escaped for
 * HTML text and for quoted attribute values alike, and for a URL fragment where it names an anchor.
 *
 * Local to the matrix for now; the report renderers' one escaper per format (engine/report/) is meant
 * to take its place.
 */

const HTML: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text for an HTML text node or a quoted attribute value (either quote). */
export function html(text: string | number | null | undefined): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => HTML[c]!);
}

/** An id or fragment safe in `id="…"` and `href="#…"` alike: letters, digits and `-_.` kept, the rest encoded. */
export function anchor(text: string): string {
  return html(text.replace(/[^A-Za-z0-9_.-]/g, (c) => `_${c.codePointAt(0)!.toString(16)}_`));
}
