/**
 * Seeded test data, loaded once and shared read-only between VUs (SharedArray
 * keeps one copy in memory instead of one per VU).
 */
import { SharedArray } from 'k6/data';
import type { LoadData, UploadSample } from './data-shape.ts';

function readDataFile(): LoadData {
  const file = __ENV.LOAD_DATA_FILE;
  if (!file) throw new Error('LOAD_DATA_FILE is not set: prepare data with `npm run load -- --prepare-only` (or run through `npm run load`)');
  return JSON.parse(open(file)) as LoadData;
}

let cached: LoadData | undefined;
const dataFile = () => (cached ??= readDataFile());

export const strings: readonly string[] = new SharedArray('strings', () => dataFile().strings);
export const keywords: readonly string[] = new SharedArray('keywords', () => dataFile().keywords);
export const uploadSamples: readonly UploadSample[] = new SharedArray('files', () => dataFile().files);

/** Small deterministic PRNG (mulberry32): the same SEED and VU give the same choices. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(items: readonly T[], rnd: () => number): T {
  const n = items.length;
  if (n === 0) throw new Error('cannot pick from an empty list');
  const r = rnd();
  return items[(r * n) | 0]; // floor: r * n is below n < 2^31
}
