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
import {
  INDEPENDENT_KINDS,
  independentMissing,
  STACKS,
  startIndependent,
  type IndependentKind,
} from '../fixtures/independent/launch.ts';

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
  const unknown = positionals.filter((k) => !INDEPENDENT_KINDS.includes(k as IndependentKind));
  if (unknown.length) {
    console.error(`unknown implementation(s): ${unknown.join(', ')}; known: ${INDEPENDENT_KINDS.join(', ')}`);
    return 2;
  }
  const kinds = positionals.length ? (positionals as IndependentKind[]) : INDEPENDENT_KINDS;
  let failed = 0;
  for (const kind of kinds) {
    const missing = independentMissing(kind);
    if (missing) {
      console.log(`${kind}: skipped: ${missing}`);
      continue;
    }
    const started = Date.now();
    try {
      const target = await startIndependent(kind, { speed: 1 });
      await target.stop();
      console.log(
        `${kind}: built and started in ${((Date.now() - started) / 1000).toFixed(1)} s (${STACKS[kind].stack})`,
      );
    } catch (err) {
      failed++;
      console.error(`${kind}: ${(err as Error).message}`);
    }
  }
  return failed ? 1 : 0;
}

runCommand('independent:build', main, { usage: USAGE, failureCode: 1 });
