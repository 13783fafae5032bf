/**
 * The capacity page's charts, without a browser: two measurements at one rate are two points with the line
 * broken between them (no vertical segment that reads as a change the rate caused), and the history of a
 * target run without a name is labelled with its base URL, not its fingerprint.
 */
import { expect, test } from '@playwright/test';
import type { CapacityPoint } from '../../../core/history-store/capacity.ts';
import { historyChart, lineThroughRates } from './page.ts';

test('two measurements at one rate are two points, the line broken between them', () => {
  const points = [
    { x: 4, y: 10 },
    { x: 8, y: 20 },
    { x: 8, y: 22 },
    { x: 16, y: 40 },
  ];
  expect(lineThroughRates(points)).toEqual([
    { x: 4, y: 10 },
    { x: 8, y: 20 },
    { x: 8, y: null },
    { x: 8, y: 22 },
    { x: 16, y: 40 },
  ]);
  // Distinct rates are drawn as they are: nothing inserted.
  expect(lineThroughRates(points.filter((_, i) => i !== 2))).toEqual(points.filter((_, i) => i !== 2));
  expect(lineThroughRates([])).toEqual([]);
});

const point = (runId: number, name: string | null, lifecyclesPerS: number): CapacityPoint => ({
  runId,
  startedAt: '2026-01-01T00:00:00.000Z',
  target: 'a1b2c3d4e5f6',
  name,
  version: null,
  lifecyclesPerS,
  requestsPerS: lifecyclesPerS * 6,
  confirmed: true,
  kneeRate: null,
  kneeGate: null,
  generatorReached: false,
});

test("a history without a name is labelled with the target's base URL; named runs by their name", () => {
  const unnamed = historyChart([point(1, null, 30), point(2, null, 32)], 'http://127.0.0.1:4010/v1');
  expect(unnamed.data.datasets.map((d) => d.label)).toEqual(['http://127.0.0.1:4010/v1 (no --name given)']);
  expect(JSON.stringify(unnamed)).not.toContain('a1b2c3d4e5f6');
  expect(unnamed.data.datasets[0]!.data).toEqual([30, 32]);
  const named = historyChart([point(1, 'acme', 30), point(2, 'zeta', 12)], 'http://127.0.0.1:4010/v1');
  expect(named.data.datasets.map((d) => d.label)).toEqual(['acme', 'zeta']);
  expect(named.data.datasets[1]!.data).toEqual([null, 12]);
});
