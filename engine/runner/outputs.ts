/**
 * The files of a conformance run: its output directory cleared of a previous run's outputs, the
 * report written as JSON, Markdown, HTML, JUnit (one test case per finding, and per clause) and the
 * job summary (summary.md, which the GitHub Action shows), and every text artifact scrubbed of keys last.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { containsSecret, redactSecrets } from '../../foundation/environment/redact.ts';
import type { ConformanceHistory } from '../../foundation/history/conformance.ts';
import type { ConformanceReport } from '../after/findings/report.ts';
import {
  conformanceHtml,
  conformanceJobSummary,
  conformanceJunit,
  conformanceMarkdown,
} from '../after/report/index.ts';

/** What a run writes into its output directory (and clears there first; nothing else in it is touched). */
const OUTPUTS = [
  'report.json',
  'report.md',
  'report.html',
  'report.junit.xml',
  'summary.md',
  'html',
  'junit.xml',
  'playwright.json',
  'evidence',
  'bodies',
  'test-results',
  'blob-report',
  'shard.json',
];

/** Where the outputs go inside the run's directory. */
export function outputPaths(outDir: string) {
  return {
    markdown: join(outDir, 'report.md'),
    html: join(outDir, 'report.html'),
    json: join(outDir, 'report.json'),
    verdictJunit: join(outDir, 'report.junit.xml'),
    jobSummary: join(outDir, 'summary.md'),
    playwright: join(outDir, 'html', 'index.html'),
    junit: join(outDir, 'junit.xml'),
    evidence: join(outDir, 'evidence'),
  };
}

export type OutputPaths = ReturnType<typeof outputPaths>;

/** Clears a previous run's outputs and creates the evidence directory; returns the paths. */
export function prepareOutputs(outDir: string): OutputPaths {
  for (const name of OUTPUTS) rmSync(join(outDir, name), { recursive: true, force: true });
  const paths = outputPaths(outDir);
  mkdirSync(paths.evidence, { recursive: true });
  return paths;
}

/** Writes the report's files; `shard` (i/n) names the shard a sharded run's job summary is of. */
export function writeReportFiles(
  report: ConformanceReport,
  paths: OutputPaths,
  history?: ConformanceHistory,
  shard?: string,
): void {
  // The JSON carries the change against the previous run; the trend series stay in the history.
  const change = history && { runId: history.runId, skipped: history.skipped, change: history.change };
  writeFileSync(paths.json, redactSecrets(JSON.stringify(history ? { ...report, history: change } : report, null, 2)));
  writeFileSync(paths.markdown, conformanceMarkdown(report, history));
  writeFileSync(paths.html, conformanceHtml(report, history));
  writeFileSync(paths.verdictJunit, conformanceJunit(report));
  writeFileSync(paths.jobSummary, conformanceJobSummary(report, history, shard));
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
