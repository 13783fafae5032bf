/**
 * The matrix in a real headless browser (Debian's chromium): the grid shows what matrix.json says,
 * cell by cell; the level filter and the "only where implementations differ" view hide exactly the
 * rows they should and keep the view in the URL, whose permalink opens the same view; a cell opens
 * its evidence; nothing is fetched and nothing is logged as an error; without JavaScript the grid is
 * whole. A screenshot of the "differs" view
 * is saved to reports/matrix-screenshot.png, and the time the page took to be usable is printed (a
 * figure, not a gate). Skipped, with the reason, only where chromium cannot be installed.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { openOffline } from '../proof/offline-page.testkit.ts';
import { PACKAGE_ROOT } from '../core/settings/roots.ts';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing } from '../proof/browser.ts';
import { writeSyntheticMatrix } from '../proof/demo/synthetic-matrix.ts';
import { buildMatrixSite } from './site.ts';

const NAMES = ['reference', 'go', 'python', 'vendor-a', 'vendor-b'];
const SCREENSHOT = join(PACKAGE_ROOT, 'reports', 'matrix-screenshot.png');

let dir: string;
let browser: Browser;
let json: {
  implementations: { key: string; label: string }[];
  requirements: {
    id: string;
    level: string;
    differs: boolean;
    failing: boolean;
    cells: Record<string, { verdict: string; title?: string }>;
  }[];
};

test.beforeAll(async () => {
  test.skip(Boolean(chromiumMissing()), chromiumMissing());
  dir = mkdtempSync(join(tmpdir(), 'wfcheck-matrix-browser-'));
  writeSyntheticMatrix(join(dir, 'history.sqlite'), { implementations: NAMES.length, nights: 10, names: NAMES });
  buildMatrixSite({ historyFile: join(dir, 'history.sqlite'), outDir: join(dir, 'site') });
  json = JSON.parse(readFileSync(join(dir, 'site', 'matrix.json'), 'utf8'));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});
test.afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Opens a page of the site from its folder (no server, no network); collects errors and any fetch. */
function open(path: string, hash = ''): Promise<{ page: Page; errors: string[] }> {
  return openOffline(browser, join(dir, 'site', path), { hash, width: 1500 });
}

/** The grid as the browser shows it: per visible requirement row, the verdict class and text of each cell. */
function visibleGrid(page: Page) {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLTableRowElement>('#grid tbody tr[data-level]'))
      .filter((tr) => !tr.hidden && tr.offsetParent !== null)
      .map((tr) => ({
        id: tr.id,
        cells: Array.from(tr.querySelectorAll('td.c')).map((td) => ({
          verdict: /\bv-([a-z-]+)/.exec(td.className)?.[1],
          text: td.textContent ?? '',
        })),
      })),
  );
}

test('the grid shows what matrix.json says, cell by cell', async () => {
  const { page, errors } = await open('index.html');
  const timing = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return { domContentLoaded: nav.domContentLoadedEventEnd, load: nav.loadEventEnd };
  });
  console.log(
    `matrix page (${NAMES.length} implementations × ${json.requirements.length} requirements × 10 runs): ` +
      `DOMContentLoaded ${timing.domContentLoaded.toFixed(0)} ms, load ${timing.load.toFixed(0)} ms`,
  );
  const headers = await page.locator('#grid thead th.impl a').allInnerTexts();
  expect(headers).toEqual(json.implementations.map((i) => i.label));
  const grid = await visibleGrid(page);
  expect(grid.map((r) => r.id)).toEqual(json.requirements.map((r) => r.id));
  for (const row of grid) {
    const want = json.requirements.find((r) => r.id === row.id)!;
    row.cells.forEach((cell, i) => {
      const w = want.cells[json.implementations[i]!.key]!;
      expect(cell.verdict, `${row.id} × ${json.implementations[i]!.label}`).toBe(w.verdict);
      if (w.title) expect(cell.text).toContain(w.title);
    });
  }
  await expect(page.locator('#shown')).toHaveText(
    `${json.requirements.length} of ${json.requirements.length} requirements shown`,
  );
  expect(errors).toEqual([]);
});

