/**
 * usage: wfcheck load [--profile NAME]
 *     [--scenarios lifecycle,generate,readMix,uploads,statusRead] [--duration 30s] [--vus-scale N]
 *     [--seed N] [--out DIR | --run NAME] [--no-dashboard] [--contract-sample 0..1]
 *     [--contract-mode vu|offload] [--baseline FILE [--tolerance PCT]] [--save-baseline FILE]
 *     [--prepare-only] [--k6-archive]
 *
 * Runs the k6 load suite against a target and gates on the SLOs.
 *
 * --out DIR is the run's folder (default reports/load/<run>, <run> being --run NAME or the time and
 * the profile): report.txt, report.json, report.junit.xml, dashboard.html, violations.ndjson, k6.log,
 * the seeded data, and trend.html (this target's last runs, from the run history WFCHECK_HISTORY).
 * The folder is the run's alone while it goes: a second run into it is refused, and one holding files
 * wfcheck did not write gets the run in its subfolder wfcheck-load/. A later run clears only what the
 * folder's manifest (wfcheck-manifest.json) names.
 * --prepare-only writes the seeded data there and prints its path; --k6-archive packs script, modules
 * and seeded data into one k6 archive there (wfcheck-load.tar) for load/k8s/testrun.yaml.
 * --contract-mode offload (the default) checks the responses in this Node process instead of k6's VUs
 * (handed over in batches; every response still checked, the gate judged on the result); vu checks them
 * inside k6, slower per response, as distributed and Kubernetes runs do (no Node process beside them).
 *
 * Target: BASE_URL + API_KEY from the environment, else the reference target (booted as for
 * wfcheck conformance). Settings also from the environment: PROFILE, SCENARIOS, DURATION, VUS_SCALE,
 * SEED, the gates' SLO_* (load/README.md).
 * Exit: 0 all gates met; 1 a gate breached (or a regression against the
 * baseline); 2 the run could not be carried out.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { referenceBooter } from '../fixtures/reference/boot/booter.ts';
import { runLoad } from '../load/node/load-run.ts';
import { LOAD_OPTIONS, loadUsage } from '../load/node/run-options.ts';

const USAGE = loadUsage(usageFromSource(readFileSync(new URL(import.meta.url), 'utf8')));

async function main(): Promise<number> {
  const { values } = parseArgs({ options: LOAD_OPTIONS, strict: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  return runLoad(values, referenceBooter);
}

runCommand('load', main, { usage: USAGE, failure: (err) => `load run failed: ${err.message}` });
