/**
 * impl/<slug>.html: one implementation. Its latest run (date, seed, harness version, version, score),
 * the score run by run, what changed since its previous run, the findings of its latest run, then every
 * requirement under an anchor of its own (#r-<ID>, where the grid's cells link): the verdict, the
 * finding's title, why, the evidence (the redacted request, the response, the curl reproducer) and the
 * verdict in each of its runs.
 */
import type { VerdictChange } from '../core/history-store/diff.ts';
import type { EvidenceExample } from '../core/history-store/records.ts';
import { head, percent, ratio, trendSvg, verdictClass, when, wordOf } from './assets.ts';
import { distinctAnchor as anchor, htmlAttr as html } from '../core/report/escape.ts';
import { capacitySection } from './capacity.ts';
import { LETTER, type Cell, type Column, type Matrix, type Row } from './model.ts';
import { openPointsSection } from './page-open-points.ts';

/** How a run came in, when not run here. */
const ORIGIN: Readonly<Record<string, string>> = { merge: 'merged from shards', import: 'imported from a report' };

const reqLink = (id: string) => `<a href="#r-${anchor(id)}">${html(id)}</a>`;

function factsHtml(c: Column): string {
  const l = c.latest;
  const facts: [string, string][] = [
    ['version', html(l.version ?? '–')],
    ['latest run', `${html(when(l.startedAt))} (run #${l.runId}${ORIGIN[l.origin] ? `, ${ORIGIN[l.origin]}` : ''})`],
    ['seed', String(l.seed)],
    ['harness version', html(l.harnessVersion)],
    ['score', `${ratio(l.score)} musts met / exercised (${percent(l.score)})`],
    ['exit code', html(l.exitCode ?? '–')],
    ['wall time', l.wallMs === null ? '–' : `${(l.wallMs / 1000).toFixed(1)} s`],
  ];
  return `<table class="facts">${facts.map(([k, v]) => `<tr><th scope="row">${k}</th><td>${v}</td></tr>`).join('')}</table>`;
}

function runsHtml(c: Column): string {
  const rows = [...c.runs]
    .reverse()
    .map(
      (r) =>
        `<tr><td>#${r.runId}</td><td>${html(when(r.startedAt))}</td><td>${html(r.version ?? '–')}</td><td class="num">${r.seed}</td><td>${html(
          r.harnessVersion,
        )}</td><td class="num">${ratio(r.score)} (${percent(r.score)})</td><td class="num">${html(r.findings ?? '–')}</td><td>${html(
          r.origin,
        )}</td></tr>`,
    )
    .join('');
  return `<table class="runs"><thead><tr><th>run</th><th>started</th><th>version</th><th>seed</th><th>harness</th><th>musts met / exercised</th><th>failing findings</th><th>origin</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function changeList(title: string, changes: readonly VerdictChange[]): string {
  if (!changes.length) return '';
  return `<h3>${title} (${changes.length})</h3><ul>${changes
    .map(
      (c) =>
        `<li>${reqLink(c.id)}: ${html(c.from)} → ${html(c.to)}${c.blockedBy ? ` (blocked by ${html(c.blockedBy)})` : ''}</li>`,
    )
    .join('')}</ul>`;
}

function changesHtml(c: Column): string {
  const ch = c.changes;
  if (!ch.previous) return '<p>This is its first recorded run: nothing to compare.</p>';
  const p = ch.previous;
  const version =
    p.version !== c.latest.version ? `; version ${html(p.version ?? '–')} → ${html(c.latest.version ?? '–')}` : '';
  const findings = (title: string, rows: typeof ch.newFindings) =>
    rows.length
      ? `<h3>${title} (${rows.length})</h3><ul>${rows
          .map((f) => `<li>${html(f.behaviour)} — ${f.clauses.map(reqLink).join(', ')}</li>`)
          .join('')}</ul>`
      : '';
  const body = [
    changeList('Newly failing', ch.newlyFailing),
    changeList('Newly passing', ch.newlyPassing),
    changeList('Newly blocked or not run', ch.newlyBlockedOrNotRun),
    ch.waiversNowPassing.length
      ? `<h3>Waivers now passing (${ch.waiversNowPassing.length})</h3><p>${ch.waiversNowPassing.map(reqLink).join(', ')}</p>`
      : '',
    findings('New findings', ch.newFindings),
    findings('Findings gone', ch.goneFindings),
  ].join('');
  return `<p>Against run #${p.runId} of ${html(when(p.startedAt))} (seed ${p.seed}; score ${ratio(p.score)} → ${ratio(
    c.latest.score,
  )}${version}).</p>${body || '<p>No verdict changed.</p>'}`;
}

function findingsHtml(c: Column): string {
  if (!c.findings.length) return '<p>The latest run recorded no finding.</p>';
  const rows = c.findings
    .map((f) => {
      const mark = f.waived ? 'WAIVED' : f.strength === 'failure' ? 'FAIL' : 'WARN';
      return `<tr><td>${html(f.id)}</td><td class="${verdictClass(f.waived ? 'waived' : f.strength === 'failure' ? 'fail' : 'warn')}">${mark}</td><td>${html(
        f.severity,
      )}</td><td>${html(f.behaviour)}</td><td>${f.clauses.map(reqLink).join(', ')}</td></tr>`;
    })
    .join('');
  return `<table><thead><tr><th>finding</th><th></th><th>severity</th><th>behaviour</th><th>clauses</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function evidenceHtml(e: EvidenceExample): string {
  const facts = [
    e.operation ? `operation ${html(e.operation)}` : '',
    e.status !== undefined ? `status ${html(e.status)}` : '',
    e.pointer ? `at ${html(e.pointer)}` : '',
    e.probe ? `probe: ${html(e.probe)}` : '',
  ].filter(Boolean);
  const expected =
    e.expected !== undefined || e.actual !== undefined
      ? `<p>expected <code>${html(e.expected ?? '–')}</code>, got <code>${html(e.actual ?? '–')}</code></p>`
      : '';
  const block = (title: string, text: string | undefined) => (text ? `<h4>${title}</h4><pre>${html(text)}</pre>` : '');
  return `<div class="evidence"><p>${html(e.message)}${facts.length ? ` (${facts.join('; ')})` : ''}</p>${expected}${block(
    'Request (redacted)',
    e.request,
  )}${block('Response', e.response)}${block('Reproducer', e.curl)}</div>`;
}