test('a filter and the "differs" view hide exactly the rows they should, and the permalink opens the view', async () => {
  const { page, errors } = await open('index.html');
  await page.selectOption('#filters select[name=level]', 'must');
  const musts = json.requirements.filter((r) => r.level === 'must');
  expect((await visibleGrid(page)).map((r) => r.id)).toEqual(musts.map((r) => r.id));
  expect(new URL(page.url()).hash).toBe('#level=must');

  await page.check('#filters input[name=differs]');
  const differing = musts.filter((r) => r.differs);
  expect(differing.length).toBeGreaterThan(0);
  expect(differing.length).toBeLessThan(musts.length);
  const shown = await visibleGrid(page);
  expect(shown.map((r) => r.id)).toEqual(differing.map((r) => r.id));
  // Every row left shows at least two different verdicts; a section with none left is hidden whole.
  for (const row of shown) expect(new Set(row.cells.map((c) => c.verdict)).size, row.id).toBeGreaterThan(1);
  const emptySections = await page.evaluate(
    () =>
      Array.from(document.querySelectorAll<HTMLElement>('#grid tbody')).filter(
        (b) => !b.hidden && !b.querySelector('tr[data-level]:not([hidden])'),
      ).length,
  );
  expect(emptySections).toBe(0);
  await expect(page.locator('#shown')).toHaveText(
    `${differing.length} of ${json.requirements.length} requirements shown`,
  );
  const permalink = await page.locator('#permalink').getAttribute('href');
  expect(permalink).toBe('#level=must&differs=1');
  await page.locator('#filters').evaluate((form) => form.scrollIntoView());
  mkdirSync(join(PACKAGE_ROOT, 'reports'), { recursive: true });
  await page.screenshot({ path: SCREENSHOT, fullPage: false });

  // The permalink, opened afresh, gives the same view.
  const again = await open('index.html', permalink!);
  expect((await visibleGrid(again.page)).map((r) => r.id)).toEqual(differing.map((r) => r.id));
  await expect(again.page.locator('#filters input[name=differs]')).toBeChecked();

  // Only failures: rows some implementation fails.
  await again.page.selectOption('#filters select[name=level]', '');
  await again.page.uncheck('#filters input[name=differs]');
  await again.page.check('#filters input[name=failures]');
  expect((await visibleGrid(again.page)).map((r) => r.id)).toEqual(
    json.requirements.filter((r) => r.failing).map((r) => r.id),
  );
  expect(new URL(again.page.url()).hash).toBe('#failures=1');
  expect([...errors, ...again.errors]).toEqual([]);
});

test("a cell opens its evidence on the implementation's page, with the cell's history", async () => {
  const { page, errors } = await open('index.html');
  const column = json.implementations.findIndex((i) => i.key === 'go');
  const failing = json.requirements.find((r) => r.cells.go?.verdict === 'fail')!;
  await page.locator(`tr[id="${failing.id}"] td.c`).nth(column).locator('a').click();
  expect(page.url()).toContain(`impl/go.html#r-${failing.id}`);
  const section = page.locator(`section[id="r-${failing.id}"]`);
  await expect(section).toBeInViewport();
  await expect(section.locator('h3')).toContainText('FAIL');
  await expect(section.locator('pre').first()).toContainText('authorization: Bearer ***');
  await expect(section.locator('pre').last()).toContainText('curl');
  await expect(section.locator('table.strip td')).toHaveCount(10);
  expect(errors).toEqual([]);
});

test('the open points: the page shows what matrix.json says, split first, and a holder opens its evidence', async () => {
  const { page, errors } = await open('open-points.html');
  const points = (
    json as unknown as {
      openPoints: { points: { point: string; split: boolean; tolerate?: string[]; values: { value: string }[] }[] };
    }
  ).openPoints.points;
  const rows = await page.locator('#points tbody tr').evaluateAll((trs) =>
    trs.map((tr) => ({
      id: tr.id,
      split: tr.getAttribute('data-split') === '1',
      values: Array.from(tr.querySelectorAll('td:nth-child(2) .pv .val')).map((v) => v.textContent),
      tolerate: Array.from(tr.querySelectorAll('td:nth-child(3) .val')).map((v) => v.textContent),
    })),
  );
  expect(rows).toEqual(
    points.map((p) => ({
      id: `p-${p.point}`,
      split: p.split,
      values: p.values.map((v) => v.value),
      tolerate: p.tolerate ?? [],
    })),
  );
  // Split points first, and the synthetic history splits on several.
  expect(rows.findIndex((r) => !r.split)).toBe(rows.filter((r) => r.split).length);
  expect(rows.filter((r) => r.split).length).toBeGreaterThan(2);
  await page.locator('tr[id="p-limit-status-E2005"] td a', { hasText: 'python' }).click();
  expect(page.url()).toContain('impl/python.html#p-limit-status-E2005');
  const section = page.locator('section[id="p-limit-status-E2005"]');
  await expect(section).toBeInViewport();
  await expect(section).toContainText('run over 100KB: HTTP 413 (E2005)');
  await section.locator('summary').first().click();
  await expect(section.locator('pre').last()).toContainText('${API_KEY}');
  expect(errors).toEqual([]);
});

test('without JavaScript the grid is whole: every row and cell is there, the filters are not offered', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1500, height: 1000 } });
  try {
    const page = await context.newPage();
    await page.goto(pathToFileURL(join(dir, 'site', 'index.html')).href);
    await expect(page.locator('#grid tbody tr[data-level]')).toHaveCount(json.requirements.length);
    await expect(page.locator('#grid td.c')).toHaveCount(json.requirements.length * json.implementations.length);
    await expect(page.locator('#filters')).toBeHidden();
    expect(await visibleGrid(page)).toHaveLength(json.requirements.length);
    await expect(page.locator('#interop-line')).toContainText('met by every implementation');
  } finally {
    await context.close();
  }
});
