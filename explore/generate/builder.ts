/**
 * Writes the values of an input as they are sent — JSON text written by hand, so every name keeps its place
 * and numbers keep the form they were generated in — and records the features of each (the shape a
 * fingerprint is made of). A probe (classes.ts) replaces one class of values while they are written.
 */
import { seg, type AuthMode } from '../../core/transport/exchange.ts';
import { escapeClass, isJsonEscape, isPercent } from './encodings.ts';
import type { AuthInput, Entry, FileKeyRef, Percent, RawNumber, UrlText, Value, World } from './model.ts';
import { runFeatures, type Run } from './runs.ts';
import {
  atEdge,
  depthFeatures,
  isRepeat,
  numberTextFeatures,
  textFeatures,
  textOf,
  withClassReplaced,
  type Text,
} from './text.ts';

/** Surrogates with no partner: a JSON string may carry them (written `\udc00`), UTF-8 cannot. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/**
 * A substitution made while preparing an input, to learn which class of input a failure is about
 * (classes.ts): at `path`, the characters of a class in every text, or every number, or the header
 * variant, replaced by a representative.
 */
export type Probe =
  | { path: string; family: 'text'; char: string }
  /** A broken encoding (percent-escapes, a JSON escape) replaced by a text of one character. */
  | { path: string; family: 'escape'; text: string }
  | { path: string; family: 'number'; raw: string }
  | { path: 'header'; family: 'header'; variant?: string };

export class Builder {
  readonly features = new Set<string>();
  readonly strings: string[] = [];
  /** Texts the operation takes as content (§8's content limit): generate's query, declared text variables. */
  readonly content: string[] = [];
  /** Names of the variables the run's workflow declares as text: their values are content. */
  contentNames: ReadonlySet<string> = new Set();
  /** Long runs of one character in the texts written (runs.ts): what a slow answer is narrowed down by. */
  readonly runs: Run[] = [];
  /**
   * The request carries a value at an edge (a number at a classic limit or past a double, an ill-formed
   * escape, an odd part): how to refuse it is the server's to choose, so an unlisted 4xx is observed.
   */
  edge = false;

  constructor(
    readonly world: World,
    readonly probe?: Probe,
  ) {}

  /** Runs `build`, keeping the texts it wrote as content the operation takes. */
  asContent<T>(build: () => T): T {
    const from = this.strings.length;
    const out = build();
    this.content.push(...this.strings.slice(from));
    return out;
  }

  text(path: string, t: Text): string {
    const p = this.probe;
    let s = p?.family === 'text' && p.path === path ? withClassReplaced(textOf(t), p.char) : textOf(t);
    // A lone surrogate in a JSON string (a name: JSON.stringify writes it `\udc00`) is a broken encoding.
    if (LONE_SURROGATE.test(s)) {
      const by = this.escapeProbed(path);
      if (by !== undefined) s = s.replace(LONE_SURROGATES, by);
      else this.edge = true;
    }
    textFeatures(path, s, this.features);
    runFeatures(path, s, this.features, this.runs);
    return s;
  }

  /** The text a probe puts in place of a broken encoding at `path`, if it does. */
  private escapeProbed(path: string): string | undefined {
    const p = this.probe;
    return p?.family === 'escape' && p.path === path ? p.text : undefined;
  }

  /** Percent-escapes as they are, for a URL: what a decoder meets is their class (`not-utf8`). */
  percent(path: string, p: Percent): string {
    this.features.add(path);
    this.features.add(`${path}:not-utf8`);
    return p.$percent;
  }

  /** A text of a URL as it goes in it: a query value (form-encoded) or a path segment, escapes as they are. */
  url(path: string, v: UrlText, as: 'query' | 'segment'): string {
    if (isPercent(v) && !this.escapeProbed(path)) return this.percent(path, v);
    const s = this.text(path, isPercent(v) ? this.escapeProbed(path)! : v);
    return as === 'segment' ? seg(s) : new URLSearchParams({ v: s }).toString().slice(2);
  }

