/**
 * The report kit, and the conformance report built with it. The kit: one document model (document.ts),
 * one summary model shared by every report (summary.ts: findings, history, the run in a few lines), one
 * escaper per format (escape.ts), one renderer per format (render/: console, Markdown, HTML, JUnit,
 * job summary) and the one table of the formats a report is written in (formats.ts). The conformance
 * report's renderings (console summary, report.md, report.html, report.junit.xml, summary.md) are all
 * built from the same report object; none adds information the JSON does not have.
 */
export { footprintText, headline } from './common.ts';
export { conformanceHtml, conformanceJobSummary, conformanceMarkdown, conformanceViews } from './conformance.ts';
export { conformanceConsole } from './console.ts';
export { conformanceJunit } from './conformance-junit.ts';
export {
  type FormatName,
  type RenderedReport,
  REPORT_FILES,
  REPORT_FORMATS,
  renderReport,
  type ReportViews,
} from '../../core/report/formats.ts';
