/**
 * The sections of the specification the matrix groups its rows by: the numbered headings of
 * contracts/spec/service-api.md (`## 4. Endpoints`, `### 4.1 POST …`). A requirement belongs to the
 * first section its catalogue entry names, or to the nearest numbered heading above it (§5.4 is an item
 * of §5, which has no headings of its own).
 */
import { readFileSync } from 'node:fs';

const SPEC = new URL('../contracts/spec/service-api.md', import.meta.url);

export interface Section {
  /** "4.1", "5", or "intro" for what precedes §1. */
  id: string;
  title: string;
  /** The top-level section: "4" for "4.1". */
  top: string;
}

/** Numbered headings of the specification, by number. */
export function specSections(text: string = readFileSync(SPEC, 'utf8')): Map<string, Section> {
  const out = new Map<string, Section>([['intro', { id: 'intro', title: 'Introduction', top: 'intro' }]]);
  for (const m of text.matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? +(.+)$/gm)) {
    const id = m[1]!;
    out.set(id, { id, title: m[2]!.trim(), top: id.split('.')[0]! });
  }
  return out;
}

/** The section a catalogue entry's `section` ("2.2, 2.3", "5.4", "intro") is grouped under. */
export function sectionOf(field: string, sections: ReadonlyMap<string, Section>): Section {
  const first = field.split(',')[0]!.trim() || 'intro';
  for (let id = first; id; id = id.includes('.') ? id.slice(0, id.lastIndexOf('.')) : '') {
    const found = sections.get(id);
    if (found) return found;
  }
  return { id: first, title: `Section ${first}`, top: first.split('.')[0]! };
}

/** Section numbers in reading order: "intro" first, then 1, 2, 2.1, 2.2 … 10. */
export function compareSections(a: string, b: string): number {
  if (a === b) return 0;
  if (a === 'intro') return -1;
  if (b === 'intro') return 1;
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d !== 0 && !Number.isNaN(d)) return d;
  }
  return a.localeCompare(b);
}
