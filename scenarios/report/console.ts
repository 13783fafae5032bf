/**
 * The few lines a conformance run prints when it ends: the headline, the run, and one line per finding
 * with its reproducer, so that the console alone says what is wrong.
 */
import { redactSecrets } from '../../core/settings/redact.ts';
import { type Block, fields, paragraph } from '../../core/report/document.ts';
import { findingView } from './findings.ts';
import { renderConsole } from '../../core/report/render/console.ts';
import { findingItems } from '../../core/report/summary.ts';
import { replayCommand } from './run-facts.ts';
import type { ConformanceReport } from '../../core/findings/build-report.ts';
import { footprintText, headline, seconds, targetText, testsText, VERDICT_ORDER } from './common.ts';

function runFields(r: ConformanceReport): Block {
  const s = r.summary;
  return fields([
    ['target', targetText(r.meta)],
    ['seed', `${r.meta.seed}   (replay: ${replayCommand(r.meta)})`],
    [
      'time',
      `${seconds(r.meta.wallTimeMs)} wall${r.meta.bootMs !== undefined ? `, boot ${seconds(r.meta.bootMs)}` : ''}`,
    ],
    [
      'reqs',
      `${s.exercised}/${s.catalogue} exercised — ${VERDICT_ORDER.map((v) => `${v} ${s.byVerdict[v]}`).join(', ')}`,
    ],
    ['tests', testsText(s)],
    r.footprint ? ['left', footprintText(r.footprint)] : undefined,
    r.discovery ? ['found', r.discovery] : undefined,
  ]);
}

function afterFindings(r: ConformanceReport): Block {
  const waived = r.findings.filter((x) => x.waived);
  const blocked = r.requirements.filter((q) => q.verdict === 'blocked');
  return fields([
    waived.length ? ['waived', waived.map((f) => `${f.id} (${f.clauses.join(', ')})`).join('; ')] : undefined,
    blocked.length ? ['blocked', blocked.map((x) => `${x.id} by ${x.blockedBy.join(', ')}`).join('; ')] : undefined,
    r.waivers.nowPassing.length
      ? ['waivers', `now passing (remove): ${r.waivers.nowPassing.map((w) => w.id).join(', ')}`]
      : undefined,
  ]);
}

export function conformanceConsole(r: ConformanceReport, paths: Record<string, string>): string {
  const blocks: Block[] = [
    paragraph(''),
    paragraph(`wfcheck conformance: ${headline(r)}`),
    runFields(r),
    findingItems(r.findings.filter((x) => !x.waived).map(findingView)),
    afterFindings(r),
    paragraph('  reports:'),
    fields(Object.entries(paths).map(([name, path]) => [`  ${name.padEnd(12)}`, path] as const)),
  ];
  return redactSecrets(renderConsole(blocks));
}
