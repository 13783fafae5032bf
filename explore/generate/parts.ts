/**
 * Uploads (§4.7), the inputs and the requests they stand for: files as a form library sends them, and
 * multipart bodies written by hand where a form library never goes — a part's Content-Type odd or
 * hundreds of characters long, its name given as `filename*=` (RFC 6266), as both forms, or no `name` at
 * all (RFC 7578 asks for one), and hundreds to thousands of parts in one upload. How a server refuses any
 * of those is its own choice (an unlisted 4xx is observed); only a crash, a hang or a reset is a finding.
 */
import fc from 'fast-check';
import type { FileSpec } from '../../core/data/files.ts';
import type { RequestSpec } from '../../core/transport/exchange.ts';
import type { Builder } from './builder.ts';
import type { AuthInput, BrokenMultipart, FileInput, PartInput, UploadBody, UploadInput } from './model.ts';
import { anyString, inOrder, repeated, textFeatures } from './text.ts';

const oneChar = anyString({ minLength: 1, maxLength: 1 });
const lowerLetter = fc.integer({ min: 0x61, max: 0x7a }).map((c) => String.fromCharCode(c));

const MEDIA_TYPES = [
  'text/plain',
  'application/pdf',
  'image/png',
  'text/csv',
  'application/json',
  'application/octet-stream',
];

/** Media types as a part may carry them that a parser may not expect: parameters, case, no subtype, a wildcard. */
export const ODD_TYPES = [
  'text/plain; charset=utf-8',
  'TEXT/PLAIN',
  'text/plain;;',
  'text',
  '*/*',
  'multipart/mixed; boundary=wfcheck',
  'a/b/c',
  'text/plain; name="a.txt"; charset="us-ascii"',
] as const;

const isOdd = (type: string) => (ODD_TYPES as readonly string[]).includes(type);

const fileName = fc.oneof(
  { withCrossShrink: true },
  { arbitrary: anyString({ minLength: 1, maxLength: 40 }), weight: 8 },
  { arbitrary: repeated(1, 300, oneChar), weight: 2 },
  { arbitrary: fc.constant(''), weight: 1 },
);

const fileInput: fc.Arbitrary<FileInput> = fc.record({
  name: fileName,
  type: fc.oneof(
    { withCrossShrink: true },
    fc.constantFrom(...MEDIA_TYPES),
    fc.constant(''),
    fc
      .tuple(
        fc.string({ unit: lowerLetter, minLength: 1, maxLength: 8 }),
        fc.string({ unit: lowerLetter, minLength: 1, maxLength: 8 }),
      )
      .map(([a, b]) => `${a}/${b}`),
  ),
  size: fc.integer({ min: 0, max: 24 * 1024 }),
  fill: fc.nat(1000),
});

/** A part written by hand: its Content-Type odd or long (`application/` and up to 2,000 letters), its name in any form. */
const partInput: fc.Arbitrary<PartInput> = fc.record({
  name: fileName,
  type: fc.oneof(
    { withCrossShrink: true },
    inOrder(ODD_TYPES),
    fc.record({ long: fc.integer({ min: 1, max: 2_000 }) }),
  ),
  disposition: inOrder(['filename', 'filename*', 'both-names', 'no-name'] as const),
  size: fc.integer({ min: 0, max: 1024 }),
  fill: fc.nat(1000),
});

/** Parts in one upload: hundreds to thousands of tiny files. */
const MANY_PARTS = { min: 100, max: 3_000 };

