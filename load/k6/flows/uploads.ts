/** Uploads: one to three seeded files per request under the `files` field. */
import { sleep } from 'k6';
import type { LoadConfig } from '../lib/config.ts';
import { api } from '../lib/api.ts';
import { uploadSamples } from '../lib/data.ts';
import { pick, vuRandom } from '../lib/seeded.ts';

export function uploads(cfg: LoadConfig): void {
  const rnd = vuRandom(cfg.seed);
  const count = 1 + Math.floor(rnd() * 3);
  const files = Array.from({ length: count }, () => pick(uploadSamples, rnd));
  api.uploadFiles(cfg, files);
  if (cfg.thinkTimeS > 0) sleep(cfg.thinkTimeS);
}
