/**
 * The judges of uploads (§4.7, §2.6): one key per file sent, the names returned those uploaded; an upload
 * without files refused (refusals.ts judges it, named here for the upload suite); how the multipart form
 * is taken, recorded; the retention of unused uploads, which no run can wait for.
 */
import type { FileSpec } from '../data/files.ts';
import type { Exchange } from '../transport/exchange.ts';
import { judge } from './judge.ts';
import { accepted, type Judged } from './expect.ts';
import { dataOf, describe } from './answers.ts';
import { stopAll } from './stops.ts';
import type { UploadData } from './payloads.ts';
import type { Probe } from './search.ts';
import { judgeInvalidParameter, judgeUploadNotMultipart, observeNearInvalid, UPLOAD_CONTENT_TYPE } from './refusals.ts';

/** The judge of an accepted upload: one key per file, the names echoed. */
export const upload = judge('uploads', ['UPLOAD-KEY-PER-FILE', 'UPLOAD-NAMES-ECHO', UPLOAD_CONTENT_TYPE]);

/** The judge of what §8 says of uploads no run used: that a day on they are gone, which no run can see. */
export const unusedUploads = judge('the retention of unused uploads', ['LIMIT-UNUSED-FILE-RETENTION']);

/** The keys of an upload, accepted when there is one distinct fileKey per file sent [UPLOAD-KEY-PER-FILE]. */
export const acceptedUpload = upload.judges(
  (v, ex: Exchange, sent: readonly FileSpec[], message: string): Judged<string[]> => {
    const keysOf = (data: unknown) =>
      ((data as UploadData | undefined)?.files ?? [])
        .map((f) => f?.fileKey)
        .filter((k): k is string => typeof k === 'string' && k !== '');
    return accepted(
      v,
      'UPLOAD-KEY-PER-FILE',
      ex,
      {
        carries: `${sent.length} distinct fileKey${sent.length === 1 ? '' : 's'}`,
        read: (data) => {
          const keys = keysOf(data);
          return keys.length === sent.length && new Set(keys).size === keys.length ? keys : undefined;
        },
      },
      `${message}: ${sent.map((f) => `${f.name} (${f.type}, ${f.content.length} B)`).join(', ')}`,
    );
  },
);

/**
 * An upload of `sent`: one key per file (accepted: any 2xx carrying them), and each returned name one
 * that was uploaded; the multipart request form is observed.
 */
export const judgeUpload = upload.judges((v, sent: FileSpec[], ex: Exchange) => {
  const keys = acceptedUpload(v, ex, sent, `upload of ${sent.length} file(s)`);
  v.observe(
    UPLOAD_CONTENT_TYPE,
    'multipart/form-data, files in the field "files"',
    keys.ok ? 'accepted' : describe(ex),
    ex.record.id,
  );
  if (!keys.ok) return stopAll(v, ['UPLOAD-NAMES-ECHO'], keys.stop);
  const names = (dataOf<UploadData>(ex)?.files ?? []).map((f) => f.fileName);
  const sentNames = new Set(sent.map((f) => f.name));
  const strangers = names.filter((n) => !sentNames.has(n));
  v.check('UPLOAD-NAMES-ECHO', strangers.length === 0, {
    message: `fileNames returned for ${sent.length} uploaded file(s)`,
    expected: [...sentNames].join(', '),
    actual: strangers.length ? `not uploaded: ${strangers.join(', ')}` : names.join(', '),
    exchangeId: ex.record.id,
  });
});

/** How the upload's files are named in the request is not shown: a file under another field is recorded. */
export function observeOtherField(v: Parameters<typeof observeNearInvalid>[0], ex: Exchange, field: string): void {
  observeNearInvalid(v, 'UPLOAD-400-NO-FILES', ex, `a file under the multipart field \`${field}\``);
}

/** An upload that carries no file is refused with 400. */
export function judgeWithoutFiles(v: Parameters<typeof judgeInvalidParameter>[0], ex: Exchange, what: string): void {
  judgeInvalidParameter(v, 'UPLOAD-400-NO-FILES', ex, what);
}

/** A JSON body to the upload: its content type is not shown (see judgeUploadNotMultipart). */
export const UPLOAD_PROBES = {
  jsonBody: { openPoint: UPLOAD_CONTENT_TYPE, label: 'JSON body, no files' } satisfies Probe,
};

export { judgeUploadNotMultipart };

/** Cleanup after about 24 hours cannot be seen within a run: the clause is not run, with that reason. */
export const retentionNotObservable = unusedUploads.judges((v): void =>
  v.notRun('LIMIT-UNUSED-FILE-RETENTION', 'cleanup after about 24 hours cannot be observed within a conformance run'),
);
