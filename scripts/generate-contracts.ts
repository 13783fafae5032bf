/**
 * `npm run contracts` generates contracts/generated/ from contracts/openapi.yaml;
 * `npm run contracts:check` fails when the committed files are stale.
 */
import { join } from 'node:path';
import { generate, repoRoot, staleFiles } from '../contracts/codegen/codegen.ts';

async function main(): Promise<void> {
  if (process.argv.includes('--check')) {
    const stale = await staleFiles();
    if (stale.length) {
      console.error(`Generated contracts are stale; run \`npm run contracts\` and commit:\n  ${stale.join('\n  ')}`);
      process.exit(1);
    }
    console.log('contracts/generated is up to date with contracts/openapi.yaml');
    return;
  }
  const files = await generate(join(repoRoot, 'contracts'));
  console.log(`generated contracts/generated/{${files.join(',')}}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
