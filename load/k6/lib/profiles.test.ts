/**
 * When a VU may be stopped after its iteration (where buffered contract checks must be flushed): at the
 * end of a constant run, wherever a ramp lowers the VU count (graceful ramp-down included), and at any
 * moment for an arrival-rate scenario, whose VUs may idle until the end.
 */
import { test, expect } from '@playwright/test';
import { executorFor, LOAD_PROFILES, stopWindows } from './profiles.ts';

test('a constant run may stop VUs only in its last moments', () => {
  const windows = stopWindows(executorFor(LOAD_PROFILES.throughput, 'statusRead', '10s'));
  expect(windows).toHaveLength(1);
  const [[from, to]] = windows;
  expect(from).toBeGreaterThan(9_000);
  expect(from).toBeLessThan(10_000);
  expect(to).toBe(Infinity);
});

test('a ramping run may stop VUs while it ramps down, and at its end', () => {
  // average: 20% up, 60% hold, 20% down over 50 s, graceful ramp-down 30 s.
  const windows = stopWindows(executorFor(LOAD_PROFILES.average, 'readMix', '50s'));
  expect(windows[0]).toEqual([40_000, 80_000]);
  expect(windows.at(-1)![1]).toBe(Infinity);
  expect(windows.at(-1)![0]).toBeGreaterThan(49_000);
  for (const [from] of windows) expect(from).toBeGreaterThanOrEqual(40_000); // never while ramping up or holding
});

test('a spike may stop VUs when it falls back to its baseline and to zero, not while it climbs', () => {
  // spike over 100 s: 30 s baseline, 10 s up, 30 s peak, 10 s down to baseline, 20 s to zero.
  const windows = stopWindows(executorFor(LOAD_PROFILES.spike, 'readMix', '100s'));
  expect(windows.slice(0, 2)).toEqual([
    [70_000, 110_000],
    [80_000, 130_000],
  ]);
  for (const [from] of windows) expect(from).toBeGreaterThanOrEqual(70_000);
});

test('an arrival-rate scenario may stop (or idle until the end) after any iteration', () => {
  expect(stopWindows(executorFor(LOAD_PROFILES.smoke, 'generate', '15s'))).toEqual([[0, Infinity]]);
});
