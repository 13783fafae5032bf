/**
 * The class of input a crash is about. Shrinking reaches one member of it — a space, "À", NUL, `1e0`,
 * `charset=latin1` — and which member depends on the seed; what a person counts, and what must be
 * recognised night after night, is the class: "any character outside [A-Za-z0-9_]", "a number beyond 2^53
 * or in exponent form", "a charset other than utf-8".
 *
 * So once a crash is shrunk, every value of its minimal input that has a class (a text holding characters
 * of a class, a number, a header variant) is probed: at its path, the value is replaced by the
 * representative of each class of its family (text.ts, headers.ts) and by a plain one, and the request is
 * sent again. The classes whose representative crashes alike make the crash's class, and the minimal
 * shape names them all (`keyword:any(control,c1-control,…)`): another member is then the same finding,
 * and the fingerprint is the same whichever member a seed reached first. Nothing is assumed: a class is
 * in only when its own representative crashed. When the plain value crashes too, the value's class did
 * not matter and leaves the shape; when no representative crashes, the shape stays as shrinking left it.
 */
import type { OperationId } from '../../contracts/check.ts';
import { headerVariantsFor } from './headers.ts';
import type { Probe } from './builder.ts';
import { ENCODING_CLASSES } from './encodings.ts';
import { CHAR_CLASSES, EMPTY, NUMBER_CLASSES, PLAIN_NUMBER } from './text.ts';

type Family = Probe['family'];

/** A value of a minimal input that has a class: where it is, and of which family. */
export interface ClassedPath {
  path: string;
  family: Family;
}

/** What probing one value found: the classes crashing alike, and whether the plain value crashed too. */
export interface ClassFound extends ClassedPath {
  classes: string[];
  plain: boolean;
}

const TEXT_CLASSES: readonly string[] = Object.keys(CHAR_CLASSES);
const NUMBER_CLASS_NAMES: readonly string[] = Object.keys(NUMBER_CLASSES);
const PLAIN_CHAR = 'a';

/** A feature as its path and what it says of the value there (`keyword:len>64` → keyword, len>64). */
export function splitFeature(feature: string): [path: string, what: string] | undefined {
  const at = feature.lastIndexOf(':');
  return at < 0 ? undefined : [feature.slice(0, at), feature.slice(at + 1)];
}

function familyOf(path: string, what: string): Family | undefined {
  if (path === 'header') return 'header';
  if (ENCODING_CLASSES.includes(what)) return 'escape';
  if (TEXT_CLASSES.includes(what)) return 'text';
  return NUMBER_CLASS_NAMES.includes(what) ? 'number' : undefined;
}

/** Whether a feature describes the value of a family at a path (the features a found class replaces). */
function describes(c: ClassedPath, feature: string): boolean {
  const parts = splitFeature(feature);
  if (!parts || parts[0] !== c.path) return false;
  const what = parts[1];
  if (c.family === 'header') return true;
  // A broken encoding in a text (a lone surrogate in a name) stands in it as a class does: its lengths go with it.
  if (c.family === 'escape') return ENCODING_CLASSES.includes(what) || what.startsWith('len') || what === EMPTY;
  if (c.family === 'text') return TEXT_CLASSES.includes(what) || what.startsWith('len') || what === EMPTY;
  return NUMBER_CLASS_NAMES.includes(what) || what === 'positive';
}

/** The values of a request, by its features, that have a class. */
export function classedPaths(features: readonly string[]): ClassedPath[] {
  const out = new Map<string, ClassedPath>();
  for (const f of features) {
    const parts = splitFeature(f);
    const family = parts && familyOf(...parts);
    if (parts && family) out.set(`${family} ${parts[0]}`, { path: parts[0], family });
  }
  return [...out.values()];
}

/** The probes of one value: a representative of each class of its family, then the plain value (no class). */
export function probesOf(c: ClassedPath, op: OperationId): { probe: Probe; cls?: string }[] {
  const { path } = c;
  // A broken encoding in place of which a character of a class crashes alike is that class's member (a
  // decoder that turns %FF into U+FFFD, then breaks on anything outside ASCII): the same finding.
  if (c.family === 'escape')
    return [
      ...Object.entries(CHAR_CLASSES).map(([cls, text]) => ({ probe: { path, family: 'escape' as const, text }, cls })),
      { probe: { path, family: 'escape', text: PLAIN_CHAR } },
    ];
  if (c.family === 'text')
    return [
      ...Object.entries(CHAR_CLASSES).map(([cls, char]) => ({ probe: { path, family: 'text' as const, char }, cls })),
      { probe: { path, family: 'text', char: PLAIN_CHAR } },
    ];
  if (c.family === 'number')
    return [
      ...Object.entries(NUMBER_CLASSES).map(([cls, raw]) => ({ probe: { path, family: 'number' as const, raw }, cls })),
      { probe: { path, family: 'number', raw: PLAIN_NUMBER } },
    ];
  return [
    ...headerVariantsFor(op).map((variant) => ({
      probe: { path: 'header' as const, family: 'header' as const, variant },
      cls: variant,
    })),
    { probe: { path: 'header', family: 'header' } },
  ];
}

/**
 * Probes every classed value of a minimal input. `crashesAlike` sends one probe: true when it crashed as
 * the minimal input did, false when not, undefined when it could not be sent (the budget): a value whose
 * probes were not all sent keeps its shape, so a class is never named from part of the evidence.
 */
export async function classesOf(
  op: OperationId,
  features: readonly string[],
  crashesAlike: (probe: Probe) => Promise<boolean | undefined>,
): Promise<ClassFound[]> {
  const found: ClassFound[] = [];
  for (const c of classedPaths(features)) {
    const classes: string[] = [];
    let plain = false;
    let complete = true;
    for (const { probe, cls } of probesOf(c, op)) {
      const crashed = await crashesAlike(probe);
      if (crashed === undefined) {
        complete = false;
        break;
      }
      if (crashed && cls !== undefined) classes.push(cls);
      if (crashed && cls === undefined) plain = true;
    }
    if (complete) found.push({ ...c, classes, plain });
  }
  return found;
}

/** The shape with each probed value's features replaced by the class found (or dropped, when it did not matter). */
export function generalized(shape: readonly string[], found: readonly ClassFound[]): string[] {
  let out = [...shape];
  for (const c of found) {
    if (!c.plain && c.classes.length === 0) continue;
    out = out.filter((f) => !describes(c, f));
    if (!c.plain) out.push(`${c.path}:any(${c.classes.join(',')})`);
  }
  return [...new Set(out)].sort();
}

const ANY = /^(.*):any\((.*)\)$/;

/** Whether a request's shape holds a finding's shape: each feature, or one class of each `any(…)`. */
export function shapeHolds(have: ReadonlySet<string>, shape: readonly string[]): boolean {
  return shape.every((s) => {
    const m = ANY.exec(s);
    return m ? m[2]!.split(',').some((cls) => have.has(`${m[1]}:${cls}`)) : have.has(s);
  });
}

/** The families a request tried, by parameter: every feature but a bare presence (`keyword:len>64` → keyword: len>64). */
export function triedOf(features: readonly string[], into: Record<string, Record<string, number>>): void {
  for (const f of features) {
    const parts = splitFeature(f);
    if (!parts) continue;
    const at = into[parts[0]] ?? {};
    into[parts[0]] = at;
    at[parts[1]] = (at[parts[1]] ?? 0) + 1;
  }
}
