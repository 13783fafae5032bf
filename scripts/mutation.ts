/**
 * `npm run mutation`: proves the conformance suite catches real bugs and raises no false alarm.
 *
 *   npm run mutation -- [--only id,id] [--category c,c] [--kind bug,should,legal]
 *                       [--parallel N] [--workers N] [--seed N] [--timeout S] [--max-failures N] [--focus] [--list]
 *
 * For each mutant of fixtures/faults/catalogue.ts it starts a fresh reference target (in process),
 * puts the mutating proxy in front of it, runs the conformance run against the proxy exactly as a
 * user would against a third-party target (BASE_URL, API_KEY, API_KEY_B), and reads the report:
 *
 * - bug (breaks must clauses): killed when the run fails; "by" lists the failing requirement IDs and
 *   says whether one of the clauses the bug breaks is among them (a kill only by unrelated clauses
 *   is flagged).
 * - should (breaks should clauses): warned when one of its clauses is a warning.
 * - legal (only behaviour the spec leaves open): clean when the run passes; a failure is a false alarm.
 *
 * A bug's run stops after --max-failures failed tests (default 6; 0 runs every test): by then the
 * kill is established, and "by" lists the IDs failed up to that point. Legal variants always run in full.
 *
 * --focus runs, per mutant, only the tests citing its probe clauses (the CI subset uses it).
 *
 * Arguments after `--` go to every conformance run's test runner (e.g. `-- --grep-invert ODD-IDS`).
 *
 * Writes reports/mutation/report.json and report.md (and each run's report under runs/<id>/).
 * Exit: 0 every bug killed and every legal variant clean; 1 otherwise; 2 the control run (the
 * unmodified target behind the proxy) failed, so no result would mean anything.
 */
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { kindOf, matchesAny, MUTANTS, probesOf, type Mutant, type MutantKind } from '../fixtures/faults/catalogue.ts';
import { startMutatingProxy } from '../fixtures/faults/proxy.ts';
import { REFERENCE_BEHIND_PROXY_ENV, runConformance, scratchOutDir, verdictIds } from '../fixtures/faults/run-conformance.ts';
import { startTarget } from '../fixtures/target/server.ts';
import { parseSeed } from '../fixtures/data/seeded.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const MUTATION_OUT = join(ROOT, 'reports', 'mutation');
const CONTROL_ID = 'control-passthrough';
/** A fixed default seed: the table is reproducible run to run (override with --seed). */
export const DEFAULT_MUTATION_SEED = 20260101;

export type Outcome = 'killed' | 'killed-unrelated' | 'survived' | 'warned' | 'missed' | 'clean' | 'false-alarm' | 'incomplete';

export interface MutantResult {
  id: string;
  category: string;
  kind: MutantKind;
  description: string;
  expected: string[];
  outcome: Outcome;
  /** Failing (must) requirement IDs in the run's report. */
  failed: string[];
  /** Warning (should) requirement IDs. */
  warned: string[];
  /** Of `failed` (bug) or `failed`+`warned` (should): the ones the mutant was expected to trip. */
  expectedHit: string[];
  exitCode: number | null;
  wallMs: number;
  hung: boolean;
  /** Tests the run started (0 means the focus selected nothing, or the run never began). */
  testsRun: number;
  proxyRequests: number;
  proxyErrors: string[];
  note?: string;
}

export interface MutationOptions {
  mutants: readonly Mutant[];
  seed: number;
  parallel: number;
  workers: number;
  timeoutS: number;
  log?: (line: string) => void;
  /**
   * A bug's run stops after this many failed tests (Playwright --max-failures): the kill is established
   * by then, and every failed test costs a fresh test worker. Legal variants always run in full.
   */
  maxFailures: number;
  /**
   * Focused runs: each mutant runs only the tests whose titles cite its probe clauses (probesOf),
   * the control runs the union of them. Fast (CI); a full run checks every test against every mutant.
   */
  focus?: boolean;
  /** Extra arguments for each conformance run (after `--`, e.g. Playwright's --grep-invert). */
  extraArgs?: string[];
  /** Keep each run's report under reports/mutation/runs/<id>/ (default true). */
  keepRuns?: boolean;
}

export interface MutationReport {
  seed: number;
  startedAt: string;
  wallMs: number;
  parallel: number;
  workers: number;
  results: MutantResult[];
  score: { bugs: number; killed: number; killedUnrelated: number; survived: number; should: number; warned: number; legal: number; clean: number; falseAlarms: number };
  ok: boolean;
}

