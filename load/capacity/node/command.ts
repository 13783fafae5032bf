/**
 * `wfcheck load capacity` (scripts/load-capacity.ts parses its command line): the search in its own
 * folder, the target resolved and the generator's ceiling measured first, the report written, recorded in
 * the history and compared with a baseline; or, with --k6-archive, the capacity entry packed for a rate.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { OptionValues } from '../../../core/settings/command.ts';
import { readImplementation } from '../../../core/settings/history-settings.ts';
import { readK6ScriptSettings, readLoadRunSettings } from '../../settings.ts';
import { pathFromWorkDir } from '../../../core/settings/roots.ts';
import { number, positiveInt, SettingError } from '../../../core/settings/rules.ts';
import { describeTarget, type ReferenceBooter, resolveTarget, type Target } from '../../../core/settings/target.ts';
import { targetNamed } from '../../../core/settings/target-settings.ts';
import { CONNECTION_OPTIONS, readConnectionSettings } from '../../../core/settings/connection-settings.ts';
import type { ConnectionFacts } from '../../../core/connection/connection-facts.ts';
import { useConnection } from '../../../core/connection/connection.ts';
import { loadConnection } from '../../node/connection-view.ts';
import { k8sTlsSteps } from '../../node/k6-tls.ts';
import { checkWay } from '../../node/preflight.ts';
import { wireOf } from '../../node/run-k6.ts';
import { type CapacityMeta, type CapacityReport, capacityText, exitCodeOf, headline } from '../report.ts';
import { DEFAULT_BUDGET_S, SEARCH_DEFAULTS, type SearchSettings, stepLengths } from '../search.ts';
import { roundRate } from '../plan.ts';
import { DEFAULT_LIFECYCLE_S, DEFAULT_READS_PER_LIFECYCLE } from '../settings.ts';
import { describeMix, durationSeconds, LOAD_PROFILES, PROFILE_NAMES, type ProfileName } from '../../k6/lib/profiles.ts';
import { sloFromEnv } from '../../k6/lib/thresholds.ts';
import { buildCapacityArchive, type CapacityArchive } from './archive.ts';
import { compareCapacity, DEFAULT_CAPACITY_TOLERANCE, readCapacityBaseline } from './baseline.ts';
import { measureGeneratorCeiling } from './ceiling.ts';
import { lastCapacity, recordCapacityHistory } from './history.ts';
import { buildCapacityReport, CAPACITY_REPORT_FILES, type ReportInput, writeCapacityReport } from './report-files.ts';
import { searchCapacity } from './search.ts';
import { ensureK6 } from '../../node/ensure-k6.ts';
import { prepareRunData } from '../../node/prepare-data.ts';
import { openRunFolder } from '../../node/run-dir.ts';

const rel = pathFromWorkDir;

/** The mix a capacity is measured with by default: the profile of typical production traffic. */
const DEFAULT_MIX: ProfileName = 'average';
/**
 * With a confirmed capacity in the history the ramp starts at this share of it: two ramp steps below the
 * last knee, so that it is bracketed in a few steps and a target that lost capacity still breaks above
 * its first. The search converges to the same figure from there as from a cold start; it only gets there
 * sooner.
 */
const START_SHARE_OF_LAST = 0.25;

/** How long the generator's ceiling is measured: a few seconds give its rate within a few percent. */
const CEILING_SECONDS = 5;

