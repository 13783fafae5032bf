/** `npm run target:image`: builds (or reuses) the reference target's container image. */
import { printedHelp, runCommand } from '../foundation/environment/command.ts';
import { ensureTargetImage } from '../target/boot/image.ts';

const USAGE = 'usage: npm run target:image   (builds the reference target image, or reuses it when it is current)';

async function main(): Promise<number | undefined> {
  if (printedHelp(USAGE)) return 0;
  const { tag, built } = await ensureTargetImage({ log: (line) => console.log(line) });
  console.log(`${built ? 'built' : 'reused'} ${tag}`);
}

runCommand('target:image', main, { usage: USAGE, failure: (err) => err.message, failureCode: 1 });
