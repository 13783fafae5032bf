/** `wfcheck target image` (`npm run target:image` in a clone): builds (or reuses) the reference target's container image. */
import { printedHelp, runCommand, usageText } from '../core/settings/command.ts';
import { ensureTargetImage } from '../fixtures/reference/boot/image.ts';

const USAGE = usageText(
  'usage: wfcheck target image   (builds the reference target image, or reuses it when it is current)\n\n' +
    'It writes no file (the image goes to the Docker engine): --out does not apply.',
);

async function main(): Promise<number | undefined> {
  if (printedHelp(USAGE, { command: 'target image', does: 'it builds an image in the Docker engine' })) return 0;
  const { tag, built } = await ensureTargetImage({ log: (line) => console.log(line) });
  console.log(`${built ? 'built' : 'reused'} ${tag}`);
}

runCommand('target image', main, { usage: USAGE, failure: (err) => err.message, failureCode: 1 });
