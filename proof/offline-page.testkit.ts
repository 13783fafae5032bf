/**
 * A page of the harness's output opened in the headless browser as a reader opens an artifact: from its
 * file, with no server and no network. Every console error and page error is collected, and so is any
 * fetch the page tries (it is refused): a page that needs the network is broken once archived.
 */
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from '@playwright/test';

export async function openOffline(
  browser: Browser,
  file: string,
  options: { hash?: string; width?: number } = {},
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: options.width ?? 1400, height: 1000 } });
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.route(/^https?:/, (route) => {
    errors.push(`fetched ${route.request().url()}`);
    return route.abort();
  });
  await page.goto(pathToFileURL(file).href + (options.hash ?? ''));
  return { page, errors };
}
