import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

function encode(bytes: Buffer, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out += ALPHABET[bytes[i % bytes.length] % ALPHABET.length];
  }
  return out;
}

/** A random identifier such as `we-0k3x9...` (prefix, dash, 22 base-36 characters). */
export function newId(prefix: string): string {
  return `${prefix}-${encode(randomBytes(22), 22)}`;
}

/** A stable identifier derived from a seed name, so that seed ids never change. */
export function stableId(prefix: string, seed: string): string {
  return `${prefix}-${encode(createHash('sha256').update(seed).digest(), 22)}`;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