function stripHtml(c: Column, cell: Cell): string {
  return `<table class="strip" aria-label="verdict in each run, oldest first"><tr>${cell.history
    .map(
      (v, i) =>
        `<td class="${verdictClass(v)}" title="${html(`#${c.runs[i]!.runId} ${c.runs[i]!.startedAt.slice(0, 10)}: ${wordOf(v)}`)}">${LETTER[v] ?? '?'}</td>`,
    )
    .join('')}</tr></table>`;
}

function requirementHtml(row: Row, c: Column, cell: Cell): string {
  const lines = [
    row.text
      ? `<p>${html(row.text)}${row.level ? ` <span class="lvl lvl-${row.level}">${row.level}</span>` : ''}</p>`
      : '',
    cell.title && cell.title !== cell.note
      ? `<p><strong>${cell.findingId ? `${html(cell.findingId)}: ` : ''}${html(cell.title)}</strong></p>`
      : '',
    cell.note ? `<p>${html(cell.note)}</p>` : '',
    cell.blockedBy ? `<p>Blocked by ${cell.blockedBy.split(', ').map(reqLink).join(', ')}.</p>` : '',
    cell.since
      ? `<p>${html(wordOf(cell.verdict))} since ${html(when(cell.since.startedAt))} (${cell.since.runs} of ${cell.history.length} run(s)); ${cell.checks} check(s) in the latest run.</p>`
      : '<p>Not in the latest run.</p>',
    cell.evidence ? evidenceHtml(cell.evidence) : '',
    stripHtml(c, cell),
  ];
  return `<section class="req" id="r-${anchor(row.id)}"><h3><a href="../index.html#${anchor(row.id)}">${html(
    row.id,
  )}</a> <span class="${verdictClass(cell.verdict)}">${html(wordOf(cell.verdict))}</span></h3>${lines.join('')}</section>`;
}

export function renderImplementation(m: Matrix, index: number): string {
  const c = m.columns[index]!;
  const requirements = m.groups
    .map(
      (g) =>
        `<h2>${html(g.section.id === 'other' || g.section.id === 'intro' ? '' : `§${g.section.id} `)}${html(g.section.title)}</h2>${g.rows
          .map((r) => requirementHtml(r, c, r.cells[index]!))
          .join('\n')}`,
    )
    .join('\n');
  return `${head(`${c.label} — implementation matrix`)}<body>
<p><a href="../index.html">← the matrix</a></p>
<h1>${html(c.label)}${c.latest.version ? ` <small>${html(c.latest.version)}</small>` : ''}</h1>
${factsHtml(c)}
<h2 id="score">Score, run by run</h2>
<p>${trendSvg(c.runs, { width: 480, height: 90, dots: true })}</p>
${runsHtml(c)}
<h2 id="capacity">Capacity per version</h2>
${capacitySection(c.capacity)}
<h2 id="changes">Since its previous run</h2>
${changesHtml(c)}
<h2 id="findings">Findings of the latest run</h2>
${findingsHtml(c)}
<h2 id="open-points">Open points: its answers where the specification leaves the choice open</h2>
${openPointsSection(m, index, evidenceHtml)}
<h2 id="requirements">Requirements</h2>
${requirements}
</body></html>
`;
}
