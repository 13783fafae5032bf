/**
 * Upload (§4.7, §2.6): one and many files, several types and sizes (seeded),
 * the error cases, and what an upload over the 100KB payload limit gets (recorded).
 */
import { test } from '../suite.ts';
import { buildFile, buildFileSet, FILE_KINDS } from '../../core/data/files.ts';
import {
  judgeUpload,
  judgeUploadNotMultipart,
  judgeWithoutFiles,
  observeOtherField,
  retentionNotObservable,
  UPLOAD_PROBES,
} from '../../core/judging/files.ts';
import { observeUploadOverPayload } from '../../core/judging/limits.ts';
import { LIMITS } from '../../contracts/error-codes.ts';

test('one file of each type gets one key [UPLOAD-KEY-PER-FILE] [UPLOAD-NAMES-ECHO] [UPLOAD-CONTENT-TYPE]', async ({
  api,
  verdict,
  faker,
}) => {
  for (const kind of FILE_KINDS) {
    const file = buildFile(faker, kind, faker.helpers.arrayElement(['tiny', 'small', 'medium'] as const));
    judgeUpload(verdict, [file], await api.upload([file]));
  }
});

test('many files of mixed types and sizes in one request get one key each [UPLOAD-KEY-PER-FILE] [UPLOAD-NAMES-ECHO]', async ({
  api,
  verdict,
  faker,
}) => {
  for (const count of [2, 5]) {
    const files = buildFileSet(faker, count);
    judgeUpload(verdict, files, await api.upload(files));
  }
});

test('an upload without files gets 400 [UPLOAD-400-NO-FILES]', async ({ api, verdict, faker }) => {
  const other = await api.upload([buildFile(faker, 'txt', 'tiny')], {
    multipart: { field: 'attachment', files: [buildFile(faker, 'txt', 'tiny')] },
    label: 'file under another field name',
  });
  // How `files` is named in the request is not shown (nor is its content type): recorded, not judged.
  observeOtherField(verdict, other, 'attachment');
  const empty = await api.request(
    'uploadFiles',
    {},
    {
      raw: { body: '--x--\r\n', contentType: 'multipart/form-data; boundary=x' },
      label: 'multipart body without parts',
    },
  );
  judgeWithoutFiles(verdict, empty, 'multipart body without any part');
  // The content type of the upload is not shown: a JSON body may be refused as a media type the operation
  // does not take (415) as fairly as a request without files (400). Any 4xx is recorded; accepting it fails.
  const json = await api.request('uploadFiles', {}, { json: {}, ...UPLOAD_PROBES.jsonBody });
  judgeUploadNotMultipart(verdict, json, 'a JSON body {} (no files)');
});

test('an upload over 100KB: whether the payload limit applies to uploads is recorded [LIMIT-OPERATIONS]', async ({
  api,
  verdict,
  faker,
}) => {
  // Over 100KB in either reading (102,400 bytes) in its one file alone; the operations the limit binds are
  // stated only by its code, so accepting it is as fair as a 413 or a 400.
  const file = buildFile(faker, 'txt', LIMITS.payloadBytesSurelyOver + 2_048);
  observeUploadOverPayload(verdict, await api.upload([file], { label: 'upload > 100KB' }));
});

test('retention of unused uploads cannot be exercised within a run [LIMIT-UNUSED-FILE-RETENTION]', async ({
  verdict,
}) => {
  retentionNotObservable(verdict);
});
