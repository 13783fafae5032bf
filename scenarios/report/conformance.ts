/**
 * The conformance report as one document, in the order a reader needs it — the findings (security
 * first), what changed, the clause verdicts, then coverage, observations and the run's details — and
 * its renderings: report.md, the self-contained report.html, and the job summary (summary.md). Every one
 * is redacted last.
 */
import { NODE_CLIENT_SPEAKS } from '../../core/connection/connection-facts.ts';
import { redactSecrets } from '../../core/settings/redact.ts';
import type { ConformanceHistory } from '../../core/history-store/conformance.ts';
import { clauseSections } from './clauses.ts';
import { connectionBlocks } from '../../core/report/connection.ts';
import { type Block, heading, paragraph } from '../../core/report/document.ts';
import { FINDINGS_INTRO, findingsFailingTheRun, findingSections, findingView } from './findings.ts';
import { historySections, historyView } from '../../core/report/history-view.ts';
import { conformanceJunitDocument } from './conformance-junit.ts';
import type { ReportViews } from '../../core/report/formats.ts';
import { htmlPage, type HtmlPage } from '../../core/report/render/html.ts';
import { renderJobSummary } from '../../core/report/render/job-summary.ts';
import { renderMarkdown } from '../../core/report/render/markdown.ts';
import { runSections } from './run-facts.ts';
import type { RunSummary } from '../../core/report/summary.ts';
import type { ConformanceReport } from '../../core/findings/build-report.ts';
import { headline, targetText } from './common.ts';

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#222;max-width:1400px}
h1{margin-bottom:.2rem} h2{margin-top:2rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}
.headline{font-size:1.3rem;font-weight:600;padding:.5rem 1rem;border-radius:6px;display:inline-block}
.exit-0{background:#e3f7e3}.exit-1{background:#fde2e2}.exit-2{background:#fff3cd}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem} td,th{border:1px solid #ddd;padding:.3rem .5rem;vertical-align:top;text-align:left}
th{background:#f4f4f4} .dim{color:#666;font-size:.9em} .note{color:#555;font-size:.9em}
.mark{display:inline-block;min-width:4.2em;text-align:center;font:600 11px/1.6 ui-monospace,Menlo,Consolas,monospace;letter-spacing:.04em;padding:0 .4em;border-radius:3px;border:1px solid #ccc;background:#f4f4f4;white-space:nowrap}
.m-fail{background:#c62828;color:#fff;border-color:transparent}.m-warn{background:#f2c037;color:#3a2a00;border-color:transparent}.m-pass{background:#e3f2e3;color:#1b5e20;border-color:#a5d6a7}
.m-waived{background:#f3ecc5;color:#5d4b00;border-color:#d8c777}.m-blocked{background:#ece2f7;color:#4a2a74;border-color:#c5b0e3}
.m-not-run{background:#eee;color:#555;border-color:#ccc}.m-observed{background:#e3ecfb;color:#1a4b8f;border-color:#b3c8ee}
.m-security{background:#5b0f0f;color:#fff;border-color:transparent}.m-server-error{background:#8a4b00;color:#fff;border-color:transparent}
.tag{display:inline-block;font-size:.8em;background:#eee;padding:0 .35rem;border-radius:3px;margin-right:.3rem}
.tag.security{background:#5b0f0f;color:#fff}.tag.server-error{background:#8a4b00;color:#fff}
.finding{border:1px solid #ddd;border-left:6px solid #c62828;border-radius:4px;padding:.6rem .9rem;margin:.8rem 0}
.finding.f-warn{border-left-color:#f2c037}.finding.f-waived{border-left-color:#d8c777}.finding.security{background:#fff6f6}
.finding h3{margin:.1rem 0 .3rem;font-size:1.05rem}.finding .fid{font-family:ui-monospace,Menlo,Consolas,monospace;margin-right:.4rem}
.finding ul{margin:.3rem 0} .caption{color:#666;font-size:.85em;margin-top:.4rem}
pre{background:#f7f7f7;padding:.5rem;overflow:auto;max-height:20rem;white-space:pre-wrap;margin:.3rem 0} pre.curl{background:#eef}
#reqs td:nth-child(2){white-space:nowrap} .rid{font-family:ui-monospace,Menlo,Consolas,monospace} td.seen{background:#e3f7e3} td.unseen{background:#fff3cd}
.filters button{margin-right:.3rem}
`;

function titleBlocks(r: ConformanceReport): Block[] {
  return [
    heading(1, 'wfcheck conformance report'),
    paragraph({ strong: headline(r) }, `headline exit-${r.exitCode}`),
    paragraph(['Target ', { code: targetText(r.meta) }, ` · seed ${r.meta.seed} · started ${r.meta.startedAt}`], 'dim'),
    ...connectionBlocks(r.meta.connection, { speaks: NODE_CLIENT_SPEAKS }),
  ];
}

/** The whole report, every format's content. */
export function conformanceDocument(r: ConformanceReport, history?: ConformanceHistory): Block[] {
  return [
    ...titleBlocks(r),
    ...findingSections(r.findings),
    ...historySections(history),
    ...clauseSections(r),
    ...runSections(r),
  ];
}

export function conformanceMarkdown(r: ConformanceReport, history?: ConformanceHistory): string {
  return redactSecrets(renderMarkdown(conformanceDocument(r, history)));
}

/** report.html: the whole report as a self-contained page. */
export function conformancePage(r: ConformanceReport, history?: ConformanceHistory): HtmlPage {
  return { title: `wfcheck conformance — ${headline(r)}`, style: STYLE, body: conformanceDocument(r, history) };
}

export function conformanceHtml(r: ConformanceReport, history?: ConformanceHistory): string {
  return redactSecrets(htmlPage(conformancePage(r, history)));
}

/** The run as its job summary shows it: the verdict, the failing findings, what changed since the last run. */
export function conformanceSummary(r: ConformanceReport, history?: ConformanceHistory, shard?: string): RunSummary {
  const failing = findingsFailingTheRun(r.findings);
  return {
    what: `wfcheck conformance${shard ? ` (shard ${shard})` : ''}`,
    headline: headline(r),
    context: titleBlocks(r).slice(2),
    findings: {
      title: 'Findings',
      count: failing.length,
      intro: FINDINGS_INTRO,
      none: 'None.',
      items: failing.map(findingView),
    },
    history: historyView(history),
    reportName: 'report.md',
  };
}

export function conformanceJobSummary(r: ConformanceReport, history?: ConformanceHistory, shard?: string): string {
  return redactSecrets(renderJobSummary(conformanceSummary(r, history, shard)));
}

/**
 * The report in every format a conformance run writes (the kit's table renders them): the JSON carries the
 * change against the previous run (the trend series stay in the history); `shard` (i/n) names the shard a
 * sharded run's job summary is of. Not yet redacted: the run's writer redacts every file.
 */
export function conformanceViews(r: ConformanceReport, history?: ConformanceHistory, shard?: string): ReportViews {
  const change = history && { runId: history.runId, skipped: history.skipped, change: history.change };
  return {
    json: history ? { ...r, history: change } : r,
    markdown: conformanceDocument(r, history),
    html: conformancePage(r, history),
    junit: conformanceJunitDocument(r),
    jobSummary: conformanceSummary(r, history, shard),
  };
}
