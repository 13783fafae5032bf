/**
 * open-points.html: where implementations split on the points the specification leaves open. One row per
 * point, the most split first: the question, the specification's words that leave it open, each value
 * with the implementations whose latest run holds it (each linked to the evidence on its page), and for
 * a split point the answers a client must tolerate to work with all of them; below a row, where an
 * implementation's answer changed between its runs. Whole without JavaScript, like the grid.
 *
 * Also the section of an implementation's own page (openPointsSection): where it stands alone or in the
 * minority, then each of its answers under an anchor of its own (#p-<point>), with the record it was
 * read from and the exchange behind it.
 */
import { distinctAnchor as anchor, htmlAttr as html } from '../core/report/escape.ts';
import { head, when } from './assets.ts';
import type { EvidenceExample } from '../core/history-store/records.ts';
import type { Matrix } from './model.ts';
import type { AnswerChange, OpenPointRow, Standing } from './open-points.ts';

export const OPEN_POINTS_PAGE = 'open-points.html';

const STYLE = `<style>
#points{font-size:13px;width:100%}
#points th.q{min-width:280px;max-width:420px;font-weight:400}
#points .id{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px;font-weight:600}
#points blockquote{margin:4px 0 0;padding:0 0 0 8px;border-left:3px solid var(--line);color:#59636e;font-size:12px}
#points tr.split>th{border-left:4px solid var(--warn)}
.pv{margin:0 0 4px}.val{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-weight:600;background:#f6f8fa;border:1px solid var(--line);border-radius:4px;padding:0 4px}
.pv .n{color:#59636e;font-size:12px}
.tol .val{line-height:2}.agree{color:#59636e}
.chg{font-size:12px;color:#9a6700;margin:4px 0 0}
.badge{font-size:11px;border-radius:8px;padding:0 6px;margin-left:6px;background:#fff8c5;border:1px solid #d4a72c;color:#7d4e00}
.apart li{margin:2px 0}
</style>`;

const pointHref = (slug: string, point: string, fromImpl = false) =>
  `${fromImpl ? '' : 'impl/'}${slug}.html#p-${anchor(point)}`;

const versionOf = (v: string | null) => v ?? 'no version';

/** A question as HTML: its `quoted` names (parameters, statuses) in code. */
const questionHtml = (text: string) => html(text).replace(/`([^`]+)`/g, '<code>$1</code>');

const chip = (value: string) => `<span class="val">${html(value)}</span>`;

function changeText(c: AnswerChange): string {
  const span =
    c.before.version !== c.after.version
      ? `version ${versionOf(c.before.version)} → ${versionOf(c.after.version)}`
      : `runs #${c.before.runId} → #${c.after.runId}, one version (${versionOf(c.after.version)})`;
  return `${c.from.join(' + ')} → ${c.to.join(' + ')} (${span}, ${when(c.after.startedAt)})`;
}

function valuesHtml(row: OpenPointRow): string {
  return row.values
    .map((v) => {
      const who = v.holders
        .map(
          (h) =>
            `<a href="${pointHref(h.slug, row.point)}" title="${html(
              `${h.sentence}${h.also.length ? `\nalso answers ${h.also.join(', ')}` : ''}`,
            )}">${html(h.label)}</a>${h.also.length ? '*' : ''}`,
        )
        .join(', ');
      return `<div class="pv">${chip(v.value)} <span class="n">${v.holders.length} of ${row.answered}</span> ${who}</div>`;
    })
    .join('');
}

function rowHtml(row: OpenPointRow): string {
  const changes = row.changes.length
    ? `<div class="chg">Changed: ${row.changes
        .map((c) => `<a href="${pointHref(c.slug, row.point)}">${html(c.label)}</a> ${html(changeText(c))}`)
        .join('; ')}</div>`
    : '';
  const silent = row.silent.length ? `<div class="n">not answered: ${html(row.silent.join(', '))}</div>` : '';
  const tolerate = row.split
    ? `<span class="tol">${row.tolerate.map(chip).join(' <em>or</em> ')}</span>`
    : `<span class="agree">all agree</span>`;
  const reading = row.otherReading ? `<blockquote>Other reading: ${html(row.otherReading)}</blockquote>` : '';
  return `<tr id="p-${anchor(row.point)}" class="${row.split ? 'split' : 'agreed'}" data-split="${row.split ? 1 : 0}"><th scope="row" class="q"><a class="id" href="#p-${anchor(
    row.point,
  )}">${html(row.point)}</a>${row.split ? `<span class="badge">${row.values.length} answers</span>` : ''}<div>${questionHtml(
    row.question,
  )} (<a href="index.html#${anchor(row.clause)}">${html(row.clause)}</a>)</div><blockquote>“${html(row.words)}”</blockquote>${reading}</th><td>${valuesHtml(
    row,
  )}${silent}${changes}</td><td>${tolerate}</td><td class="n">${html(row.vocabulary.join(' | '))}</td></tr>`;
}

