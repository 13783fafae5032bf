/**
 * The few lines a conformance run prints when it ends: the headline, the run, and one line per finding
 * with its reproducer, so that the console alone says what is wrong.
 */
import { commandLine } from '../../foundation/environment/config.ts';
import { redactSecrets } from '../../foundation/environment/redact.ts';
import type { Finding } from '../verdict/findings.ts';
import type { ConformanceReport } from '../verdict/report.ts';
import {
  findingMark,
  footprintText,
  headline,
  seconds,
  SEVERITY_LABEL,
  targetText,
  testsText,
  VERDICT_ORDER,
} from './common.ts';

const MAX_CLAUSES_SHOWN = 6;

function clausesText(f: Finding): string {
  const shown = f.clauses.slice(0, MAX_CLAUSES_SHOWN).join(', ');
  return f.clauses.length > MAX_CLAUSES_SHOWN ? `${shown} … (${f.clauses.length} clauses)` : shown;
}

function findingLines(f: Finding): string[] {
  const where = f.operations.length ? ` on ${f.operations.join(', ')}` : '';
  const lines = [
    `  ${f.id} ${findingMark(f)}${f.severity === 'deviation' ? '' : ` [${SEVERITY_LABEL[f.severity]}]`} ${f.behaviour}${where}`,
    `       clauses: ${clausesText(f)}${f.blocked.length ? `; blocks ${f.blocked.length}` : ''}`,
  ];
  if (f.example.curl) lines.push(`       ${f.example.curl.slice(0, 400)}`);
  return lines;
}

export function renderConsoleSummary(r: ConformanceReport, paths: Record<string, string>): string {
  const s = r.summary;
  const lines = [
    '',
    `wfcheck conformance: ${headline(r)}`,
    `  target   ${targetText(r.meta)}`,
    `  seed     ${r.meta.seed}   (replay: ${r.meta.command ?? commandLine('conformance', ['--seed', r.meta.seed])})`,
    `  time     ${seconds(r.meta.wallTimeMs)} wall${r.meta.bootMs !== undefined ? `, boot ${seconds(r.meta.bootMs)}` : ''}`,
    `  reqs     ${s.exercised}/${s.catalogue} exercised — ${VERDICT_ORDER.map((v) => `${v} ${s.byVerdict[v]}`).join(', ')}`,
    `  tests    ${testsText(s)}`,
    ...(r.footprint ? [`  left     ${footprintText(r.footprint)}`] : []),
    ...(r.discovery ? [`  found    ${r.discovery}`] : []),
  ];
  for (const f of r.findings.filter((x) => !x.waived)) lines.push(...findingLines(f));
  const waived = r.findings.filter((x) => x.waived);
  if (waived.length) lines.push(`  waived   ${waived.map((f) => `${f.id} (${f.clauses.join(', ')})`).join('; ')}`);
  const blocked = r.requirements.filter((q) => q.verdict === 'blocked');
  if (blocked.length) lines.push(`  blocked  ${blocked.map((x) => `${x.id} by ${x.blockedBy.join(', ')}`).join('; ')}`);
  if (r.waivers.nowPassing.length)
    lines.push(`  waivers now passing (remove): ${r.waivers.nowPassing.map((w) => w.id).join(', ')}`);
  lines.push('  reports:');
  for (const [name, path] of Object.entries(paths)) lines.push(`    ${name.padEnd(12)} ${path}`);
  return redactSecrets(lines.join('\n'));
}
