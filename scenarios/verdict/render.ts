/**
 * Readable renderings of the conformance report: Markdown (for CI logs,
 * pull requests) and a self-contained HTML page. Both are built from the same
 * report object; neither adds information the JSON does not have.
 */
import {
  inSeverityOrder,
  type ConformanceReport,
  type EvidenceItem,
  type RequirementResult,
  type Severity,
  type VerdictValue,
} from './report.ts';
import { redactSecrets } from '../../foundation/environment/redact.ts';
import type { ConformanceHistory } from '../../foundation/history/conformance.ts';
import { historyHtml, historyMarkdown } from './history-view.ts';

const ICON: Record<VerdictValue, string> = {
  pass: '✅ pass',
  fail: '❌ FAIL',
  warn: '⚠️ warn',
  waived: '🟡 waived',
  blocked: '⛔ blocked',
  observed: '👁 observed',
  'not-run': '⏸ not run',
};

const SEVERITY_LABEL: Record<Severity, string> = {
  security: 'security',
  'server-error': 'server error',
  deviation: 'contract / status deviation',
};

/** Root failures and the clauses they blocked are counted apart: one deviation is one failure. */
export function headline(r: ConformanceReport): string {
  const blocked = r.summary.byVerdict.blocked ?? 0;
  const blockedText = blocked ? `, ${blocked} clause(s) blocked by them` : '';
  if (r.exitCode === 1)
    return `FAIL — ${r.summary.newFailures} unwaived failure(s) (root causes)${blockedText}${r.meta.incomplete ? `; run incomplete: ${r.meta.incomplete}` : ''}`;
  if (r.exitCode === 2) return `INCOMPLETE — ${r.meta.incomplete}`;
  return `PASS — no unwaived failure${blocked ? `; ${blocked} clause(s) blocked by waived failures` : ''}`;
}

/** Anchor of a requirement's entry, so a blocked clause links to what blocked it. */
function anchor(id: string): string {
  return `req-${id}`;
}

function seconds(ms?: number): string {
  return ms === undefined ? 'n/a' : `${(ms / 1000).toFixed(1)} s`;
}

function mdCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function fence(text: string): string {
  return `\`\`\`\n${text.replace(/```/g, '``\u200b`')}\n\`\`\``;
}

function mdEvidence(e: EvidenceItem, i: number): string {
  const lines = [
    `${i + 1}. ${e.test ? `*${e.test}* — ` : ''}${e.message}${e.expected ? ` (expected ${e.expected}${e.actual ? `, got ${e.actual}` : ''})` : ''} [${e.source}]`,
  ];
  if (e.request) lines.push('', '   Request:', '', fence(e.request).replace(/^/gm, '   '));
  if (e.response) lines.push('', '   Response:', '', fence(e.response).replace(/^/gm, '   '));
  if (e.curl) lines.push('', '   Reproduce:', '', fence(e.curl).replace(/^/gm, '   '));
  return lines.join('\n');
}

/** The note of a requirement's row: why it did not run, what blocked it, its waiver, or the values observed. */
function noteOf(x: RequirementResult): string {
  if (x.verdict === 'not-run') return x.notRunReasons.join('; ');
  if (x.verdict === 'blocked') return `blocked by ${x.blockedBy.join(', ')}`;
  if (x.waiver) return `waived: ${x.waiver.reason}`;
  return x.observations.map((o) => `${o.key}: ${o.values.map((v) => v.value).join(', ')}`).join('; ');
}

/** Columns of the coverage table: every status seen or listed for any operation. */
function coverageStatuses(r: ConformanceReport): string[] {
  return [...new Set(r.coverage.flatMap((c) => [...Object.keys(c.counts), ...c.listed.map(String)]))].sort();
}

function mdRequirementDetail(r: RequirementResult): string {
  const group = r.severity ? ` — ${SEVERITY_LABEL[r.severity]}` : '';
  const out = [
    `<a id="${anchor(r.id)}"></a>`,
    '',
    `### ${r.id} — ${ICON[r.verdict]} (${r.level}, §${r.section})${group}`,
    '',
    r.text,
  ];
  if (r.why) out.push('', `Why: ${r.why}`);
  if (r.waiver) out.push('', `Waiver: ${r.waiver.reason}${r.waiver.expires ? ` (expires ${r.waiver.expires})` : ''}`);
  out.push('', `${r.failureCount} failing check(s), ${r.passes} passing.`, '');
  r.failures.forEach((e, i) => {
    out.push(mdEvidence(e, i));
  });
  return out.join('\n');
}

