/**
 * A capacity search set against a baseline (the report.json of an earlier search, e.g. of the last
 * release): it regresses when its capacity falls below the baseline's by more than the tolerance, or when
 * it found none where the baseline had one. Only the capacity is compared: the latencies at two different
 * rates say nothing about each other.
 */
import { readFileSync } from 'node:fs';
import { pathFromWorkDir } from '../../../core/settings/roots.ts';
import type { BaselineComparison, CapacityReport } from '../report.ts';

/** Default tolerance: a capacity search is repeatable within about ±10 % (npm run bench:capacity). */
export const DEFAULT_CAPACITY_TOLERANCE = 0.1;

export function readCapacityBaseline(file: string): CapacityReport {
  let r: CapacityReport;
  try {
    r = JSON.parse(readFileSync(file, 'utf8')) as CapacityReport;
  } catch (err) {
    throw new Error(`cannot read the baseline ${file}: ${(err as Error).message}`);
  }
  if (!r || !('capacity' in r) || !Array.isArray(r.steps))
    throw new Error(`${file} is not the report.json of a capacity search (wfcheck load capacity)`);
  return r;
}

export function compareCapacity(
  baseline: CapacityReport,
  current: CapacityReport,
  file: string,
  tolerance = DEFAULT_CAPACITY_TOLERANCE,
): BaselineComparison {
  const base = baseline.capacity?.lifecyclesPerS ?? null;
  const now = current.capacity?.lifecyclesPerS ?? 0;
  const change = base === null || base === 0 ? null : (now - base) / base;
  return {
    file: pathFromWorkDir(file),
    lifecyclesPerS: base,
    change,
    tolerance,
    regressed: base !== null && base > 0 && (change ?? 0) < -tolerance,
  };
}
