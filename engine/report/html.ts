/**
 * The self-contained HTML report: a list of sections, each a small function of the report, in the
 * order a reader needs them — the findings (security first), what changed, the trend, the clause
 * verdicts, then coverage, observations and the run's details. Verdicts are marked with styled words,
 * not emoji, so the page reads the same in a headless browser without emoji fonts.
 */
import { commandLine } from '../../foundation/environment/config.ts';
import { redactSecrets } from '../../foundation/environment/redact.ts';
import type { ConformanceHistory } from '../../foundation/history/conformance.ts';
import type { EvidenceItem, Finding } from '../verdict/findings.ts';
import { historyChangeHtml, historyTrendHtml } from './history-view.ts';
import type { ConformanceReport, RequirementResult, VerdictValue } from '../verdict/report.ts';
import {
  anchor,
  count,
  coverageStatuses,
  esc,
  findingAnchor,
  findingMark,
  findingsByClause,
  footprintText,
  headline,
  MARK,
  noteOf,
  requirementsInOrder,
  seconds,
  SEVERITY_LABEL,
  targetText,
  testsText,
  VERDICT_ORDER,
  whereText,
} from './common.ts';

type Section = (r: ConformanceReport, history?: ConformanceHistory) => string;

const MAX_PROBES_SHOWN = 12;

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#222;max-width:1400px}
h1{margin-bottom:.2rem} h2{margin-top:2rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}
.headline{font-size:1.3rem;font-weight:600;padding:.5rem 1rem;border-radius:6px;display:inline-block}
.exit-0{background:#e3f7e3}.exit-1{background:#fde2e2}.exit-2{background:#fff3cd}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem} td,th{border:1px solid #ddd;padding:.3rem .5rem;vertical-align:top;text-align:left}
th{background:#f4f4f4} .dim{color:#666;font-size:.9em} .note{color:#555;font-size:.9em;margin-top:.2rem}
.mark{display:inline-block;min-width:4.2em;text-align:center;font:600 11px/1.6 ui-monospace,Menlo,Consolas,monospace;letter-spacing:.04em;padding:0 .4em;border-radius:3px;border:1px solid transparent;white-space:nowrap}
.m-fail{background:#c62828;color:#fff}.m-warn{background:#f2c037;color:#3a2a00}.m-pass{background:#e3f2e3;color:#1b5e20;border-color:#a5d6a7}
.m-waived{background:#f3ecc5;color:#5d4b00;border-color:#d8c777}.m-blocked{background:#ece2f7;color:#4a2a74;border-color:#c5b0e3}
.m-not-run{background:#eee;color:#555;border-color:#ccc}.m-observed{background:#e3ecfb;color:#1a4b8f;border-color:#b3c8ee}
.tag{display:inline-block;font-size:.8em;background:#eee;padding:0 .35rem;border-radius:3px;margin-left:.3rem}
.tag.security{background:#5b0f0f;color:#fff}.tag.server-error{background:#8a4b00;color:#fff}
.finding{border:1px solid #ddd;border-left:6px solid #c62828;border-radius:4px;padding:.6rem .9rem;margin:.8rem 0}
.finding.f-warn{border-left-color:#f2c037}.finding.f-waived{border-left-color:#d8c777}.finding.security{background:#fff6f6}
.finding h3{margin:.1rem 0 .3rem;font-size:1.05rem}.finding .fid{font-family:ui-monospace,Menlo,Consolas,monospace;margin-right:.4rem}
.finding ul{margin:.3rem 0}
pre{background:#f7f7f7;padding:.5rem;overflow:auto;max-height:20rem;white-space:pre-wrap;margin:.3rem 0} pre.curl{background:#eef}
#reqs td:nth-child(2) code{white-space:nowrap} td.seen{background:#e3f7e3} td.unseen{background:#fff3cd} ul.ev{margin:.3rem 0}
.filters button{margin-right:.3rem}
`;

const markHtml = (v: VerdictValue) => `<span class="mark m-${v}">${MARK[v]}</span>`;

function findingMarkHtml(f: Finding): string {
  const mark = findingMark(f);
  const cls = mark === 'FAIL' ? 'm-fail' : mark === 'WARN' ? 'm-warn' : 'm-waived';
  return `<span class="mark ${cls}">${mark}</span>`;
}

const clauseLink = (id: string) => `<a href="#${anchor(id)}"><code>${esc(id)}</code></a>`;

function some(items: readonly string[], max: number): string {
  const shown = items.slice(0, max).map(esc).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

function exchangeHtml(e: EvidenceItem): string {
  if (!e.request) return '';
  return `<pre>${esc(e.request)}</pre><pre>${esc(e.response ?? '')}</pre>${e.curl ? `<pre class="curl">${esc(e.curl)}</pre>` : ''}`;
}

function evidenceHtml(e: EvidenceItem): string {
  return `<li><p>${e.test ? `<em>${esc(e.test)}</em> — ` : ''}${esc(e.message)}${e.expected ? ` <span class="dim">(expected ${esc(e.expected)}${e.actual ? `, got ${esc(e.actual)}` : ''})</span>` : ''} <span class="tag">${e.source}</span></p>
${e.request ? `<details><summary>request / response / reproducer</summary>${exchangeHtml(e)}</details>` : ''}</li>`;
}

function findingHtml(f: Finding): string {
  const mark = findingMark(f);
  const classes = ['finding', `f-${mark.toLowerCase()}`, ...(f.security ? ['security'] : [])].join(' ');
  const e = f.example;
  const others = f.otherExchanges.length
    ? `<details><summary>${count(f.otherExchanges.length + f.moreExchanges, 'other exchange')}</summary><ul>${f.otherExchanges
        .map(
          (x) =>
            `<li>${esc(x.answer)}${x.request ? ` — <code>${esc(x.request)}</code>` : x.test ? ` — <em>${esc(x.test)}</em>` : ''}${x.probe ? ` <span class="dim">(${esc(x.probe)})</span>` : ''} — ${x.clauses.map(esc).join(', ')}</li>`,
        )
        .join('')}${f.moreExchanges ? `<li>… and ${f.moreExchanges} more</li>` : ''}</ul></details>`
    : '';
  return `<article class="${classes}" id="${findingAnchor(f)}" data-strength="${f.strength}">
<h3><span class="fid">${f.id}</span>${findingMarkHtml(f)} ${esc(f.behaviour)}</h3>
<div class="dim"><span class="tag ${f.severity}">${SEVERITY_LABEL[f.severity]}</span> ${esc(whereText(f))}</div>
<ul>
<li>Breaks ${count(f.clauses.length, 'clause')}: ${f.clauses.map(clauseLink).join(', ')}</li>
${f.probes.length ? `<li>Probes: ${some(f.probes, MAX_PROBES_SHOWN)}</li>` : ''}
${f.blocked.length ? `<li>Kept from being judged: ${f.blocked.map(clauseLink).join(', ')}</li>` : ''}
${f.waived ? `<li>Waived: ${f.waivers.map((w) => `<code>${esc(w.id)}</code> (${esc(w.reason)})`).join('; ')}</li>` : ''}
</ul>
<p>Example, <code>${esc(e.requirementId)}</code>: ${e.test ? `<em>${esc(e.test)}</em> — ` : ''}${esc(e.message)}${e.expected ? ` <span class="dim">(expected ${esc(e.expected)}${e.actual ? `, got ${esc(e.actual)}` : ''})</span>` : ''}</p>
${e.request ? `<details open><summary>request / response / reproducer</summary>${exchangeHtml(e)}</details>` : ''}
${others}
</article>`;
}

const htmlHeadline: Section = (r) => `<h1>wfcheck conformance report</h1>
<p class="headline exit-${r.exitCode}">${esc(headline(r))}</p>
<p class="dim">Target <code>${esc(targetText(r.meta))}</code> · seed <code>${r.meta.seed}</code> · started ${esc(r.meta.startedAt)}</p>`;

function findingSection(
  id: string,
  title: string,
  intro: string,
  findings: readonly Finding[],
  always: boolean,
): string {
  if (!findings.length && !always) return '';
  return `<section id="${id}"><h2>${esc(title)} (${findings.length})</h2><p class="dim">${esc(intro)}</p>${findings.length ? findings.map(findingHtml).join('\n') : '<p>None.</p>'}</section>`;
}

const htmlFindings: Section = (r) =>
  findingSection(
    'findings',
    'Findings',
    'One per deviation, however many clauses and operations show it; security first, then server errors (a 5xx or a transport fault), then contract and status deviations.',
    r.findings.filter((f) => !f.waived && f.strength === 'failure'),
    true,
  );

const htmlWarnings: Section = (r) =>
  findingSection(
    'warnings',
    'Warnings',
    'Deviations from clauses that follow from the specification without being stated; --strict makes them failures.',
    r.findings.filter((f) => !f.waived && f.strength === 'warning'),
    false,
  );

const htmlWaivedFindings: Section = (r) =>
  findingSection(
    'waived-findings',
    'Waived findings',
    'Deviations every clause of which is waived: known, and not failing the run.',
    r.findings.filter((f) => f.waived),
    false,
  );

const htmlChange: Section = (_r, h) => historyChangeHtml(h);

const htmlTrend: Section = (_r, h) => historyTrendHtml(h);

function requirementRow(x: RequirementResult, findings: readonly string[]): string {
  const note = x.verdict === 'blocked' ? '' : noteOf(x);
  const detail = x.failures.length
    ? `<details><summary>${count(x.failureCount, 'failing check')}</summary><ul class="ev">${x.failures.map(evidenceHtml).join('')}</ul></details>`
    : '';
  const cause =
    x.verdict === 'blocked' ? `<div class="note">blocked by ${x.blockedBy.map(clauseLink).join(', ')}</div>` : '';
  // Only the urgent groups are tagged: a plain deviation is what an unmarked failure is.
  const group =
    x.severity && x.severity !== 'deviation' && (x.verdict === 'fail' || x.verdict === 'warn')
      ? `<div><span class="tag ${x.severity}">${SEVERITY_LABEL[x.severity]}</span></div>`
      : '';
  const links = findings.map((id) => `<a href="#finding-${id}">${id}</a>`).join(', ');
  return `<tr id="${anchor(x.id)}" data-verdict="${x.verdict}"><td>${markHtml(x.verdict)}${group}</td><td><code>${esc(x.id)}</code></td><td>${x.level}</td><td>${x.passes} / ${x.failureCount}</td><td>${links}</td><td>${esc(x.text)}${x.why ? `<div class="dim">why: ${esc(x.why)}</div>` : ''}${note ? `<div class="note">${esc(note.slice(0, 400))}</div>` : ''}${cause}${detail}</td></tr>`;
}

const htmlRequirements: Section = (r) => {
  const by = findingsByClause(r);
  const counts = r.summary.byVerdict;
  const buttons = [
    `<button onclick="filter('all')">all (${r.requirements.length})</button>`,
    ...VERDICT_ORDER.filter((v) => counts[v]).map(
      (v) => `<button onclick="filter('${v}')">${MARK[v].toLowerCase()} (${counts[v]})</button>`,
    ),
  ].join('');
  return `<section id="requirements"><h2>Requirements</h2>
<p class="dim">Every clause of the catalogue: failures first, then warnings, then the rest.</p>
<p class="filters">Show: ${buttons}</p>
<table id="reqs"><tr><th>verdict</th><th>ID</th><th>level</th><th>pass / fail checks</th><th>finding</th><th>clause, notes, evidence</th></tr>
${requirementsInOrder(r)
  .map((x) => requirementRow(x, by.get(x.id) ?? []))
  .join('\n')}
</table>
${r.unknownRequirementIds.length ? `<p>Requirement IDs used by the suites but missing from the catalogue: ${r.unknownRequirementIds.map((id) => `<code>${esc(id)}</code>`).join(', ')}</p>` : ''}
<script>function filter(v){for(const tr of document.querySelectorAll('#reqs tr[data-verdict]'))tr.style.display=(v==='all'||tr.dataset.verdict===v)?'':'none'}</script></section>`;
};

const htmlNotRun: Section = (r) => {
  const notRun = r.requirements.filter((x) => x.verdict === 'not-run');
  if (!notRun.length) return '';
  return `<section id="not-run"><h2>Not run (${notRun.length})</h2><ul>${notRun
    .map((x) => `<li><code>${esc(x.id)}</code> — ${esc(x.notRunReasons.join('; ').slice(0, 400))}</li>`)
    .join('')}</ul></section>`;
};

const htmlCoverage: Section = (r) => {
  const statuses = coverageStatuses(r);
  const rows = r.coverage
    .map(
      (c) =>
        `<tr><td>${esc(c.operation)}</td>${statuses.map((st) => `<td class="${c.counts[st] ? 'seen' : c.listed.includes(Number(st)) ? 'unseen' : ''}">${c.counts[st] ?? (c.listed.includes(Number(st)) ? '0' : '')}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<section id="coverage"><h2>Coverage: operation × status</h2>
<table><tr><th>operation</th>${statuses.map((st) => `<th>${esc(st)}</th>`).join('')}</tr>${rows}</table></section>`;
};

const htmlObservations: Section = (r) => {
  const items = r.observations
    .map(
      (o) =>
        `<li><code>${esc(o.requirementId)}</code> — ${esc(o.text)}<ul>${o.observed.map((k) => `<li>${esc(k.key)}: ${k.values.map((v) => `<code>${esc(v.value)}</code>${v.count > 1 ? ` ×${v.count}` : ''}`).join(', ')}</li>`).join('')}</ul></li>`,
    )
    .join('');
  return `<section id="observations"><h2>Observed values (points the specification leaves open)</h2><ul>${items || '<li>none</li>'}</ul></section>`;
};

const htmlRun: Section = (r) => {
  const s = r.summary;
  const m = r.meta;
  return `<section id="run"><h2>The run</h2><ul>
<li>Target: <code>${esc(targetText(m))}</code></li>
<li>Seed: <code>${m.seed}</code> — replay: <code>${esc(m.command ?? commandLine('conformance', ['--seed', m.seed]))}</code></li>
<li>Started ${esc(m.startedAt)}; wall time ${seconds(m.wallTimeMs)}${m.bootMs !== undefined ? ` (boot ${seconds(m.bootMs)})` : ''}; strict: ${m.strict ? 'yes' : 'no'}</li>
<li>Requirements exercised: <b>${s.exercised}</b> of ${s.catalogue}; ${VERDICT_ORDER.map((v) => `${markHtml(v)} ${s.byVerdict[v]}`).join(' ')}</li>
<li>Tests: ${esc(testsText(s))}; ${s.exchanges} exchanges, ${s.faults} transport faults</li>
${m.incomplete ? `<li>Incomplete: ${esc(m.incomplete)}</li>` : ''}
${r.footprint ? `<li>Left on the target: ${esc(footprintText(r.footprint))}</li>` : ''}
${r.discovery ? `<li>Discovery: ${esc(r.discovery)}</li>` : ''}
</ul></section>`;
};

const htmlWaivers: Section = (r) => {
  const w = r.waivers;
  const ids = (xs: { id: string }[]) => xs.map((x) => `<code>${esc(x.id)}</code>`).join(', ') || 'none';
  return `<section id="waivers"><h2>Waivers</h2><ul><li>Source: ${esc(w.source ?? '(none)')}</li>
<li>Waived clauses: ${w.waivedFailures.map((x) => `<code>${esc(x.id)}</code> (${esc(x.reason)})`).join(', ') || 'none'}</li>
<li>Waivers that now pass (remove them): ${ids(w.nowPassing)}</li>
<li>Not exercised: ${ids(w.notExercised)}; expired: ${ids(w.expired)}</li>
${w.problems.length ? `<li>Problems: ${esc(w.problems.join('; '))}</li>` : ''}</ul></section>`;
};

const htmlFaults: Section = (r) =>
  r.faults.length
    ? `<section id="faults"><h2>Transport faults (${r.faults.length})</h2><ul>${r.faults.map((f) => `<li>${f.test ? `<em>${esc(f.test)}</em> — ` : ''}${esc(f.kind)}: ${esc(f.message)} <code>${esc(f.request)}</code></li>`).join('')}</ul></section>`
    : '';

const htmlFailedTests: Section = (r) =>
  r.failedTests.length
    ? `<section id="failed-tests"><h2>Failed tests (${r.failedTests.length})</h2><ul>${r.failedTests.map((t) => `<li>${esc(t.test)} (${t.status})<pre>${esc(t.error ?? '')}</pre></li>`).join('')}</ul></section>`
    : '';

const htmlHousekeeping: Section = (r) =>
  r.unreadableEvidenceLines
    ? `<p class="dim">Unreadable evidence lines (torn writes): ${r.unreadableEvidenceLines}</p>`
    : '';

/** The sections, in the order a reader needs them. */
const SECTIONS: readonly Section[] = [
  htmlHeadline,
  htmlFindings,
  htmlWarnings,
  htmlWaivedFindings,
  htmlChange,
  htmlTrend,
  htmlRequirements,
  htmlNotRun,
  htmlCoverage,
  htmlObservations,
  htmlRun,
  htmlWaivers,
  htmlFaults,
  htmlFailedTests,
  htmlHousekeeping,
];

export function renderHtml(r: ConformanceReport, history?: ConformanceHistory): string {
  const body = SECTIONS.map((section) => section(r, history))
    .filter(Boolean)
    .join('\n');
  return redactSecrets(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>wfcheck conformance — ${esc(headline(r))}</title>
<style>${STYLE}</style></head><body>
${body}
</body></html>`);
}