/** The command line of `wfcheck load capacity`. */
export const CAPACITY_OPTIONS = {
  budget: { type: 'string' },
  precision: { type: 'string' },
  'start-rate': { type: 'string' },
  'max-rate': { type: 'string' },
  profile: { type: 'string' },
  'reads-per-lifecycle': { type: 'string' },
  instances: { type: 'string' },
  ceiling: { type: 'string' },
  name: { type: 'string' },
  'target-version': { type: 'string' },
  baseline: { type: 'string' },
  tolerance: { type: 'string' },
  'save-baseline': { type: 'string' },
  seed: { type: 'string' },
  out: { type: 'string' },
  run: { type: 'string' },
  'k6-archive': { type: 'boolean', default: false },
  rate: { type: 'string' },
  hold: { type: 'string' },
  ...CONNECTION_OPTIONS,
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = OptionValues<typeof CAPACITY_OPTIONS>;

/** A duration option in seconds (3m, 90s, 1m30s), refused naming its option. */
function seconds(text: string, option: string): number {
  try {
    return durationSeconds(text);
  } catch {
    throw new SettingError(`${option} must be a duration such as 3m or 90s, got "${text}"`);
  }
}

/** The search's bounds from the command line; every value is refused before anything runs. */
function searchSettings(v: Values): SearchSettings {
  const budgetS = v.budget === undefined ? DEFAULT_BUDGET_S : seconds(v.budget, '--budget');
  return {
    budgetS,
    startRate: number(v['start-rate'], '--start-rate', SEARCH_DEFAULTS.startRate, { positive: true }),
    rampFactor: SEARCH_DEFAULTS.rampFactor,
    // Short budgets (tests) get short steps: a step must still fit several times over.
    ...stepLengths(budgetS),
    precision: number(v.precision, '--precision', SEARCH_DEFAULTS.precision * 100, { positive: true }) / 100,
    maxRate: number(v['max-rate'], '--max-rate', SEARCH_DEFAULTS.maxRate, { positive: true }),
    readsPerLifecycle: number(v['reads-per-lifecycle'], '--reads-per-lifecycle', DEFAULT_READS_PER_LIFECYCLE, {
      min: 0,
    }),
    lifecycleS: DEFAULT_LIFECYCLE_S,
  };
}

/** --ceiling: a rate given, `off`, or measured now (undefined). */
function givenCeiling(text: string | undefined): number | null | undefined {
  if (text === undefined) return undefined;
  if (text === 'off') return null;
  return number(text, '--ceiling', undefined, { positive: true }) ?? null;
}

async function ceilingOf(k6: string, given: number | null | undefined) {
  if (given === null) return { requestsPerS: null, source: 'not measured (--ceiling off)' };
  if (given !== undefined) return { requestsPerS: given, source: 'given by --ceiling' };
  console.error(`measuring the generator's ceiling: a bare k6 loop for ${CEILING_SECONDS}s …`);
  const rps = await measureGeneratorCeiling(k6, CEILING_SECONDS);
  return { requestsPerS: rps, source: `bare k6 loop, ${CEILING_VUS_TEXT}, measured before the search` };
}
const CEILING_VUS_TEXT = '10 VUs';

/** Everything the command line and the environment say, read (and refused) before anything runs. */
function readSettings(v: Values) {
  const settings = readLoadRunSettings(
    { profile: v.profile, seed: v.seed, out: v.out, run: v.run },
    { names: PROFILE_NAMES, fallback: DEFAULT_MIX },
  );
  const tolerance = number(v.tolerance, '--tolerance', DEFAULT_CAPACITY_TOLERANCE * 100, { min: 0 }) / 100;
  const baseline = v.baseline ? readCapacityBaseline(v.baseline) : undefined;
  return {
    settings,
    search: searchSettings(v),
    instances: positiveInt(v.instances, '--instances', 1),
    implementation: readImplementation(v),
    compare: baseline && ((r: CapacityReport) => compareCapacity(baseline, r, v.baseline!, tolerance)),
    ceiling: givenCeiling(v.ceiling),
    holdS: seconds(v.hold ?? '5m', '--hold'),
    slo: sloFromEnv(readK6ScriptSettings()),
    // Every step (and each of its segments) reaches the target the same way.
    connection: useConnection(readConnectionSettings(v)),
  };
}

type Settings = ReturnType<typeof readSettings> & { dir: string };

/** `wfcheck load capacity`: the search into its folder, the reference target booted by `booter` when BASE_URL is unset. */
export async function runCapacityCommand(v: Values, booter: ReferenceBooter): Promise<number> {
  const s = readSettings(v);
  const folder = openRunFolder(s.settings, {
    mode: 'capacity',
    command: 'load capacity',
    name: 'capacity',
    target: targetNamed(s.settings.target),
  });
  try {
    return await searchInto({ ...s, dir: folder.dir }, v, booter);
  } finally {
    folder.finish();
  }
}

/** The search, writing into its folder `c.dir`. */
async function searchInto(c: Settings, v: Values, booter: ReferenceBooter): Promise<number> {
  const dataFile = prepareRunData(c.dir, c.settings.seed);
  const k6 = await ensureK6();
  const archiveOf = { k6, dataFile, seed: c.settings.seed, profile: c.settings.profile, holdS: c.holdS };
  if (v['k6-archive']) {
    for (const line of k8sTlsSteps(c.connection, c.dir)) console.error(line);
    return archive(c.dir, v.rate, archiveOf);
  }
  console.error(`seed ${c.settings.seed}; budget ${c.search.budgetS}s; reports in ${rel(c.dir)}/`);
  const generator = await ceilingOf(k6, c.ceiling);
  const target = await resolveTarget(c.settings.target, booter);
  console.error(describeTarget(target));
  if (v['start-rate'] === undefined) c.search.startRate = startRateFor(target, c.implementation?.name);
  try {
    const way = await checkWay(target.baseUrl, (line) => console.error(line));
    const report = await searchWith(c, { k6, dataFile, target, generator, way });
    const exitCode = exitCodeOf(report);
    const history = recordCapacityHistory(report, target, exitCode, (l) => console.error(`capacity: ${l}`));
    if (report.end === 'incomplete' && c.compare)
      console.error(`capacity: not compared with the baseline ${v.baseline}: the search did not converge`);
    const written = writeCapacityReport(c.dir, report, history);
    if (report.capacity) written.push(packArchive(c.dir, report.capacity.lifecyclesPerS, archiveOf));
    process.stdout.write(capacityText(report));
    console.error(`reports: ${rel(c.dir)}/{${written.join(',')}}`);
    saveBaseline(c.dir, v['save-baseline']);
    if (report.baseline?.regressed) console.error(`capacity fell below the baseline: ${headline(report)}`);
    return exitCode;
  } finally {
    await target.stop();
  }
}

/** The search itself, and its report. */
async function searchWith(
  c: Settings,
  run: { k6: string; dataFile: string; target: Target; generator: ReportInput['ceiling']; way?: ConnectionFacts },
): Promise<CapacityReport> {
  const started = new Date().toISOString();
  const { settings, search: bounds } = c;
  const target = run.target;
  const outcome = await searchCapacity(
    {
      k6: run.k6,
      baseUrl: target.baseUrl,
      apiKey: target.apiKey,
      seed: settings.seed,
      dataFile: run.dataFile,
      dir: c.dir,
      mixProfile: settings.profile,
      // Arrivals pace the read mix: a think time would only hold VUs.
      env: { ...readK6ScriptSettings(), THINK_TIME_S: '0' },
      slo: c.slo,
      instances: c.instances,
      log: (line) => console.error(line),
    },
    bounds,
  );
  const meta: CapacityMeta = {
    startedAt: started,
    wallMs: outcome.wallMs,
    seed: settings.seed,
    baseUrl: target.baseUrl,
    ...(c.implementation ? { name: c.implementation.name, version: c.implementation.version } : {}),
    mixProfile: settings.profile,
    mix: describeMix(LOAD_PROFILES[settings.profile as ProfileName], ['lifecycle']),
    readsPerLifecycle: bounds.readsPerLifecycle,
    budgetS: bounds.budgetS,
    precision: bounds.precision,
    instances: c.instances,
    slo: c.slo,
    ...(run.way ? { connection: loadConnection(run.way, k6Wire(c.dir)) } : {}),
  };
  return buildCapacityReport(
    { meta, steps: outcome.steps, end: outcome.end, ended: outcome.ended, ceiling: run.generator },
    c.compare,
  );
}

/** What k6 spoke to the target, from the line the discovery process printed (steps/00-discover/k6.log). */
function k6Wire(dir: string) {
  try {
    return readFileSync(join(dir, 'steps', '00-discover', 'k6.log'), 'utf8')
      .split('\n')
      .map(wireOf)
      .find((w) => w !== undefined);
  } catch {
    return undefined;
  }
}

/** A quarter of the confirmed capacity last recorded for this implementation or target, else the default. */
function startRateFor(target: Parameters<typeof lastCapacity>[0], name: string | undefined): number {
  const last = lastCapacity(target, name);
  if (last === undefined) return SEARCH_DEFAULTS.startRate;
  const start = Math.max(SEARCH_DEFAULTS.startRate, roundRate(last * START_SHARE_OF_LAST));
  console.error(
    `the ramp starts at ${start}/s, a quarter of the capacity last confirmed (${last}/s); --start-rate sets it`,
  );
  return start;
}

function saveBaseline(dir: string, file: string | undefined): void {
  if (!file) return;
  mkdirSync(dirname(file), { recursive: true });
  copyFileSync(join(dir, CAPACITY_REPORT_FILES[0]!), file);
  console.error(`baseline saved to ${file}`);
}

type ArchiveOf = Omit<CapacityArchive, 'out' | 'rate'>;

/** The capacity entry holding `rate` lifecycles/s, packed into the folder for load/k8s; its file name. */
function packArchive(dir: string, rate: number, o: ArchiveOf): string {
  const file = 'wfcheck-capacity.tar';
  buildCapacityArchive({ ...o, out: join(dir, file), rate });
  return file;
}

/** --k6-archive: the capacity entry holding --rate lifecycles/s, for load/k8s/capacity-testrun.yaml. */
function archive(dir: string, rateText: string | undefined, o: ArchiveOf): number {
  const rate = number(rateText, '--rate', undefined, { positive: true });
  if (rate === undefined) throw new SettingError('--k6-archive needs --rate N: the lifecycles per second to hold');
  const out = join(dir, packArchive(dir, rate, o));
  console.log(out);
  console.error(
    `k6 archive written; next: kubectl create configmap wfcheck-capacity --from-file=wfcheck-capacity.tar=${rel(out)} (see load/k8s/README.md)`,
  );
  return 0;
}
