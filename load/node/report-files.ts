/**
 * A load run's report written in its formats, from the report kit's one table (core/report/formats.ts):
 * the model as JSON, its text (as k6 printed it) and its gates as JUnit test cases. Written on the Node side,
 * for a single run, each segment and the merged verdict of a distributed run alike: k6 only hands its
 * report over (load/k6/lib/run-report.ts REPORT_HANDOVER_FILE).
 */
import { join } from 'node:path';
import {
  type FormatName,
  type RenderedReport,
  REPORT_FORMATS,
  renderReport,
  type ReportViews,
} from '../../core/report/formats.ts';
import { writeWhole } from '../../core/outputs/output-folder.ts';
import { loadJunitDocument, loadReportText, type RunReport } from '../k6/lib/run-report.ts';

/** The formats a load run writes. */
const LOAD_FORMATS = ['json', 'junit', 'text'] as const satisfies readonly FormatName[];
type LoadFormat = (typeof LOAD_FORMATS)[number];

/** The names of the report's files in the run's folder. */
export const LOAD_REPORT_FILES: readonly string[] = LOAD_FORMATS.map((f) => REPORT_FORMATS[f].file);

/** The report in every format a load run writes. */
export function loadViews(r: RunReport): { [F in LoadFormat]-?: ReportViews[F] } {
  return { json: r, text: loadReportText(r), junit: loadJunitDocument(r) };
}

/** Writes the report's files into the run's folder; returns what was written. */
export function writeLoadReport(dir: string, r: RunReport): RenderedReport[] {
  const files = renderReport(loadViews(r));
  // Whole or not at all: a run killed while writing leaves no report that reads as its verdict.
  for (const { file, text } of files) writeWhole(join(dir, file), text);
  return files;
}
