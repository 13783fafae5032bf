import exec from 'k6/execution';
import { seededRandom } from './data.ts';

let rnd: (() => number) | undefined;

/** Per-VU seeded random source: same SEED, same VU → same sequence of choices. */
export function vuRandom(seed: number): () => number {
  return (rnd ??= seededRandom((seed * 1_000_003 + exec.vu.idInTest) >>> 0));
}
