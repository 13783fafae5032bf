/**
 * `wfcheck conformance` (`npm run conformance` in a clone): runs the conformance suites (scenarios/)
 * against a target and writes a verdict for people and CI (its options and the run itself:
 * scenarios/run/command.ts, run.ts).
 *
 * - Without BASE_URL the reference target is booted hermetically (container when a Docker engine
 *   is reachable, else a local process) and its two tenants' keys are used.
 * - With BASE_URL + API_KEY (+ optional API_KEY_B) any implementation is checked.
 *
 * Outputs (--out <dir>, default reports/conformance/): report.json, report.md, report.html,
 * report.junit.xml, the job summary (summary.md),
 * Playwright HTML (html/), JUnit (junit.xml), Playwright JSON (playwright.json), and the run's own
 * place runs/<run id>/: evidence/*.jsonl, request bodies (bodies/) and Playwright's output dir
 * (test-results/). The folder is the run's while it goes (a second run into it is refused), a later
 * run clears only what its manifest (wfcheck-manifest.json) names, and a folder holding files wfcheck
 * did not write where the run writes gets the run in its subfolder wfcheck-conformance/.
 * Exit code: 0 = no unwaived failure; 1 = unwaived failures; 2 = the run was
 * incomplete (deadline hit, runner crashed, nothing ran, target unreachable) or could not start.
 */
import { parseArgs } from 'node:util';
import { runCommand } from '../core/settings/command.ts';
import { BootError } from '../core/settings/target.ts';
import { referenceBooter } from '../fixtures/reference/boot/booter.ts';
import { CONFORMANCE_OPTIONS, conformanceUsage, runConformanceCommand } from '../scenarios/run/command.ts';

const USAGE = conformanceUsage();

async function main(): Promise<number> {
  const { values, tokens } = parseArgs({ options: CONFORMANCE_OPTIONS, allowPositionals: true, tokens: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  return runConformanceCommand(values, tokens, referenceBooter);
}

// A target that cannot boot is named by its message; anything else is unexpected and shown with its stack.
runCommand('conformance', main, {
  usage: USAGE,
  failure: (err) => `conformance: ${err instanceof BootError ? err.message : (err.stack ?? String(err))}`,
});
