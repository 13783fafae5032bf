/**
 * npm run report:screenshot -- [--page FILE] [--demo] [--out FILE.png] [--width PX] [--height PX]
 *
 * Writes a PNG of a conformance report page with its trend chart, for reviewers.
 * --page: the report to photograph (default reports/conformance/report.html);
 * --demo: instead, the report of ten synthetic runs with their trend.
 * --out: default reports/conformance/report.png. Needs /usr/bin/chromium.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CONFORMANCE_OUT_DIR } from '../core/settings/run-config.ts';
import { commandLine } from '../core/settings/invocation.ts';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { positiveInt, SettingError } from '../core/settings/rules.ts';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing } from '../proof/browser.ts';
import { demoReportHtml } from '../proof/demo/history-demo.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

function main(): number {
  const { values } = parseArgs({
    options: {
      page: { type: 'string' },
      demo: { type: 'boolean' },
      out: { type: 'string' },
      width: { type: 'string' },
      height: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
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

runCommand('report:screenshot', main, { usage: USAGE });
