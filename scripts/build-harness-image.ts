/**
 * `npm run harness:image`: builds (or reuses) the harness's container image, wfcheck:<version> and wfcheck:latest.
 *
 *   npm run harness:image [-- --base-image <ref> --rebuild]
 *
 *   --base-image <ref>  the Node 20 image to build on [BASE_IMAGE]; default local/node-base:20, assembled
 *                       from the host's node (node:20-slim where a registry is reachable)
 *   --rebuild           build even when an image with the same inputs exists
 *
 * Then: mkdir -p reports && docker run --rm --network host --user "$(id -u):$(id -g)" \
 *         -v "$PWD/reports:/work/reports" wfcheck conformance
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { inheritedEnvironment } from '../core/settings/child-environment.ts';
import { text } from '../core/settings/rules.ts';
import { ensureHarnessImage } from '../image/build.ts';
import { ensureK6 } from '../load/node/ensure-k6.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'base-image': { type: 'string' },
      rebuild: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  // BASE_IMAGE is the variable `npm run target:image` builds its image on, passed on as the same build argument.
  const baseImage = text(values['base-image']) ?? text(inheritedEnvironment({ only: ['BASE_IMAGE'] }).BASE_IMAGE);
  const log = (line: string) => console.log(line);
  // The k6 the harness uses (load/node/ensure-k6.ts): built from its Go module when absent; K6_BIN names another.
  const k6 = await ensureK6(log);
  const image = await ensureHarnessImage({ k6, baseImage, rebuild: values.rebuild, log });
  const mb = (image.sizeBytes / 1e6).toFixed(0);
  console.log(
    `${image.built ? 'built' : 'reused'} ${image.tags.join(', ')} (${mb} MB) in ${(image.ms / 1000).toFixed(1)} s`,
  );
  return 0;
}

runCommand('harness:image', main, { usage: USAGE, failure: (err) => err.message, failureCode: 1 });
