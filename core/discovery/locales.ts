/**
 * The locales generate is asked for: the 20 of §4.8, and the share of them one run uses.
 */
import { SCHEMA_BUNDLE } from '../../contracts/generated/schemas.ts';

/** The 20 locales §4.8 lists, read from the contract (never written twice). */
export const LOCALES: readonly string[] = (SCHEMA_BUNDLE as unknown as { $defs: { Locale: { enum: string[] } } }).$defs
  .Locale.enum;

/** Two besides English: a run creates about five canvases in all, and ten successive seeds cover every locale. */
const LOCALES_PER_RUN_WITHOUT_OVERWRITE = 2;

/**
 * The locales a run generates in: every one when generations reuse one canvas; otherwise English and a
 * seed-rotated few, so a run against a target that forbids overwriting creates few canvases and
 * successive seeds still cover every locale.
 */
export function localesForRun(seed: number, allowOverwrite: boolean): string[] {
  if (allowOverwrite) return [...LOCALES];
  const others = LOCALES.filter((l) => l !== 'en');
  const start = (seed * LOCALES_PER_RUN_WITHOUT_OVERWRITE) % others.length;
  return [
    'en',
    ...Array.from({ length: LOCALES_PER_RUN_WITHOUT_OVERWRITE }, (_, i) => others[(start + i) % others.length]),
  ];
}
