/**
 * The locales of generate (§4.8) a run goes through: English and two rotated ones per run, every one
 * of the twenty within ten successive seeds.
 */
import { test, expect } from '@playwright/test';
import { LOCALES, localesForRun } from './locales.ts';

test('without overwrite a run generates in English and two rotated locales, and ten successive seeds cover all twenty', () => {
  expect(localesForRun(7, true)).toEqual([...LOCALES]);
  const seen = new Set<string>();
  for (let seed = 1000; seed < 1010; seed++) {
    const run = localesForRun(seed, false);
    expect(run.length).toBe(3);
    expect(run[0]).toBe('en');
    expect(new Set(run).size).toBe(3);
    for (const l of run) seen.add(l);
  }
  expect([...seen].sort()).toEqual([...LOCALES].sort());
});
