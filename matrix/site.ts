/**
 * `wfcheck matrix`: the implementation matrix as a static site, built from the run history into one
 * self-contained folder (default reports/matrix) that a CI job can publish as it is (GitHub Pages):
 * index.html (the grid), matrix.json (the same as data), open-points.html (where implementations split
 * on the points the specification leaves open) and impl/<slug>.html (one page per implementation, with
 * the evidence behind each of its cells). No script or style is fetched from
 * anywhere: the pages open from the folder, offline.
 *
 * No key reaches the site. The history keeps none (it redacts what it is given), but a history may
 * have been written by another harness, or hold imports: every text is scrubbed again of registered
 * keys and of whatever stands where a credential goes, and each page is checked before it is written.
 */
import { existsSync } from 'node:fs';
import { openOutputFolder } from '../core/outputs/output-folder.ts';
import { containsSecret, scrubCredentials } from '../core/settings/redact.ts';
import { withHistory } from '../core/history-store/store.ts';
import { matrixJson } from './json.ts';
import { loadMatrix, type LoadOptions } from './load.ts';
import type { Matrix } from './model.ts';
import { renderGrid } from './page-grid.ts';
import { renderImplementation } from './page-implementation.ts';
import { OPEN_POINTS_PAGE, renderOpenPoints } from './page-open-points.ts';

export interface SiteOptions extends LoadOptions {
  historyFile: string;
  outDir: string;
  /** Progress lines (a site moved into a subfolder says why). */
  log?: (line: string) => void;
}

export interface SiteOutcome {
  outDir: string;
  implementations: number;
  requirements: number;
  files: number;
  bytes: { index: number; json: number; total: number };
  ms: { load: number; render: number; write: number };
  /** The matrix as the site shows it (scrubbed of keys): what a command prints beside the site. */
  matrix: Matrix;
}

/** Every text of a value scrubbed of keys and credentials, its shape kept. */
export function scrubbedDeep<T>(value: T): T {
  if (typeof value === 'string') return scrubCredentials(value) as T;
  if (Array.isArray(value)) return value.map((v) => scrubbedDeep(v)) as T;
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, scrubbedDeep(v)])) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubbedDeep(v)])) as T;
  return value;
}

/** The site's files, by path under the site folder. */
export function renderSite(m: Matrix): Map<string, string> {
  const files = new Map<string, string>([
    ['index.html', renderGrid(m)],
    ['matrix.json', `${JSON.stringify(matrixJson(m), null, 1)}\n`],
    [OPEN_POINTS_PAGE, renderOpenPoints(m)],
  ]);
  m.columns.forEach((c, i) => {
    files.set(`impl/${c.slug}.html`, renderImplementation(m, i));
  });
  return files;
}

/**
 * What the site writes into its folder. The previous site's files are cleared by the folder's manifest;
 * anything else there (a CNAME for GitHub Pages) is left as it is, and a folder holding files of its own
 * at these names gets the site in its subfolder wfcheck-matrix/ (core/outputs/output-folder.ts).
 */
const OWN = ['index.html', 'matrix.json', OPEN_POINTS_PAGE, 'impl'];

export function buildMatrixSite(options: SiteOptions): SiteOutcome {
  const started = Date.now();
  if (!existsSync(options.historyFile))
    throw new Error(`no run history at ${options.historyFile} (record runs with wfcheck conformance --name <label>)`);
  const { value, skipped } = withHistory(options.historyFile, (db) => loadMatrix(db, options));
  if (!value) throw new Error(skipped ?? 'the history could not be read');
  const loaded = Date.now();
  const matrix = scrubbedDeep(value);
  const files = renderSite(matrix);
  const rendered = Date.now();
  for (const [path, text] of files)
    if (containsSecret(text)) throw new Error(`a key would be written to the site (${path}); nothing was written`);
  const folder = openOutputFolder(options.outDir, {
    mode: 'matrix',
    command: 'matrix',
    names: OWN,
    log: options.log,
  });
  let total = 0;
  try {
    for (const [path, text] of files) {
      folder.write(path, text);
      total += Buffer.byteLength(text);
    }
    folder.finish();
  } finally {
    folder.release();
  }
  return {
    outDir: folder.dir,
    implementations: value.columns.length,
    requirements: value.groups.reduce((n, g) => n + g.rows.length, 0),
    files: files.size,
    bytes: {
      index: Buffer.byteLength(files.get('index.html')!),
      json: Buffer.byteLength(files.get('matrix.json')!),
      total,
    },
    ms: { load: loaded - started, render: rendered - loaded, write: Date.now() - rendered },
    matrix,
  };
}
