/**
 * The one wrk driver of the benchmarks. The request (method, key, paths) goes to wrk in a private Lua
 * script, so the key never appears on a command line any process listing shows. A run that met answers
 * other than 2xx/3xx is refused: its rate would compare a failure with a success.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface WrkRun {
  /** Absolute URLs of one origin; with more than one, successive requests cycle through them. */
  urls: readonly string[];
  /** Default GET. */
  method?: string;
  /** Sent as a bearer token when given. */
  apiKey?: string;
  connections: number;
  seconds: number;
  /** wrk's threads; default 1. */
  threads?: number;
}

/** Whether wrk is installed (the benchmarks that only compare against it skip it otherwise). */
export function hasWrk(): boolean {
  return spawnSync('wrk', ['-v']).error === undefined;
}

/** Lua strings are written as JSON strings: ids and keys are ASCII, whose JSON escapes Lua reads alike. */
const lua = (s: string) => JSON.stringify(s);

function script(r: WrkRun): string {
  const lines = [`wrk.method = ${lua(r.method ?? 'GET')}`];
  if (r.apiKey) lines.push(`wrk.headers["Authorization"] = ${lua(`Bearer ${r.apiKey}`)}`);
  if (r.urls.length > 1) {
    const paths = r.urls.map((u) => {
      const url = new URL(u);
      return lua(url.pathname + url.search);
    });
    lines.push(
      `local paths = { ${paths.join(', ')} }`,
      'local n = 0',
      'request = function()',
      '  n = n % #paths + 1',
      '  return wrk.format(nil, paths[n])',
      'end',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Runs wrk once; its rate in requests per second. */
export async function wrk(r: WrkRun): Promise<number> {
  if (r.urls.length === 0) throw new Error('wrk: no URL to request');
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-wrk-'));
  try {
    const file = join(dir, 'request.lua');
    writeFileSync(file, script(r), { mode: 0o600 });
    const { stdout } = await run('wrk', [
      `-t${r.threads ?? 1}`,
      `-c${r.connections}`,
      `-d${r.seconds}s`,
      '-s',
      file,
      r.urls[0]!,
    ]);
    const rate = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
    const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout);
    if (non2xx) throw new Error(`wrk saw ${non2xx[1]} non-2xx answers from ${new URL(r.urls[0]!).pathname}`);
    if (!rate) throw new Error(`cannot read wrk output:\n${stdout}`);
    return Number(rate[1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