export function renderMarkdown(r: ConformanceReport, history?: ConformanceHistory): string {
  const out: string[] = [`# wfcheck conformance report`, '', `**${headline(r)}**`, ''];
  out.push(
    ...historyMarkdown(history),
    ...mdOverview(r),
    ...mdFailures(r),
    ...mdWaivers(r),
    ...mdWarningsAndObservations(r),
    ...mdCoverage(r),
    ...mdAllRequirements(r),
  );
  return redactSecrets(out.join('\n'));
}

function mdOverview(r: ConformanceReport): string[] {
  const s = r.summary;
  const m = r.meta;
  const f = r.footprint;
  const out = [
    `- Target: ${m.baseUrl} (${m.targetKind}${m.targetHow ? `, ${m.targetHow}` : ''})`,
    `- Seed: ${m.seed} — replay with \`npm run conformance -- --seed ${m.seed}\``,
    `- Started: ${m.startedAt}; wall time ${seconds(m.wallTimeMs)}${m.bootMs !== undefined ? ` (target boot ${seconds(m.bootMs)})` : ''}`,
    `- Strict (warnings fail): ${m.strict ? 'yes' : 'no'}`,
    `- Requirements exercised: ${s.exercised} of ${s.catalogue} in the catalogue`,
    `- Tests: ${s.tests.total} started, ${s.tests.passed} passed, ${s.tests.failed} failed, ${s.tests.skipped} skipped, ${s.tests.unfinished} unfinished${s.tests.harnessErrors ? `, ${s.tests.harnessErrors} stopped by the harness` : ''}; ${s.exchanges} HTTP exchanges, ${s.faults} transport faults`,
  ];
  if (f) out.push(`- Left on the target: ${footprintText(f)}`);
  if (r.discovery) out.push(`- Discovery: ${r.discovery}`);
  out.push('', '| verdict | requirements |', '|---|---|');
  for (const [v, n] of Object.entries(s.byVerdict)) out.push(`| ${ICON[v as VerdictValue]} | ${n} |`);
  out.push('');
  return out;
}

/** The run's footprint on the target, in one line. */
export function footprintText(f: ConformanceReport['footprint']): string {
  return `${f.canvasesCreated} canvas(es) created, ${f.canvasesOverwritten} generation(s) into an existing canvas, ${f.executionsStarted} execution(s) started, ${f.filesUploaded} file(s) uploaded`;
}

