/**
 * The one table of report formats: each format's name, the file it is written to in a run's folder, and
 * its renderer (as Playwright's runner keeps one table of its reporters). A mode hands in its report in
 * the forms it has (ReportViews: the model for JSON, a document for Markdown, a page for HTML, …) and
 * writes what renderReport gives back: conformance (scenarios/run/outputs.ts), explore
 * (explore/report/report-view.ts) and load (load/node/report-files.ts) all iterate this table. Adding a format is
 * a renderer in render/ (with its escaper in escape.ts) and a line here; each mode that can show it adds
 * its view.
 *
 * k6 does not iterate it: the k6 scripts may load only this kit's escaper and JUnit renderer (they run
 * outside Node), so a k6 run hands its report over as the JSON format's file and the Node side writes
 * every format from it.
 */
import type { Block } from './document.ts';
import { htmlPage, type HtmlPage } from './render/html.ts';
import { renderJobSummary } from './render/job-summary.ts';
import { type JunitDocument, renderJunit } from './render/junit.ts';
import { renderMarkdown } from './render/markdown.ts';
import type { RunSummary } from './summary.ts';

/** One format: the file it is written to, and how its view becomes that file's text. */
interface ReportFormat<View> {
  file: string;
  render: (view: View) => string;
}

function format<View>(file: string, render: (view: View) => string): ReportFormat<View> {
  return { file, render };
}

export const REPORT_FORMATS = {
  /** The report model itself, for machines: the GitHub Action, a merge, an import, a comparison. */
  json: format<unknown>('report.json', (model) => `${JSON.stringify(model, null, 2)}\n`),
  markdown: format<readonly Block[]>('report.md', renderMarkdown),
  /** A self-contained page (its style inlined: it opens offline). */
  html: format<HtmlPage>('report.html', htmlPage),
  /** For CI dashboards: test cases failed, skipped or passed. */
  junit: format<JunitDocument>('report.junit.xml', renderJunit),
  /** The GitHub job summary: the verdict, then the findings, cut to the size a summary may have. */
  jobSummary: format<RunSummary>('summary.md', renderJobSummary),
  /** Plain text laid out by its mode (the load run's aligned figures, which k6 prints as they are). */
  text: format<string>('report.txt', (text) => text),
};

export type FormatName = keyof typeof REPORT_FORMATS;

/** A report in the forms a mode has it, one per format it writes: the input of that format's renderer. */
export type ReportViews = { [F in FormatName]?: Parameters<(typeof REPORT_FORMATS)[F]['render']>[0] };

/** One format of a report, rendered: the file it goes to (a name in the run's folder) and its text. */
export interface RenderedReport {
  format: FormatName;
  file: string;
  text: string;
}

/** Every format the views cover, rendered, in the table's order. */
export function renderReport(views: ReportViews): RenderedReport[] {
  const out: RenderedReport[] = [];
  for (const name of Object.keys(REPORT_FORMATS) as FormatName[]) {
    const view = views[name];
    const { file, render } = REPORT_FORMATS[name] as ReportFormat<typeof view>;
    if (view !== undefined) out.push({ format: name, file, text: render(view) });
  }
  return out;
}

/** The file names of every format, for clearing a previous run's outputs. */
export const REPORT_FILES: readonly string[] = Object.values(REPORT_FORMATS).map((f) => f.file);
