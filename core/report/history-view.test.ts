/**
 * The trend pages in a real headless browser (Debian's chromium): the conformance report of the last
 * of ten recorded runs and the load trend page render offline, their charts are painted, and the page
 * logs no error. Skipped, with the reason, only where chromium cannot be installed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { openOffline } from '../../proof/offline-page.testkit.ts';
import { REQUIREMENTS } from '../../contracts/requirements.ts';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing } from '../../proof/browser.ts';
import { loadTrend } from '../history-store/queries.ts';
import { recordLoadRun, withHistory } from '../history-store/store.ts';
import { DEFAULT_SLO } from '../../load/k6/lib/thresholds.ts';
import { renderLoadTrendPage } from '../../load/node/trend-page.ts';
import { demoReportHtml } from '../../proof/demo/history-demo.ts';

let dir: string;
let browser: Browser;

test.beforeAll(async () => {
  test.skip(Boolean(chromiumMissing()), chromiumMissing());
  dir = mkdtempSync(join(tmpdir(), 'wfcheck-trend-page-'));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});
test.afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Opens a page from a file (no server, no network) and collects every console error and page error. */
function open(html: string, name: string): Promise<{ page: Page; errors: string[] }> {
  const file = join(dir, name);
  writeFileSync(file, html);
  return openOffline(browser, file);
}

/** Non-transparent pixels of a canvas: a chart that drew nothing has none. */
function paintedPixels(page: Page, id: string): Promise<number> {
  return page.evaluate((canvasId) => {
    const c = document.getElementById(canvasId) as HTMLCanvasElement;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
    return n;
  }, id);
}

test('the conformance report of ten recorded runs shows their trend chart and per-requirement strip', async () => {
  const { page, errors } = await open(demoReportHtml(10), 'report.html');
  await expect(page.locator('canvas#trend-chart')).toBeVisible();
  expect(await paintedPixels(page, 'trend-chart')).toBeGreaterThan(5000);
  await expect(page.locator('h2', { hasText: 'Trend over the last 10 run(s)' })).toBeVisible();
  await expect(page.locator('table.strip tr')).toHaveCount(REQUIREMENTS.length + 1);
  await expect(page.locator('table.strip tr').nth(1).locator('td.cell')).toHaveCount(10);
  // Requirement 1 of the synthetic history flips every night; night 9 → 10 takes it from pass to fail.
  await expect(page.locator('#history-change')).toContainText(`${REQUIREMENTS[1].id}: pass → fail → pass`);
  await expect(page.locator('#history-change')).toContainText(`Newly failing: ${REQUIREMENTS[1].id} (pass → fail)`);
  // Blocked and not run are both "not judged": moving between them is no flip.
  await expect(page.locator('#history-change')).not.toContainText(`${REQUIREMENTS[11].id}:`);
  expect(errors).toEqual([]);
});

test('the load trend page draws p95/p99 per operation with the release gates, and throughput', async () => {
  const { value: runs } = withHistory(join(dir, 'load.sqlite'), (db) => {
    for (let night = 0; night < 10; night++) {
      recordLoadRun(db, {
        startedAt: new Date(Date.UTC(2026, 0, 1 + night)).toISOString(),
        seed: night,
        harnessVersion: '0.1.0',
        target: 't',
        profile: 'smoke',
        passed: night !== 6,
        throughputRps: 40 + night,
        requests: 1000,
        operations: ['getExecutionStatus', 'runWorkflow'].map((operation, i) => ({
          operation,
          requests: 500,
          p95Ms: 100 + 20 * night + i * 50,
          p99Ms: 200 + 30 * night + i * 50,
        })),
      });
    }
    return loadTrend(db, 't', 30);
  });
  const { page, errors } = await open(renderLoadTrendPage(runs!, DEFAULT_SLO), 'trend.html');
  for (const id of ['throughput-chart', 'op-chart-0', 'op-chart-1'])
    expect(await paintedPixels(page, id), id).toBeGreaterThan(2000);
  // Each operation chart carries its two gates as datasets of the chart itself.
  const labels = await page.evaluate(() =>
    (
      window as unknown as { Chart: { getChart(id: string): { data: { datasets: { label: string }[] } } } }
    ).Chart.getChart('op-chart-0').data.datasets.map((d) => d.label),
  );
  expect(labels).toEqual(['p95 (ms)', 'p99 (ms)', 'p95 gate', 'p99 gate']);
  expect(errors).toEqual([]);
});
