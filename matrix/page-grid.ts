/**
 * index.html: the grid of requirements × implementations. A real HTML table, whole without JavaScript:
 * rows grouped by the specification's sections, one column per implementation, each cell the latest
 * verdict in words with the finding's title, a tooltip with the cell's history, and a link to its
 * evidence on the implementation's page. Above it the interop line, the requirements nobody meets and
 * the implementations with their scores, trends and changes; the filters (script) work on the rows'
 * data attributes.
 */
import { distinctAnchor as anchor, htmlAttr as html } from '../core/report/escape.ts';
import { FILTER_SCRIPT, head, percent, ratio, trendSvg, verdictClass, when, wordOf } from './assets.ts';
import { capacityCell } from './capacity.ts';
import { LETTER, type Column, type Matrix, type Row } from './model.ts';

const cellHref = (c: Column, id: string) => `impl/${c.slug}.html#r-${anchor(id)}`;

/** The cell's history on hover: the verdict, since when, and one letter per run (oldest first). */
function cellTooltip(row: Row, i: number): string {
  const cell = row.cells[i]!;
  const since = cell.since
    ? ` since ${when(cell.since.startedAt)} (${cell.since.runs} of ${cell.history.length} runs)`
    : '';
  return `${wordOf(cell.verdict)}${since}\n${cell.history.map((v) => LETTER[v] ?? '?').join('')}`;
}

function cellHtml(row: Row, c: Column, i: number): string {
  const cell = row.cells[i]!;
  return `<td class="c ${verdictClass(cell.verdict)}" title="${html(cellTooltip(row, i))}"><a href="${cellHref(c, row.id)}">${html(
    wordOf(cell.verdict),
  )}${cell.title ? `<span class="t">${html(cell.title)}</span>` : ''}</a></td>`;
}

function rowHtml(row: Row, m: Matrix): string {
  const attrs = `data-level="${html(row.level || 'unknown')}" data-section="${html(row.section.top)}" data-differs="${
    row.differs ? 1 : 0
  }" data-failing="${row.failing ? 1 : 0}"`;
  const level = row.level ? `<span class="lvl lvl-${row.level}">${row.level}</span>` : '';
  return `<tr id="${anchor(row.id)}" ${attrs}><th scope="row"><a class="id" href="#${anchor(row.id)}">${html(
    row.id,
  )}</a>${level}${row.security ? '<span class="lvl">security</span>' : ''}<span class="text" title="${html(row.text)}">${html(
    row.text,
  )}</span></th>${m.columns.map((c, i) => cellHtml(row, c, i)).join('')}</tr>`;
}

function gridHtml(m: Matrix): string {
  const header = m.columns
    .map(
      (c) =>
        `<th scope="col" class="impl"><a href="impl/${c.slug}.html">${html(c.label)}</a><span class="score" title="musts met / musts exercised">${ratio(
          c.latest.score,
        )}</span></th>`,
    )
    .join('');
  const bodies = m.groups
    .map(
      (g) =>
        `<tbody data-section="${html(g.section.top)}"><tr class="group"><th colspan="${m.columns.length + 1}">${html(
          g.section.id === 'other' || g.section.id === 'intro' ? '' : `§${g.section.id} `,
        )}${html(g.section.title)}</th></tr>${g.rows.map((r) => rowHtml(r, m)).join('\n')}</tbody>`,
    )
    .join('\n');
  return `<table id="grid"><thead><tr><th scope="col">requirement</th>${header}</tr></thead>\n${bodies}\n</table>`;
}

function changeSummary(c: Column): string {
  const ch = c.changes;
  if (!ch.previous) return 'first run';
  const parts = [
    ch.newlyFailing.length ? `<span class="v-fail">+${ch.newlyFailing.length} failing</span>` : '',
    ch.newlyPassing.length ? `<span class="v-pass">+${ch.newlyPassing.length} passing</span>` : '',
    ch.newlyBlockedOrNotRun.length ? `${ch.newlyBlockedOrNotRun.length} newly not judged` : '',
    ch.newFindings.length ? `${ch.newFindings.length} new finding(s)` : '',
    ch.goneFindings.length ? `${ch.goneFindings.length} finding(s) gone` : '',
  ].filter(Boolean);
  return `<a href="impl/${c.slug}.html#changes">${parts.join(', ') || 'no change'}</a>`;
}

