/**
 * Seeded choices: the same SEED (and VU) give the same sequence of picks, so a run can be replayed and the
 * benchmark's bare loop (proof/bench/k6/bare-lifecycle.ts) can walk exactly the suite's choices.
 */
import exec from 'k6/execution';

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

let rnd: (() => number) | undefined;

/** Per-VU seeded random source: same SEED, same VU → same sequence of choices. */
export function vuRandom(seed: number): () => number {
  rnd ??= seededRandom((seed * 1_000_003 + exec.vu.idInTest) >>> 0);
  return rnd;
}
