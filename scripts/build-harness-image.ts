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
import { buildHarnessImage, HARNESS_IMAGE_OPTIONS } from '../image/build.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

async function main(): Promise<number> {
  const { values } = parseArgs({ options: HARNESS_IMAGE_OPTIONS, strict: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  return buildHarnessImage(values);
}

runCommand('harness:image', main, { usage: USAGE, failure: (err) => err.message, failureCode: 1 });