function implementationsHtml(m: Matrix): string {
  const rows = m.columns
    .map(
      (c) =>
        `<tr><th scope="row"><a href="impl/${c.slug}.html">${html(c.label)}</a></th><td>${html(c.latest.version ?? '–')}</td><td>${html(
          when(c.latest.startedAt),
        )}${c.latest.origin === 'import' ? ' (imported)' : ''}</td><td class="num">${c.latest.seed}</td><td>${html(
          c.latest.harnessVersion,
        )}</td><td class="num" title="musts met / musts exercised">${ratio(c.latest.score)} (${percent(
          c.latest.score,
        )})</td><td>${trendSvg(c.runs)}</td><td class="num">${c.runs.length}</td><td>${changeSummary(c)}</td>${capacityCell(c.capacity)}</tr>`,
    )
    .join('\n');
  return `<table class="impls"><thead><tr><th>implementation</th><th>version</th><th>latest run</th><th>seed</th><th>harness</th><th>score (musts met / exercised)</th><th>trend</th><th>runs</th><th>since its previous run</th><th title="lifecycles/s with every load gate held (wfcheck load capacity); ? not confirmed">capacity</th></tr></thead><tbody>\n${rows}\n</tbody></table>`;
}

function interopHtml(m: Matrix): string {
  const i = m.interop;
  const none = i.metByNone.map((id) => `<li><a href="#${anchor(id)}">${html(id)}</a></li>`).join('');
  return `<p class="interop" id="interop-line">Interop: <strong>${i.metByAll.length}</strong> of ${i.total} must and should requirements met by every implementation (${i.mustMetByAll} of ${i.mustTotal} musts).</p>
<details id="met-by-none"${i.metByNone.length && i.metByNone.length <= 12 ? ' open' : ''}><summary>Met by no implementation: ${i.metByNone.length}${
    i.judgedByNone.length ? `; judged by none: ${i.judgedByNone.length}` : ''
  }</summary><ul>${none}</ul></details>`;
}

/** How many open points the implementations split on, linked to the page that shows them. */
function splitLine(m: Matrix): string {
  const rows = m.openPoints.rows;
  const split = rows.filter((r) => r.split);
  const top = split
    .slice(0, 5)
    .map((r) => html(r.point))
    .join(', ');
  return `<p id="split-line">Where implementations split: <a href="open-points.html"><strong>${split.length}</strong> of ${rows.length} open point(s) answered</a>${
    top ? ` (most split: ${top})` : ''
  }.</p>`;
}

function filtersHtml(m: Matrix): string {
  const tops = new Map(m.groups.map((g) => [g.section.top, g.section]));
  const options = [...tops.keys()]
    .map((top) => `<option value="${html(top)}">${html(top === 'other' ? 'not in the catalogue' : `§${top}`)}</option>`)
    .join('');
  return `<form id="filters" hidden>
<label>level <select name="level"><option value="">all</option><option value="must">must</option><option value="should">should</option><option value="observe">observe</option></select></label>
<label>section <select name="section"><option value="">all</option>${options}</select></label>
<label><input type="checkbox" name="differs"> only where implementations differ</label>
<label><input type="checkbox" name="failures"> only failures</label>
<output id="shown"></output> <a id="permalink" href="#">permalink to this view</a>
</form>
<noscript><p>The filters need JavaScript; the grid below is whole without it.</p></noscript>`;
}

const LEGEND = Object.entries(LETTER)
  .map(([v, l]) => `<span class="${verdictClass(v === 'absent' ? 'absent' : v)}">${l} ${html(wordOf(v))}</span>`)
  .join('');

export function renderGrid(m: Matrix): string {
  return `${head('Implementation matrix — wfcheck')}<body>
<h1>Implementation matrix</h1>
<p class="meta">${m.columns.length} implementation(s) × ${m.groups.reduce((n, g) => n + g.rows.length, 0)} requirements, from the run history; built ${html(
    when(m.generatedAt),
  )} by wfcheck ${html(m.harnessVersion)}. Data: <a href="matrix.json">matrix.json</a>.</p>
${interopHtml(m)}
${splitLine(m)}
<h2>Implementations</h2>
${implementationsHtml(m)}
<h2>Requirements × implementations</h2>
<p class="legend">Each cell: the verdict of the implementation's latest run and the finding's title; hover for its history (${LEGEND}), click for the evidence.</p>
${filtersHtml(m)}
${gridHtml(m)}
<script>${FILTER_SCRIPT}</script>
</body></html>
`;
}