function judge(m: Mutant, failed: string[], warned: string[], exitCode: number | null, hung: boolean): { outcome: Outcome; expectedHit: string[]; note?: string } {
  const kind = kindOf(m);
  if (kind === 'legal') {
    if (failed.length > 0) return { outcome: 'false-alarm', expectedHit: [] };
    if (exitCode !== 0 || hung) return { outcome: 'incomplete', expectedHit: [], note: hung ? 'the run did not end within its bound' : `exit ${exitCode}` };
    return { outcome: 'clean', expectedHit: [] };
  }
  if (kind === 'bug') {
    const hit = failed.filter((id) => matchesAny(id, m.breaks!));
    if (hit.length > 0) return { outcome: 'killed', expectedHit: hit };
    if (failed.length > 0) return { outcome: 'killed-unrelated', expectedHit: [], note: `expected one of ${m.breaks!.join(', ')}` };
    return { outcome: 'survived', expectedHit: [], note: exitCode === 2 ? 'run incomplete without a failure' : undefined };
  }
  const hit = [...warned, ...failed].filter((id) => matchesAny(id, m.warns!));
  const note = failed.length > 0 ? `also failed must clauses: ${failed.join(', ')}` : undefined;
  return { outcome: hit.length > 0 ? 'warned' : 'missed', expectedHit: hit, note };
}

/** Playwright --grep for tests citing any of the clauses (`*` patterns allowed). */
export function grepFor(ids: readonly string[]): string {
  return ids.map((id) => `\\[${id.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[A-Z0-9-]*')}\\]`).join('|');
}