  /** A number as sent: JSON's writing of it, or the text of a raw one (a probe's representative at its path). */
  number(path: string, n: number | RawNumber): string {
    const p = this.probe;
    const raw =
      p?.family === 'number' && p.path === path ? p.raw : typeof n === 'number' ? JSON.stringify(n) : n.$number;
    numberTextFeatures(path, raw, this.features);
    if (atEdge(raw)) this.edge = true;
    return raw;
  }

  fileKey(path: string, ref: FileKeyRef): string {
    this.features.add(`${path}:fileKey`);
    const keys = this.world.fileKeys;
    return keys.length ? keys[ref.$fileKey % keys.length]! : 'fk_wfcheck_explore_none_uploaded';
  }

  /** JSON text of a value, written by hand so every name keeps its place (and "__proto__" is a name). */
  json(path: string, v: Value): string {
    // A value is there whatever its kind: a failure about its name holds for a text, an object or a null alike.
    this.features.add(path);
    if (v === null) {
      this.features.add(`${path}:null`);
      return 'null';
    }
    if (typeof v === 'boolean') {
      this.features.add(`${path}:boolean`);
      return String(v);
    }
    if (typeof v === 'number') return this.number(path, v);
    if (typeof v === 'string' || isRepeat(v)) {
      const s = this.text(path, v);
      this.strings.push(s);
      return JSON.stringify(s);
    }
    if ('$number' in v) return this.number(path, v);
    if (isJsonEscape(v) && this.escapeProbed(path)) return JSON.stringify(this.text(path, this.escapeProbed(path)!));
    if (isJsonEscape(v)) {
      this.edge = true;
      this.features.add(`${path}:${escapeClass(v.$escape)}`);
      return `"${v.$escape}"`;
    }
    if ('$fileKey' in v) return JSON.stringify(this.fileKey(path, v));
    // Objects and arrays are one kind: "structured" (a bug that breaks on one usually breaks on both).
    this.features.add(`${path}:structured`);
    if ('$nest' in v) {
      if (v.$nest > 1) this.features.add(`${path}:structured>0`);
      depthFeatures(path, v.$nest, this.features);
      return `${'['.repeat(v.$nest)}${']'.repeat(v.$nest)}`;
    }
    if (Array.isArray(v)) {
      if (v.length) this.features.add(`${path}:structured>0`);
      return `[${v.map((x) => this.json(`${path}.*`, x)).join(',')}]`;
    }
    if (v.$object.length) this.features.add(`${path}:structured>0`);
    return this.object(`${path}.*`, v.$object);
  }

  object(path: string, entries: readonly Entry[]): string {
    const parts = entries.map((e) => {
      const name = this.text(`${path}#name`, e.name);
      this.strings.push(name);
      const value = () => this.json(path, e.value);
      return `${JSON.stringify(name)}:${path === 'vars.*' && this.contentNames.has(name) ? this.asContent(value) : value()}`;
    });
    return `{${parts.join(',')}}`;
  }

  auth(input: { auth?: AuthInput }): AuthMode {
    const a = input.auth;
    if (!a) return { kind: 'tenant' };
    if ('none' in a) {
      this.features.add('auth:none');
      return { kind: 'none' };
    }
    this.features.add(`auth:scheme:${a.scheme.toLowerCase() || '(none)'}`);
    if (a.token) this.features.add('auth:token');
    // Never a real key, whatever was generated.
    const token = this.world.keys.includes(a.token) ? `${a.token}x` : a.token;
    return { kind: 'literal', value: a.scheme ? `${a.scheme} ${token}` : token };
  }

  /** An id as its path segment: encoded, or percent-escapes as they are. */
  segment(path: string, t: UrlText): string {
    return this.url(path, t, 'segment');
  }
}
