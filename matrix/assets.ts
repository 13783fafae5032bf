/**
 * What the matrix's pages share: the words and colours of verdicts, the style sheet, the score trend as
 * inline SVG (no script, no library: it draws where JavaScript does not run), and the one script of the
 * grid, its filters.
 */
import { htmlAttr as html } from '../core/report/escape.ts';
import type { Score } from './model.ts';

/** Verdicts in words, so that the grid reads without colour. */
export const WORD: Readonly<Record<string, string>> = {
  pass: 'PASS',
  fail: 'FAIL',
  warn: 'WARN',
  'not-run': 'NOT RUN',
  observed: 'OBSERVED',
  waived: 'WAIVED',
  blocked: 'BLOCKED',
  absent: 'not in the run',
};

export const wordOf = (verdict: string): string => WORD[verdict] ?? verdict.toUpperCase();

/** A verdict as a CSS class name (only letters and dashes reach the class attribute). */
export const verdictClass = (verdict: string): string => `v-${verdict.replace(/[^a-z-]/g, '') || 'absent'}`;

/** The date and minute of an ISO time, in UTC: how runs are named on the pages. */
export const when = (iso: string): string => iso.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC');

export const ratio = (s: Score): string => `${s.met}/${s.exercised}`;
export const percent = (s: Score): string => (s.exercised ? `${Math.round((100 * s.met) / s.exercised)}%` : '–');

export const STYLE = `
:root{--pass:#1a7f37;--fail:#cf222e;--warn:#9a6700;--notrun:#6e7781;--observed:#0969da;--waived:#8250df;--blocked:#bc4c00;--line:#d0d7de}
*{box-sizing:border-box}
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;padding:16px 20px;color:#1f2328;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:24px 0 8px}h3{font-size:15px;margin:16px 0 4px}
a{color:#0969da;text-decoration:none}a:hover{text-decoration:underline}
.meta{color:#59636e;margin:0 0 12px}
table{border-collapse:collapse}
th,td{border:1px solid var(--line);padding:3px 6px;vertical-align:top;text-align:left}
thead th{background:#f6f8fa}
.impls td,.impls th{white-space:nowrap}
.num{text-align:right;font-variant-numeric:tabular-nums}
.v-pass{color:var(--pass)}.v-fail{color:var(--fail)}.v-warn{color:var(--warn)}.v-not-run{color:var(--notrun)}
.v-observed{color:var(--observed)}.v-waived{color:var(--waived)}.v-blocked{color:var(--blocked)}.v-absent{color:var(--notrun)}
td.c{padding:0;min-width:74px;max-width:150px;font-size:12px}
td.c a{display:block;padding:3px 5px;color:inherit;font-weight:600}
td.c.v-pass{background:#dafbe1}td.c.v-fail{background:#ffebe9}td.c.v-warn{background:#fff8c5}
td.c.v-not-run,td.c.v-absent{background:#f6f8fa}td.c.v-observed{background:#ddf4ff}td.c.v-waived{background:#fbefff}
td.c.v-blocked{background:#fff1e5}
td.c .t{display:block;font-weight:400;color:#1f2328;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
#grid{font-size:13px}
#grid thead th{position:sticky;top:0;z-index:2}
#grid th.impl{min-width:74px;max-width:150px;font-size:12px;overflow-wrap:anywhere}
#grid th.impl .score{display:block;font-weight:400;color:#59636e}
#grid tbody th{position:sticky;left:0;background:#fff;z-index:1;font-weight:400;min-width:260px;max-width:340px}
#grid tr.group th{background:#eaeef2;font-weight:600;position:static}
#grid .id{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px;font-weight:600}
#grid .text{display:block;color:#59636e;font-size:12px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.lvl{font-size:11px;border:1px solid var(--line);border-radius:8px;padding:0 5px;margin-left:4px;color:#59636e}
.lvl-must{border-color:#cf222e;color:#cf222e}.lvl-should{border-color:#9a6700;color:#9a6700}
#filters{display:flex;flex-wrap:wrap;gap:12px;align-items:center;margin:8px 0;padding:8px;background:#f6f8fa;border:1px solid var(--line)}
#filters[hidden]{display:none}
.interop{font-size:15px}
.legend span{margin-right:10px}
pre{background:#f6f8fa;border:1px solid var(--line);padding:8px;overflow:auto;max-height:320px;white-space:pre-wrap;word-break:break-word;font-size:12px}
.req{border-top:1px solid var(--line);padding:6px 0}
.req h3{margin:6px 0 2px}
.strip td{width:16px;height:16px;padding:0;text-align:center;font-size:10px;font-weight:700;border:1px solid #fff}
.strip td.v-pass{background:#2da44e;color:#fff}.strip td.v-fail{background:#cf222e;color:#fff}.strip td.v-warn{background:#d4a72c;color:#fff}
.strip td.v-not-run,.strip td.v-absent{background:#afb8c1;color:#fff}.strip td.v-observed{background:#54aeff;color:#fff}
.strip td.v-waived{background:#a475f9;color:#fff}.strip td.v-blocked{background:#e16f24;color:#fff}
svg.trend{vertical-align:middle}
`;

