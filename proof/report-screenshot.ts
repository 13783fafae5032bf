/**
 * `npm run report:screenshot` (scripts/report-screenshot.ts parses its command line): a PNG of a
 * conformance report page, or of the demo report of ten synthetic runs, taken by headless chromium once
 * the page's trend chart has drawn.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { OptionValues } from '../core/settings/command.ts';
import { CONFORMANCE_OUT_DIR } from '../core/settings/run-config.ts';
import { commandLine } from '../core/settings/invocation.ts';
import { positiveInt, SettingError } from '../core/settings/rules.ts';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing } from './browser.ts';
import { demoReportHtml } from './demo/history-demo.ts';

export const REPORT_SCREENSHOT_OPTIONS = {
  page: { type: 'string' },
  demo: { type: 'boolean' },
  out: { type: 'string' },
  width: { type: 'string' },
  height: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Photographs the page the options `values` name and prints the PNG's path; the exit code. */
export function takeReportScreenshot(values: OptionValues<typeof REPORT_SCREENSHOT_OPTIONS>): number {
  const missing = chromiumMissing();
  if (missing) throw new SettingError(missing);
  const out = resolve(values.out ?? join(CONFORMANCE_OUT_DIR, 'report.png'));
  const scratch = mkdtempSync(join(tmpdir(), 'wfcheck-screenshot-'));
  try {
    const page = values.demo
      ? join(scratch, 'report.html')
      : resolve(values.page ?? join(CONFORMANCE_OUT_DIR, 'report.html'));
    if (values.demo) writeFileSync(page, demoReportHtml());
    else if (!existsSync(page))
      throw new SettingError(`${page} does not exist (run ${commandLine('conformance')} first, or use --demo)`);
    mkdirSync(dirname(out), { recursive: true });
    const size = `${positiveInt(values.width, '--width', 1400)},${positiveInt(values.height, '--height', 1600)}`;
    // The virtual-time budget lets the inline chart script run before the picture is taken.
    execFileSync(
      CHROMIUM,
      [
        ...CHROMIUM_ARGS,
        '--hide-scrollbars',
        `--window-size=${size}`,
        '--virtual-time-budget=3000',
        `--user-data-dir=${join(scratch, 'profile')}`,
        `--screenshot=${out}`,
        pathToFileURL(page).href,
      ],
      { stdio: 'pipe' },
    );
    console.log(out);
    return 0;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
