/**
 * `npm run independent:build`: builds the implementations of the specification written apart from the
 * harness (fixtures/independent/: Go, Python, Spring Boot, NestJS, Django), by starting each once and
 * stopping it, so that the tests that run against them spend no time building. An implementation whose
 * toolchain is missing here is skipped with the reason. CI runs it before the tests.
 *
 *   npm run independent:build [-- kind …]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { buildIndependent } from '../fixtures/independent/build.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: { help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  return buildIndependent(positionals);
}

runCommand('independent:build', main, { usage: USAGE, failureCode: 1 });