/**
 * The filters of the grid: level, section, "only where implementations differ", "only failures". The
 * view lives in the URL hash (#level=must&section=4&differs=1), so every view has a permalink; a hash
 * without "=" is a row's anchor and leaves the grid whole.
 */
export const FILTER_SCRIPT = `
(function(){
  var form=document.getElementById('filters');
  if(!form)return;
  form.hidden=false;
  var rows=Array.prototype.slice.call(document.querySelectorAll('#grid tbody tr[data-level]'));
  var groups=Array.prototype.slice.call(document.querySelectorAll('#grid tbody'));
  var shown=document.getElementById('shown');
  var link=document.getElementById('permalink');
  function read(){
    var h=location.hash.slice(1);
    var p=new URLSearchParams(h.indexOf('=')>=0?h:'');
    return {level:p.get('level')||'',section:p.get('section')||'',differs:p.get('differs')==='1',failures:p.get('failures')==='1'};
  }
  function hashOf(s){
    var p=new URLSearchParams();
    if(s.level)p.set('level',s.level);
    if(s.section)p.set('section',s.section);
    if(s.differs)p.set('differs','1');
    if(s.failures)p.set('failures','1');
    return p.toString();
  }
  function apply(s){
    form.level.value=s.level;form.section.value=s.section;form.differs.checked=s.differs;form.failures.checked=s.failures;
    var n=0;
    for(var i=0;i<rows.length;i++){
      var d=rows[i].dataset;
      var ok=(!s.level||d.level===s.level)&&(!s.section||d.section===s.section)&&(!s.differs||d.differs==='1')&&(!s.failures||d.failing==='1');
      rows[i].hidden=!ok;if(ok)n++;
    }
    for(var j=0;j<groups.length;j++)groups[j].hidden=!groups[j].querySelector('tr[data-level]:not([hidden])');
    shown.textContent=n+' of '+rows.length+' requirements shown';
    var h=hashOf(s);link.href=h?'#'+h:location.pathname;
    document.documentElement.dataset.view=h;
  }
  form.addEventListener('change',function(){
    var s={level:form.level.value,section:form.section.value,differs:form.differs.checked,failures:form.failures.checked};
    var h=hashOf(s);
    history.replaceState(null,'',h?'#'+h:location.pathname+location.search);
    apply(s);
  });
  window.addEventListener('hashchange',function(){apply(read());});
  apply(read());
})();
`;

/** The score run by run as a line (share of exercised musts met), with each run's figures in its tooltip. */
export function trendSvg(
  runs: readonly { startedAt: string; score: Score }[],
  size: { width: number; height: number; dots?: boolean } = { width: 120, height: 26 },
): string {
  const { width, height } = size;
  const pad = 3;
  // Scaled to the series' own range (at least five points wide): a move of one clause shows.
  const shares = runs.map((r) => (r.score.exercised ? r.score.met / r.score.exercised : 0));
  const top = Math.min(1, Math.max(...shares) + 0.01);
  const bottom = Math.max(0, Math.min(Math.min(...shares) - 0.01, top - 0.05));
  const points = runs.map((r, i) => {
    const x = runs.length === 1 ? width / 2 : pad + (i * (width - 2 * pad)) / (runs.length - 1);
    return { x, y: pad + ((top - shares[i]!) / (top - bottom)) * (height - 2 * pad), r };
  });
  const line = points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
  const label = runs.map((r) => `${when(r.startedAt)}: ${ratio(r.score)}`).join('\n');
  const dots = size.dots
    ? points
        .map(
          (p) =>
            `<circle cx="${p.x.toFixed(1)}" cy="${p.y.toFixed(1)}" r="3" fill="#0969da"><title>${html(
              `${when(p.r.startedAt)}: ${ratio(p.r.score)} musts (${percent(p.r.score)})`,
            )}</title></circle>`,
        )
        .join('')
    : '';
  // The large chart says its range and its span in words; the small one leaves that to its tooltip.
  const axis = size.dots
    ? `<text x="${width - 2}" y="11" font-size="10" text-anchor="end" fill="#59636e">${Math.round(top * 100)}%</text>` +
      `<text x="${width - 2}" y="${height - 3}" font-size="10" text-anchor="end" fill="#59636e">${Math.round(bottom * 100)}%</text>` +
      `<text x="2" y="${height - 3}" font-size="10" fill="#59636e">${html(runs[0]?.startedAt.slice(0, 10) ?? '')}</text>`
    : '';
  return (
    `<svg class="trend" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="score trend">` +
    `<title>${html(`musts met / exercised, oldest first:\n${label}`)}</title>` +
    `<rect x="0" y="0" width="${width}" height="${height}" fill="#f6f8fa"/>` +
    `<polyline points="${line}" fill="none" stroke="#0969da" stroke-width="1.5"/>${dots}${axis}</svg>`
  );
}

/** The head of a page: charset, viewport, title, the style sheet inline (the site opens offline). */
export function head(title: string): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${html(
    title,
  )}</title><style>${STYLE}</style></head>`;
}