const allowedUploadBody: fc.Arbitrary<UploadBody> = fc.oneof(
  { withCrossShrink: true },
  {
    weight: 8,
    arbitrary: fc.record({
      form: fc.constant('files' as const),
      files: fc.array(fileInput, { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      form: fc.constant('parts' as const),
      parts: fc.array(partInput, { minLength: 1, maxLength: 2 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ form: fc.constant('many' as const), count: fc.integer(MANY_PARTS) }) },
);

const TINY_FILE: FileInput = { name: 'wfcheck-explore.txt', type: 'text/plain', size: 16, fill: 1 };
const FILES_FIELDS = new Set(['files', 'files[]']);

const up = (family: string, body: fc.Arbitrary<UploadInput['body']>) =>
  fc.record({
    op: fc.constant('uploadFiles' as const),
    family: fc.constant(family),
    body,
  }) as fc.Arbitrary<UploadInput>;

/** A body without any file part: none at all, text fields only, or JSON. */
function noFilesBody(otherName: fc.Arbitrary<string>): fc.Arbitrary<UploadBody> {
  return fc.oneof(
    fc.constant({ form: 'files' as const, files: [] as FileInput[] }),
    fc.record({
      form: fc.constant('text-fields' as const),
      fields: fc.uniqueArray(fc.record({ name: otherName, value: anyString({ maxLength: 20 }) }), {
        minLength: 1,
        maxLength: 3,
        selector: (f) => f.name,
      }),
    }),
    fc.record({
      form: fc.constant('json' as const),
      text: fc.constantFrom('{}', '{"files":[]}', '{"files":"x"}', '[]'),
    }),
  );
}

/** The allowed and forbidden uploads; `authInput` varies the credential of the no-valid-key family. */
export function uploadArbitraries(authInput: fc.Arbitrary<AuthInput>): {
  allowed: fc.Arbitrary<UploadInput>;
  forbidden: fc.Arbitrary<UploadInput>;
} {
  const allowed = up('allowed', allowedUploadBody);
  const otherName = anyString({ minLength: 1, maxLength: 10 }).filter((n) => !FILES_FIELDS.has(n));
  const forbidden = fc.oneof(
    up('no-files', noFilesBody(otherName)),
    // A text value where files go, or files under another field: "files" is missing, how it is refused is open.
    up(
      'text-in-files',
      fc.record({
        form: fc.constant('text-fields' as const),
        fields: fc.tuple(anyString({ maxLength: 20 })).map(([value]) => [{ name: 'files', value }]),
      }),
    ),
    up(
      'files-in-other-field',
      fc.record({
        form: fc.constant('files' as const),
        field: otherName,
        files: fc.array(fileInput, { minLength: 1, maxLength: 1 }),
      }),
    ),
    fc.record({
      op: fc.constant('uploadFiles' as const),
      family: fc.constant('no-valid-key'),
      auth: authInput,
      body: fc.constant({ form: 'files' as const, files: [TINY_FILE] }),
    }) as fc.Arbitrary<UploadInput>,
  );
  return { allowed, forbidden };
}

// ---- the requests --------------------------------------------------------------------------------------

/** Deterministic bytes of a generated file (xorshift from its seed). */
export function fileBytes(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

const BOUNDARY = 'wfcheck-explore-boundary';
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

/** WHATWG's escaping of a quoted multipart name: quotes and line breaks percent-encoded. */
const quoted = (s: string) => `"${s.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22')}"`;

/** A name's UTF-8 bytes, every one outside RFC 5987's attr-char percent-encoded. */
const escapedUtf8 = (s: string) =>
  encodeURIComponent(s).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** RFC 5987's ext-value: UTF-8, every byte outside attr-char percent-encoded. */
const extValue = (s: string) => `UTF-8''${escapedUtf8(s)}`;

/** RFC 5987's ext-value in ISO-8859-1 (the other charset it names): each byte outside attr-char escaped. */
const latin1Value = (s: string) =>
  `ISO-8859-1''${[...s]
    .map((ch) => (ch.codePointAt(0)! > 0xff ? 0x5f : ch.codePointAt(0)!))
    .map((b) =>
      /[A-Za-z0-9!#$&+.^_`|~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('')}`;

function dispositionOf(p: PartInput['disposition'], name: string): string {
  switch (p) {
    case 'filename*-latin1':
      return `form-data; name="files"; filename*=${latin1Value(name)}`;
    case 'filename*-unknown-charset':
      return `form-data; name="files"; filename*=BOGUS''${escapedUtf8(name)}`;
    case 'filename*-no-charset':
      return `form-data; name="files"; filename*=${escapedUtf8(name)}`;
    case 'filename*-bad-escape':
      return `form-data; name="files"; filename*=UTF-8''%ZZ${escapedUtf8(name)}`;
    case 'filename':
      return `form-data; name="files"; filename=${quoted(name)}`;
    case 'filename*':
      return `form-data; name="files"; filename*=${extValue(name)}`;
    case 'both-names':
      return `form-data; name="files"; filename=${quoted(name.replace(/[^\x20-\x7e]/g, '_'))}; filename*=${extValue(name)}`;
    case 'no-name':
      return `form-data; filename=${quoted(name)}`;
  }
}

/** A multipart body of `parts`, each its head (as written, UTF-8) and its bytes; its closing delimiter unless `open`. */
function multipart(parts: readonly { head: string; bytes: Uint8Array }[], boundary = BOUNDARY, open = false): Buffer {
  const out: Buffer[] = [];
  for (const p of parts)
    out.push(Buffer.from(`--${boundary}\r\n${p.head}\r\n\r\n`), Buffer.from(p.bytes), Buffer.from('\r\n'));
  if (!open) out.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(out);
}

const PLAIN_PART = {
  head: 'Content-Disposition: form-data; name="files"; filename="a.txt"\r\nContent-Type: text/plain',
  bytes: Buffer.from('wfcheck'),
};

/**
 * A body broken for its boundary under a multipart Content-Type (one feature for them all: a parser that
 * breaks on one of them is met by every one that hits the same path), or a Content-Type naming no boundary.
 */
function brokenBody(how: BrokenMultipart, b: Builder): Pick<RequestSpec, 'raw'> {
  b.features.add('multipart:broken');
  b.edge = true;
  switch (how) {
    case 'no-close':
      return { raw: { body: multipart([PLAIN_PART], BOUNDARY, true), contentType: MULTIPART } };
    case 'empty':
      return { raw: { body: '', contentType: MULTIPART } };
    case 'not-multipart':
      return { raw: { body: 'wfcheck: a body that is not multipart', contentType: MULTIPART } };
    case 'no-boundary':
      return { raw: { body: multipart([PLAIN_PART]), contentType: 'multipart/form-data' } };
  }
}

/** A `files` part of type multipart/mixed holding one file part, as RFC 2388 sent several files. */
function nestedBody(b: Builder): Buffer {
  // The media type an odd part of the properties may carry too: a reader that breaks on one breaks on both.
  b.features.add('part.type:odd');
  b.features.add('part.type:multipart');
  b.edge = true;
  const inner = multipart(
    [{ head: 'Content-Disposition: file; filename="a.txt"\r\nContent-Type: text/plain', bytes: Buffer.from('x') }],
    'wfcheck-inner',
  );
  return multipart([
    {
      head: 'Content-Disposition: form-data; name="files"\r\nContent-Type: multipart/mixed; boundary=wfcheck-inner',
      bytes: inner,
    },
  ]);
}

/** The parts as written, and their features: the name's, the media type's (odd, or its length), the form of the name. */
function partsBody(parts: readonly PartInput[], b: Builder): Buffer {
  return multipart(
    parts.map((p) => {
      const name = b.text('file.name', p.name);
      const type = typeof p.type === 'string' ? p.type : `application/${'x'.repeat(p.type.long)}`;
      if (typeof p.type === 'string' && isOdd(p.type)) b.features.add('part.type:odd');
      if (typeof p.type === 'string' && /^multipart\//i.test(p.type)) b.features.add('part.type:multipart');
      else lengthFeatures('part.type', type, b.features);
      for (const f of dispositionFeatures(p.disposition)) b.features.add(f);
      if (p.size > 0) b.features.add('file.size>0');
      b.edge = true;
      return {
        head: `Content-Disposition: ${dispositionOf(p.disposition, name)}\r\nContent-Type: ${type}`,
        bytes: fileBytes(p.size, p.fill),
      };
    }),
  );
}

/**
 * The features of a part's name form. Every RFC 5987 form is `filename*` (a parser that breaks on the form
 * breaks on each); one whose charset no decoder reads (unknown, or none at all) is one class, and one whose
 * escape is none another: which of them a server breaks on is what the finding says.
 */
function dispositionFeatures(d: PartInput['disposition']): string[] {
  if (d === 'filename') return [];
  if (!d.startsWith('filename*-')) return [`part.disposition:${d}`];
  const cls =
    d === 'filename*-latin1' ? 'latin1' : d === 'filename*-bad-escape' ? 'escape-not-hex' : 'charset-unreadable';
  return ['part.disposition:filename*', `part.name*:${cls}`];
}

/** Part counts that framework limits sit at and beside: a request past one is refused, or crashes. */
const COUNT_TIERS = [100, 128, 1000, 1024, 4096] as const;

/** `count` tiny files, one part each. */
function manyBody(count: number, b: Builder): Buffer {
  b.features.add('files:many');
  for (const n of COUNT_TIERS) if (count > n) b.features.add(`files:count>${n}`);
  b.edge = true;
  const one = new Uint8Array([0x78]);
  return multipart(
    Array.from({ length: count }, (_, i) => ({
      head: `Content-Disposition: form-data; name="files"; filename="f${i}.txt"\r\nContent-Type: text/plain`,
      bytes: one,
    })),
  );
}

/** Only the length of a text, as features (a long media type is about its length, not its characters). */
function lengthFeatures(path: string, s: string, out: Set<string>): void {
  const all = new Set<string>();
  textFeatures(path, s, all);
  for (const f of all) if (f === path || f.startsWith(`${path}:len`)) out.add(f);
}

/** A multipart body of text fields, names escaped as form libraries escape them. */
function textFieldsBody(fields: readonly { name: string; value: string }[]): string {
  const parts = fields.map(
    (f) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name=${quoted(f.name)}\r\n\r\n${f.value}\r\n`,
  );
  return `${parts.join('')}--${BOUNDARY}--\r\n`;
}

/** The request of a files body as a form library sends it: the core writes the multipart form. */
function filesRequest(body: Extract<UploadBody, { form: 'files' }>, b: Builder): Pick<RequestSpec, 'multipart'> {
  if (body.field !== undefined) textFeatures('body:field', body.field, b.features);
  if (body.files.length > 1) b.features.add('files:many');
  if (body.files.length === 0) b.features.add('files:none');
  const files: FileSpec[] = body.files.map((f) => {
    const name = b.text('file.name', f.name);
    b.features.add(f.type === '' ? 'file.type:empty' : 'file.type');
    if (f.size > 0) b.features.add('file.size>0');
    if (f.size > 16 * 1024) b.features.add('file.size>16KiB');
    return { name, type: f.type, content: fileBytes(f.size, f.fill) };
  });
  return { multipart: { files, ...(body.field !== undefined ? { field: body.field } : {}) } };
}

/** The body part of an upload's request, and its features. */
export function uploadBody(body: UploadBody, b: Builder): Pick<RequestSpec, 'raw' | 'multipart'> {
  switch (body.form) {
    case 'json':
      b.features.add('body:json');
      textFeatures('body:json', body.text, b.features);
      return { raw: { body: body.text, contentType: 'application/json' } };
    case 'text-fields':
      b.features.add('body:text-fields');
      for (const f of body.fields) {
        textFeatures('field#name', f.name, b.features);
        textFeatures('field', f.value, b.features);
      }
      return { raw: { body: textFieldsBody(body.fields), contentType: MULTIPART } };
    case 'parts':
      return { raw: { body: partsBody(body.parts, b), contentType: MULTIPART } };
    case 'many':
      return { raw: { body: manyBody(body.count, b), contentType: MULTIPART } };
    case 'broken':
      return brokenBody(body.how, b);
    case 'nested':
      return { raw: { body: nestedBody(b), contentType: MULTIPART } };
    case 'files':
      return filesRequest(body, b);
  }
}
