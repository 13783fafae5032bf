/**
 * Locating k6: the pinned project-local build (k6 with the suite's extension) is preferred, built before a
 * stock k6 on PATH is used and rebuilt when its sources changed; a machine without k6 and Go gets a clear
 * message.
 */
import { test, expect } from '@playwright/test';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureK6, EXTENSION_MODULE, hasWfcheckExtension, K6_VERSION, xk6SourceDigest } from './node/ensure-k6.ts';

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

/** A directory with a fake `go` that "builds" a k6 printing the given version text, and logs each build. */
function fakeGo(dir: string, version: string): string {
  const go = join(dir, 'go');
  writeFileSync(
    go,
    `#!/bin/sh\necho "$@" >> "${join(dir, 'builds.log')}"\nout="$3"\nprintf '#!/bin/sh\\necho "${version}"\\n' > "$out"\nchmod +x "$out"\n`,
  );
  chmodSync(go, 0o755);
  return go;
}

const builds = (dir: string) =>
  existsSync(join(dir, 'builds.log')) ? readFileSync(join(dir, 'builds.log'), 'utf8').trim().split('\n').length : 0;

test('the project-local k6 is rebuilt with the extension when it lacks it or its sources changed, and kept when current', {
  tag: '@k6',
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-k6-build-'));
  try {
    const toolsBin = join(dir, 'bin');
    mkdirSync(toolsBin);
    fakeGo(dir, `k6 ${K6_VERSION} (fake)\\nExtensions:\\n  ${EXTENSION_MODULE} [js]`);
    // A stock k6 left by an earlier build: it runs, but has no extension and no digest of its sources.
    const local = join(toolsBin, 'k6');
    writeFileSync(local, `#!/bin/sh\necho "k6 ${K6_VERSION} (stock)"\n`);
    chmodSync(local, 0o755);
    const env = { PATH: `${dir}:/usr/bin:/bin` };
    expect(await ensureK6(() => {}, { env, toolsBin })).toBe(local);
    expect(builds(dir)).toBe(1);
    expect(hasWfcheckExtension(local)).toBe(true);
    expect(readFileSync(`${local}.sources`, 'utf8').trim()).toBe(xk6SourceDigest());
    // Current: used as it is.
    await ensureK6(() => {}, { env, toolsBin });
    expect(builds(dir)).toBe(1);
    // Built from other sources: rebuilt.
    writeFileSync(`${local}.sources`, 'an older digest\n');
    await ensureK6(() => {}, { env, toolsBin });
    expect(builds(dir)).toBe(2);
    // Without Go a stale build is still used rather than failing the run.
    writeFileSync(`${local}.sources`, 'an older digest\n');
    expect(await ensureK6(() => {}, { env: { PATH: '/usr/bin:/bin' }, toolsBin })).toBe(local);
    expect(builds(dir)).toBe(2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("with Go, the suite's k6 is built rather than a stock k6 on PATH used; without Go the stock one is used, with a note", {
  tag: '@k6',
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-k6-path-'));
  try {
    const toolsBin = join(dir, 'bin');
    const pathDir = join(dir, 'path');
    mkdirSync(toolsBin);
    mkdirSync(pathDir);
    const stock = join(pathDir, 'k6');
    writeFileSync(stock, `#!/bin/sh\necho "k6 ${K6_VERSION} (stock)"\n`);
    chmodSync(stock, 0o755);
    const withoutGo: string[] = [];
    expect(await ensureK6((l) => withoutGo.push(l), { env: { PATH: `${pathDir}:/usr/bin:/bin` }, toolsBin })).toBe(
      stock,
    );
    expect(withoutGo.join('\n')).toContain(`has no ${EXTENSION_MODULE}`);
    fakeGo(dir, `k6 ${K6_VERSION} (fake)\nExtensions:\n  ${EXTENSION_MODULE} [js]`);
    expect(await ensureK6(() => {}, { env: { PATH: `${pathDir}:${dir}:/usr/bin:/bin` }, toolsBin })).toBe(
      join(toolsBin, 'k6'),
    );
    expect(builds(dir)).toBe(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
