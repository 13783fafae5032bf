/**
 * The generated validators use their own RFC 3339 date-time check (cheaper under k6's runtime). It must
 * accept exactly what ajv-formats' full `date-time` format accepts: compared here on edge cases and on
 * seeded mutations of valid timestamps.
 */
import { test, expect } from '@playwright/test';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { rfc3339DateTime } from './codegen/codegen.ts';

const reference = fullFormats['date-time'] as { validate: (s: string) => boolean };

const EDGE_CASES = [
  '2026-11-22T09:00:00Z',
  '2026-11-22T09:00:00.123456Z',
  '2026-11-22t09:00:00z',
  '2026-11-22 09:00:00Z',
  '2026-11-22T09:00:00+05:30',
  '2026-11-22T09:00:00-00:00',
  '2026-11-22T09:00:00',
  '2026-11-22',
  '2024-02-29T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '2000-02-29T00:00:00Z',
  '1900-02-29T00:00:00Z',
  '2026-04-31T00:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-00-10T00:00:00Z',
  '2026-11-00T00:00:00Z',
  '2026-12-31T23:59:60Z',
  '2026-12-31T22:59:60-01:00',
  '2026-12-31T23:58:60Z',
  '2026-11-22T24:00:00Z',
  '2026-11-22T09:60:00Z',
  '2026-11-22T09:00:61Z',
  '2026-11-22T09:00:00+24:00',
  '2026-11-22T09:00:00+05:60',
  '2026-11-22T09:00:00.Z',
  '2026-11-22T9:00:00Z',
  '26-11-22T09:00:00Z',
  '2026-11-22T09:00:00ZZ',
  ' 2026-11-22T09:00:00Z',
  '2026-11-22T09:00:00Z ',
  '',
  'yesterday',
  '2026-11-22T09:00Z',
  '2026-11-22T09:00:00+0530',
];

/** Deterministic pseudo-random numbers (mulberry32), so a failing input is reproducible. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('agrees with ajv-formats on edge cases', () => {
  for (const value of EDGE_CASES) expect(rfc3339DateTime(value), value).toBe(reference.validate(value));
});

test('agrees with ajv-formats on 20,000 seeded single-character mutations of valid timestamps', () => {
  const next = random(20261122);
  const alphabet = '0123456789-:.TtZz+ x';
  const bases = ['2026-11-22T09:00:00Z', '2024-02-29T23:59:60.5+05:30', '1999-12-31t00:00:00-08:00'];
  let disagreements = 0;
  let accepted = 0;
  for (let i = 0; i < 20_000; i++) {
    const base = bases[i % bases.length]!;
    const at = Math.floor(next() * base.length);
    const ch = alphabet[Math.floor(next() * alphabet.length)]!;
    const value = next() < 0.2 ? base.slice(0, at) + base.slice(at + 1) : base.slice(0, at) + ch + base.slice(at + 1);
    const ours = rfc3339DateTime(value);
    if (ours !== reference.validate(value)) {
      disagreements++;
      expect.soft(ours, value).toBe(reference.validate(value));
    }
    if (ours) accepted++;
  }
  expect(disagreements).toBe(0);
  // Both outcomes occur, so the comparison is not trivially true.
  expect(accepted).toBeGreaterThan(1000);
  expect(accepted).toBeLessThan(19_000);
});
