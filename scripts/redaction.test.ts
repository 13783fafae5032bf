/**
 * No secret in any artifact. The reference target is started with recognisable canary keys (a seed
 * file whose tenants' keys are `wfk_SECRET_CANARY_…`); the conformance run and a load smoke are
 * pointed at it through BASE_URL / API_KEY / API_KEY_B — as CI points them at a third-party target
 * from its secrets — and then every file they wrote (reports, evidence, reproducers, Playwright's
 * HTML report including the zip it embeds, test-results, k6 logs and summaries) and everything they
 * printed is searched for the keys, plain, URL-encoded and base64-encoded (Basic-auth style).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { DEFAULT_SEED_FILE } from '../fixtures/target/config.ts';
import { startTarget } from '../fixtures/target/server.ts';
import { runLoadCli } from '../load/testing/run-load-cli.ts';
import { REFERENCE_BEHIND_PROXY_ENV, REPO_ROOT, runConformance, scratchOutDir } from '../fixtures/faults/run-conformance.ts';

const CANARY_A = `wfk_SECRET_CANARY_A_${Date.now().toString(36)}x7Qz`;
const CANARY_B = `wfk_SECRET_CANARY_B_${Date.now().toString(36)}k2Wp`;
const LOAD_RUN = 'redaction-canary';

/** Every form a key could leak in. */
function forms(key: string): string[] {
  return [key, encodeURIComponent(key), Buffer.from(key).toString('base64'), Buffer.from(`${key}:`).toString('base64'), Buffer.from(`:${key}`).toString('base64')];
}

/** Entries of a zip archive (central directory walk; stored and deflated entries). */
function unzip(buf: Buffer): { name: string; data: Buffer }[] {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  if (eocd < 0) return [];
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out: { name: string; data: Buffer }[] = [];
  for (let n = 0; n < count && buf.readUInt32LE(p) === 0x02014b50; n++) {
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(start, start + size);
    out.push({ name, data: method === 8 ? inflateRawSync(raw) : raw });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/** Text of a file, with zips (files, and base64 zips embedded in HTML) expanded. */
function textsOf(path: string): { where: string; text: string }[] {
  const buf = readFileSync(path);
  const texts = [{ where: path, text: buf.toString('utf8') }];
  const zips: { where: string; data: Buffer }[] = [];
  if (buf.readUInt32LE(0) === 0x04034b50) zips.push({ where: path, data: buf });
  for (const m of buf.toString('latin1').matchAll(/base64,(UEsDB[A-Za-z0-9+/=]+)/g)) zips.push({ where: `${path} (embedded zip)`, data: Buffer.from(m[1], 'base64') });
  for (const z of zips) for (const e of unzip(z.data)) texts.push({ where: `${z.where} → ${e.name}`, text: e.data.toString('utf8') });
  return texts;
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(dir);
  return out;
}

function leaks(sources: { where: string; text: string }[]): string[] {
  const needles = [...forms(CANARY_A), ...forms(CANARY_B)];
  return sources.flatMap((s) => needles.filter((n) => s.text.includes(n)).map((n) => `${s.where}: contains ${n.slice(0, 24)}…`));
}

async function runLoadSmoke(baseUrl: string): Promise<string> {
  const run = await runLoadCli({ baseUrl, apiKey: CANARY_A, args: ['--profile', 'smoke', '--duration', '5s', '--run', LOAD_RUN], killAfterMs: 150_000 });
  return `${run.output}\n(exit ${run.code})`;
}

test('canary API keys appear in no report, trace, log or reproducer of a conformance run and a load smoke', async () => {
  test.setTimeout(6 * 60_000);
  const dir = mkdtempSync(join(tmpdir(), 'wfcheck-canary-'));
  const seed = JSON.parse(readFileSync(DEFAULT_SEED_FILE, 'utf8')) as { tenants: { apiKey: string }[] };
  seed.tenants[0].apiKey = CANARY_A;
  seed.tenants[1].apiKey = CANARY_B;
  const seedFile = join(dir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(seed));
  const target = await startTarget({ seedFile });
  try {
    const outDir = scratchOutDir(`redaction-${process.pid}-0`);
    const conformance = await runConformance({
      outDir,
      baseUrl: target.baseUrl,
      apiKey: CANARY_A,
      apiKeyB: CANARY_B,
      seed: 4242,
      timeoutS: 180,
      workers: 2,
      env: REFERENCE_BEHIND_PROXY_ENV,
    });
    const load = await runLoadSmoke(target.baseUrl);

    const files = [...filesUnder(outDir), ...filesUnder(join(REPO_ROOT, 'reports', 'load', LOAD_RUN))];
    const sources = [
      ...files.flatMap(textsOf),
      { where: 'conformance stdout/stderr', text: conformance.output },
      { where: 'load stdout/stderr', text: load },
    ];
    // Not vacuous: the runs happened, wrote their artifacts, and the keys were there to be redacted.
    expect(conformance.report, conformance.output.slice(-2000)).toBeDefined();
    expect(conformance.report!.summary.exchanges).toBeGreaterThan(100);
    expect(files.some((f) => f.endsWith('report.json'))).toBe(true);
    expect(files.some((f) => f.endsWith('.jsonl'))).toBe(true);
    expect(files.some((f) => f.includes(`${LOAD_RUN}/summary.json`)), load.slice(-2000)).toBe(true);
    expect(sources.some((s) => s.text.includes('${API_KEY}')), 'no redaction placeholder anywhere: nothing was redacted').toBe(true);
    expect(sources.some((s) => s.where.includes('embedded zip')), 'the HTML report\'s embedded data was not inspected').toBe(true);

    // The search itself finds a key in each form it looks for (a pass is not a blind spot).
    for (const form of forms(CANARY_B)) expect(leaks([{ where: 'probe', text: `x ${form} y` }])).not.toEqual([]);

    expect(leaks(sources)).toEqual([]);
  } finally {
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