export function renderOpenPoints(m: Matrix): string {
  const { rows, unanswered } = m.openPoints;
  const split = rows.filter((r) => r.split).length;
  const none = unanswered.length
    ? `<h2 id="unanswered">Not answered by any implementation (${unanswered.length})</h2><ul>${unanswered
        .map((u) => `<li><span class="id">${html(u.point)}</span>: ${html(u.question)}</li>`)
        .join('')}</ul>`
    : '';
  return `${head('Where implementations split — wfcheck')}<body>${STYLE}
<p><a href="index.html">← the matrix</a></p>
<h1>Where implementations split</h1>
<p class="meta">The points the specification leaves open, as ${m.columns.length} implementation(s) answered them in their latest run: <strong>${split}</strong> of ${rows.length} point(s) answered are split. Most split first; a value links to the record it was read from; * marks an implementation that answered the point in more than one way. Data: <a href="matrix.json">matrix.json</a> (<code>openPoints</code>).</p>
<table id="points"><thead><tr><th scope="col">point, and the words that leave it open</th><th scope="col">values, and the implementations holding them</th><th scope="col">a client must tolerate</th><th scope="col">vocabulary</th></tr></thead><tbody>
${rows.map(rowHtml).join('\n')}
</tbody></table>
${none}
</body></html>
`;
}

// ---- an implementation's own page ---------------------------------------------------------------------

function standingHtml(s: Standing): string {
  const who = s.kind === 'alone' ? 'alone' : `with ${s.holders - 1} other(s) of ${s.answered}`;
  return `<li><a href="../${OPEN_POINTS_PAGE}#p-${anchor(s.point)}">${html(s.point)}</a>: ${html(s.values.join(' + '))} — ${html(
    who,
  )} (${questionHtml(s.question)})</li>`;
}

/**
 * The section "Open points" of implementation `index`: where it stands apart, then each of its answers
 * with the exchange it was read from (rendered by `evidence`, as the page renders a verdict's).
 */
export function openPointsSection(m: Matrix, index: number, evidence: (e: EvidenceExample) => string): string {
  const c = m.columns[index]!;
  const apart = m.openPoints.standing[index] ?? [];
  const mine = m.openPoints.rows.filter((r) => r.values.some((v) => v.holders.some((h) => h.key === c.key)));
  if (!mine.length) return '<p>Its latest run recorded no answer to an open point.</p>';
  const standing = apart.length
    ? `<p>Where it stands alone or in the minority (${apart.length}):</p><ul class="apart">${apart.map(standingHtml).join('')}</ul>`
    : '<p>It stands alone or in the minority on no split point.</p>';
  const answers = mine
    .map((r) => {
      const values = r.values.filter((v) => v.holders.some((h) => h.key === c.key));
      const held = values.map((v) => v.holders.find((h) => h.key === c.key)!);
      const records = held
        .map(
          (h) =>
            `<p>Recorded: <code>${html(h.sentence)}</code></p>${
              h.example
                ? `<details><summary>the exchange it was read from</summary>${evidence(h.example)}</details>`
                : ''
            }`,
        )
        .join('');
      const changes = r.changes.filter((x) => x.key === c.key);
      return `<section class="req" id="p-${anchor(r.point)}"><h3><a href="../${OPEN_POINTS_PAGE}#p-${anchor(r.point)}">${html(
        r.point,
      )}</a> ${values.map((v) => chip(v.value)).join(' + ')}${r.split ? ' <span class="badge">split</span>' : ''}</h3><p>${questionHtml(
        r.question,
      )}</p>${records}${
        changes.length
          ? `<p class="chg">Its answer changed: ${changes.map((x) => html(changeText(x))).join('; ')}</p>`
          : ''
      }</section>`;
    })
    .join('\n');
  return `${STYLE}${standing}\n${answers}`;
}
