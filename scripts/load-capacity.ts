/**
 * usage: wfcheck load capacity [--budget 7m] [--precision PCT] [--start-rate N] [--max-rate N]
 *     [--profile NAME] [--reads-per-lifecycle N] [--instances N] [--ceiling REQ_PER_S|off]
 *     [--name LABEL [--target-version V]] [--baseline FILE [--tolerance PCT]] [--save-baseline FILE]
 *     [--seed N] [--out DIR | --run NAME] [--k6-archive --rate N [--hold 5m]]
 *
 * Finds the highest arrival rate of the workflow lifecycle (run → poll → output, with the file and abort
 * shares of the load profile --profile, default average), the read mix at --reads-per-lifecycle reads per
 * lifecycle (default 2), at which every gate of a load run holds (failed requests, p95/p99 per operation,
 * contract violations 0, workflow completion; load/k6/lib/thresholds.ts): a coarse ramp of arrival rates
 * stopped at its first break brackets the knee, bisection narrows it to --precision (default 5 %) with
 * steps long enough to be steady (their warm-up left out of their figures), and a longer step at the rate
 * found confirms it — all within --budget (default 7m: a cold search on 2 cores converges within it).
 * Each step is printed as it ends. A search that could not narrow and confirm within its budget says so
 * ("capacity: not found — the search did not converge: …") and gives no rate as the capacity.
 *
 * It prints "capacity: N lifecycles/s (M requests/s) with every gate held; first gate to break above it:
 * …", and the generator's own ceiling on this machine (a bare k6 loop for 5 s, or --ceiling): a capacity
 * near it may be the generator's limit, not the target's. --instances N runs every step as N execution
 * segments (as wfcheck load distributed) judged on their merged samples: a capacity beyond one generator.
 *
 * --out DIR is the search's folder (default reports/load/<run>, <run> being --run NAME or the time and
 * `capacity`): report.txt, report.json, report.junit.xml, report.html (latency and errors against the
 * offered rate, gates and knee drawn), wfcheck-capacity.tar and capacity-testrun.yaml (the capacity entry
 * holding the rate found for --hold, default 5m, and the k6-operator manifest that runs it: load/k8s),
 * steps/ (each k6 process's log and figures). The folder is the search's alone while it goes, as for
 * wfcheck load (a second run into it is refused; one holding files wfcheck did not write gets the search
 * in its subfolder wfcheck-capacity/). The search is recorded in the run history under --name and
 * --target-version when given. --baseline FILE (a search's report.json) fails the run when the capacity
 * fell by more than --tolerance (default 10 %). --k6-archive --rate N packs the capacity entry holding N
 * lifecycles/s for load/k8s/capacity-testrun.yaml without searching.
 *
 * Target: BASE_URL + API_KEY, else the reference target (booted as for wfcheck conformance).
 * Exit: 0 a capacity was found (and held against the baseline); 1 none held, or it fell below the
 * baseline; 2 incomplete: the search could not be carried out, or did not converge within its budget.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { CONNECTION_USAGE } from '../core/settings/connection-settings.ts';
import { referenceBooter } from '../fixtures/reference/boot/booter.ts';
import { CAPACITY_OPTIONS, runCapacityCommand } from '../load/capacity/node/command.ts';

const USAGE = `${usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'))}

${CONNECTION_USAGE}`;

async function main(): Promise<number> {
  const { values } = parseArgs({ options: CAPACITY_OPTIONS, strict: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  return runCapacityCommand(values, referenceBooter);
}

runCommand('load capacity', main, { usage: USAGE, failure: (err) => `capacity search failed: ${err.message}` });
