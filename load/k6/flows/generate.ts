/**
 * Generate: a plan from a seeded prompt, at the profile's low, bounded rate. Each call creates a canvas
 * unless overwrite is allowed (WFCHECK_ALLOW_OVERWRITE), in which case every call overwrites the one
 * canvas setup chose; the canvases created are counted (canvases_created) so the footprint is reported.
 */
import type { LoadConfig } from '../lib/config.ts';
import { api, jsonField } from '../lib/api.ts';
import type { SetupData } from '../lib/discovery.ts';
import { pick, vuRandom } from '../lib/seeded.ts';
import { canvasesCreated } from '../lib/metrics.ts';

function prompt(keywords: readonly string[], rnd: () => number): string {
  return `Research ${pick(keywords, rnd)} every week, summarise the findings in a report and email it to the team`;
}

/** One generate call; returns the canvas it answered with. Counts a created canvas when none was overwritten. */
export function generateOnce(
  cfg: LoadConfig,
  keywords: readonly string[],
  rnd: () => number,
  canvasId?: string,
): string | undefined {
  const res = api.generateWorkflow(cfg, {
    query: prompt(keywords, rnd),
    locale: 'en',
    ...(canvasId ? { canvasId } : {}),
  });
  const answered = res.status === 200 ? jsonField(res, 'data.canvasId') : undefined;
  if (res.status === 200 && !canvasId) canvasesCreated.add(1);
  return answered;
}

export function generate(cfg: LoadConfig, data: SetupData): void {
  generateOnce(cfg, data.keywords, vuRandom(cfg.seed), data.overwriteCanvasId);
}
