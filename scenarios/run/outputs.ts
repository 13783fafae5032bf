/**
 * The files of a conformance run (and of a merge of shards) in its output folder, which it owns while it
 * runs (core/outputs/output-folder.ts: locked, the previous run's outputs cleared by its
 * manifest, nothing of the user's touched):
 *
 * - `runs/<run id>/`: the run's own place while it goes — evidence, request bodies, Playwright's output
 *   dir and its reports as they are written. No other run writes there, and the verdict is read from it.
 * - the key scrub over the files this run wrote and nothing else, while they are still in its place;
 * - at the folder's top, once the run is over: the report in every format of the report kit's table, each
 *   file written whole or not at all, then Playwright's HTML report, JUnit and JSON (and a shard's blob
 *   report), moved up in one rename each. A run cut short leaves none of them, or a verdict without them.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { openOutputFolder, type OutputFolder } from '../../core/outputs/output-folder.ts';
import { redactSecrets } from '../../core/settings/redact.ts';
import type { ConformanceHistory } from '../../core/history-store/conformance.ts';
import type { ConformanceReport } from '../../core/findings/build-report.ts';
import { conformanceViews, REPORT_FILES, renderReport } from '../report/index.ts';

/** What moves from the run's place to the folder's top when the run is over: Playwright's outputs. */
const PUBLISHED = ['html', 'junit.xml', 'playwright.json', 'blob-report'];
/** Written by each shard at the top: who its target was, without its key or address in clear (history.ts). */
export const SHARD_FILE = 'shard.json';
/** Everything a conformance run writes at its folder's top. */
const CONFORMANCE_NAMES = [...REPORT_FILES, ...PUBLISHED, SHARD_FILE, 'runs'];

/** Opens a conformance verdict's folder for this run (`command`: `conformance` or `report merge`). */
export function openConformanceFolder(
  outDir: string,
  command: string,
  target: string,
  log: (line: string) => void,
): OutputFolder {
  return openOutputFolder(outDir, { mode: 'conformance', command, names: CONFORMANCE_NAMES, target, log });
}

/** The run's own place in its folder, where everything goes while it runs. */
export function runPlace(folder: OutputFolder): string {
  return join(folder.dir, 'runs', folder.runId);
}

/** Where the outputs other than the report are once the run is over (the console names them). */
export function outputPaths(folder: OutputFolder) {
  return {
    playwright: join(folder.dir, 'html', 'index.html'),
    junit: join(folder.dir, 'junit.xml'),
    evidence: join(runPlace(folder), 'evidence'),
  };
}

export type OutputPaths = ReturnType<typeof outputPaths>;

/** Claims the run's place and creates its evidence folder; returns the place. */
export function prepareOutputs(folder: OutputFolder): string {
  const place = runPlace(folder);
  folder.claim(join('runs', folder.runId));
  mkdirSync(join(place, 'evidence'), { recursive: true });
  return place;
}

/**
 * Moves Playwright's outputs from the run's place to the folder's top, where readers look for them;
 * returns the paths of `scrubbed` (files of the run's place) where they are now.
 */
export function publishRunnerOutputs(folder: OutputFolder, scrubbed: readonly string[] = []): string[] {
  const place = runPlace(folder);
  for (const name of PUBLISHED) if (existsSync(join(place, name))) folder.moveIn(join(place, name), name);
  return scrubbed.map((path) => {
    const name = PUBLISHED.find((n) => path === join(place, n) || path.startsWith(join(place, n, sep)));
    return name ? join(folder.dir, name, relative(join(place, name), path)) : path;
  });
}

/** Writes the report in every format, keys redacted; `shard` (i/n) names the shard a sharded run's job summary is of. */
export function writeReportFiles(
  report: ConformanceReport,
  folder: OutputFolder,
  history?: ConformanceHistory,
  shard?: string,
): void {
  for (const { file, text } of renderReport(conformanceViews(report, history, shard)))
    folder.write(file, redactSecrets(text));
}

/** A shard's record of its target, written at the folder's top for the merge. */
export function writeShardFile(folder: OutputFolder, text: string): void {
  folder.write(SHARD_FILE, text);
}
