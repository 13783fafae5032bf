/**
 * Upload (§4.7, §2.6): one and many files, several types and sizes (seeded),
 * and the error cases.
 */
import { test } from './fixtures.ts';
import { buildFile, buildFileSet, FILE_KINDS, type FileSpec } from '../fixtures/data/files.ts';
import { dataOf, describe, expectStatus, type UploadData } from './support/shapes.ts';
import type { Exchange } from './support/client.ts';
import type { Verdict } from './verdict/verdict.ts';

function checkKeys(verdict: Verdict, sent: FileSpec[], ex: Exchange): void {
  // The contract promises every field; a target that omits one is judged here, not crashed on.
  const files = dataOf<UploadData>(ex)?.files ?? [];
  const keys = files.map((f) => f.fileKey).filter((k): k is string => typeof k === 'string' && k !== '');
  verdict.must('UPLOAD-KEY-PER-FILE', ex.status === 200 && keys.length === sent.length && new Set(keys).size === keys.length, {
    message: `upload of ${sent.length} file(s): ${sent.map((f) => `${f.name} (${f.type}, ${f.content.length} B)`).join(', ')}`,
    expected: `HTTP 200 with ${sent.length} distinct fileKeys`,
    actual: ex.status === 200 ? `${keys.length} keys, ${new Set(keys).size} distinct` : describe(ex),
    exchangeId: ex.record.id,
  });
  const names = files.map((f) => f.fileName).sort();
  const sentNames = sent.map((f) => f.name).sort();
  verdict.observe('UPLOAD-CONTENT-TYPE', 'multipart/form-data upload: fileName echoes the sent name', JSON.stringify(names) === JSON.stringify(sentNames) ? 'yes' : `no (${names.join(', ')})`, ex.record.id);
}

test('one file of each type gets one key [UPLOAD-KEY-PER-FILE] [UPLOAD-CONTENT-TYPE]', async ({ api, verdict, faker }) => {
  for (const kind of FILE_KINDS) {
    const file = buildFile(faker, kind, faker.helpers.arrayElement(['tiny', 'small', 'medium'] as const));
    checkKeys(verdict, [file], await api.upload([file]));
  }
});

test('many files of mixed types and sizes in one request get one key each [UPLOAD-KEY-PER-FILE]', async ({ api, verdict, faker }) => {
  for (const count of [2, 5]) {
    const files = buildFileSet(faker, count);
    checkKeys(verdict, files, await api.upload(files));
  }
});

test('an upload without files gets 400 [UPLOAD-400-NO-FILES]', async ({ api, verdict, faker }) => {
  const other = await api.upload([buildFile(faker, 'txt', 'tiny')], { multipart: { field: 'attachment', files: [buildFile(faker, 'txt', 'tiny')] }, label: 'file under another field name' });
  expectStatus(verdict, 'UPLOAD-400-NO-FILES', other, 400, 'multipart body whose only part is not `files`');
  const empty = await api.send({ method: 'POST', path: '/openapi/files/upload', raw: { body: '--x--\r\n', contentType: 'multipart/form-data; boundary=x' }, label: 'multipart body without parts' });
  expectStatus(verdict, 'UPLOAD-400-NO-FILES', empty, 400, 'multipart body without any part');
  const json = await api.send({ method: 'POST', path: '/openapi/files/upload', json: {}, label: 'JSON body, no files' });
  expectStatus(verdict, 'UPLOAD-400-NO-FILES', json, 400, 'JSON body {} (no files)');
});

test('retention of unused uploads cannot be exercised within a run [LIMIT-UNUSED-FILE-RETENTION]', async ({ verdict }) => {
  verdict.notRun('LIMIT-UNUSED-FILE-RETENTION', 'cleanup after about 24 hours cannot be observed within a conformance run');
});
