/** Locating k6: the pinned project-local build is preferred, and a machine without k6 and Go gets a clear message. */
import { test, expect } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureK6, K6_VERSION } from './node/ensure-k6.ts';

test('without k6 and without Go, the message says how to get either', async () => {
  const emptyTools = mkdtempSync(join(tmpdir(), 'wfcheck-no-k6-'));
  const attempt = ensureK6(() => {}, { env: { PATH: emptyTools }, toolsBin: emptyTools });
  await expect(attempt).rejects.toThrow(/k6 is not installed and Go is not available/);
  await expect(ensureK6(() => {}, { env: { PATH: emptyTools }, toolsBin: emptyTools })).rejects.toThrow(new RegExp(`go\\.k6\\.io/k6@${K6_VERSION.replace(/\./g, '\\.')}`));
  rmSync(emptyTools, { recursive: true, force: true });
});

test('a K6_BIN that is not k6 is refused, not silently used', async () => {
  await expect(ensureK6(() => {}, { env: { K6_BIN: '/bin/false', PATH: '' } })).rejects.toThrow(/K6_BIN=\/bin\/false is not a working k6 binary/);
});
