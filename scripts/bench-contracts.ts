/**
 * `npm run bench:contracts` — validations per second for a status, an output and a search response,
 * measured side by side in one run:
 *   compiled     Ajv compiling the schema bundle at start-up (what a naive harness would do)
 *   standalone   the generated validators (contracts/generated/validators.js), as scenarios use them
 *   k6 bundle    the same validators inside contracts/generated/check.k6.js
 *   checkResponse the whole checking API on body text (JSON parse + validation + semantic checks)
 * Figures vary run to run on a shared machine; compare the columns of one run.
 */
import { newAjv, schemaBundle, SCHEMA_BUNDLE_ID } from '../contracts/codegen/generate.ts';
import * as standalone from '../contracts/generated/validators.js';
import { checkResponse } from '../contracts/check.ts';
import { OPERATIONS } from '../contracts/generated/operations.ts';
import { CHECK_SAMPLES } from '../proof/bench/k6/check-samples.ts';
import { readFileSync } from 'node:fs';
import YAML from 'yaml';

/** The same response bodies the k6 check-cost benchmark uses, so Node and k6 figures compare. */
const SAMPLES = CHECK_SAMPLES.filter((s) => s.status === 200).map((s) => ({
  ...s,
  schema: OPERATIONS[s.operation].responses['200']!.schema as keyof typeof standalone,
  parsed: JSON.parse(s.body) as unknown,
}));

const DURATION_MS = Number(process.env.BENCH_MS ?? 1500);

/** Runs fn repeatedly for DURATION_MS (after a warm-up) and returns calls per second. */
function rate(fn: () => unknown): number {
  const warmUntil = performance.now() + 200;
  while (performance.now() < warmUntil) fn();
  let calls = 0;
  const start = performance.now();
  let now = start;
  while (now - start < DURATION_MS) {
    for (let i = 0; i < 1000; i++) fn();
    calls += 1000;
    now = performance.now();
  }
  return (calls / (now - start)) * 1000;
}

async function main(): Promise<void> {
  const doc = YAML.parse(readFileSync(new URL('../contracts/openapi.yaml', import.meta.url), 'utf8'));
  const ajv = newAjv({ standalone: false });
  ajv.addSchema(schemaBundle(doc));
  const k6 = await import('../contracts/generated/check.k6.js' as string);

  const fmt = (n: number) => Math.round(n).toLocaleString('en-US').padStart(12);
  console.log(`validations per second (${DURATION_MS} ms per cell, node ${process.version})`);
  console.log(
    `${'response'.padEnd(22)} ${'compiled'.padStart(12)} ${'standalone'.padStart(12)} ${'checkResponse'.padStart(14)} ${'k6 bundle'.padStart(12)}   body bytes`,
  );
  for (const s of SAMPLES) {
    const compiled = ajv.getSchema(`${SCHEMA_BUNDLE_ID}#/$defs/${s.schema}`)!;
    const generated = standalone[s.schema];
    const text = s.body;
    const input = { operation: s.operation, status: 200, headers: { 'content-type': 'application/json' }, body: text };
    if (!compiled(s.parsed) || !generated(s.parsed) || checkResponse(input).length || k6.checkResponse(input).length) {
      throw new Error(`sample ${s.name} does not validate`);
    }
    const r = [
      rate(() => compiled(s.parsed)),
      rate(() => generated(s.parsed)),
      rate(() => checkResponse(input)),
      rate(() => k6.checkResponse(input)),
    ];
    console.log(
      `${s.name.padEnd(22)} ${fmt(r[0]!)} ${fmt(r[1]!)} ${fmt(r[2]!).padStart(14)} ${fmt(r[3]!)}   ${text.length}`,
    );
  }
  console.log('goal: ≥ 500,000/s for a status response (standalone validator)');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
