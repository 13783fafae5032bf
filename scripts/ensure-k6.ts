/** Provides the pinned k6 (built from its Go module when absent) and prints its path; used by CI's setup. */
import { printedHelp, runCommand } from '../core/settings/command.ts';
import { ensureK6 } from '../load/node/ensure-k6.ts';

const USAGE = 'usage: npx tsx scripts/ensure-k6.ts   (prints the path of the k6 binary; K6_BIN names one explicitly)';

async function main(): Promise<number | undefined> {
  if (printedHelp(USAGE)) return 0;
  console.log(await ensureK6());
}

runCommand('ensure-k6', main, { usage: USAGE, failure: (err) => err.message, failureCode: 1 });
