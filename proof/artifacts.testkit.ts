/**
 * Every file a run wrote, and its text as a reader (or a leak) would find it: a zip's entries (Playwright's
 * trace archives) and the base64 zips an HTML report embeds expanded. The redaction proofs search them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';

/** Entries of a zip archive (central directory walk; stored and deflated entries). */
export function unzip(buf: Buffer): { name: string; data: Buffer }[] {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--)
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
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
export function textsOf(path: string): { where: string; text: string }[] {
  const buf = readFileSync(path);
  const texts = [{ where: path, text: buf.toString('utf8') }];
  const zips: { where: string; data: Buffer }[] = [];
  if (buf.length >= 4 && buf.readUInt32LE(0) === 0x04034b50) zips.push({ where: path, data: buf });
  for (const m of buf.toString('latin1').matchAll(/base64,(UEsDB[A-Za-z0-9+/=]+)/g))
    zips.push({ where: `${path} (embedded zip)`, data: Buffer.from(m[1], 'base64') });
  for (const z of zips)
    for (const e of unzip(z.data)) texts.push({ where: `${z.where} → ${e.name}`, text: e.data.toString('utf8') });
  return texts;
}

export function filesUnder(dir: string): string[] {
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
