/**
 * The files of a conformance run: its output directory cleared of a previous run's outputs, the
 * report written in every format of the report kit's table (JSON, Markdown, HTML, JUnit with one test
 * case per finding and per clause, and the job summary the GitHub Action shows), and every text artifact
 * scrubbed of keys last.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { containsSecret, redactSecrets } from '../../foundation/environment/redact.ts';
import type { ConformanceHistory } from '../../foundation/history/conformance.ts';
import type { ConformanceReport } from '../after/findings/report.ts';
import { conformanceViews, REPORT_FILES, renderReport } from '../after/report/index.ts';

/**
 * What a run writes into its output directory besides its report (and clears there first, with the
 * report's files; nothing else in it is touched): Playwright's outputs and the evidence.
 */
const RUN_OUTPUTS = [
  'html',
  'junit.xml',
  'playwright.json',
  'evidence',
  'bodies',
  'test-results',
  'blob-report',
  'shard.json',
];

/** Where the outputs other than the report go inside the run's directory. */
export function outputPaths(outDir: string) {
  return {
    playwright: join(outDir, 'html', 'index.html'),
    junit: join(outDir, 'junit.xml'),
    evidence: join(outDir, 'evidence'),
  };
}

export type OutputPaths = ReturnType<typeof outputPaths>;

/** Clears a previous run's outputs and creates the evidence directory; returns the paths. */
export function prepareOutputs(outDir: string): OutputPaths {
  for (const name of [...REPORT_FILES, ...RUN_OUTPUTS]) rmSync(join(outDir, name), { recursive: true, force: true });
  const paths = outputPaths(outDir);
  mkdirSync(paths.evidence, { recursive: true });
  return paths;
}

/** Writes the report in every format, keys redacted; `shard` (i/n) names the shard a sharded run's job summary is of. */
export function writeReportFiles(
  report: ConformanceReport,
  outDir: string,
  history?: ConformanceHistory,
  shard?: string,
): void {
  for (const { file, text } of renderReport(conformanceViews(report, history, shard)))
    writeFileSync(join(outDir, file), redactSecrets(text));
}

/** Final safety net: no artifact may contain a key. Scrubs text artifacts; returns the files it changed. */
export function scrubArtifacts(dir: string): string[] {
  const scrubbed: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.size < 50 * 1024 * 1024 && /\.(json|jsonl|md|html|xml|txt|log)$/.test(name)) {
        const text = readFileSync(p, 'utf8');
        if (containsSecret(text)) {
          writeFileSync(p, redactSecrets(text));
          scrubbed.push(p);
        }
      }
    }
  };
  if (existsSync(dir)) walk(dir);
  return scrubbed;
}
