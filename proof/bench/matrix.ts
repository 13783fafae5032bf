/**
 * `npm run bench:matrix`: the implementation matrix at the size of a busy comparison — 20
 * implementations × the 127 requirements × 30 nights, from a synthetic history — built again and
 * again: how long the build takes (reading the history, rendering, writing), how big the pages are
 * (and gzipped, as a static host serves them), and, where Debian's chromium is installed, how soon the
 * grid is usable in a headless browser and how long a filter takes, as the page itself measures them
 * (Performance API). Figures, not gates: they vary run to run on a shared machine.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { CHROMIUM, CHROMIUM_ARGS, chromiumMissing } from '../browser.ts';
import { writeSyntheticMatrix } from '../demo/synthetic-matrix.ts';
import { buildMatrixSite, type SiteOutcome } from '../../matrix/site.ts';

export interface MatrixBenchOptions {
  implementations: number;
  nights: number;
  builds: number;
}

/**
 * What the page measures of itself once loaded: load times, and one filter applied (level must, differs)
 * with the layout it causes (read back through offsetHeight, which forces it).
 */
const PROBE = `<script>addEventListener('load',function(){
var n=performance.getEntriesByType('navigation')[0];var f=document.getElementById('filters');
var t0=performance.now();f.level.value='must';f.differs.checked=true;f.dispatchEvent(new Event('change'));document.body.offsetHeight;var t1=performance.now();
var pre=document.createElement('pre');pre.id='bench';
pre.textContent=JSON.stringify({domContentLoaded:n.domContentLoadedEventEnd,load:n.loadEventStart,filterMs:t1-t0,
rows:document.querySelectorAll('#grid tbody tr[data-level]:not([hidden])').length,cells:document.querySelectorAll('#grid td.c').length});
document.body.appendChild(pre);});</script>`;

interface BrowserFigures {
  domContentLoaded: number;
  load: number;
  filterMs: number;
  rows: number;
  cells: number;
  /** The whole chromium process: start, load, dump. */
  processMs: number;
}

/** Opens a copy of the site (the probe added) in headless chromium and reads what the page measured. */
function browserFigures(site: string, scratch: string): BrowserFigures {
  const copy = join(scratch, 'probe-site');
  cpSync(site, copy, { recursive: true });
  const index = join(copy, 'index.html');
  writeFileSync(index, readFileSync(index, 'utf8').replace('</body>', `${PROBE}</body>`));
  const started = performance.now();
  const dom = execFileSync(
    CHROMIUM,
    [...CHROMIUM_ARGS, `--user-data-dir=${join(scratch, 'profile')}`, '--dump-dom', pathToFileURL(index).href],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const processMs = performance.now() - started;
  const measured = /<pre id="bench">([^<]*)<\/pre>/.exec(dom)?.[1];
  if (!measured) throw new Error('the page did not report its figures (did its script run?)');
  return { ...(JSON.parse(measured.replace(/&quot;/g, '"')) as Omit<BrowserFigures, 'processMs'>), processMs };
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export function benchMatrix(o: MatrixBenchOptions, log: (line: string) => void = console.log): void {
  const scratch = mkdtempSync(join(tmpdir(), 'wfcheck-bench-matrix-'));
  try {
    const history = join(scratch, 'history.sqlite');
    let t = performance.now();
    const runs = writeSyntheticMatrix(history, { implementations: o.implementations, nights: o.nights });
    log(
      `synthetic history: ${runs} runs (${o.implementations} implementations × ${o.nights} nights × 127 requirements) ` +
        `written in ${(performance.now() - t).toFixed(0)} ms; ${kib(statSync(history).size)} on disk`,
    );
    const site = join(scratch, 'site');
    const builds: { wall: number; outcome: SiteOutcome }[] = [];
    for (let i = 0; i < o.builds; i++) {
      t = performance.now();
      const outcome = buildMatrixSite({ historyFile: history, outDir: site });
      builds.push({ wall: performance.now() - t, outcome });
    }
    const walls = builds.map((b) => b.wall);
    const last = builds.at(-1)!.outcome;
    log(
      `build (${o.builds}×): median ${median(walls).toFixed(0)} ms, min ${Math.min(...walls).toFixed(0)} ms, max ${Math.max(...walls).toFixed(0)} ms ` +
        `(last: read ${last.ms.load} ms, render ${last.ms.render} ms, write ${last.ms.write} ms)`,
    );
    const page = (name: string) => readFileSync(join(site, name));
    const firstImpl = `impl/${readFileSync(join(site, 'index.html'), 'utf8').match(/href="impl\/([^"#]+\.html)"/)?.[1]}`;
    for (const [what, name] of [
      ['index.html', 'index.html'],
      ['matrix.json', 'matrix.json'],
      ['one implementation page', firstImpl],
    ] as const) {
      const bytes = page(name);
      log(`${what}: ${kib(bytes.length)} (${kib(gzipSync(bytes).length)} gzipped)`);
    }
    log(`site: ${last.files} files, ${kib(last.bytes.total)}`);
    const missing = chromiumMissing();
    if (missing) {
      log(`browser: skipped (${missing})`);
      return;
    }
    const b = browserFigures(site, scratch);
    log(
      `browser (headless chromium, a grid of ${b.cells} cells): DOMContentLoaded ${b.domContentLoaded.toFixed(0)} ms, ` +
        `load ${b.load.toFixed(0)} ms; a filter (level must + differs, ${b.rows} rows left) with its layout ${b.filterMs.toFixed(1)} ms; ` +
        `chromium process ${b.processMs.toFixed(0)} ms`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
