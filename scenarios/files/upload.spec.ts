/**
 * Upload (§4.7, §2.6): one and many files, several types and sizes (seeded),
 * and the error cases.
 */
import { test } from '../fixtures.ts';
import { buildFile, buildFileSet, FILE_KINDS, type FileSpec } from '../../foundation/data/files.ts';
import { dataOf, describe, stopAll, type UploadData } from '../../engine/live/judging/judging.ts';
import { judgeInvalidParameter } from '../../engine/live/judging/refusals.ts';
import { acceptedUpload } from '../../engine/live/discovery/workflows.ts';
import type { Exchange } from '../../engine/live/transport/exchange.ts';
import type { Verdict } from '../../engine/evidence/verdict.ts';

/**
 * One key per file [UPLOAD-KEY-PER-FILE] (accepted: any 2xx carrying them), and each returned name
 * one that was uploaded [UPLOAD-NAMES-ECHO]; the multipart request form is observed.
 */
function checkKeys(verdict: Verdict, sent: FileSpec[], ex: Exchange): void {
  const keys = acceptedUpload(verdict, ex, sent, `upload of ${sent.length} file(s)`);
  verdict.observe(
    'UPLOAD-CONTENT-TYPE',
    'multipart/form-data, files in the field "files"',
    keys.ok ? 'accepted' : describe(ex),
    ex.record.id,
  );
  if (!keys.ok) {
    stopAll(verdict, ['UPLOAD-NAMES-ECHO'], keys.stop);
    return;
  }
  const names = (dataOf<UploadData>(ex)?.files ?? []).map((f) => f.fileName);
  const sentNames = new Set(sent.map((f) => f.name));
  const strangers = names.filter((n) => !sentNames.has(n));
  verdict.should('UPLOAD-NAMES-ECHO', strangers.length === 0, {
    message: `fileNames returned for ${sent.length} uploaded file(s)`,
    expected: [...sentNames].join(', '),
    actual: strangers.length ? `not uploaded: ${strangers.join(', ')}` : names.join(', '),
    exchangeId: ex.record.id,
  });
}

test('one file of each type gets one key [UPLOAD-KEY-PER-FILE] [UPLOAD-NAMES-ECHO] [UPLOAD-CONTENT-TYPE]', async ({
  api,
  verdict,
  faker,
}) => {
  for (const kind of FILE_KINDS) {
    const file = buildFile(faker, kind, faker.helpers.arrayElement(['tiny', 'small', 'medium'] as const));
    checkKeys(verdict, [file], await api.upload([file]));
  }
});

test('many files of mixed types and sizes in one request get one key each [UPLOAD-KEY-PER-FILE] [UPLOAD-NAMES-ECHO]', async ({
  api,
  verdict,
  faker,
}) => {
  for (const count of [2, 5]) {
    const files = buildFileSet(faker, count);
    checkKeys(verdict, files, await api.upload(files));
  }
});

test('an upload without files gets 400 [UPLOAD-400-NO-FILES]', async ({ api, verdict, faker }) => {
  const other = await api.upload([buildFile(faker, 'txt', 'tiny')], {
    multipart: { field: 'attachment', files: [buildFile(faker, 'txt', 'tiny')] },
    label: 'file under another field name',
  });
  // How `files` is named in the request is not shown (nor is its content type): recorded, not judged.
  verdict.observe(
    'UPLOAD-400-NO-FILES',
    'a file under the multipart field `attachment`',
    describe(other),
    other.record.id,
  );
  const empty = await api.send({
    method: 'POST',
    path: '/openapi/files/upload',
    raw: { body: '--x--\r\n', contentType: 'multipart/form-data; boundary=x' },
    label: 'multipart body without parts',
  });
  judgeInvalidParameter(verdict, 'UPLOAD-400-NO-FILES', empty, 'multipart body without any part');
  // The content type of the upload is not shown: a JSON body may be refused as a media type the operation
  // does not take (415) as fairly as a request without files (400). Any 4xx is recorded; accepting it fails.
  const json = await api.send({
    method: 'POST',
    path: '/openapi/files/upload',
    json: {},
    label: 'JSON body, no files',
    openPoint: 'UPLOAD-CONTENT-TYPE',
  });
  if (json.status !== undefined && json.status >= 400 && json.status < 500)
    verdict.observe('UPLOAD-CONTENT-TYPE', 'a JSON body {} (no files)', describe(json), json.record.id);
  else judgeInvalidParameter(verdict, 'UPLOAD-400-NO-FILES', json, 'JSON body {} (no files)');
});

test('retention of unused uploads cannot be exercised within a run [LIMIT-UNUSED-FILE-RETENTION]', async ({
  verdict,
}) => {
  verdict.notRun(
    'LIMIT-UNUSED-FILE-RETENTION',
    'cleanup after about 24 hours cannot be observed within a conformance run',
  );
});
