/**
 * Readable renderings of the conformance report: console summary, Markdown (CI logs, pull requests),
 * a self-contained HTML page and JUnit XML. All are built from the same report object; none adds
 * information the JSON does not have. Each lives in render/, split by section.
 */
export { headline, footprintText } from './common.ts';
export { renderConsoleSummary } from './console.ts';
export { renderHtml } from './html.ts';
export { renderJunit } from './junit.ts';
export { renderMarkdown } from './markdown.ts';
