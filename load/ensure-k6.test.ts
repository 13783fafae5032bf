/**
 * Locating k6: the project-local build first, then a k6 on PATH, else the pinned release built with Go; a
 * machine without k6 and Go gets a clear message.
 */
import { test, expect } from '@playwright/test';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureK6, K6_VERSION } from './node/ensure-k6.ts';

test('without k6 and without Go, the message says how to get either', async () => {
  const emptyTools = mkdtempSync(join(tmpdir(), 'wfcheck-no-k6-'));
  const attempt = ensureK6(() => {}, { env: { PATH: emptyTools }, toolsBin: emptyTools });
  await expect(attempt).rejects.toThrow(/k6 is not installed and Go is not available/);
  await expect(ensureK6(() => {}, { env: { PATH: emptyTools }, toolsBin: emptyTools })).rejects.toThrow(
    new RegExp(`go\\.k6\\.io/k6@${K6_VERSION.replace(/\./g, '\\.')}`),
  );
  rmSync(emptyTools, { recursive: true, force: true });
});

test('a K6_BIN that is not k6 is refused, not silently used', async () => {
  await expect(ensureK6(() => {}, { env: { K6_BIN: '/bin/false', PATH: '' } })).rejects.toThrow(
    /K6_BIN=\/bin\/false is not a working k6 binary/,
  );
});

/** A directory with a fake `go` whose `install` "builds" a k6 into GOBIN, and logs each build. */
function fakeGo(dir: string): string {
  const go = join(dir, 'go');
  writeFileSync(
    go,
    `#!/bin/sh\necho "$@" >> "${join(dir, 'builds.log')}"\nprintf '#!/bin/sh\\necho "k6 ${K6_VERSION} (built)"\\n' > "$GOBIN/k6"\nchmod +x "$GOBIN/k6"\n`,
  );
  chmodSync(go, 0o755);
  return go;
}

const builds = (dir: string) =>
  existsSync(join(dir, 'builds.log')) ? readFileSync(join(dir, 'builds.log'), 'utf8').trim().split('\n') : [];

test('the project-local k6 comes first, then a k6 on PATH; with neither, the pinned release is built with Go', {
  tag: '@k6',
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-k6-build-'));
  try {
    const toolsBin = join(dir, 'bin');
    const pathDir = join(dir, 'path');
    mkdirSync(toolsBin);
    mkdirSync(pathDir);
    fakeGo(dir);
    const local = join(toolsBin, 'k6');
    // Neither: built, the release pinned.
    expect(await ensureK6(() => {}, { env: { PATH: `${dir}:/usr/bin:/bin` }, toolsBin })).toBe(local);
    expect(builds(dir)).toEqual([`install go.k6.io/k6@${K6_VERSION}`]);
    // Built once: used as it is.
    expect(await ensureK6(() => {}, { env: { PATH: `${dir}:/usr/bin:/bin` }, toolsBin })).toBe(local);
    expect(builds(dir)).toHaveLength(1);
    // A k6 on PATH is used when there is no project-local one, Go or not.
    rmSync(local);
    const stock = join(pathDir, 'k6');
    writeFileSync(stock, `#!/bin/sh\necho "k6 ${K6_VERSION} (stock)"\n`);
    chmodSync(stock, 0o755);
    expect(await ensureK6(() => {}, { env: { PATH: `${pathDir}:${dir}:/usr/bin:/bin` }, toolsBin })).toBe(stock);
    expect(builds(dir)).toHaveLength(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
