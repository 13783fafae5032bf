/**
 * `npm run bench:contracts`: validations per second of the contract checks on the response bodies the k6
 * check-cost benchmark uses (proof/bench/k6/check-samples.ts), so that Node and k6 figures compare; the
 * columns are described in scripts/bench-contracts.ts. Figures vary run to run on a shared machine:
 * compare the columns of one run.
 */
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { checkResponse } from '../../contracts/check.ts';
import { newAjv, SCHEMA_BUNDLE_ID, schemaBundle } from '../../contracts/codegen/codegen.ts';
import { OPERATIONS } from '../../contracts/generated/operations.ts';
import * as validators from '../../contracts/generated/validators.js';
import type { Validator } from '../../contracts/generated/validators.js';
import { CHECK_SAMPLES } from './k6/check-samples.ts';

/** The generated validators by schema name. */
const STANDALONE = validators as unknown as Record<string, Validator>;

/** The samples with a served body, with the schema their operation's 200 answer names. */
const SAMPLES = CHECK_SAMPLES.filter((s) => s.status === 200).map((s) => ({
  ...s,
  schema: OPERATIONS[s.operation].responses['200']!.schema!,
  parsed: JSON.parse(s.body) as unknown,
}));

/** Runs fn repeatedly for durationMs (after a warm-up) and returns calls per second. */
function rate(fn: () => unknown, durationMs: number): number {
  const warmUntil = performance.now() + 200;
  while (performance.now() < warmUntil) fn();
  let calls = 0;
  const start = performance.now();
  let now = start;
  while (now - start < durationMs) {
    for (let i = 0; i < 1000; i++) fn();
    calls += 1000;
    now = performance.now();
  }
  return (calls / (now - start)) * 1000;
}

/** Measures every sample with every validator for durationMs each, printing a row per sample. */
export async function benchContracts(durationMs: number): Promise<void> {
  const doc = YAML.parse(readFileSync(new URL('../../contracts/openapi.yaml', import.meta.url), 'utf8'));
  const ajv = newAjv({ standalone: false });
  ajv.addSchema(schemaBundle(doc));
  const k6 = await import('../../contracts/generated/check.k6.js' as string);

  const fmt = (n: number) => Math.round(n).toLocaleString('en-US').padStart(12);
  console.log(`validations per second (${durationMs} ms per cell, node ${process.version})`);
  console.log(
    `${'response'.padEnd(22)} ${'compiled'.padStart(12)} ${'standalone'.padStart(12)} ${'checkResponse'.padStart(14)} ${'k6 bundle'.padStart(12)}   body bytes`,
  );
  for (const s of SAMPLES) {
    const compiled = ajv.getSchema(`${SCHEMA_BUNDLE_ID}#/$defs/${s.schema}`)!;
    const generated = STANDALONE[s.schema]!;
    const text = s.body;
    const input = { operation: s.operation, status: 200, headers: { 'content-type': 'application/json' }, body: text };
    if (!compiled(s.parsed) || !generated(s.parsed) || checkResponse(input).length || k6.checkResponse(input).length) {
      throw new Error(`sample ${s.name} does not validate`);
    }
    const r = [
      rate(() => compiled(s.parsed), durationMs),
      rate(() => generated(s.parsed), durationMs),
      rate(() => checkResponse(input), durationMs),
      rate(() => k6.checkResponse(input), durationMs),
    ];
    console.log(
      `${s.name.padEnd(22)} ${fmt(r[0]!)} ${fmt(r[1]!)} ${fmt(r[2]!).padStart(14)} ${fmt(r[3]!)}   ${text.length}`,
    );
  }
  console.log('goal: ≥ 500,000/s for a status response (standalone validator)');
}
