/**
 * The one table of report formats: a file per format, none twice, and a report rendered in exactly the
 * formats its mode has views for, in the table's order, each by its format's renderer.
 */
import { expect, test } from '@playwright/test';
import { heading, paragraph } from './document.ts';
import { REPORT_FILES, REPORT_FORMATS, renderReport } from './formats.ts';

test('each format has a file of its own', () => {
  expect(new Set(REPORT_FILES).size).toBe(Object.keys(REPORT_FORMATS).length);
});

test('a report is rendered in the formats it has views for, in the order of the table', () => {
  const blocks = [heading(1, 'Title | <b>'), paragraph('text')];
  const files = renderReport({
    text: 'as laid out',
    markdown: blocks,
    json: { a: 1 },
    junit: { name: 'n', time: 0, suites: [{ name: 's', cases: [{ classname: 'c', name: 'x <y>' }] }] },
  });
  expect(files.map((f) => f.format)).toEqual(['json', 'markdown', 'junit', 'text']);
  expect(files.map((f) => f.file)).toEqual(['report.json', 'report.md', 'report.junit.xml', 'report.txt']);
  const text = Object.fromEntries(files.map((f) => [f.format, f.text]));
  expect(JSON.parse(text.json!)).toEqual({ a: 1 });
  expect(text.markdown).toBe(REPORT_FORMATS.markdown.render(blocks));
  expect(text.junit).toContain('name="x &lt;y&gt;"');
  expect(text.text).toBe('as laid out');
});
