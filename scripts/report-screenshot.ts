/**
 * npm run report:screenshot -- [--page FILE] [--demo] [--out FILE.png] [--width PX] [--height PX]
 *
 * Writes a PNG of a conformance report page with its trend chart, for reviewers.
 * --page: the report to photograph (default reports/conformance/report.html);
 * --demo: instead, the report of ten synthetic runs with their trend.
 * --out: default reports/conformance/report.png. Needs /usr/bin/chromium.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { REPORT_SCREENSHOT_OPTIONS, takeReportScreenshot } from '../proof/report-screenshot.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

function main(): number {
  const { values } = parseArgs({ options: REPORT_SCREENSHOT_OPTIONS });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  return takeReportScreenshot(values);
}

runCommand('report:screenshot', main, { usage: USAGE });
