/**
 * Merges the metric samples of several k6 processes (execution segments of
 * one test, each written with `--out json=…`) and evaluates the suite's
 * thresholds on the merged data: k6 alone evaluates thresholds per instance,
 * which says nothing about the p95 of the whole test.
 *
 * Aggregations follow k6's own definitions (percentiles by linear
 * interpolation between closest ranks, rates as passes / all, counter rate per
 * second of test time).
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseThresholdKey, type MetricSelector, type Thresholds } from '../k6/lib/thresholds.ts';
import {
  thresholdResult,
  TREND_STATS,
  type MetricSummary,
  type RunMeta,
  type RunReport,
} from '../k6/lib/run-report.ts';

/** `0,1/3,2/3,1` and the i-th segment `i/N:(i+1)/N`, in k6's rational notation, for N processes. */
export function executionSegments(n: number): { sequence: string; parts: string[] } {
  const point = (i: number) => (i === 0 ? '0' : i === n ? '1' : `${i}/${n}`);
  return {
    sequence: Array.from({ length: n + 1 }, (_, i) => point(i)).join(','),
    parts: Array.from({ length: n }, (_, i) => `${point(i)}:${point(i + 1)}`),
  };
}

type MetricType = MetricSummary['type'];

interface Accumulator {
  type: MetricType;
  values: number[];
  sum: number;
  count: number;
  nonZero: number;
  last: number;
  min: number;
  max: number;
}

const newAccumulator = (type: MetricType): Accumulator => ({
  type,
  values: [],
  sum: 0,
  count: 0,
  nonZero: 0,
  last: 0,
  min: Infinity,
  max: -Infinity,
});

function add(acc: Accumulator, value: number): void {
  acc.count++;
  acc.sum += value;
  if (value !== 0) acc.nonZero++;
  acc.last = value;
  acc.min = Math.min(acc.min, value);
  acc.max = Math.max(acc.max, value);
  if (acc.type === 'trend') acc.values.push(value);
}

/** k6's percentile: linear interpolation between the closest ranks of the sorted samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  if (sorted.length === 1) return sorted[0];
  const i = p * (sorted.length - 1);
  const lo = sorted[Math.floor(i)];
  const hi = sorted[Math.ceil(i)];
  return lo + (hi - lo) * (i - Math.floor(i));
}

export function summarise(acc: Accumulator, durationS: number): MetricSummary {
  switch (acc.type) {
    case 'counter':
      return { type: 'counter', values: { count: acc.sum, rate: durationS > 0 ? acc.sum / durationS : 0 } };
    case 'gauge':
      return {
        type: 'gauge',
        values: acc.count ? { value: acc.last, min: acc.min, max: acc.max } : { value: 0, min: 0, max: 0 },
      };
    case 'rate':
      return {
        type: 'rate',
        values: acc.count
          ? { rate: acc.nonZero / acc.count, passes: acc.nonZero, fails: acc.count - acc.nonZero }
          : { passes: 0, fails: 0 },
      };
    case 'trend': {
      const sorted = [...acc.values].sort((a, b) => a - b);
      const values: Record<string, number> = {};
      for (const stat of TREND_STATS) {
        const p = stat.match(/^p\((\d+(?:\.\d+)?)\)$/);
        if (p) values[stat] = percentile(sorted, Number(p[1]) / 100);
        else if (stat === 'avg') values.avg = acc.count ? acc.sum / acc.count : 0;
        else if (stat === 'min') values.min = acc.count ? acc.min : 0;
        else if (stat === 'max') values.max = acc.count ? acc.max : 0;
        else if (stat === 'med') values.med = percentile(sorted, 0.5);
        else if (stat === 'count') values.count = acc.count;
      }
      return { type: 'trend', values };
    }
  }
}

interface JsonLine {
  type: 'Metric' | 'Point';
  metric: string;
  data: { type?: MetricType; value?: number; time?: string; tags?: Record<string, string> | null };
}

const matches = (sel: MetricSelector, metric: string, tags: Record<string, string>) =>
  sel.metric === metric && Object.entries(sel.tags).every(([k, v]) => tags[k] === v);

export interface MergeResult {
  metrics: Record<string, MetricSummary>;
  durationMs: number;
  samples: number;
}

/**
 * Reads k6 NDJSON outputs and aggregates every metric plus one sub-metric per
 * threshold key with tag filters.
 */
export async function mergeK6Json(files: readonly string[], thresholds: Thresholds): Promise<MergeResult> {
  const types = new Map<string, MetricType>();
  const base = new Map<string, Accumulator>();
  const selectors = Object.keys(thresholds)
    .map((key) => ({ key, sel: parseThresholdKey(key) }))
    .filter((s) => Object.keys(s.sel.tags).length > 0);
  const sub = new Map<string, Accumulator>();
  let first = Infinity;
  let last = -Infinity;
  let samples = 0;
  for (const file of files) {
    const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
    for await (const line of lines) {
      if (!line) continue;
      const rec = JSON.parse(line) as JsonLine;
      if (rec.type === 'Metric') {
        if (rec.data.type) types.set(rec.metric, rec.data.type);
        continue;
      }
      if (rec.type !== 'Point' || typeof rec.data.value !== 'number') continue;
      const type = types.get(rec.metric);
      if (!type) throw new Error(`${file}: sample of ${rec.metric} before its Metric declaration`);
      samples++;
      const t = rec.data.time ? Date.parse(rec.data.time) : NaN;
      if (Number.isFinite(t)) {
        first = Math.min(first, t);
        last = Math.max(last, t);
      }
      let acc = base.get(rec.metric);
      if (!acc) {
        acc = newAccumulator(type);
        base.set(rec.metric, acc);
      }
      add(acc, rec.data.value);
      const tags = rec.data.tags ?? {};
      for (const { key, sel } of selectors) {
        if (!matches(sel, rec.metric, tags)) continue;
        let s = sub.get(key);
        if (!s) {
          s = newAccumulator(type);
          sub.set(key, s);
        }
        add(s, rec.data.value);
      }
    }
  }
  const durationMs = Number.isFinite(first) ? last - first : 0;
  const metrics: Record<string, MetricSummary> = {};
  for (const [name, acc] of base) metrics[name] = summarise(acc, durationMs / 1000);
  for (const { key, sel } of selectors) {
    const type = types.get(sel.metric);
    if (type) metrics[key] = summarise(sub.get(key) ?? newAccumulator(type), durationMs / 1000);
  }
  return { metrics, durationMs, samples };
}

/** Evaluates the thresholds on merged metrics and builds the run report. */
export function evaluateMerged(
  merged: MergeResult,
  thresholds: Thresholds,
  meta: Omit<RunMeta, 'durationMs'>,
): RunReport {
  const results = Object.entries(thresholds)
    .flatMap(([metric, exprs]) => exprs.map((e) => thresholdResult(metric, e, merged.metrics[metric])))
    .sort((a, b) => a.metric.localeCompare(b.metric) || a.expression.localeCompare(b.expression));
  return {
    meta: { ...meta, durationMs: merged.durationMs },
    passed: results.every((r) => r.ok),
    thresholds: results,
    metrics: merged.metrics,
  };
}
