/**
 * Running the table: each entry against a fresh reference target behind the mutating proxy, the
 * conformance run as a user would run it against a third-party target (and, for the entries in scope,
 * the generative mode), two or more at a time, the control first; and choosing the entries to run.
 */
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { kindOf, probesOf, type Mutant } from '../../fixtures/faults/catalogue.ts';
import { INPUT_ENTRIES } from '../../fixtures/faults/input-crashes.ts';
import { startMutatingProxy } from '../../fixtures/faults/proxy.ts';
import { startTarget } from '../../fixtures/reference/server.ts';
import { REFERENCE_BEHIND_PROXY_ENV, runConformance, scratchOutDir } from '../conformance-run.ts';
import { exploreBehind } from '../explore-behind.ts';
import {
  expectedFindingsOf,
  exploreSeen,
  findingsCounted,
  findingsSeen,
  judgeEntry,
  readVerdicts,
  score,
  withExplore,
  type Judgement,
} from './judge.ts';
import { progressLine } from './render.ts';
import {
  CONTROL_ID,
  ENTRIES,
  GOOD_OUTCOME,
  MUTATION_OUT,
  type ExploreScope,
  type ExploreSeen,
  type MutantResult,
  type MutationOptions,
  type MutationReport,
} from './types.ts';

/** Playwright --grep for tests citing any of the clauses (`*` patterns allowed). */
export function grepFor(ids: readonly string[]): string {
  return ids.map((id) => `\\[${id.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[A-Z0-9-]*')}\\]`).join('|');
}