async function runOne(m: Mutant, slot: number, o: MutationOptions, focusIds?: string[]): Promise<MutantResult> {
  const target = await startTarget({});
  const [a, b] = target.tenants;
  const proxy = await startMutatingProxy(target.baseUrl, { A: a.apiKey, B: b?.apiKey }, m);
  const runDir = join(MUTATION_OUT, 'runs', m.id);
  // Each run writes into its own scratch dir (parallel runs share no path); the verdict is kept below.
  const outDir = scratchOutDir(`mutation-${process.pid}-${slot}`);
  try {
    const run = await runConformance({
      outDir,
      baseUrl: proxy.baseUrl,
      apiKey: a.apiKey,
      apiKeyB: b?.apiKey,
      seed: o.seed,
      timeoutS: o.timeoutS,
      workers: o.workers,
      args: [
        ...(focusIds?.length ? ['--grep', grepFor(focusIds)] : []),
        '--',
        ...(kindOf(m) === 'legal' || o.maxFailures <= 0 ? [] : [`--max-failures=${o.maxFailures}`]),
        ...(o.extraArgs ?? []),
      ],
      // A request deadline well under the default keeps latency bugs from dominating the wall time.
      env: { ...REFERENCE_BEHIND_PROXY_ENV, WFCHECK_REQUEST_TIMEOUT_MS: '5000' },
      logFile: o.keepRuns === false ? undefined : join(runDir, 'conformance.log'),
    });
    if (o.keepRuns !== false && existsSync(run.reportDir)) {
      for (const f of ['report.json', 'report.md']) if (existsSync(join(run.reportDir, f))) cpSync(join(run.reportDir, f), join(runDir, f));
    }
    const failed = verdictIds(run.report, 'fail');
    const warned = verdictIds(run.report, 'warn');
    const verdict = run.report ? judge(m, failed, warned, run.exitCode, run.hung) : { outcome: 'incomplete' as Outcome, expectedHit: [], note: `no report written (exit ${run.exitCode}): ${run.output.trim().split('\n').slice(-3).join(' | ')}` };
    return {
      id: m.id,
      category: m.category,
      kind: kindOf(m),
      description: m.description,
      expected: m.breaks ?? m.warns ?? [],
      ...verdict,
      failed,
      warned,
      exitCode: run.exitCode,
      wallMs: run.wallMs,
      hung: run.hung,
      testsRun: run.report?.summary.tests.total ?? 0,
      proxyRequests: proxy.requests(),
      proxyErrors: proxy.errors().slice(0, 5),
    };
  } finally {
    await proxy.close();
    await target.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

function score(results: MutantResult[]): MutationReport['score'] {
  const count = (k: MutantKind, ...outcomes: Outcome[]) => results.filter((r) => r.kind === k && (outcomes.length === 0 || outcomes.includes(r.outcome))).length;
  return {
    bugs: count('bug'),
    killed: count('bug', 'killed', 'killed-unrelated'),
    killedUnrelated: count('bug', 'killed-unrelated'),
    survived: count('bug', 'survived', 'incomplete'),
    should: count('should'),
    warned: count('should', 'warned'),
    legal: count('legal'),
    clean: count('legal', 'clean'),
    falseAlarms: count('legal', 'false-alarm', 'incomplete'),
  };
}

/** Runs the given mutants (the control first when it is among them) and returns the report. */
export async function runMutation(o: MutationOptions): Promise<MutationReport> {
  const log = o.log ?? ((l: string) => console.log(l));
  const started = Date.now();
  if (o.keepRuns !== false) rmSync(join(MUTATION_OUT, 'runs'), { recursive: true, force: true });
  const slots = Array.from({ length: Math.max(1, Math.min(o.parallel, o.mutants.length)) }, (_, i) => i);
  const queue = [...o.mutants].sort((x, y) => (x.id === CONTROL_ID ? -1 : y.id === CONTROL_ID ? 1 : 0));
  const results: MutantResult[] = [];
  let done = 0;
  const worker = async (slot: number) => {
    for (let m = queue.shift(); m; m = queue.shift()) {
      const focusIds = !o.focus ? undefined : m.id === CONTROL_ID ? [...new Set(o.mutants.flatMap((x) => (x.id === CONTROL_ID ? [] : probesOf(x))))] : probesOf(m);
      const r = await runOne(m, slot, o, focusIds);
      results.push(r);
      done++;
      log(`[${done}/${o.mutants.length}] ${r.id.padEnd(36)} ${r.outcome.padEnd(16)} ${(r.wallMs / 1000).toFixed(1).padStart(6)} s  ${r.expectedHit.length ? 'by ' + r.expectedHit.join(', ') : r.failed.length ? 'failed: ' + r.failed.join(', ') : ''}${r.note ? `  (${r.note})` : ''}`);
    }
  };
  await Promise.all(slots.map(worker));
  const order = new Map(o.mutants.map((m, i) => [m.id, i]));
  results.sort((x, y) => order.get(x.id)! - order.get(y.id)!);
  const sc = score(results);
  return {
    seed: o.seed,
    startedAt: new Date(started).toISOString(),
    wallMs: Date.now() - started,
    parallel: slots.length,
    workers: o.workers,
    results,
    score: sc,
    ok: sc.survived === 0 && sc.falseAlarms === 0,
  };
}

const ICON: Record<Outcome, string> = {
  killed: 'killed',
  'killed-unrelated': 'killed (unrelated IDs)',
  survived: 'SURVIVED',
  warned: 'warned',
  missed: 'not warned',
  clean: 'clean',
  'false-alarm': 'FALSE ALARM',
  incomplete: 'INCOMPLETE',
};

export function renderTable(r: MutationReport): string {
  const rows = r.results.map((x) => [x.id, x.kind, x.category, ICON[x.outcome], x.expectedHit.length ? x.expectedHit.join(', ') : x.failed.length ? `(${x.failed.join(', ')})` : '', `${(x.wallMs / 1000).toFixed(1)}`]);
  const head = ['mutant', 'kind', 'category', 'result', 'by requirement IDs', 'wall s'];
  const widths = head.map((h, i) => Math.min(70, Math.max(h.length, ...rows.map((row) => row[i].length))));
  const line = (cells: string[]) => cells.map((c, i) => (c.length > widths[i] ? c.slice(0, widths[i] - 1) + '…' : c.padEnd(widths[i]))).join('  ');
  const s = r.score;
  return [
    line(head),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map(line),
    '',
    `bugs: ${s.killed}/${s.bugs} killed (${s.killedUnrelated} only by unrelated IDs), ${s.survived} survived; should-level: ${s.warned}/${s.should} warned; legal variants: ${s.clean}/${s.legal} clean, ${s.falseAlarms} false alarm(s)`,
    `mutation score ${s.bugs ? ((100 * s.killed) / s.bugs).toFixed(1) : '100.0'}%; wall time ${(r.wallMs / 1000).toFixed(1)} s (${r.parallel} in parallel, ${r.workers} workers each); seed ${r.seed}`,
    r.ok ? 'RESULT: every must-breaking bug killed, no legal variant failed' : 'RESULT: FAIL — see SURVIVED / FALSE ALARM / INCOMPLETE rows',
  ].join('\n');
}

export function renderMarkdown(r: MutationReport): string {
  const cell = (t: string) => t.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const out = [
    '# wfcheck mutation report',
    '',
    `**${r.ok ? 'PASS' : 'FAIL'}** — bugs killed ${r.score.killed}/${r.score.bugs}, should-level warned ${r.score.warned}/${r.score.should}, legal variants clean ${r.score.clean}/${r.score.legal}.`,
    '',
    `Seed ${r.seed}; started ${r.startedAt}; wall time ${(r.wallMs / 1000).toFixed(1)} s; ${r.parallel} run(s) in parallel with ${r.workers} worker(s) each.`,
    '',
    '| mutant | kind | category | result | by requirement IDs | other failing IDs | wall s | description |',
    '|---|---|---|---|---|---|---|---|',
    ...r.results.map((x) =>
      `| ${x.id} | ${x.kind} | ${x.category} | ${ICON[x.outcome]} | ${cell(x.expectedHit.join(', '))} | ${cell(x.failed.filter((f) => !x.expectedHit.includes(f)).join(', '))} | ${(x.wallMs / 1000).toFixed(1)} | ${cell(x.description)}${x.note ? ` *(${cell(x.note)})*` : ''} |`,
    ),
  ];
  return out.join('\n') + '\n';
}

export function writeMutationReport(r: MutationReport): { json: string; md: string } {
  mkdirSync(MUTATION_OUT, { recursive: true });
  const json = join(MUTATION_OUT, 'report.json');
  const md = join(MUTATION_OUT, 'report.md');
  writeFileSync(json, JSON.stringify(r, null, 2));
  writeFileSync(md, renderMarkdown(r));
  return { json, md };
}

function selectMutants(values: { only?: string; category?: string; kind?: string }): Mutant[] {
  const list = (v?: string) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : undefined);
  const only = list(values.only);
  const categories = list(values.category);
  const kinds = list(values.kind);
  for (const id of only ?? []) if (!MUTANTS.some((m) => m.id === id)) throw new Error(`unknown mutant ${id} (npm run mutation -- --list)`);
  const chosen = MUTANTS.filter((m) => (!only || only.includes(m.id)) && (!categories || categories.includes(m.category)) && (!kinds || kinds.includes(kindOf(m))));
  const control = MUTANTS.find((m) => m.id === CONTROL_ID)!;
  return chosen.includes(control) ? chosen : [control, ...chosen];
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: {
      only: { type: 'string' },
      category: { type: 'string' },
      kind: { type: 'string' },
      parallel: { type: 'string', default: '2' },
      workers: { type: 'string', default: '2' },
      seed: { type: 'string' },
      timeout: { type: 'string', default: '240' },
      'max-failures': { type: 'string', default: '6' },
      focus: { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) {
    console.log('usage: npm run mutation -- [--only id,id] [--category c,c] [--kind bug,should,legal] [--parallel N] [--workers N] [--seed N] [--timeout S] [--max-failures N (0 = run in full)] [--focus] [--list] [-- <playwright args>]');
    return 0;
  }
  if (values.list) {
    for (const m of MUTANTS) console.log(`${m.id.padEnd(36)} ${kindOf(m).padEnd(6)} ${m.category.padEnd(16)} ${m.description}`);
    return 0;
  }
  const mutants = selectMutants(values);
  const seed = parseSeed(values.seed) ?? DEFAULT_MUTATION_SEED;
  const opts: MutationOptions = { mutants, seed, parallel: Number(values.parallel), workers: Number(values.workers), timeoutS: Number(values.timeout), maxFailures: Number(values['max-failures']), focus: values.focus, extraArgs: positionals };
  if (!(opts.parallel >= 1) || !(opts.workers >= 1) || !(opts.timeoutS > 0)) throw new Error('--parallel, --workers and --timeout must be positive numbers');
  console.log(`mutation: ${mutants.length} mutants (${mutants.filter((m) => kindOf(m) === 'bug').length} bugs, ${mutants.filter((m) => kindOf(m) === 'should').length} should-level, ${mutants.filter((m) => kindOf(m) === 'legal').length} legal), seed ${seed}, ${opts.parallel} in parallel`);
  const report = await runMutation(opts);
  const paths = writeMutationReport(report);
  console.log('\n' + renderTable(report));
  console.log(`\nreports: ${paths.md.replace(ROOT + '/', '')}, ${paths.json.replace(ROOT + '/', '')} (each run under reports/mutation/runs/<mutant>/)`);
  const control = report.results.find((r) => r.id === CONTROL_ID);
  if (control && control.outcome !== 'clean') {
    console.error(`mutation: the control run (unmodified target behind the proxy) did not pass (${control.outcome}: ${control.failed.join(', ') || control.note}); fix that first — every other result is meaningless`);
    return 2;
  }
  return report.ok ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().then(
    (code) => process.exit(code),
    (err: Error) => {
      console.error(`mutation: ${err.stack ?? err.message}`);
      process.exit(2);
    },
  );
}
