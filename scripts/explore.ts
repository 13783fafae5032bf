/**
 * usage: wfcheck explore [--seed N] [--budget-s S (default 60)] [--requests N (per operation, default 160)]
 *     [--only op,op] [--max-executions N (default 30)] [--max-canvases N (default 12)] [--out DIR]
 *     [--name LABEL [--target-version V]]
 *
 * The generative mode (explore/) against a target: inputs of every shape the contract allows, and
 * separately those it forbids, per operation; each distinct failure shrunk to a minimal request and
 * reported once, with its clause, seed, fast-check path and a curl reproducer.
 *
 * The target: BASE_URL (ends in /v1) + API_KEY; without BASE_URL the reference target is booted.
 * --only takes operation ids (searchWorkflows) or their clause prefixes (SEARCH).
 * --name (WFCHECK_TARGET_NAME) records the run under that implementation, with --target-version
 * (WFCHECK_TARGET_VERSION) when given: several implementations can share one history.
 * Generate overwrites a canvas only where WFCHECK_ALLOW_OVERWRITE allows it (on the reference target
 * by default): WFCHECK_OVERWRITE_CANVAS_ID, else one canvas it creates for the purpose.
 * --out DIR (default reports/explore): report.json, report.md and the job summary summary.md, and bodies/
 * for long reproducer bodies.
 * Records the run in the run history (WFCHECK_HISTORY, default reports/history.sqlite): each finding is
 * new or seen before on this target, and the previous run's findings no longer found are listed;
 * wfcheck history --explore reads it back.
 * Exit: 0 clean; 1 findings; 2 incomplete (time budget spent, target unreachable) or could not start.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CONNECTION_USAGE } from '../core/settings/connection-settings.ts';
import { runCommand, usageFromSource } from '../core/settings/command.ts';
import { BootError } from '../core/settings/target.ts';
import { referenceBooter } from '../fixtures/reference/boot/booter.ts';
import { runExploreCommand } from '../explore/explore-run.ts';
import { EXPLORE_OPTIONS } from '../explore/settings.ts';

const USAGE = `${usageFromSource(readFileSync(new URL(import.meta.url), 'utf8'))}

${CONNECTION_USAGE}`;

function main(): number | Promise<number> {
  const { values } = parseArgs({ options: EXPLORE_OPTIONS, strict: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  return runExploreCommand(values, referenceBooter);
}

runCommand('explore', main, {
  usage: USAGE,
  failure: (err) => `explore: ${err instanceof BootError ? err.message : (err.stack ?? String(err))}`,
});
