/**
 * A capacity search's report put together (the capacity and knee from its steps, the generator's ceiling,
 * the baseline) and written into its folder in the formats of the report kit's one table
 * (core/report/formats.ts: the model as JSON, the text, JUnit, the page), with the k6-operator
 * manifest at the rate found beside them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FormatName, REPORT_FORMATS, type RenderedReport, renderReport } from '../../../core/report/formats.ts';
import { writeWhole } from '../../../core/outputs/output-folder.ts';
import type { CapacityPoint } from '../../../core/history-store/capacity.ts';
import type { StepFigures } from '../figures.ts';
import {
  type BaselineComparison,
  type CapacityMeta,
  type CapacityReport,
  capacityJunit,
  capacityText,
  CEILING_SHARE,
  type GeneratorCeiling,
  resultOf,
} from '../report.ts';
import type { SearchEnd } from '../search.ts';
import { capacityPage } from './page.ts';
import { LOAD_DIR } from '../../node/run-k6.ts';

/** The formats a capacity search writes. */
const CAPACITY_FORMATS = ['json', 'text', 'junit', 'html'] as const satisfies readonly FormatName[];

/** The names of the report's files in the search's folder. */
export const CAPACITY_REPORT_FILES: readonly string[] = CAPACITY_FORMATS.map((f) => REPORT_FORMATS[f].file);

/** The k6-operator TestRun that holds a found rate on a cluster (load/k8s/capacity-testrun.yaml). */
export const CAPACITY_MANIFEST = 'capacity-testrun.yaml';
const RATE_TAG = /capacity_rate=[\d.]+/;

export interface ReportInput {
  meta: CapacityMeta;
  steps: StepFigures[];
  end: SearchEnd;
  ended: string;
  ceiling: { requestsPerS: number | null; source: string };
}

export function buildCapacityReport(
  i: ReportInput,
  baseline?: (r: CapacityReport) => BaselineComparison,
): CapacityReport {
  const { capacity, knee } = resultOf(i.steps, i.end);
  const ceiling = i.ceiling.requestsPerS;
  const generator: GeneratorCeiling = {
    ...i.ceiling,
    reached:
      ceiling !== null && capacity !== null && capacity.requestsPerS >= CEILING_SHARE * ceiling * i.meta.instances,
  };
  const report: CapacityReport = {
    meta: i.meta,
    capacity,
    knee,
    end: i.end,
    ended: i.ended,
    generator,
    steps: i.steps,
    passed: capacity !== null,
  };
  // A search that did not converge has no capacity to set against the baseline's: it is not compared.
  if (!baseline || i.end === 'incomplete') return report;
  const comparison = baseline(report);
  return { ...report, baseline: comparison, passed: report.passed && !comparison.regressed };
}

/** Writes the report's formats and, when a rate held, the manifest at that rate; returns what was written. */
export function writeCapacityReport(dir: string, r: CapacityReport, history: readonly CapacityPoint[]): string[] {
  const files: RenderedReport[] = renderReport({
    json: r,
    text: capacityText(r),
    junit: capacityJunit(r),
    html: capacityPage(r, history),
  });
  for (const { file, text } of files) writeWhole(join(dir, file), text);
  const written = files.map((f) => f.file);
  if (r.capacity) {
    const template = readFileSync(join(LOAD_DIR, 'k8s', CAPACITY_MANIFEST), 'utf8');
    writeFileSync(
      join(dir, CAPACITY_MANIFEST),
      template.replace(RATE_TAG, `capacity_rate=${r.capacity.lifecyclesPerS}`),
    );
    written.push(CAPACITY_MANIFEST);
  }
  return written;
}
