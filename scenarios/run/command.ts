/**
 * `wfcheck conformance` (scripts/conformance.ts parses its command line): its options and --help, the
 * settings read from them, the run (run.ts) against the target, and the verdict printed.
 */
import { CONNECTION_OPTIONS, CONNECTION_USAGE } from '../../core/settings/connection-settings.ts';
import { readConformanceSettings } from '../../core/settings/run-config.ts';
import { WORK_DIR } from '../../core/settings/roots.ts';
import { type OptionValues, splitAtTerminator, usageText } from '../../core/settings/command.ts';
import { SettingError } from '../../core/settings/rules.ts';
import type { ReferenceBooter } from '../../core/settings/target.ts';
import { conformanceConsole } from '../report/index.ts';
import { runConformanceSuite, type RunLog } from './conformance-run.ts';

export const CONFORMANCE_OPTIONS = {
  seed: { type: 'string' },
  waivers: { type: 'string' },
  strict: { type: 'boolean' },
  timeout: { type: 'string' },
  'request-timeout': { type: 'string' },
  workers: { type: 'string' },
  grep: { type: 'string' },
  out: { type: 'string' },
  shard: { type: 'string' },
  name: { type: 'string' },
  'target-version': { type: 'string' },
  ...CONNECTION_OPTIONS,
  help: { type: 'boolean', short: 'h' },
} as const;

/** The --help of `wfcheck conformance`, in the form the user started it. */
export function conformanceUsage(): string {
  return usageText(`usage: wfcheck conformance [options] [-- <extra playwright args>]

options (env equivalent in brackets):
  --seed <n>          replay a run with this seed [SEED]; default: a fresh seed, printed
  --waivers <file>    YAML file of known deviations [WFCHECK_WAIVERS]
  --strict            should-level warnings become failures [WFCHECK_STRICT=1]
  --timeout <s>       per-run deadline in seconds, default 300 [WFCHECK_RUN_TIMEOUT_S]
  --request-timeout <ms>  per-request deadline, default 10000 [WFCHECK_REQUEST_TIMEOUT_MS]
  --workers <n>       parallel workers, default 4 [WFCHECK_WORKERS]
  --grep <regex>      only tests whose title matches (e.g. a requirement ID)
  --out <dir>         where every output goes, default reports/conformance [WFCHECK_OUT_DIR]
  --shard <i/n>       run shard i of n; merge the shards with wfcheck report merge
  --name <label>      record the run under this implementation (a column of wfcheck matrix)
                      [WFCHECK_TARGET_NAME]
  --target-version <v>  the implementation's version, recorded with the run [WFCHECK_TARGET_VERSION]
  -h, --help          this text

target: BASE_URL (ends in /v1) and API_KEY select an implementation; API_KEY_B enables
isolation tests. Without BASE_URL the reference target is booted (TARGET_SEED_FILE: its seed file).
outputs, in --out (default reports/conformance): report.md, report.html, report.json, report.junit.xml,
html/ (Playwright), junit.xml, runs/<run id>/ (evidence, bodies); one run at a time per folder, and
only what the folder's wfcheck-manifest.json names is cleared (a folder holding your own files there
gets the run in its subfolder wfcheck-conformance/); the run history in WFCHECK_HISTORY (default
reports/history.sqlite), the discovery memory in WFCHECK_CACHE_DIR (default reports/cache).

${CONNECTION_USAGE}`);
}

const log: RunLog = {
  info: (line) => console.log(`conformance: ${line}`),
  error: (line) => console.error(`conformance: ${line}`),
};

/**
 * The run of the command line (`values`, and `tokens` for what follows `--`: Playwright's arguments);
 * the exit code (0 no unwaived failure, 1 failures, 2 incomplete).
 */
export async function runConformanceCommand(
  values: OptionValues<typeof CONFORMANCE_OPTIONS>,
  tokens: Parameters<typeof splitAtTerminator>[0],
  booter: ReferenceBooter | undefined,
): Promise<number> {
  const { own, passed } = splitAtTerminator(tokens);
  if (own.length > 0) throw new SettingError(`unknown option ${own[0]}`);
  // A shard (i/n) runs every n-th test and writes a blob report for `wfcheck report merge`.
  const settings = readConformanceSettings(values, values.shard ? [`--shard=${values.shard}`, ...passed] : passed);

  const { report, paths, scrubbed } = await runConformanceSuite(settings, log, booter);
  if (scrubbed.length) log.error(`removed API keys found in ${scrubbed.length} artifact(s): ${scrubbed.join(', ')}`);
  // Outputs under the directory the command was started in are named from there.
  const rel = (p: string) => p.replace(`${WORK_DIR}/`, '');
  console.log(conformanceConsole(report, Object.fromEntries(Object.entries(paths).map(([k, v]) => [k, rel(v)]))));
  if (report.waivers.problems.length) console.log(`  waiver file problems: ${report.waivers.problems.join('; ')}`);
  return report.exitCode;
}