async function runOne(m: Mutant, slot: number, o: MutationOptions, focusIds?: string[]): Promise<MutantResult> {
  const target = await startTarget({});
  const [a, b] = target.tenants;
  const proxy = await startMutatingProxy(target.baseUrl, { A: a.apiKey, B: b?.apiKey }, m);
  const runDir = join(MUTATION_OUT, 'runs', m.id);
  // Only this mutant's previous run is cleared: another mutation run may be keeping its own runs here.
  if (o.keepRuns !== false) rmSync(runDir, { recursive: true, force: true });
  // Each run writes into its own scratch dir (parallel runs share no path); the verdict is kept below.
  const outDir = scratchOutDir(`mutation-${process.pid}-${slot}`);
  // A run cut short would leave the suites `stillRuns` names unrun by the cut itself.
  const cut = kindOf(m) === 'bug' && o.maxFailures > 0 && !m.stillRuns;
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
        ...(cut ? [`--max-failures=${o.maxFailures}`] : []),
        ...(o.extraArgs ?? []),
      ],
      // A request deadline well under the default keeps the harness-limit entry (latency) short. The reference
      // target behind the proxy is thrown away after the run, so overwriting a canvas is allowed: without it
      // GENERATE-OVERWRITE-REPLACES is never exercised, and no entry could show its judge killing a bug.
      env: { ...REFERENCE_BEHIND_PROXY_ENV, WFCHECK_REQUEST_TIMEOUT_MS: '5000', WFCHECK_ALLOW_OVERWRITE: '1' },
      logFile: o.keepRuns === false ? undefined : join(runDir, 'conformance.log'),
    });
    if (o.keepRuns !== false && existsSync(run.reportDir)) {
      for (const f of ['report.json', 'report.md'])
        if (existsSync(join(run.reportDir, f))) cpSync(join(run.reportDir, f), join(runDir, f));
    }
    const verdicts = readVerdicts(run.report);
    const judged: Judgement = run.report
      ? judgeEntry(m, verdicts, run.exitCode, run.hung)
      : {
          ...judgeEntry(m, verdicts, run.exitCode, run.hung),
          outcome: 'incomplete',
          note: `no report written (exit ${run.exitCode}): ${run.output.trim().split('\n').slice(-3).join(' | ')}`,
        };
    if (cut && judged.note === undefined)
      judged.note = `run cut after ${o.maxFailures} failed tests: collateral in unfinished tests is not seen`;
    const findings = findingsSeen(run.report);
    const findingsExpected = expectedFindingsOf(m);
    const findingsReported = findings && findingsCounted(m, findings);
    const suites: MutantResult = {
      id: m.id,
      category: m.category,
      kind: kindOf(m),
      description: m.description,
      ...judged,
      failed: verdicts.failed,
      warned: verdicts.warned,
      blocked: verdicts.blocked,
      notRun: verdicts.notRun,
      stillRuns: m.stillRuns ?? [],
      stillRunsMissing: judged.stillRunsMissing,
      findingsExpected,
      ...(findingsReported === undefined ? {} : { findingsReported }),
      exact: findingsReported === findingsExpected && judged.collateral.length === 0,
      findings: findings ?? [],
      exitCode: run.exitCode,
      wallMs: run.wallMs,
      hung: run.hung,
      testsRun: run.report?.summary.tests.total ?? 0,
      proxyRequests: proxy.requests(),
      proxyErrors: proxy.errors().slice(0, 5),
    };
    return explores(m, o.explore ?? 'inputs') ? withExplore(suites, await exploreEntry(m, o.seed)) : suites;
  } finally {
    await proxy.close();
    await target.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** Whether the generative mode runs against the entry as well as the suites. */
export function explores(m: Mutant, scope: ExploreScope): boolean {
  if (scope === 'all') return true;
  return scope === 'inputs' && (m.id === CONTROL_ID || INPUT_ENTRIES.includes(m) || m.explored === true);
}

/** The generative mode against a fresh target behind the entry, with the defaults a nightly run gets. */
async function exploreEntry(m: Mutant, seed: number): Promise<ExploreSeen> {
  const { report, proxyRequests } = await exploreBehind(m.id === CONTROL_ID ? undefined : m, seed);
  return exploreSeen(m, report, proxyRequests);
}

/** Runs the given mutants (the control first when it is among them) and returns the report. */
export async function runMutation(o: MutationOptions): Promise<MutationReport> {
  const log = o.log ?? ((l: string) => console.log(l));
  const started = Date.now();
  const slots = Array.from({ length: Math.max(1, Math.min(o.parallel, o.mutants.length)) }, (_, i) => i);
  const queue = [...o.mutants].sort((x, y) => (x.id === CONTROL_ID ? -1 : y.id === CONTROL_ID ? 1 : 0));
  const results: MutantResult[] = [];
  // An entry that must not starve other suites runs in full, and so does the control it is compared with.
  const anyFull = o.mutants.some((x) => x.id !== CONTROL_ID && x.stillRuns);
  const focusOf = (m: Mutant): string[] | undefined => {
    if (!o.focus || m.stillRuns) return undefined;
    if (m.id !== CONTROL_ID) return probesOf(m);
    return anyFull ? undefined : [...new Set(o.mutants.flatMap((x) => (x.id === CONTROL_ID ? [] : probesOf(x))))];
  };
  const worker = async (slot: number) => {
    for (let m = queue.shift(); m; m = queue.shift()) {
      const focusIds = focusOf(m);
      const r = await runOne(m, slot, o, focusIds);
      results.push(r);
      log(progressLine(r, results.length, o.mutants.length));
    }
  };
  await Promise.all(slots.map(worker));
  const order = new Map(o.mutants.map((m, i) => [m.id, i]));
  results.sort((x, y) => order.get(x.id)! - order.get(y.id)!);
  return {
    seed: o.seed,
    startedAt: new Date(started).toISOString(),
    wallMs: Date.now() - started,
    parallel: slots.length,
    workers: o.workers,
    maxFailures: o.maxFailures,
    focus: o.focus ?? false,
    explore: o.explore ?? 'inputs',
    results,
    score: score(results),
    ok: results.every((r) => r.outcome === GOOD_OUTCOME[r.kind] && r.exact),
  };
}

/** The mutants named by id, category and kind (comma-separated lists; unset: all), always with the control. */
export function selectMutants(values: { only?: string; category?: string; kind?: string }): Mutant[] {
  const list = (v?: string) =>
    v
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : undefined;
  const only = list(values.only);
  const categories = list(values.category);
  const kinds = list(values.kind);
  for (const id of only ?? [])
    if (!ENTRIES.some((m) => m.id === id)) throw new Error(`unknown mutant ${id} (npm run mutation -- --list)`);
  const chosen = ENTRIES.filter(
    (m) =>
      (!only || only.includes(m.id)) &&
      (!categories || categories.includes(m.category)) &&
      (!kinds || kinds.includes(kindOf(m))),
  );
  const control = ENTRIES.find((m) => m.id === CONTROL_ID)!;
  return chosen.includes(control) ? chosen : [control, ...chosen];
}