function mdFailures(r: ConformanceReport): string[] {
  const out: string[] = [];
  const fails = inSeverityOrder(r.requirements.filter((x) => x.verdict === 'fail'));
  out.push(
    `## New failures (${fails.length})`,
    '',
    'Root causes, most severe first: security, then server errors (a 5xx or a transport fault), then contract and status deviations.',
    '',
  );
  if (fails.length === 0) out.push('None.', '');
  for (const x of fails) out.push(mdRequirementDetail(x), '');
  const blocked = r.requirements.filter((x) => x.verdict === 'blocked');
  if (blocked.length) {
    out.push(
      `## Blocked (${blocked.length})`,
      '',
      'Clauses a test could not judge because an earlier step failed; each links to its cause.',
      '',
    );
    for (const x of blocked)
      out.push(`- ${x.id} — blocked by ${x.blockedBy.map((id) => `[${id}](#${anchor(id)})`).join(', ')}`);
    out.push('');
  }
  const unknown = r.waivers.newFailures.filter((id) => !fails.find((f) => f.id === id));
  if (unknown.length) out.push(`Failures against IDs missing from the catalogue: ${unknown.join(', ')}`, '');
  return out;
}

function mdWaivers(r: ConformanceReport): string[] {
  const w = r.waivers;
  const out = ['## Waivers', '', `Source: ${w.source ?? '(none given)'}`, ''];
  out.push(
    `- Waived failures: ${w.waivedFailures.map((x) => `${x.id} (${x.verdict}; ${x.reason})`).join('; ') || 'none'}`,
  );
  out.push(`- Waivers that now pass (remove them): ${w.nowPassing.map((x) => x.id).join(', ') || 'none'}`);
  out.push(`- Waivers not exercised in this run: ${w.notExercised.map((x) => x.id).join(', ') || 'none'}`);
  out.push(
    `- Expired waivers (no longer applied): ${w.expired.map((x) => `${x.id} (expired ${x.expires})`).join(', ') || 'none'}`,
  );
  if (w.problems.length) out.push(`- Problems in the waiver file: ${w.problems.join('; ')}`);
  out.push('');
  return out;
}

function mdWarningsAndObservations(r: ConformanceReport): string[] {
  const warns = inSeverityOrder(r.requirements.filter((x) => x.verdict === 'warn'));
  const out = [
    `## Warnings (${warns.length})`,
    '',
    'Clauses that follow from the specification without being stated; promote with `--strict`.',
    '',
  ];
  for (const x of warns) out.push(mdRequirementDetail(x), '');
  out.push('## Observed values for points the specification leaves open', '');
  if (r.observations.length === 0) out.push('None recorded.', '');
  for (const o of r.observations) {
    out.push(`- **${o.requirementId}** — ${o.text}`);
    for (const k of o.observed)
      out.push(`  - ${k.key}: ${k.values.map((v) => `\`${v.value}\`${v.count > 1 ? ` ×${v.count}` : ''}`).join(', ')}`);
  }
  out.push('');
  return out;
}

function mdCoverage(r: ConformanceReport): string[] {
  const out = ['## Coverage: operation × status', ''];
  const statuses = coverageStatuses(r);
  out.push(`| operation | ${statuses.join(' | ')} |`, `|---|${statuses.map(() => '---').join('|')}|`);
  for (const c of r.coverage) {
    out.push(
      `| ${c.operation} | ${statuses.map((st) => (c.counts[st] ? String(c.counts[st]) : c.listed.includes(Number(st)) ? '0 (listed, unseen)' : '')).join(' | ')} |`,
    );
  }
  out.push('');
  if (r.faults.length) {
    out.push(`## Transport faults (${r.faults.length})`, '');
    for (const f of r.faults)
      out.push(`- ${f.test ? `*${f.test}* — ` : ''}${f.kind}: ${mdCell(f.message)} — \`${f.request}\``);
    out.push('');
  }
  if (r.failedTests.length) {
    out.push(`## Failed tests (${r.failedTests.length})`, '');
    for (const t of r.failedTests)
      out.push(`- ${t.test} (${t.status}): ${mdCell((t.error ?? '').split('\n')[0] ?? '')}`);
    out.push('');
  }
  return out;
}

function mdAllRequirements(r: ConformanceReport): string[] {
  const out = [
    '## All requirements',
    '',
    '| ID | level | verdict | passing / failing checks | note |',
    '|---|---|---|---|---|',
  ];
  for (const x of r.requirements) {
    out.push(
      `| ${x.id} | ${x.level} | ${ICON[x.verdict]} | ${x.passes} / ${x.failureCount} | ${mdCell(noteOf(x)).slice(0, 300)} |`,
    );
  }
  out.push('');
  if (r.unknownRequirementIds.length)
    out.push(
      `Requirement IDs used by the suites but missing from the catalogue: ${r.unknownRequirementIds.join(', ')}`,
      '',
    );
  if (r.unreadableEvidenceLines) out.push(`Unreadable evidence lines (torn writes): ${r.unreadableEvidenceLines}`, '');
  return out;
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function htmlEvidence(e: EvidenceItem): string {
  return `<li><p>${e.test ? `<em>${esc(e.test)}</em> — ` : ''}${esc(e.message)}${e.expected ? ` <span class="dim">(expected ${esc(e.expected)}${e.actual ? `, got ${esc(e.actual)}` : ''})</span>` : ''} <span class="tag">${e.source}</span></p>
${e.request ? `<details><summary>request / response / reproducer</summary><pre>${esc(e.request)}</pre><pre>${esc(e.response ?? '')}</pre><pre class="curl">${esc(e.curl ?? '')}</pre></details>` : ''}</li>`;
}

export function renderHtml(r: ConformanceReport, history?: ConformanceHistory): string {
  const s = r.summary;
  const m = r.meta;
  const rows = r.requirements
    .map((x) => {
      const note = x.verdict === 'blocked' ? '' : noteOf(x);
      const detail = x.failures.length ? `<ul class="ev">${x.failures.map(htmlEvidence).join('')}</ul>` : '';
      const cause =
        x.verdict === 'blocked'
          ? `<div class="note">blocked by ${x.blockedBy.map((id) => `<a href="#${anchor(id)}"><code>${esc(id)}</code></a>`).join(', ')}</div>`
          : '';
      const group =
        x.severity && (x.verdict === 'fail' || x.verdict === 'warn')
          ? `<div class="tag">${SEVERITY_LABEL[x.severity]}</div>`
          : '';
      return `<tr id="${anchor(x.id)}" class="v-${x.verdict}" data-verdict="${x.verdict}"><td><code>${esc(x.id)}</code></td><td>${x.level}</td><td class="verdict">${ICON[x.verdict]}${group}</td><td>${x.passes} / ${x.failureCount}</td><td>${esc(x.text)}${x.why ? `<div class="dim">why: ${esc(x.why)}</div>` : ''}${note ? `<div class="note">${esc(note.slice(0, 400))}</div>` : ''}${cause}${detail}</td></tr>`;
    })
    .join('\n');
  const statuses = coverageStatuses(r);
  const coverage = r.coverage
    .map(
      (c) =>
        `<tr><td>${esc(c.operation)}</td>${statuses.map((st) => `<td class="${c.counts[st] ? 'seen' : c.listed.includes(Number(st)) ? 'unseen' : ''}">${c.counts[st] ?? (c.listed.includes(Number(st)) ? '0' : '')}</td>`).join('')}</tr>`,
    )
    .join('\n');
  const observed = r.observations
    .map(
      (o) =>
        `<li><code>${esc(o.requirementId)}</code> — ${esc(o.text)}<ul>${o.observed.map((k) => `<li>${esc(k.key)}: ${k.values.map((v) => `<code>${esc(v.value)}</code>${v.count > 1 ? ` ×${v.count}` : ''}`).join(', ')}</li>`).join('')}</ul></li>`,
    )
    .join('');
  const w = r.waivers;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>wfcheck conformance — ${esc(headline(r))}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#222;max-width:1400px}
h1{margin-bottom:.2rem} .headline{font-size:1.3rem;font-weight:600;padding:.5rem 1rem;border-radius:6px;display:inline-block}
.exit-0{background:#e3f7e3}.exit-1{background:#fde2e2}.exit-2{background:#fff3cd}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem} td,th{border:1px solid #ddd;padding:.3rem .5rem;vertical-align:top;text-align:left}
th{background:#f4f4f4} .dim{color:#777;font-size:.9em} .note{color:#555;font-size:.9em;margin-top:.2rem}
.v-fail td.verdict{background:#fde2e2}.v-warn td.verdict{background:#fff3cd}.v-pass td.verdict{background:#e3f7e3}.v-waived td.verdict{background:#fdf6d8}.v-not-run td.verdict{background:#eee}.v-blocked td.verdict{background:#efe6f8}.v-observed td.verdict{background:#e6f0ff}
td.seen{background:#e3f7e3} td.unseen{background:#fff3cd}
pre{background:#f7f7f7;padding:.5rem;overflow:auto;max-height:20rem;white-space:pre-wrap} pre.curl{background:#eef}
.tag{font-size:.8em;background:#eee;padding:0 .3rem;border-radius:3px} ul.ev{margin:.3rem 0}
.filters button{margin-right:.3rem}
</style></head><body>
<h1>wfcheck conformance report</h1>
<p class="headline exit-${r.exitCode}">${esc(headline(r))}</p>
${historyHtml(history)}
<ul>
<li>Target: <code>${esc(m.baseUrl)}</code> (${m.targetKind}${m.targetHow ? `, ${esc(m.targetHow)}` : ''})</li>
<li>Seed: <code>${m.seed}</code> — replay: <code>npm run conformance -- --seed ${m.seed}</code></li>
<li>Started ${esc(m.startedAt)}; wall time ${seconds(m.wallTimeMs)}${m.bootMs !== undefined ? ` (boot ${seconds(m.bootMs)})` : ''}; strict: ${m.strict ? 'yes' : 'no'}</li>
<li>Requirements exercised: <b>${s.exercised}</b> of ${s.catalogue}; ${Object.entries(s.byVerdict)
    .map(([v, n]) => `${ICON[v as VerdictValue]}: ${n}`)
    .join(' · ')}</li>
<li>Tests: ${s.tests.total} started, ${s.tests.passed} passed, ${s.tests.failed} failed, ${s.tests.skipped} skipped, ${s.tests.unfinished} unfinished${s.tests.harnessErrors ? `, ${s.tests.harnessErrors} stopped by the harness` : ''}; ${s.exchanges} exchanges, ${s.faults} transport faults</li>${r.footprint ? `\n<li>Left on the target: ${esc(footprintText(r.footprint))}</li>` : ''}${r.discovery ? `\n<li>Discovery: ${esc(r.discovery)}</li>` : ''}
</ul>
<h2>Waivers</h2>
<ul><li>Source: ${esc(w.source ?? '(none)')}</li>
<li>Waived failures: ${w.waivedFailures.map((x) => `<code>${esc(x.id)}</code> (${esc(x.reason)})`).join(', ') || 'none'}</li>
<li>New failures: ${w.newFailures.map((x) => `<code>${esc(x)}</code>`).join(', ') || 'none'}</li>
<li>Waivers that now pass: ${w.nowPassing.map((x) => `<code>${esc(x.id)}</code>`).join(', ') || 'none'}</li>
<li>Not exercised: ${w.notExercised.map((x) => `<code>${esc(x.id)}</code>`).join(', ') || 'none'}; expired: ${w.expired.map((x) => `<code>${esc(x.id)}</code>`).join(', ') || 'none'}</li>
${w.problems.length ? `<li>Problems: ${esc(w.problems.join('; '))}</li>` : ''}</ul>
<h2>Requirements</h2>
<p class="filters">Show: ${(['all', 'fail', 'warn', 'waived', 'blocked', 'not-run', 'observed', 'pass'] as const).map((v) => `<button onclick="filter('${v}')">${v}</button>`).join('')}</p>
<table id="reqs"><tr><th>ID</th><th>level</th><th>verdict</th><th>pass / fail checks</th><th>clause, notes, evidence</th></tr>
${rows}
</table>
<h2>Observed values (points the specification leaves open)</h2><ul>${observed || '<li>none</li>'}</ul>
<h2>Coverage: operation × status</h2>
<table><tr><th>operation</th>${statuses.map((st) => `<th>${esc(st)}</th>`).join('')}</tr>${coverage}</table>
${r.faults.length ? `<h2>Transport faults</h2><ul>${r.faults.map((f) => `<li>${f.test ? `<em>${esc(f.test)}</em> — ` : ''}${esc(f.kind)}: ${esc(f.message)} <code>${esc(f.request)}</code></li>`).join('')}</ul>` : ''}
${r.failedTests.length ? `<h2>Failed tests</h2><ul>${r.failedTests.map((t) => `<li>${esc(t.test)} (${t.status})<pre>${esc(t.error ?? '')}</pre></li>`).join('')}</ul>` : ''}
<script>function filter(v){for(const tr of document.querySelectorAll('#reqs tr[data-verdict]'))tr.style.display=(v==='all'||tr.dataset.verdict===v)?'':'none'}</script>
</body></html>`;
  return redactSecrets(html);
}

/** A few lines for the console. */
export function renderConsoleSummary(r: ConformanceReport, paths: Record<string, string>): string {
  const s = r.summary;
  const lines = [
    '',
    `wfcheck conformance: ${headline(r)}`,
    `  target   ${r.meta.baseUrl} (${r.meta.targetKind}${r.meta.targetHow ? `, ${r.meta.targetHow}` : ''})`,
    `  seed     ${r.meta.seed}   (replay: npm run conformance -- --seed ${r.meta.seed})`,
    `  time     ${seconds(r.meta.wallTimeMs)} wall${r.meta.bootMs !== undefined ? `, boot ${seconds(r.meta.bootMs)}` : ''}`,
    `  reqs     ${s.exercised}/${s.catalogue} exercised — ${Object.entries(s.byVerdict)
      .map(([v, n]) => `${v} ${n}`)
      .join(', ')}`,
    `  tests    ${s.tests.passed} passed, ${s.tests.failed} failed, ${s.tests.skipped} skipped, ${s.tests.unfinished} unfinished${s.tests.harnessErrors ? `, ${s.tests.harnessErrors} stopped by the harness` : ''}`,
    ...(r.footprint ? [`  left     ${footprintText(r.footprint)}`] : []),
    ...(r.discovery ? [`  found    ${r.discovery}`] : []),
  ];
  if (r.waivers.waivedFailures.length) lines.push(`  waived   ${r.waivers.waivedFailures.map((w) => w.id).join(', ')}`);
  if (r.waivers.nowPassing.length)
    lines.push(`  waivers now passing (remove): ${r.waivers.nowPassing.map((w) => w.id).join(', ')}`);
  for (const x of inSeverityOrder(r.requirements.filter((q) => q.verdict === 'fail'))) {
    const first = x.failures[0];
    lines.push(
      `  FAIL ${x.id}${x.severity ? ` [${SEVERITY_LABEL[x.severity]}]` : ''}: ${first ? first.message.split('\n')[0].slice(0, 200) : ''}`,
    );
    if (first?.curl) lines.push(`       ${first.curl.slice(0, 400)}`);
  }
  for (const x of r.requirements.filter((q) => q.verdict === 'blocked'))
    lines.push(`  blocked ${x.id}: by ${x.blockedBy.join(', ')}`);
  for (const x of r.requirements.filter((q) => q.verdict === 'warn'))
    lines.push(`  warn ${x.id}: ${(x.failures[0]?.message ?? '').split('\n')[0].slice(0, 200)}`);
  lines.push('  reports:');
  for (const [name, path] of Object.entries(paths)) lines.push(`    ${name.padEnd(10)} ${path}`);
  return redactSecrets(lines.join('\n'));
}
