/**
 * `npm run bench:contracts` — validations per second for a status, an output and a search response,
 * measured side by side in one run:
 *   compiled     Ajv compiling the schema bundle at start-up (what a naive harness would do)
 *   standalone   the generated validators (contracts/generated/validators.js), as scenarios use them
 *   k6 bundle    the same validators inside contracts/generated/check.k6.js
 *   checkResponse the whole checking API on body text (JSON parse + validation + semantic checks)
 * Figures vary run to run on a shared machine; compare the columns of one run.
 *
 * Env: BENCH_MS (per cell, default 1500).
 */
import { readFileSync } from 'node:fs';
import { printedHelp, runCommand, usageFromSource } from '../core/settings/command.ts';
import { readBenchSettings } from '../proof/bench/settings.ts';
import { benchContracts } from '../proof/bench/contracts.ts';

const USAGE = usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'));

async function main(): Promise<number> {
  if (printedHelp(USAGE)) return 0;
  await benchContracts(readBenchSettings().contractsMs);
  return 0;
}

runCommand('bench:contracts', main, { usage: USAGE, failureCode: 1 });
